"""Clutter for big hand-built scenes: unrelated objects, each placed where it fits.

A scene of hundreds or thousands of objects (``benchmarks/run.py simulate --objects 3000``)
needs them somewhere real: furniture stands in rows on the floor of store rooms added in a
row beside the scene's rooms (6 x 5 m each, a walkway between the rows), and small things rest
side by side on the tops of that furniture while they fit, else on the floor too. Nothing
goes on the task's own furniture or floor, so that every situation plays out as it does
without clutter, only in a larger world. Deterministic.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene
>>> den = Scene("s", rooms=(Room("den", "LivingRoom", ((0, 0), (6, 0), (6, 5), (0, 5))),))
>>> scene = add_clutter(den, 40)
>>> len(scene.objects), [room.id for room in scene.rooms]
(40, ['den', 'store_1'])
>>> sorted({obj.parent is None for obj in scene.objects})
[False, True]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject

#: Things a house holds besides a task's objects: (type, size, properties, small: rests on
#: furniture when it can).
CLUTTER: tuple[tuple[str, tuple[float, float, float], tuple[str, ...], bool], ...] = (
    ("FloorLamp", (0.4, 1.6, 0.4), ("toggleable",), False),
    ("Pillow", (0.4, 0.15, 0.4), ("pickupable",), True),
    ("HousePlant", (0.4, 0.8, 0.4), (), False),
    ("RemoteControl", (0.05, 0.03, 0.15), ("pickupable",), True),
    ("ArmChair", (0.9, 0.9, 0.9), ("receptacle",), False),
    ("Vase", (0.15, 0.3, 0.15), ("pickupable", "breakable"), True),
    ("Television", (1.2, 0.7, 0.2), ("toggleable",), False),
    ("GarbageCan", (0.3, 0.4, 0.3), ("receptacle",), False),
    ("Newspaper", (0.3, 0.02, 0.4), ("pickupable",), True),
    ("SideTable", (0.5, 0.6, 0.5), ("receptacle",), False),
    ("Statue", (0.15, 0.3, 0.15), ("pickupable",), True),
    ("Laptop", (0.35, 0.03, 0.25), ("pickupable", "openable", "toggleable"), True),
)
#: A store room's size (metres), the gap between things in a row, the walkway between rows
#: and the margin along the walls.
ROOM_SIZE = (6.0, 5.0)
GAP, WALKWAY, MARGIN = 0.1, 0.6, 0.1
#: Furniture whose top takes small things.
TOPS = ("ArmChair", "SideTable")


@dataclass
class _Top:
    """A piece of furniture's top, filled from its left edge."""

    obj: SceneObject
    used: float = 0.0

    def take(self, size: tuple[float, float, float]) -> tuple[float, float, float] | None:
        """Where something of ``size`` rests on it, if it fits beside what is there."""
        width, height, depth = self.obj.size
        if self.used + size[0] > width or size[2] > depth:
            return None
        x0 = self.obj.position[0] - width / 2 + self.used
        self.used += size[0] + 0.01
        y = self.obj.position[1] + height / 2 + size[1] / 2
        return (x0 + size[0] / 2, y, self.obj.position[2])


@dataclass
class _Floor:
    """Store rooms in a row from ``x0``, filled row by row."""

    x0: float
    rooms: list[Room] = field(default_factory=list)
    x: float = 0.0  # where the next thing goes in the current row (room coordinates)
    z: float = 0.0  # the current row's near side
    depth: float = 0.0  # the current row's depth so far

    def take(self, size: tuple[float, float, float]) -> tuple[str, float, float]:
        """The room and the centre (x, z) of the next spot for a footprint of ``size``."""
        width, room_depth = ROOM_SIZE
        if not self.rooms or self.x + size[0] > width - MARGIN:
            self.x, self.z = MARGIN, self.z + self.depth + WALKWAY if self.rooms else MARGIN
            self.depth = 0.0
        if not self.rooms or self.z + size[2] > room_depth - MARGIN:
            self._open_room()
        room = self.rooms[-1]
        cx = room.bounds[0] + self.x + size[0] / 2
        cz = self.z + size[2] / 2
        self.x += size[0] + GAP
        self.depth = max(self.depth, size[2])
        return room.id, cx, cz

    def _open_room(self) -> None:
        x = self.x0 + len(self.rooms) * ROOM_SIZE[0]
        width, depth = ROOM_SIZE
        polygon = ((x, 0.0), (x + width, 0.0), (x + width, depth), (x, depth))
        self.rooms.append(Room(f"store_{len(self.rooms) + 1}", "LivingRoom", polygon))
        self.x, self.z, self.depth = MARGIN, MARGIN, 0.0


def add_clutter(scene: Scene, count: int) -> Scene:
    """``scene`` with ``count`` unrelated objects more (see the module docstring)."""
    floor = _Floor(max((room.bounds[2] for room in scene.rooms), default=0.0))
    tops: list[_Top] = []
    added: list[SceneObject] = []
    for index, (kind, size, properties, small) in zip(range(count), _cycle(), strict=False):
        obj_id = f"{kind.lower()}_{index}"
        found = _on_a_top(tops, size) if small else None
        if found is not None:
            top, spot = found
            added.append(
                SceneObject(
                    obj_id, kind, room=top.obj.room, size=size, position=spot,
                    properties=properties, parent=top.obj.id,
                )
            )  # fmt: skip
            continue
        room, x, z = floor.take(size)
        obj = SceneObject(
            obj_id, kind, room=room, size=size, position=(x, size[1] / 2, z),
            properties=properties,
        )  # fmt: skip
        added.append(obj)
        if kind in TOPS:
            tops.append(_Top(obj))
    rooms = (*scene.rooms, *floor.rooms)
    return replace(scene, rooms=rooms, objects=(*scene.objects, *added))


def _cycle() -> Iterator[tuple[str, tuple[float, float, float], tuple[str, ...], bool]]:
    while True:
        yield from CLUTTER


def _on_a_top(
    tops: list[_Top], size: tuple[float, float, float]
) -> tuple[_Top, tuple[float, float, float]] | None:
    """The first top with room for something of ``size``, and where on it."""
    for top in tops:
        spot = top.take(size)
        if spot is not None:
            return top, spot
    return None
