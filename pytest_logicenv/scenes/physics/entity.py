"""Table 1's entity dimension: each object where it can physically be, and the agent's start.

Every object is supported (on the floor, on its parent's top within its footprint, inside its
parent, or hung with its back on a wall of its room; a part lies within the object it is a part
of), and a parent is a receptacle that takes it; no two objects collide (an object and what
holds it excepted, a part and its whole too); each object lies inside its designated room,
below the ceiling. The openings' clear floor is checked in
:mod:`~pytest_logicenv.scenes.physics.clearance`; the agent starts inside its room, on free
floor, and :mod:`~pytest_logicenv.scenes.physics.reach` checks what it can walk to from there.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> room = Room("r", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> tall = SceneObject("shelf", "Shelf", room="r", size=(1, 3, 1), position=(1, 1.5, 1))
>>> for violation in check_entity(Scene("s", rooms=(room,), objects=(tall,))).violations:
...     print(violation)
[entity] objects[shelf]: reaches 3.000 m, above the 2.50 m ceiling
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.scenes.physics.check_results import Collector, DimensionCheck
from pytest_logicenv.scenes.physics.clearance import check_door_swings, check_window_reveals
from pytest_logicenv.scenes.physics.geometry import TOLERANCE, rect_in_polygon, strictly_inside
from pytest_logicenv.scenes.physics.objects import (
    against_wall,
    ancestors,
    bottom,
    footprint,
    inside_problem,
    rest_level,
    top,
)
from pytest_logicenv.scenes.physics.reach import check_reach
from pytest_logicenv.scenes.scene_model import WALL_HEIGHT, AgentStart, Room, Scene, SceneObject


def check_entity(scene: Scene) -> DimensionCheck:
    """Check each object, then collisions, the openings' clear floor and the agent."""
    out = Collector("entity")
    rooms = {room.id: room for room in scene.rooms}
    by_id = {obj.id: obj for obj in scene.objects}
    wall_height = max((wall.height for wall in scene.walls), default=WALL_HEIGHT)
    for obj in scene.objects:
        _check_object(out, obj, rooms, by_id, wall_height)
    _check_collisions(out, scene.objects, by_id)
    check_door_swings(out, scene)
    check_window_reveals(out, scene)
    if scene.agent is not None:
        _check_agent(out, scene, scene.agent, rooms)
    return out.result()


def _check_object(
    out: Collector,
    obj: SceneObject,
    rooms: dict[str, Room],
    by_id: dict[str, SceneObject],
    wall_height: float,
) -> None:
    """The object's room exists; the object is supported, below the ceiling, in the room."""
    where = f"objects[{obj.id}]"
    room = rooms.get(obj.room)
    if not out.expect(room is not None, where, f"its room {obj.room!r} is not in the scene"):
        return
    assert room is not None
    _check_support(out, obj, room, by_id, wall_height)
    if obj.relation != "wall":  # (a wall-mounted object's height is checked with its wall)
        out.expect(
            top(obj) <= wall_height + TOLERANCE,
            where,
            f"reaches {top(obj):.3f} m, above the {wall_height:.2f} m ceiling",
        )
    out.expect(
        rect_in_polygon(footprint(obj), room.polygon),
        where,
        f"its footprint {footprint(obj)} is not inside room {room.id!r}",
    )


# --------------------------------------------------------------------------- support


def _check_support(
    out: Collector,
    obj: SceneObject,
    room: Room,
    by_id: dict[str, SceneObject],
    wall_height: float,
) -> None:
    """The object hangs on a wall, stands on the floor, rests on or in its parent, or is a
    part of another object."""
    if obj.part_of is not None:
        _check_part(out, obj, by_id)
    elif obj.relation == "wall":
        _check_hung(out, obj, room, wall_height)
    elif obj.parent is None:
        _check_on_floor(out, obj)
    else:
        _check_held(out, obj, obj.parent, by_id)


def _check_hung(out: Collector, obj: SceneObject, room: Room, wall_height: float) -> None:
    where = f"objects[{obj.id}]"
    out.expect(
        obj.parent is None and against_wall(obj, room),
        where,
        f"is wall-mounted but its back is not flush against a wall of {room.id!r} "
        "facing into the room",
    )
    out.expect(
        bottom(obj) >= -TOLERANCE and top(obj) <= wall_height + TOLERANCE,
        where,
        f"hangs from {bottom(obj):.3f} to {top(obj):.3f} m, outside the wall's height",
    )


def _check_on_floor(out: Collector, obj: SceneObject) -> None:
    out.expect(
        obj.relation == "on" and abs(bottom(obj)) <= TOLERANCE,
        f"objects[{obj.id}]",
        f"floats: its bottom is at {bottom(obj):.3f} m, not on the floor (y = 0)"
        if obj.relation == "on"
        else f"relation {obj.relation!r} without a parent",
    )


def _check_part(out: Collector, obj: SceneObject, by_id: dict[str, SceneObject]) -> None:
    """A part is attached: its whole is an object of the scene in its room, and the part lies
    within the whole's footprint, from its bottom up (a faucet may rise above a sink's top)."""
    where = f"objects[{obj.id}]"
    whole = by_id.get(obj.part_of or "")
    if not out.expect(
        whole is not None and obj.part_of not in (obj.id, *ancestors(whole, by_id)),
        where,
        f"a part of {obj.part_of!r}, which is not an object of the scene (or a part of it)",
    ):
        return
    assert whole is not None
    out.expect(
        obj.parent is None and obj.relation == "part",
        where,
        f"a part of {whole.id!r} rests on nothing (relation 'part', no parent)",
    )
    out.expect(
        whole.room == obj.room,
        where,
        f"is in room {obj.room!r} but the {whole.type} it is a part of is in {whole.room!r}",
    )
    inner, outer = footprint(obj), footprint(whole)
    out.expect(
        inner.inside(outer) and bottom(obj) >= bottom(whole) - TOLERANCE,
        where,
        f"is not attached to {whole.id!r}: footprint {inner} vs {outer}, bottom "
        f"{bottom(obj):.3f} m vs {bottom(whole):.3f} m",
    )


def _check_held(
    out: Collector, obj: SceneObject, parent_id: str, by_id: dict[str, SceneObject]
) -> None:
    """The parent exists (and does not hold it in a cycle), shares its room, takes it, and
    it rests on or in the parent."""
    where = f"objects[{obj.id}]"
    parent = by_id.get(parent_id)
    if not out.expect(
        parent is not None and parent_id not in (obj.id, *(ancestors(parent, by_id))),
        where,
        f"its parent {parent_id!r} is not an object of the scene (or holds it in a cycle)",
    ):
        return
    assert parent is not None
    out.expect(
        parent.room == obj.room,
        where,
        f"is in room {obj.room!r} but its parent {parent.id!r} is in {parent.room!r}",
    )
    _check_receptacle(out, obj, parent)
    _check_rests(out, obj, parent, by_id)


def _check_receptacle(out: Collector, obj: SceneObject, parent: SceneObject) -> None:
    where = f"objects[{obj.id}]"
    if out.expect(
        parent.has("receptacle") or parent.has("object_specific_receptacle"),
        where,
        f"rests {obj.relation} {parent.id!r} ({parent.type}), which is not a receptacle",
    ):
        out.expect(
            not parent.accepts or obj.type in parent.accepts,
            where,
            f"{parent.id!r} takes only {', '.join(parent.accepts)}, not {obj.type}",
        )


def _check_rests(
    out: Collector, obj: SceneObject, parent: SceneObject, by_id: dict[str, SceneObject]
) -> None:
    """On: on the parent's top, or on the parts that stand on it under the object (a pot on a
    stove stands on its burners); in: inside it."""
    where = f"objects[{obj.id}]"
    inner, outer = footprint(obj), footprint(parent)
    if obj.relation == "on":
        level = rest_level(obj, parent, by_id)
        out.expect(
            abs(bottom(obj) - level) <= TOLERANCE and inner.inside(outer),
            where,
            f"is not on top of {parent.id!r}: bottom {bottom(obj):.3f} m vs its top "
            f"{level:.3f} m, footprint {inner} vs {outer}",
        )
    elif obj.relation == "in":
        problem = inside_problem(obj, parent)
        out.expect(problem is None, where, f"is not inside {parent.id!r}: {problem}")
    else:
        out.expect(False, where, f"relation {obj.relation!r} to a parent must be 'on' or 'in'")


# --------------------------------------------------------------------------- collisions


def _check_collisions(
    out: Collector, objects: Sequence[SceneObject], by_id: dict[str, SceneObject]
) -> None:
    """No two objects share volume, but an object and what holds it."""
    for i, first in enumerate(objects):
        chain_first = ancestors(first, by_id)
        for second in objects[i + 1 :]:
            if second.id in chain_first or first.id in ancestors(second, by_id):
                continue
            overlap = _overlap(first, second)
            out.expect(
                overlap is None,
                f"objects[{first.id}]",
                f"collides with {second.id!r} (they share {overlap} m)",
            )


def _overlap(first: SceneObject, second: SceneObject) -> str | None:
    """The size of the box two objects share, as text (None when they share none)."""
    a, b = footprint(first), footprint(second)
    sizes = (
        min(a.x1, b.x1) - max(a.x0, b.x0),
        min(top(first), top(second)) - max(bottom(first), bottom(second)),
        min(a.z1, b.z1) - max(a.z0, b.z0),
    )
    if all(s > TOLERANCE for s in sizes):
        return " x ".join(f"{s:.3f}" for s in sizes)
    return None


# --------------------------------------------------------------------------- the agent


def _check_agent(out: Collector, scene: Scene, agent: AgentStart, rooms: dict[str, Room]) -> None:
    """The agent starts inside its room, not inside something standing there, and (if so)
    reaches what the task names."""
    start_room = rooms.get(agent.room)
    if not out.expect(start_room is not None, "agent", f"room {agent.room!r} is not in the scene"):
        return
    assert start_room is not None
    spot = agent.position
    inside = out.expect(
        strictly_inside(start_room.polygon, spot),
        "agent",
        f"starts at {spot}, outside room {start_room.id!r}",
    )
    blocking = [
        o.id
        for o in scene.objects
        if o.room == start_room.id
        and o.parent is None
        and o.relation == "on"
        and footprint(o).holds(spot)
    ]
    free = out.expect(not blocking, "agent", f"starts inside {', '.join(blocking)}")
    if inside and free:
        check_reach(out, scene, spot)
