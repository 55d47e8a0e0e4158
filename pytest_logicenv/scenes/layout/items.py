"""What the solver places: each object of the design (and the agent's start) as an :class:`Item`.

An item knows its size in whole cells (rounded up, so that the cells hold its real box), the
chain of supports it rests on down to the floor or a wall, and its height above the bottom of
that chain's root.

>>> from pytest_logicenv.scenes.scene_model import Room, SceneSpec
>>> spec = SceneSpec(
...     "demo",
...     rooms=(Room("den", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3))),),
...     objects=(
...         SceneObject("desk", "Desk", room="den", size=(1.2, 0.75, 0.6),
...                     properties=("receptacle",)),
...         SceneObject("lamp", "Lamp", parent="desk", size=(0.2, 0.4, 0.2)),
...     ),
... )
>>> lamp = build_items(spec)["lamp"]
>>> lamp.chain, lamp.kind, lamp.w, lamp.bottom
(('desk', 'lamp'), 'on', 20, 0.75)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from pytest_logicenv.scenes.layout.smt import GRID
from pytest_logicenv.scenes.scene_model import AGENT_RADIUS, FINE_GRID, SceneObject, SceneSpec

#: Footprint of the agent's start, kept free of objects (metres).
AGENT_SIZE = 2 * AGENT_RADIUS
AGENT_HEIGHT = 1.8


@dataclass(frozen=True)
class Item:
    """An object (or the agent's start) with what the solver needs to know of it."""

    obj: SceneObject
    kind: str  # floor, wall, on, in, agent
    unit: float  # metres per cell of its position and size: GRID, or FINE_GRID on receptacles
    w: int  # cells along x at rotation 0
    d: int  # cells along z at rotation 0
    chain: tuple[str, ...]  # ids from the root support down to this object
    bottom: float  # metres from the root's bottom to this object's bottom
    order: int
    crown: float  # metres from the root's bottom to the top of it and all it holds

    @property
    def id(self) -> str:
        return self.obj.id

    @property
    def room(self) -> str:
        return self.obj.room

    @property
    def parent(self) -> str | None:
        return self.chain[-2] if len(self.chain) > 1 else None

    @property
    def root(self) -> str:
        return self.chain[0]

    @property
    def height(self) -> float:
        return self.obj.size[1]

    def margin(self, along_x: bool, turned: bool) -> float:
        """Metres between the grid box and the real box on each side, along x or z."""
        spans_w = along_x != turned
        cells = self.w if spans_w else self.d
        real = self.obj.size[0] if spans_w else self.obj.size[2]
        return (cells * self.unit - real) / 2

    @property
    def max_margin(self) -> float:
        """The largest margin between the grid box and the real box, any side, any rotation."""
        return max(
            self.margin(along_x, turned) for along_x in (True, False) for turned in (True, False)
        )

    @property
    def square(self) -> bool:
        """Turning it by 90 degrees changes nothing but where it faces."""
        return self.w == self.d and abs(self.obj.size[0] - self.obj.size[2]) < 1e-9


def cells(metres: float, unit: float) -> int:
    """How many cells of ``unit`` metres hold ``metres`` (at least one)."""
    return max(1, math.ceil(metres / unit - 1e-6))


def build_items(
    spec: SceneSpec,
    raised: Mapping[str, float] | None = None,
    tops: Mapping[str, float] | None = None,
) -> dict[str, Item]:
    """The items of a valid design, in the order the design lists the objects (each after
    what it rests on), then the agent's start. ``raised`` gives, by object, how high (metres
    above its bottom) what goes with it outside the layout reaches (its parts: a faucet on a
    sink); its crown rises to it. ``tops`` gives, by object, how far above its top what
    stands on it rests (on the burners that cover a stove's top)."""
    objects = {obj.id: obj for obj in spec.objects}
    items: dict[str, Item] = {}

    def build(obj: SceneObject) -> Item:
        if obj.id in items:
            return items[obj.id]
        parent = None if obj.parent is None else build(objects[obj.parent])
        lift = 0.0 if parent is None else (tops or {}).get(parent.id, 0.0)
        item = _standing(obj) if parent is None else _resting(obj, parent, lift)
        items[obj.id] = replace(item, order=len(items))
        return items[obj.id]

    for obj in spec.objects:
        build(obj)
    items = _crowned(items, raised or {})
    agent = _agent(spec, items)
    items[agent.id] = agent
    return dict(sorted(items.items(), key=lambda kv: kv[1].order))


def _standing(obj: SceneObject) -> Item:
    """An object on the floor or on a wall."""
    kind = "wall" if obj.relation == "wall" else "floor"
    w, d = cells(obj.size[0], GRID), cells(obj.size[2], GRID)
    return Item(obj, kind, GRID, w, d, (obj.id,), 0.0, 0, obj.size[1])


def _resting(obj: SceneObject, parent: Item, lift: float = 0.0) -> Item:
    """An object on or in ``parent`` (on it: ``lift`` above its top), in its room."""
    bottom = parent.bottom if obj.relation == "in" else parent.bottom + parent.height + lift
    w, d = cells(obj.size[0], FINE_GRID), cells(obj.size[2], FINE_GRID)
    chain = (*parent.chain, obj.id)
    placed = replace(obj, room=parent.room)
    top = bottom + obj.size[1]
    return Item(placed, obj.relation or "on", FINE_GRID, w, d, chain, bottom, 0, top)


def _crowned(items: dict[str, Item], raised: Mapping[str, float]) -> dict[str, Item]:
    """The items with their crowns raised to the top of everything they hold."""
    crowns = {
        item_id: item.bottom + max(item.height, raised.get(item_id, 0.0))
        for item_id, item in items.items()
    }
    for item in items.values():
        for ancestor in item.chain[:-1]:
            crowns[ancestor] = max(crowns[ancestor], crowns[item.id])
    return {item_id: replace(item, crown=crowns[item_id]) for item_id, item in items.items()}


def _agent(spec: SceneSpec, items: dict[str, Item]) -> Item:
    """The agent's start, under an id no object has."""
    agent_room = spec.agent_room or spec.rooms[0].id
    agent = SceneObject(
        "agent", "Agent", room=agent_room, size=(AGENT_SIZE, AGENT_HEIGHT, AGENT_SIZE)
    )
    while agent.id in items:
        agent = replace(agent, id="_" + agent.id)
    side = cells(AGENT_SIZE, GRID)
    return Item(agent, "agent", GRID, side, side, (agent.id,), 0.0, len(items), crown=AGENT_HEIGHT)
