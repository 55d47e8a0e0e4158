"""A design request's materials and objects, added to the draft and checked against it.

Each requested object needs a well-formed name of its own, a catalog type (not a door or a
window), a room of the design, and a support that can hold it (the floor, a wall, or a
receptacle: by id, by role, or another requested object); what rests on a rejected object is
left out with it. Objects an ``absent`` fact forbids, of a type that does not occur in their
room's type (``catalog/rooms.py``), or of a type the task's conditions are about, are rejected
too. Every problem becomes a :class:`Violation`, so that whoever asked can
fix them all in one go.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence

from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.facts import describe, evaluate
from pytest_logicenv.scenes.catalog import STRUCTURAL_TYPES, occurs_in
from pytest_logicenv.scenes.design.design_request import (
    NAME,
    ON_FLOOR,
    ON_WALL,
    EnrichmentObject,
    RoomMaterials,
)
from pytest_logicenv.scenes.design.draft import Draft, DraftObject
from pytest_logicenv.scenes.design.task_consistency import put_on, take_support_room
from pytest_logicenv.vocabulary import a_or_an

Made = dict[str, tuple[DraftObject, EnrichmentObject]]  # name -> object, the item asking


def request_materials(
    draft: Draft, looks: Sequence[RoomMaterials], problems: list[Violation]
) -> None:
    """Record the requested floor and wall materials of each room the request names."""
    for i, look in enumerate(looks):
        where = f"materials[{i}] {look.room}"
        room = draft.find_room(look.room)
        if room is None:
            problems.append(Violation("room", where, draft.no_room(look.room)))
            continue
        for what, name, known in (
            ("floor", look.floor, draft.catalog.floor_materials),
            ("wall", look.wall, draft.catalog.wall_materials),
        ):
            if name and known and name not in known:
                close = difflib.get_close_matches(name, known, n=4, cutoff=0.3)
                hint = f"; the closest: {', '.join(close)}" if close else ""
                problems.append(
                    Violation("material", where, f"unknown {what} material {name!r}{hint}")
                )
        draft.materials[room] = (look.floor, look.wall)


def request_objects(
    draft: Draft, items: Sequence[EnrichmentObject], problems: list[Violation]
) -> set[str]:
    """Add the requested objects with their supports and rooms, and report those that
    break a rule; what rests on a rejected object is left out with it. Returns the names
    left out, so that relations naming them are not reported again."""
    made, where = _made(draft, items, problems)
    candidates = _supported(draft, made, where, problems)
    draft.objects.update(candidates)
    placed = []
    for obj in sorted(candidates.values(), key=lambda o: o.parent is not None):
        cycle = draft.support_cycle(obj)
        problem = (
            "rests on a circle of supports: " + " -> ".join(cycle)
            if cycle is not None
            else take_support_room(draft, obj)
        )
        if problem is not None:
            problems.append(Violation("support", where[obj.id], problem))
        else:
            placed.append(obj)
    problems.extend(_forbidden(draft, placed, where))
    return set(where) - set(candidates)


def _made(
    draft: Draft, items: Sequence[EnrichmentObject], problems: list[Violation]
) -> tuple[Made, dict[str, str]]:
    """The objects of the well-formed items (name, type and room), not yet placed; and
    every well-formed name -> its place in the request."""
    made: Made = {}
    where: dict[str, str] = {}
    for i, item in enumerate(items):
        place = f"objects[{i}] {item.name}"
        name_problem = _name_problem(draft, item.name, where)
        if name_problem is not None:
            problems.append(Violation("name", place, name_problem))
            continue
        where[item.name] = place
        type_problem = _type_problem(draft, item.type)
        if type_problem is not None:
            problems.append(Violation("type", place, type_problem))
            continue
        room = None if item.room is None else draft.find_room(item.room)
        if item.room is not None and room is None:
            problems.append(Violation("room", place, draft.no_room(item.room)))
            continue
        obj_type = draft.catalog.type(item.type)
        obj = DraftObject(item.name, obj_type, None, task=False, room=room)
        obj.states = dict(obj_type.states)
        obj.why["type"] = f"{item.name}: {item.description or item.type}"
        made[item.name] = (obj, item)
    return made, where


def _supported(
    draft: Draft, made: Made, where: Mapping[str, str], problems: list[Violation]
) -> dict[str, DraftObject]:
    """The made objects resting where their items say, but for those that cannot and what
    rests on them."""
    candidates = {name: obj for name, (obj, _) in made.items()}
    for name, (obj, item) in made.items():
        problem = _request_support(draft, obj, item.support, candidates, where)
        if problem is not None:
            problems.append(Violation("support", where[name], problem))
            del candidates[name]
    while True:  # what rests on a rejected object goes with it
        orphans = [
            name
            for name, obj in candidates.items()
            if obj.parent is not None
            and obj.parent not in candidates
            and obj.parent not in draft.objects
        ]
        if not orphans:
            return candidates
        for name in orphans:
            del candidates[name]


def _name_problem(draft: Draft, name: str, taken: Mapping[str, str]) -> str | None:
    if not NAME.match(name):
        return (
            "a name is lower-case letters, digits and underscores, starting with a letter "
            "(it becomes the object's id)"
        )
    if name in taken:
        return f"{name!r} already names {taken[name]}; give each object its own name"
    if draft.named(name) is not None or name in draft.windows:
        return f"{name!r} already names a task object; give the added object its own name"
    return None


def _type_problem(draft: Draft, type_name: str) -> str | None:
    if type_name in STRUCTURAL_TYPES or type_name == "Door":
        return "doors and windows belong to the floor plan; they are not objects to add"
    if not draft.catalog.has(type_name):
        close = draft.catalog.suggestions(type_name)
        hint = f"the closest catalog types: {', '.join(close)}" if close else "none is close"
        return f"unknown object type {type_name!r}; {hint}"
    return None


def _request_support(
    draft: Draft,
    obj: DraftObject,
    support: str,
    made: Mapping[str, DraftObject],
    names: Mapping[str, str],
) -> str | None:
    """Put ``obj`` where ``support`` says; why it cannot be, if it cannot."""
    if support == ON_FLOOR:
        obj.relation = "on"
        if obj.type.on_wall and not obj.type.on_floor:
            return f"{a_or_an(obj.type.name)} hangs on a wall: give it the support {ON_WALL!r}"
        return None
    if support == ON_WALL:
        obj.relation = "wall"
        if not obj.type.on_wall:
            return (
                f"{a_or_an(obj.type.name)} does not hang on a wall: put it on the floor or on "
                "a receptacle"
            )
        return None
    holder = made.get(support) or draft.named(support)
    if holder is None and support in names:
        obj.parent = support  # an object rejected for its own reported problem
        return None
    if holder is None:
        return _not_a_support(draft, obj, support, made)
    if holder is obj:
        return "an object cannot rest on or in itself"
    return put_on(obj, holder)


def _not_a_support(
    draft: Draft, obj: DraftObject, support: str, made: Mapping[str, DraftObject]
) -> str:
    receptacles = sorted(
        o.id
        for o in (*draft.objects.values(), *made.values())
        if o.type.has("receptacle") and o is not obj
    )
    return (
        f"{support!r} is not an object of this scene; a support is {ON_FLOOR!r}, "
        f"{ON_WALL!r} or a receptacle: {', '.join(receptacles)}"
    )


def _forbidden(
    draft: Draft, added: Sequence[DraftObject], where: Mapping[str, str]
) -> list[Violation]:
    """Added objects that an ``absent`` fact forbids, or whose type the task's conditions
    are about (another one would blur which situation the scene shows)."""
    found = []
    scene = draft.provisional()
    others = set(draft.objects) - {obj.id for obj in added}
    for obj in added:
        keep = others | {link.id for link in draft.chain(obj)}
        view = scene.with_objects([o for o in scene.objects if o.id in keep])
        forbidding = [fact for fact in draft.absent if not evaluate(fact, view)]
        if forbidding:
            message = (
                f"the task requires '{describe(forbidding[0])}' in this situation: leave "
                f"the {obj.type.name} out"
            )
            found.append(Violation("absent", where[obj.id], message))
        elif obj.type.name in draft.excluded:
            message = (
                f"the task's conditions are about {obj.type.name} objects (or what stands "
                "in for them): another one would blur which situation this scene shows; "
                "leave it out"
            )
            found.append(Violation("type", where[obj.id], message))
        elif (room_problem := _room_problem(draft, obj)) is not None:
            found.append(Violation("room", where[obj.id], room_problem))
    return found


def _room_problem(draft: Draft, obj: DraftObject) -> str | None:
    """Why an added object may not be in its room: its type does not occur in such rooms."""
    kind = next((k for r, k in draft.rooms if r == obj.room), None)
    if kind is None or occurs_in(obj.type, kind):
        return None
    usual = [f"{r} ({k})" for r, k in draft.rooms if occurs_in(obj.type, k)]
    instead = (
        f"put it in {' or '.join(usual)}, or leave it out"
        if usual
        else "leave it out: no room of this scene is of a type it occurs in"
    )
    return (
        f"{a_or_an(obj.type.name)} does not occur in a {kind} (ProcTHOR's annotations, AI2-THOR's "
        f"scenes: logicenv types {obj.type.name}); {instead}"
    )
