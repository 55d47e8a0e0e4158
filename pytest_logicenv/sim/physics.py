"""What happens by itself after every action: heat, cold and running water, as AI2-THOR's
physics.

Three rules, applied by :func:`settle` after every action that takes effect (so the order in
which a policy switches a faucet on and puts a cup in the sink does not matter):

* **heat**: a heat source that is on (a toaster, a stove burner, a microwave) cooks every
  cookable object on or in it (in it, for one that opens: not what stands on a microwave); an
  object-specific one (a coffee machine that takes mugs) also fills what it holds, as
  AI2-THOR's coffee machine does; and it makes what has a temperature (food) hot.
* **cold**: a cold source (a fridge; one that switches, only while on) makes what has a
  temperature cold, as AI2-THOR reports the food in its fridges ``Cold``. AI2-THOR's
  ``ObjectTemperature`` is Hot, Cold or RoomTemp: here the states ``hot`` and ``cold``, never
  both. What leaves a source keeps its temperature (AI2-THOR lets it return to room
  temperature after some seconds; a run here has no clock but its actions).
* **water**: a faucet that runs pours over its basin (a sink's or a bathtub's): every object
  directly in or on that basin is filled if it can be filled, wet if it can be wet and clean if
  it was dirty (AI2-THOR's ``Fill`` and ``Dirty`` components react to touching running water
  the same way; wetting is our extension). Something the agent *holds* at a running faucet is
  only touched by its water through the ``Fill`` and ``Wet`` actions.

A faucet's basin: with parts, the basins that share the faucet's parent (or are its parent);
without parts, the basins in its room that stand where it stands or near it.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> from pytest_logicenv.sim.world import WorldState
>>> room = Room("kitchen", "Kitchen", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> sink = SceneObject("sink", "Sink", room="kitchen", properties=("receptacle",))
>>> faucet = SceneObject("faucet", "Faucet", room="kitchen", parent="sink",
...                      properties=("toggleable",), states={"toggled": True})
>>> cup = SceneObject("cup", "Cup", room="kitchen", parent="sink", relation="in",
...                   properties=("fillable", "pickupable"))
>>> world = WorldState.from_scene(Scene("s", rooms=(room,), objects=(sink, faucet, cup)))
>>> settle(world); world.objects["cup"].states["filled"]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pytest_logicenv.scenes.catalog.parts import CONTROLS as PART_CONTROLS
from pytest_logicenv.sim.world import BASIN_TYPES, WATER_SOURCE_TYPES, WorldObject, WorldState

#: Controls and what they switch (the catalog's table: the designer keeps them in step too).
CONTROLS: Mapping[str, str] = PART_CONTROLS
#: What :func:`settle` does, as the action table prints it.
PHYSICS_RULES: tuple[str, ...] = (
    "heat: a heat source that is on cooks every cookable object on or in it (in it, if it "
    "opens: a microwave) and makes every object with a temperature hot (extension: food); an "
    "object-specific one (a coffee machine) also fills what it holds",
    "cold: a cold source (a fridge; one that switches, while on) makes every object with a "
    "temperature in it cold (extension: food; what leaves it stays cold)",
    "water: a running faucet (or shower head) fills every fillable object directly in or on "
    "its basin, wets every wettable one (extension) and washes every dirty one (held "
    "objects: only through `Fill` and `Wet`)",
)


@dataclass(frozen=True)
class Settling:
    """One state heat or water sets by itself, on an object with property ``needs`` (""
    for any): what :func:`settle` runs and what checks before any scene read."""

    rule: str
    needs: str
    state: str
    value: bool


#: What heat does to what it holds; an object-specific source (a coffee machine) fills too.
HEAT: tuple[Settling, ...] = (
    Settling("heat", "cookable", "cooked", True),
    Settling("heat", "temperature", "hot", True),
    Settling("heat", "temperature", "cold", False),
)
HEAT_FILL = Settling("heat", "fillable", "filled", True)
#: What running water does to what lies in or on its basin.
WATER: tuple[Settling, ...] = (
    Settling("water", "fillable", "filled", True),
    Settling("water", "wettable", "wet", True),
    Settling("water", "", "dirty", False),
)
#: What a cold source does to what it holds.
COLD: tuple[Settling, ...] = (
    Settling("cold", "temperature", "cold", True),
    Settling("cold", "temperature", "hot", False),
)
#: Every state the physics sets.
SETTLINGS: tuple[Settling, ...] = (*HEAT, HEAT_FILL, *COLD, *WATER)


def settle(world: WorldState) -> None:
    """Apply heat, cold and water to everything they reach."""
    for source in world.having("heat_source"):
        source = world.objects[source.id]  # heating another source may have changed it
        if source.states.get("toggled", False):
            _heat(world, source)
    for source in world.having("cold_source"):
        source = world.objects[source.id]
        if cooling(source):
            for inner in reached(world, source):
                _apply(world, inner, COLD)
    for faucet in running_faucets(world):
        for basin in basins_of(world, faucet):
            for inner in world.children(basin):
                soak(world, inner)


def _heat(world: WorldState, source: WorldObject) -> None:
    rules = (*HEAT, HEAT_FILL) if source.accepts else HEAT
    for inner in reached(world, source):
        _apply(world, inner, rules)


def reached(world: WorldState, source: WorldObject) -> list[WorldObject]:
    """What a source's heat or cold reaches: what is in it (and on or in that) when it opens
    (a microwave, a fridge: not what stands on top), else what is on or in it (a burner)."""
    if not source.has("openable"):
        return list(world.descendants(source))
    inside = world.children(source, "in")
    return [*inside, *(deeper for child in inside for deeper in world.descendants(child))]


def cooling(source: WorldObject) -> bool:
    """Whether a cold source cools now: always, or while on when it switches."""
    return not source.has("toggleable") or source.states.get("toggled", False)


def soak(world: WorldState, obj: WorldObject) -> None:
    """What running water does to ``obj``: fills it, wets it, washes it."""
    _apply(world, obj, WATER)


def _apply(world: WorldState, obj: WorldObject, rules: tuple[Settling, ...]) -> None:
    for rule in rules:
        obj = world.objects[obj.id]  # the one a change before may have replaced
        able = not rule.needs or obj.has(rule.needs)
        if able and obj.states.get(rule.state, False) != rule.value:
            world.set_state(obj, rule.state, rule.value)


def controlled_by(world: WorldState, control: WorldObject) -> list[WorldObject]:
    """The objects a control (a stove knob) switches: the parts of its whole of the type it
    controls, at its ``position`` (all of them when it has none); for a controlled object
    (a burner switched on by hand), its controls: the two stay in step."""
    kind = CONTROLS.get(control.type)
    kinds = {kind} if kind is not None else {k for k, v in CONTROLS.items() if v == control.type}
    if not kinds or control.part_of is None:
        return []
    where = control.attrs.get("position")
    return [
        obj
        for obj in world.parts_of(control.part_of)
        if obj.type in kinds and (where is None or obj.attrs.get("position") in (None, where))
    ]


def water_sources(world: WorldState) -> list[WorldObject]:
    """Every faucet (or shower head) of the world, running or not."""
    return world.of_types(WATER_SOURCE_TYPES)


def running_faucets(world: WorldState) -> list[WorldObject]:
    return [obj for obj in water_sources(world) if obj.states.get("toggled", False)]


def basins_of(world: WorldState, faucet: WorldObject) -> list[WorldObject]:
    """The basins a faucet pours into."""
    basins = world.of_types(BASIN_TYPES)
    if faucet.part_of is not None:
        fixture = faucet.part_of
        return [b for b in basins if b.id == fixture or b.part_of in (fixture, faucet.id)]
    ground = world.ground(faucet)
    return [
        basin
        for basin in basins
        if basin.room == faucet.room
        and (world.ground(basin) is ground or world.near(basin.id, faucet.id))
    ]


def running_water_over(world: WorldState, obj: WorldObject) -> WorldObject | None:
    """The running faucet whose water reaches ``obj`` (in or on its basin, or held by the
    agent standing at the faucet or its basin: at the fixture, not elsewhere along its
    counter), or ``None``."""
    held = obj is world.held()
    for faucet in running_faucets(world):
        basins = basins_of(world, faucet)
        if not held and obj.parent in {basin.id for basin in basins}:
            return faucet
        if held and any(world.reachable(place) for place in (faucet, *basins)):
            return faucet
    return None
