"""Facts to task objects: the rooms and objects a trajectory's facts require, placed as they say.

Facts are read as a designer must: ``exists`` adds (or binds, by role) an object; ``where``
puts it on or in something or in a room; ``absent`` forbids any object that would match it
(checked whenever an object is added); ``near`` becomes a task-critical relation, ``not near``
a ``far`` one. A fact that contradicts an earlier one (one object required in two places, a
towel both dirty and clean) raises a :class:`SceneError` naming both.

>>> from pytest_logicenv.logic.facts import parse_facts
>>> facts = parse_facts([{"or": [{"exists": "Book"}, {"exists": "Toy"}]}], "setting")
>>> [type(fact).__name__ for fact in flatten(facts, random.Random(0))]
['Exists']
>>> room_id("LivingRoom", {"living_room"})
'living_room_2'
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping

from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import (
    FLOOR,
    Absent,
    And,
    Attr,
    Exists,
    Fact,
    Held,
    Not,
    Or,
    Related,
    State,
    Where,
    describe,
    is_type_ref,
)
from pytest_logicenv.scenes.catalog import STATE_PROPERTY
from pytest_logicenv.scenes.design.doors_windows import apply_opening, door_request, window_request
from pytest_logicenv.scenes.design.draft import Draft, DraftObject, NotNear
from pytest_logicenv.scenes.design.part_completion import make_part
from pytest_logicenv.scenes.design.templates import room_type
from pytest_logicenv.scenes.scene_model import PRIORITY_TASK, SpatialRelation
from pytest_logicenv.vocabulary import a_or_an


def flatten(facts: Iterable[Fact], rng: random.Random) -> list[Fact | NotNear]:
    """The facts without ``and`` and ``or`` (one branch, chosen by the seed), negations
    turned positive; what no designed scene can make true is an error."""
    flat: list[Fact | NotNear] = []
    for fact in facts:
        match fact:
            case And(items):
                flat += flatten(items, rng)
            case Or(items):
                flat += flatten([rng.choice(items)], rng)
            case Not(Exists(ref, _, where, attrs, states)):
                flat.append(Absent(ref, where, attrs, states))
            case Not(Absent(ref, where, attrs, states)):
                flat.append(Exists(ref, None, where, attrs, states))
            case Not(Related("near", subject, target)):
                flat.append(NotNear(subject, target))
            case Not(Not(item)):
                flat += flatten([item], rng)
            case Not(item):
                raise SceneError(
                    f"cannot design a scene for 'not ({describe(item)})': state it "
                    "positively (e.g. a state false, or an 'absent' fact)"
                )
            case Held(ref):
                raise SceneError(
                    f"'agent holds {ref}' cannot hold in a designed scene: the agent "
                    "starts with empty hands; put the object somewhere instead"
                )
            case _:
                flat.append(fact)
    return flat


# --------------------------------------------------------------------------- rooms


def make_rooms(draft: Draft) -> None:
    """The plan's rooms, plus those a fact puts something in (one LivingRoom if none)."""
    kinds = [room_type(r) for r in draft.plan.rooms]
    for fact in draft.facts:
        room = getattr(getattr(fact, "where", None), "room", None)
        if room is None or room in kinds:
            continue
        kind = room_type(room)
        if kind not in kinds:
            kinds.append(kind)
            draft.notes.append(f"room {kind} added: a fact puts something there")
    if not kinds:
        kinds = ["LivingRoom"]
        draft.notes.append("the plan names no rooms: designed one LivingRoom")
    taken: set[str] = set()
    draft.rooms = [(room_id(kind, taken), kind) for kind in kinds]


def room_id(room_type_name: str, taken: set[str]) -> str:
    """A new id for a room of a type (``living_room``, ``living_room_2``), added to ``taken``."""
    base = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", room_type_name).lower()
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}_{n}", n + 1
    taken.add(candidate)
    return candidate


# --------------------------------------------------------------------------- objects


def bind_roles(draft: Draft) -> None:
    """Create one object per role an ``exists`` binds, checking it has one type."""
    for fact in draft.facts:
        if isinstance(fact, Exists) and fact.as_ is not None:
            _bind_role(draft, fact, fact.as_)


def _bind_role(draft: Draft, fact: Exists, role: str) -> None:
    text = describe(fact)
    if not is_type_ref(fact.ref):
        raise SceneError(
            f"'{text}': 'as' binds a role to a type; write the type in 'exists' "
            f"(e.g. {{'exists': 'Toy', 'as': '{role}'}})"
        )
    if fact.ref == "Window":
        if role in draft.roles:
            raise SceneError(f"role {role!r} is an object and a Window ('{text}')")
        window_request(draft, role, text)
        return
    if fact.ref == "Door":
        if role in draft.roles or role in draft.windows:
            raise SceneError(f"role {role!r} is an object or a window and a Door ('{text}')")
        door_request(draft, role, text)
        return
    if role in draft.doors:
        raise SceneError(f"role {role!r} is a Door and {a_or_an(fact.ref)} ('{text}')")
    if role in draft.windows:
        raise SceneError(f"role {role!r} is a Window and {a_or_an(fact.ref)} ('{text}')")
    if role in draft.roles:
        existing = draft.objects[draft.roles[role]]
        if existing.type.name != fact.ref:
            raise SceneError(
                f"role {role!r} is {a_or_an(existing.type.name)} ('{existing.why['type']}') and "
                f"{a_or_an(fact.ref)} ('{text}'): one role names one object; use two roles"
            )
        return
    obj = draft.new_object(fact.ref, role, task=True)
    obj.why["type"] = text


def resolve(draft: Draft, ref: str, why: str, room: str | None = None) -> DraftObject:
    """The object a reference names: a bound role, or some object of a type (created
    when none exists yet, preferably in ``room``)."""
    if not is_type_ref(ref):
        if ref in draft.roles:
            return draft.objects[draft.roles[ref]]
        if ref in draft.doors:
            raise SceneError(
                f"'{why}' puts something on or in {ref!r}, a door: doors are openings in a "
                "wall, not receptacles; name a piece of furniture by the door instead"
            )
        if ref in draft.windows:
            raise SceneError(
                f"'{why}' puts something on or in {ref!r}, a window: windows are openings "
                "in a wall, not receptacles; name a sill-side piece of furniture instead"
            )
        raise SceneError(
            f"'{why}' names {ref!r}, but no 'exists' fact binds that role; add one such "
            f'as {{"exists": "SomeType", "as": "{ref}"}} to the setting or realization'
        )
    candidates = [o for o in draft.objects.values() if o.type.name == ref]
    in_room = [o for o in candidates if room is not None and o.room == room]
    if in_room or candidates:
        return (in_room or candidates)[0]
    obj = draft.new_object(ref, None, task=True)
    obj.why["type"] = why
    return obj


def apply_fact(draft: Draft, fact: Fact | NotNear) -> None:
    """Make the draft's objects (and windows and doors) as ``fact`` says."""
    match fact:
        case Exists():
            _apply_exists(draft, fact)
        case Related("near", subject, target):
            _distance(draft, "near", subject, target, describe(fact))
        case Related(relation, subject, target):
            text = describe(fact)
            where = Where(on=target) if relation == "on" else Where(in_=target)
            constrain(draft, resolve(draft, subject, text), where, {}, {}, text)
        case State(ref, states):
            text = describe(fact)
            if ref in draft.windows or ref == "Window":
                role = ref if ref != "Window" else None
                apply_opening(draft, "Window", role, Where(), states, text)
                return
            if ref in draft.doors or ref == "Door":
                role = ref if ref != "Door" else None
                apply_opening(draft, "Door", role, Where(), states, text)
                return
            constrain(draft, resolve(draft, ref, text), Where(), {}, states, text)
        case Attr(ref, attrs):
            text = describe(fact)
            if ref in draft.doors:
                apply_opening(draft, "Door", ref, Where(), {}, text, attrs)
                return
            constrain(draft, resolve(draft, ref, text), Where(), attrs, {}, text)
        case NotNear(subject, target):
            _distance(draft, "far", subject, target, f"not ({subject} near {target})")
        case Absent():
            pass  # checked against every object the design adds


def _apply_exists(draft: Draft, fact: Exists) -> None:
    ref, role, where = fact.ref, fact.as_, fact.where
    text = describe(fact)
    if ref in ("Window", "Door") or (role is not None and role in draft.windows):
        apply_opening(draft, ref, role, where, fact.states, text, fact.attrs)
        return
    if role is not None:
        obj = draft.objects[draft.roles[role]]
    elif not is_type_ref(ref):
        obj = resolve(draft, ref, text)
    else:
        obj = _find_or_make(draft, fact, text)
    constrain(draft, obj, where, fact.attrs, fact.states, text)


def _distance(draft: Draft, kind: str, subject: str, target: str, text: str) -> None:
    first, second = resolve(draft, subject, text), resolve(draft, target, text)
    draft.relations.append(SpatialRelation(kind, first.id, second.id, PRIORITY_TASK, text))


def _find_or_make(draft: Draft, fact: Exists, text: str) -> DraftObject:
    """An anonymous ``exists``: an object already designed may satisfy it."""
    where = fact.where
    for obj in draft.objects.values():
        if obj.type.name != fact.ref:
            continue
        if any(obj.attrs.get(k, v) != v for k, v in fact.attrs.items()):
            continue
        if any(obj.states.get(k, v) != v for k, v in fact.states.items()):
            continue
        if where.on is None and where.in_ is None and where.room is None:
            return obj
        if not obj.placed and where.room is None:
            return obj
    obj = draft.new_object(fact.ref, None, task=True)
    obj.why["type"] = text
    return obj


# --------------------------------------------------------------------------- constraints


def constrain(
    draft: Draft,
    obj: DraftObject,
    where: Where,
    attrs: Mapping[str, str],
    states: Mapping[str, bool],
    text: str,
) -> None:
    """Give ``obj`` the attributes, states, room and support a fact (``text``) requires."""
    for name, value in attrs.items():
        _constrain_attr(obj, name, value, text)
    for name, flag in states.items():
        _constrain_state(draft, obj, name, flag, text)
    if where.room is not None:
        _constrain_room(draft, obj, where.room, text)
    if where.part_of is not None:
        make_part(draft, obj, resolve(draft, where.part_of, text, obj.room), text)
    target_ref = where.on if where.on is not None else where.in_
    if target_ref is not None:
        _constrain_place(draft, obj, "on" if where.on is not None else "in", target_ref, text)


def _constrain_attr(obj: DraftObject, name: str, value: str, text: str) -> None:
    allowed = obj.type.attrs.get(name)
    if allowed and value not in allowed:
        raise SceneError(
            f"'{text}': {a_or_an(obj.type.name)} has {name} in {', '.join(allowed)}, not {value!r}"
        )
    if name in obj.attrs and obj.attrs[name] != value and f"attr:{name}" in obj.why:
        raise SceneError(
            f"{obj.id} cannot have {name}={obj.attrs[name]} "
            f"('{obj.why[f'attr:{name}']}') and {name}={value} ('{text}')"
        )
    obj.attrs[name] = value
    obj.why[f"attr:{name}"] = text


def _constrain_state(draft: Draft, obj: DraftObject, name: str, flag: bool, text: str) -> None:
    needed = STATE_PROPERTY.get(name)
    if needed is not None and not obj.type.has(needed):
        able = sorted(t.name for t in draft.catalog.types.values() if t.has(needed))
        shown = ", ".join(able[:12]) + (f" and {len(able) - 12} more" if len(able) > 12 else "")
        raise SceneError(
            f"'{text}': {a_or_an(obj.type.name)} cannot be {name} (it is not {needed}); types that "
            f"can: {shown} (logicenv types {needed}); pick one, or drop the state"
        )
    if f"state:{name}" in obj.why and obj.states.get(name) != flag:
        raise SceneError(
            f"{obj.id} cannot be {name}={str(obj.states.get(name)).lower()} "
            f"('{obj.why[f'state:{name}']}') and {name}={str(flag).lower()} ('{text}')"
        )
    obj.states[name] = flag
    obj.why[f"state:{name}"] = text


def _constrain_room(draft: Draft, obj: DraftObject, name: str, text: str) -> None:
    room = draft.room_of(name, text)
    if obj.room not in (None, room):
        raise SceneError(
            f"{obj.id} must be in {obj.room} ('{obj.why['room']}') and in {room} ('{text}')"
        )
    obj.room = room
    obj.why["room"] = text


def _constrain_place(
    draft: Draft, obj: DraftObject, relation: str, target_ref: str, text: str
) -> None:
    if target_ref in (FLOOR, "floor"):
        if relation == "in":
            raise SceneError(f"'{text}': things are on the Floor, not in it")
        parent = None
    else:
        parent_obj = resolve(draft, target_ref, text, obj.room)
        if parent_obj is obj:
            raise SceneError(f"'{text}': an object cannot rest on or in itself")
        parent = parent_obj.id
    if obj.part_of is not None:
        raise SceneError(
            f"{obj.id} is a part of {obj.part_of} ('{obj.why['place']}') and must be "
            f"{relation} {target_ref} ('{text}'): a part is where its whole is; drop the "
            f"'{relation}'"
        )
    if obj.placed and (obj.parent, obj.relation) != (parent, relation):
        here = "the Floor" if obj.parent is None else obj.parent
        there = "the Floor" if parent is None else parent
        raise SceneError(
            f"{obj.id} is required {obj.relation} {here} ('{obj.why['place']}') and "
            f"{relation} {there} ('{text}'): one object cannot be in two places; use two "
            "roles, or fix one of the facts"
        )
    obj.parent, obj.relation = parent, relation
    obj.why["place"] = text
