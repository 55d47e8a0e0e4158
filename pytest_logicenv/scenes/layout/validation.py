"""Everything wrong with a design that no solver is needed to see.

:func:`design_problems` checks the design as written (rooms, objects and their supports, doors,
windows, the agent's room, relations); :func:`~.fit_checks.fit_problems` then checks sizes
against rooms and supports. Each problem is a :class:`~pytest_logicenv.errors.Violation`, and
:func:`problem_error` words them all in one :class:`~pytest_logicenv.errors.LayoutError`.

>>> from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec
>>> spec = SceneSpec(
...     "demo",
...     rooms=(Room("den", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3))),),
...     objects=(SceneObject("cup", "Cup", parent="shelf"),),
... )
>>> print(problem_error(spec, design_problems(spec, {"den"})))
scene design 'demo': 1 problem
  [support] objects[cup]: parent 'shelf' is not an object of the design
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from pytest_logicenv.errors import LayoutError, Violation, listing
from pytest_logicenv.scenes.layout.contradictions import contradiction_problems
from pytest_logicenv.scenes.layout.relations import UNARY_RELATIONS
from pytest_logicenv.scenes.layout.room_grid import SIDES, polygon_problems, rooms_overlap
from pytest_logicenv.scenes.scene_model import (
    RELATION_KINDS,
    WALL_HEIGHT,
    SceneObject,
    SceneSpec,
    SpatialRelation,
)

Objects = Mapping[str, SceneObject]


def problem_error(spec: SceneSpec, violations: Sequence[Violation]) -> LayoutError:
    """One error listing every problem found in the design."""
    return LayoutError(listing(f"scene design {spec.id!r}", violations))


def design_problems(spec: SceneSpec, room_ids: Collection[str]) -> list[Violation]:
    """Everything wrong with the design that no solver is needed to see; ``room_ids`` are its
    rooms. Bad rooms are reported alone: the other checks need the rooms to be sound."""
    problems = _room_problems(spec)
    if problems:
        return problems
    objects = {obj.id: obj for obj in spec.objects}
    return [
        *_overlap_problems(spec),
        *_object_problems(spec, objects, room_ids),
        *_opening_id_problems(spec),
        *_chain_problems(spec, objects),
        *_door_problems(spec, room_ids),
        *_window_problems(spec, room_ids),
        *_agent_problems(spec, room_ids),
        *_relation_problems(spec, objects),
    ]


# --------------------------------------------------------------------------- rooms


def _room_problems(spec: SceneSpec) -> list[Violation]:
    """Rooms with the same id, bad polygons, no room at all."""
    problems = []
    seen: set[str] = set()
    for room in spec.rooms:
        where = f"rooms[{room.id}]"
        if room.id in seen:
            problems.append(Violation("room", where, "two rooms have this id; give each its own"))
        seen.add(room.id)
        problems += [Violation("room", where, f"polygon {m}") for m in polygon_problems(room)]
    if not spec.rooms:
        problems.append(Violation("room", "rooms", "the design has no room"))
    return problems


def _overlap_problems(spec: SceneSpec) -> list[Violation]:
    return [
        Violation(
            "room",
            f"rooms[{first.id}]",
            f"overlaps room {second.id!r}; rooms may share walls but not floor",
        )
        for i, first in enumerate(spec.rooms)
        for second in spec.rooms[i + 1 :]
        if rooms_overlap(first, second)
    ]


# --------------------------------------------------------------------------- objects


def _object_problems(
    spec: SceneSpec, objects: Objects, room_ids: Collection[str]
) -> list[Violation]:
    """Per object, in order: a duplicate id, then what is wrong with the object itself."""
    problems = []
    taken: set[str] = set()
    for obj in spec.objects:
        if obj.id in taken:
            problems.append(Violation("object", f"objects[{obj.id}]", "two objects have this id"))
        taken.add(obj.id)
        problems += _one_object_problems(obj, objects, room_ids)
    return problems


def _one_object_problems(
    obj: SceneObject, objects: Objects, room_ids: Collection[str]
) -> list[Violation]:
    where = f"objects[{obj.id}]"
    if obj.relation not in ("on", "in", "wall"):
        return [
            Violation("support", where, f"relation {obj.relation!r} must be 'on', 'in' or 'wall'")
        ]
    problems = _support_problems(obj, objects, room_ids)
    if any(v < 0 for v in obj.size) or obj.size[0] <= 0 or obj.size[2] <= 0:
        problems.append(
            Violation("object", where, f"size {obj.size} must be positive along x and z")
        )
    if obj.rotation not in (0, 90, 180, 270):
        problems.append(Violation("object", where, "rotation must be 0, 90, 180 or 270"))
    return problems


def _support_problems(
    obj: SceneObject, objects: Objects, room_ids: Collection[str]
) -> list[Violation]:
    """What is wrong with what the object rests on (or the room it stands in)."""
    where = f"objects[{obj.id}]"
    problems = []
    if obj.relation == "wall" and obj.parent is not None:
        problems.append(
            Violation("support", where, "a wall-mounted object has no parent; set parent=None")
        )
    if obj.relation == "in" and obj.parent is None:
        problems.append(
            Violation("support", where, "'in' needs a parent (the receptacle it is in)")
        )
    if obj.parent is None:
        if obj.room not in room_ids:
            rooms = ", ".join(sorted(room_ids))
            message = f"room {obj.room!r} is not a room of the design (rooms: {rooms})"
            problems.append(Violation("object", where, message))
    elif obj.parent not in objects:
        message = f"parent {obj.parent!r} is not an object of the design"
        problems.append(Violation("support", where, message))
    else:
        problems += _parent_problems(obj, objects[obj.parent])
    return problems


def _parent_problems(obj: SceneObject, parent: SceneObject) -> list[Violation]:
    """The parent must be a receptacle that accepts the object."""
    where = f"objects[{obj.id}]"
    if not (parent.has("receptacle") or parent.has("object_specific_receptacle")):
        message = (
            f"rests {obj.relation} {parent.id!r} ({parent.type}), which is not a "
            "receptacle; put it on a receptacle or give the parent the 'receptacle' "
            "property"
        )
        return [Violation("support", where, message)]
    if parent.accepts and obj.type not in parent.accepts:
        message = f"{parent.id!r} accepts only {', '.join(parent.accepts)}, not {obj.type}"
        return [Violation("support", where, message)]
    return []


def _opening_id_problems(spec: SceneSpec) -> list[Violation]:
    """Doors and windows need ids no object, door or window has already."""
    problems = []
    taken = {obj.id for obj in spec.objects}
    for opening in (*(d.id for d in spec.doors), *(w.id for w in spec.windows)):
        if opening in taken:
            problems.append(Violation("object", f"doors/windows[{opening}]", "id is already used"))
        taken.add(opening)
    return problems


def _chain_problems(spec: SceneSpec, objects: Objects) -> list[Violation]:
    """Support chains: no cycles; what rests on something is in that thing's room."""
    return [problem for obj in spec.objects for problem in _chain_problem(obj, objects)]


def _chain_problem(obj: SceneObject, objects: Objects) -> list[Violation]:
    where = f"objects[{obj.id}]"
    seen = [obj.id]
    current = obj
    while current.parent is not None and current.parent in objects:
        current = objects[current.parent]
        if current.id in seen:
            cycle = " -> ".join([*seen, current.id])
            return [Violation("support", where, f"support cycle {cycle}")]
        seen.append(current.id)
    if obj.parent is not None and obj.room and obj.room != current.room:
        message = (
            f"is in room {obj.room!r} but rests on {current.id!r} in room "
            f"{current.room!r}; leave its room empty or make them match"
        )
        return [Violation("support", where, message)]
    return []


# --------------------------------------------------------------------------- doors, windows


def _door_problems(spec: SceneSpec, room_ids: Collection[str]) -> list[Violation]:
    problems = []
    for door in spec.doors:
        where = f"doors[{door.id}]"
        known = [r for r in door.rooms if r != "exterior"]
        if not 1 <= len(door.rooms) <= 2 or not known:
            message = "rooms must name one or two rooms (or a room and 'exterior')"
            problems.append(Violation("door", where, message))
        problems += [
            Violation("door", where, f"room {room_id!r} is not a room of the design")
            for room_id in known
            if room_id not in room_ids
        ]
        if not 0 < door.height <= WALL_HEIGHT or door.width <= 0:
            message = f"needs 0 < height <= {WALL_HEIGHT} m (the wall) and width > 0"
            problems.append(Violation("door", where, message))
        problems += _pin_problems("door", where, door.side, door.offset)
    return problems


def _pin_problems(kind: str, where: str, side: str | None, offset: float | None) -> list[Violation]:
    """A pinned side must be a compass side, a pinned offset not negative."""
    problems = []
    if side is not None and side not in SIDES:
        message = f"side {side!r} must be one of {', '.join(SIDES)}"
        problems.append(Violation(kind, where, message))
    if offset is not None and offset < 0:
        message = f"offset {offset:g} m must be at least 0 (metres from the wall's start)"
        problems.append(Violation(kind, where, message))
    return problems


def _window_problems(spec: SceneSpec, room_ids: Collection[str]) -> list[Violation]:
    problems = []
    for window in spec.windows:
        where = f"windows[{window.id}]"
        if window.room not in room_ids:
            message = f"room {window.room!r} is not a room of the design"
            problems.append(Violation("window", where, message))
        problems += _pin_problems("window", where, window.side, window.offset)
        if window.sill <= 0 or window.width <= 0 or window.height <= 0:
            message = "needs a sill above the floor (> 0) and a positive size"
            problems.append(Violation("window", where, message))
        elif window.sill + window.height > WALL_HEIGHT:
            top = window.sill + window.height
            message = f"top at {top:.2f} m is above the {WALL_HEIGHT} m wall"
            problems.append(Violation("window", where, message))
    return problems


def _agent_problems(spec: SceneSpec, room_ids: Collection[str]) -> list[Violation]:
    if spec.agent_room and spec.agent_room not in room_ids:
        message = f"room {spec.agent_room!r} is not a room of the design"
        return [Violation("agent", "agent_room", message)]
    return []


# --------------------------------------------------------------------------- relations


def _relation_problems(spec: SceneSpec, objects: Objects) -> list[Violation]:
    openings = {d.id for d in spec.doors} | {w.id for w in spec.windows}
    problems = []
    for index, relation in enumerate(spec.relations):
        where = f"relations[{index}] {relation}"
        found = _relation_form_problems(where, relation, objects, openings)
        subject = objects.get(relation.subject)
        if subject is not None and not found:
            found = _restated_support_problems(where, relation, subject, objects)
        problems += found
    if not problems:
        problems += contradiction_problems(spec, objects)
    return problems


def _relation_form_problems(
    where: str, relation: SpatialRelation, objects: Objects, openings: Collection[str]
) -> list[Violation]:
    """A known kind, with as many objects as it takes, each an object of the design."""
    if relation.kind not in RELATION_KINDS:
        message = f"unknown kind; use one of {', '.join(RELATION_KINDS)}"
        return [Violation("relation", where, message)]
    messages = []
    unary = relation.kind in UNARY_RELATIONS
    if unary and relation.target is not None:
        messages.append(f"{relation.kind} takes one object; drop the target")
    if not unary and relation.target is None:
        messages.append(f"{relation.kind} needs a target object")
    for name in (relation.subject, relation.target):
        if name is not None and name not in objects:
            hint = " (relations name objects, not doors or windows)" if name in openings else ""
            messages.append(f"names {name!r}, which is not an object of the design{hint}")
    if relation.target is not None and relation.target == relation.subject:
        messages.append("relates an object to itself")
    return [Violation("relation", where, message) for message in messages]


def _restated_support_problems(
    where: str, relation: SpatialRelation, subject: SceneObject, objects: Objects
) -> list[Violation]:
    """``in``, ``on_top_of`` and ``mounted_on_wall`` restate the subject's support: they must
    agree with it."""
    if relation.kind in ("in", "on_top_of"):
        return _rest_relation_problems(where, relation, subject, objects)
    if relation.kind == "mounted_on_wall" and subject.relation != "wall":
        message = (
            f"{subject.id!r} rests {subject.relation} "
            f"{subject.parent or 'the floor'} but this relation hangs it on a wall; "
            "set relation='wall' (no parent) or drop the relation"
        )
        return [Violation("contradiction", where, message)]
    return []


def _rest_relation_problems(
    where: str, relation: SpatialRelation, subject: SceneObject, objects: Objects
) -> list[Violation]:
    wanted = "in" if relation.kind == "in" else "on"
    target = objects.get(relation.target or "")
    if (
        target is not None
        and relation.kind == "in"
        and not (target.has("receptacle") or target.has("object_specific_receptacle"))
    ):
        message = f"{target.id!r} ({target.type}) is not a receptacle"
        return [Violation("relation", where, message)]
    if subject.parent == relation.target and subject.relation == wanted:
        return []
    place = (
        "on the floor"
        if subject.parent is None and subject.relation == "on"
        else "on a wall"
        if subject.relation == "wall"
        else f"{subject.relation} {subject.parent!r}"
    )
    message = (
        f"{subject.id!r} rests {place} but this relation puts it {wanted} "
        f"{relation.target!r}; set its parent={relation.target!r}, "
        f"relation={wanted!r} or drop one of the two"
    )
    return [Violation("contradiction", where, message)]
