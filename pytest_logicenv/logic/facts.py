"""The facts language: what a scene must contain, and what must hold when a task is done.

One small JSON language serves four purposes: a factor value's *realization* (the scene facts
that make "the wet wipes are on the table" true), a decision-tree leaf's *goal*, a plan's fixed
*setting* (the sofa and the toy boxes present in every scene), and *coverage* (a condition is
covered when its facts are found true in a scene that was run). One evaluator answers a fact on
anything that implements the small :class:`World` protocol: a generated Scene and the
simulator's world state both do, so "the scene realizes the trajectory" and "the goal holds"
are the same code.

References name objects. A reference that starts with an upper-case letter is an object *type*
(AI2-THOR's vocabulary: ``Sofa``, ``Apple``; ``Floor`` is the floor of the object's room);
any other reference is a *role* (``red_box``), bound by an ``"as"`` in an ``exists`` fact.

>>> fact = parse_fact({"exists": "Toy", "as": "toy", "where": {"on": "Floor"},
...                    "attrs": {"kind": "doll"}})
>>> describe(fact)
'a Toy (toy) on Floor with kind=doll'
>>> to_json(parse_fact({"in": ["toy", "red_box"]}))
{'in': ['toy', 'red_box']}

The forms, each a JSON object:

=============================================================  ================================
``{"exists": T, "as": r, "where": W, "attrs": A, "states": S}``  some object of type/role T
``{"absent": T, "where": W, "attrs": A, "states": S}``         no such object
``{"on": [a, b]}``, ``{"in": [a, b]}``, ``{"near": [a, b]}``     a relation between two objects
``{"held": a}``                                                the agent holds ``a``
``{"state": a, "open": true, ...}``                            ``a`` is in these states
``{"attr": a, "colour": "red", ...}``                          ``a`` has these attributes
``{"and": [...]}``, ``{"or": [...]}``, ``{"not": F}``          logic
=============================================================  ================================

``W`` (where) may hold ``on``, ``in`` (a reference) and ``room`` (a room id or type). States
are booleans named in :data:`STATES`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from pytest_logicenv.errors import FactError

#: The boolean object states the language knows, as the simulator and the scenes store them.
STATES: tuple[str, ...] = (
    "open",
    "toggled",
    "dirty",
    "filled",
    "sliced",
    "cooked",
    "used_up",
    "broken",
)
# Friendly spellings people (and LLMs) write, mapped to the canonical state name.
STATE_ALIASES: Mapping[str, str] = {
    "on": "toggled",
    "is_on": "toggled",
    "isOn": "toggled",
    "toggled_on": "toggled",
    "isOpen": "open",
    "isDirty": "dirty",
    "usedUp": "used_up",
}
#: The reference that means "the floor of the object's room".
FLOOR = "Floor"
RELATIONS: tuple[str, ...] = ("on", "in", "near")


class ObjectView(Protocol):
    """What the evaluator reads of one object: Scene objects and simulator objects both fit."""

    @property
    def id(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def role(self) -> str | None: ...
    @property
    def room(self) -> str: ...
    @property
    def parent(self) -> str | None:
        """Id of the object this one rests on or in; ``None`` on the floor or a wall."""
        ...

    @property
    def relation(self) -> str | None:
        """``"on"``/``"in"`` its parent (``"on"`` with no parent: the floor), ``"wall"``
        (mounted), ``"held"`` (by the agent)."""
        ...

    @property
    def states(self) -> Mapping[str, bool]: ...
    @property
    def attrs(self) -> Mapping[str, str]: ...


class World(Protocol):
    """Anything facts can be evaluated on."""

    @property
    def entities(self) -> Iterable[ObjectView]:
        """Every object facts can name, windows and doors included."""
        ...

    def room_type(self, room_id: str) -> str | None:
        """The type (``Kitchen``, ...) of a room id, or ``None`` when unknown."""
        ...

    def near(self, first_id: str, second_id: str) -> bool:
        """Whether two objects are close enough to count as ``near``."""
        ...


# --------------------------------------------------------------------------- the fact types


@dataclass(frozen=True)
class Where:
    """Where an object must be: on or in a reference, and/or in a room."""

    on: str | None = None
    in_: str | None = None
    room: str | None = None

    def is_empty(self) -> bool:
        return self.on is None and self.in_ is None and self.room is None


@dataclass(frozen=True)
class Exists:
    """Some object of type (or role) ``ref`` matches ``where``, ``attrs`` and ``states``."""

    ref: str
    as_: str | None = None
    where: Where = field(default_factory=Where)
    attrs: Mapping[str, str] = field(default_factory=dict)
    states: Mapping[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Absent:
    """No object of type (or role) ``ref`` matches ``where``, ``attrs`` and ``states``."""

    ref: str
    where: Where = field(default_factory=Where)
    attrs: Mapping[str, str] = field(default_factory=dict)
    states: Mapping[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Related:
    """``subject`` is ``on``/``in``/``near`` ``target``."""

    relation: str
    subject: str
    target: str


@dataclass(frozen=True)
class Held:
    """The agent holds ``ref``."""

    ref: str


@dataclass(frozen=True)
class State:
    """``ref`` is in every one of ``states``."""

    ref: str
    states: Mapping[str, bool]


@dataclass(frozen=True)
class Attr:
    """``ref`` has every one of ``attrs``."""

    ref: str
    attrs: Mapping[str, str]


@dataclass(frozen=True)
class And:
    items: tuple[Fact, ...]


@dataclass(frozen=True)
class Or:
    items: tuple[Fact, ...]


@dataclass(frozen=True)
class Not:
    item: Fact


Fact: TypeAlias = Exists | Absent | Related | Held | State | Attr | And | Or | Not


# --------------------------------------------------------------------------- parsing


def is_type_ref(ref: str) -> bool:
    """Whether a reference names an object type (``Sofa``) rather than a role (``sofa``)."""
    return ref[:1].isupper()


def canonical_state(name: str) -> str | None:
    """The canonical state name for ``name`` (aliases allowed), or ``None`` if unknown."""
    name = STATE_ALIASES.get(name, name)
    return name if name in STATES else None


def _ref(value: Any, location: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise FactError(location, f"expected an object type or role name, got {value!r}")
    return value.strip()


def _states(value: Any, location: str) -> dict[str, bool]:
    if not isinstance(value, Mapping):
        raise FactError(location, "'states' must be an object like {\"open\": true}")
    result: dict[str, bool] = {}
    for name, flag in value.items():
        state = canonical_state(str(name))
        if state is None:
            raise FactError(
                f"{location}", f"unknown state {name!r}; known states: {', '.join(STATES)}"
            )
        if not isinstance(flag, bool):
            raise FactError(location, f"state {name!r} must be true or false, got {flag!r}")
        result[state] = flag
    return result


def _attrs(value: Any, location: str) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise FactError(location, '\'attrs\' must be an object like {"colour": "red"}')
    result: dict[str, str] = {}
    for name, item in value.items():
        if not isinstance(item, str | int | float) or isinstance(item, bool):
            raise FactError(location, f"attribute {name!r} must be a string, got {item!r}")
        result[str(name)] = str(item)
    return result


def _where(value: Any, location: str) -> Where:
    if value is None:
        return Where()
    if not isinstance(value, Mapping):
        raise FactError(location, '\'where\' must be an object like {"on": "Floor"}')
    unknown = set(value) - {"on", "in", "room"}
    if unknown:
        raise FactError(
            f"{location}", f"'where' accepts 'on', 'in' and 'room'; remove {sorted(unknown)}"
        )
    if "on" in value and "in" in value:
        raise FactError(location, "'where' cannot be both 'on' and 'in' something")
    return Where(
        on=_ref(value["on"], f"{location}.on") if "on" in value else None,
        in_=_ref(value["in"], f"{location}.in") if "in" in value else None,
        room=_ref(value["room"], f"{location}.room") if "room" in value else None,
    )


def _check_keys(data: Mapping[str, Any], allowed: set[str], location: str, form: str) -> None:
    unknown = set(data) - allowed
    if unknown:
        raise FactError(
            f"{location}", f"a {form!r} fact accepts {sorted(allowed)}; remove {sorted(unknown)}"
        )


def parse_fact(data: Any, location: str = "fact") -> Fact:
    """Parse one fact from its JSON form; a :class:`FactError` names ``location`` on error."""
    if not isinstance(data, Mapping) or not data:
        raise FactError(location, f"a fact must be a non-empty JSON object, got {data!r}")
    if "exists" in data or "absent" in data:
        form = "exists" if "exists" in data else "absent"
        allowed = {form, "where", "attrs", "states"} | ({"as"} if form == "exists" else set())
        _check_keys(data, allowed, location, form)
        ref = _ref(data[form], f"{location}.{form}")
        where = _where(data.get("where"), f"{location}.where")
        attrs = _attrs(data.get("attrs", {}), f"{location}.attrs")
        states = _states(data.get("states", {}), f"{location}.states")
        if form == "absent":
            return Absent(ref, where, attrs, states)
        role = _ref(data["as"], f"{location}.as") if "as" in data else None
        if role is not None and is_type_ref(role):
            raise FactError(
                f"{location}.as",
                f"role {role!r} starts with a capital, which marks a type; "
                f"write it in lower case, e.g. {role[0].lower() + role[1:]!r}",
            )
        return Exists(ref, role, where, attrs, states)
    if "held" in data:
        _check_keys(data, {"held"}, location, "held")
        return Held(_ref(data["held"], f"{location}.held"))
    if "state" in data:
        states = {k: v for k, v in data.items() if k != "state"}
        if not states:
            raise FactError(location, "a 'state' fact needs at least one state, e.g. open")
        return State(_ref(data["state"], f"{location}.state"), _states(states, location))
    if "attr" in data:
        attrs = {k: v for k, v in data.items() if k != "attr"}
        if not attrs:
            raise FactError(location, "an 'attr' fact needs at least one attribute")
        return Attr(_ref(data["attr"], f"{location}.attr"), _attrs(attrs, location))
    for relation in RELATIONS:
        if relation in data:
            _check_keys(data, {relation}, location, relation)
            pair = data[relation]
            if not isinstance(pair, list | tuple) or len(pair) != 2:
                raise FactError(
                    f"{location}", f"{relation!r} takes a pair [subject, target], got {pair!r}"
                )
            return Related(
                relation,
                _ref(pair[0], f"{location}.{relation}[0]"),
                _ref(pair[1], f"{location}.{relation}[1]"),
            )
    for form in ("and", "or"):
        if form in data:
            _check_keys(data, {form}, location, form)
            items = data[form]
            if not isinstance(items, list) or not items:
                raise FactError(location, f"{form!r} takes a non-empty list of facts")
            parsed = tuple(
                parse_fact(item, f"{location}.{form}[{i}]") for i, item in enumerate(items)
            )
            return And(parsed) if form == "and" else Or(parsed)
    if "not" in data:
        _check_keys(data, {"not"}, location, "not")
        return Not(parse_fact(data["not"], f"{location}.not"))
    raise FactError(
        f"{location}",
        f"unknown fact {dict(data)!r}; a fact starts with one of "
        "exists, absent, on, in, near, held, state, attr, and, or, not",
    )


def parse_facts(data: Any, location: str) -> tuple[Fact, ...]:
    """Parse a list of facts (a single fact object is accepted as a one-item list)."""
    if data is None:
        return ()
    if isinstance(data, Mapping):
        data = [data]
    if not isinstance(data, list):
        raise FactError(location, f"expected a list of facts, got {data!r}")
    return tuple(parse_fact(item, f"{location}[{i}]") for i, item in enumerate(data))


def _where_json(where: Where) -> dict[str, str]:
    result = {}
    if where.on is not None:
        result["on"] = where.on
    if where.in_ is not None:
        result["in"] = where.in_
    if where.room is not None:
        result["room"] = where.room
    return result


def to_json(fact: Fact) -> dict[str, Any]:
    """The JSON form of a fact; ``parse_fact(to_json(f)) == f``."""
    match fact:
        case Exists() | Absent():
            form = "exists" if isinstance(fact, Exists) else "absent"
            result: dict[str, Any] = {form: fact.ref}
            if isinstance(fact, Exists) and fact.as_ is not None:
                result["as"] = fact.as_
            if not fact.where.is_empty():
                result["where"] = _where_json(fact.where)
            if fact.attrs:
                result["attrs"] = dict(fact.attrs)
            if fact.states:
                result["states"] = dict(fact.states)
            return result
        case Related(relation, subject, target):
            return {relation: [subject, target]}
        case Held(ref):
            return {"held": ref}
        case State(ref, states):
            return {"state": ref, **states}
        case Attr(ref, attrs):
            return {"attr": ref, **attrs}
        case And(items):
            return {"and": [to_json(item) for item in items]}
        case Or(items):
            return {"or": [to_json(item) for item in items]}
        case Not(item):
            return {"not": to_json(item)}
    raise TypeError(f"not a fact: {fact!r}")  # pragma: no cover


# --------------------------------------------------------------------------- reading facts


def walk(fact: Fact) -> Iterator[Fact]:
    """Every fact inside ``fact``, itself first."""
    yield fact
    if isinstance(fact, And | Or):
        for item in fact.items:
            yield from walk(item)
    elif isinstance(fact, Not):
        yield from walk(fact.item)


def references(fact: Fact) -> set[str]:
    """Every object reference a fact uses (types and roles)."""
    found: set[str] = set()
    for item in walk(fact):
        match item:
            case Exists() | Absent():
                found.add(item.ref)
                found.update(r for r in (item.where.on, item.where.in_) if r is not None)
            case Related(_, subject, target):
                found.update((subject, target))
            case Held(ref) | State(ref, _) | Attr(ref, _):
                found.add(ref)
    return found


def bound_roles(fact: Fact) -> dict[str, str]:
    """Roles an ``exists`` fact binds (``as``), mapped to the type they are bound to."""
    return {
        item.as_: item.ref
        for item in walk(fact)
        if isinstance(item, Exists) and item.as_ is not None
    }


def _where_text(where: Where) -> str:
    parts = []
    if where.on is not None:
        parts.append(f"on {where.on}")
    if where.in_ is not None:
        parts.append(f"in {where.in_}")
    if where.room is not None:
        parts.append(f"in the {where.room}")
    return " ".join(parts)


def _pairs(values: Mapping[str, object]) -> str:
    return ", ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in values.items()
    )


# How states read in sentences ("the light is not switched on").
_STATE_WORDS = {"toggled": "switched on", "used_up": "used up"}


def describe(fact: Fact) -> str:
    """A short English rendering of a fact, for failure messages and reports."""
    match fact:
        case Exists() | Absent():
            name = f"a {fact.ref}"
            if isinstance(fact, Exists) and fact.as_:
                name += f" ({fact.as_})"
            bits = [name]
            if not fact.where.is_empty():
                bits.append(_where_text(fact.where))
            if fact.attrs:
                bits.append(f"with {_pairs(fact.attrs)}")
            if fact.states:
                bits.append(f"({_pairs(fact.states)})")
            text = " ".join(bits)
            return text if isinstance(fact, Exists) else f"no {text[2:]}"
        case Related(relation, subject, target):
            return f"{subject} {relation} {target}"
        case Held(ref):
            return f"agent holds {ref}"
        case State(ref, states):
            return f"{ref} is " + ", ".join(
                ("" if flag else "not ") + _STATE_WORDS.get(name, name)
                for name, flag in states.items()
            )
        case Attr(ref, attrs):
            return f"{ref} has {_pairs(attrs)}"
        case And(items):
            return " and ".join(f"({describe(item)})" for item in items)
        case Or(items):
            return " or ".join(f"({describe(item)})" for item in items)
        case Not(item):
            return f"not ({describe(item)})"
    raise TypeError(f"not a fact: {fact!r}")  # pragma: no cover


# --------------------------------------------------------------------------- evaluation


def matches(obj: ObjectView, ref: str) -> bool:
    """Whether ``obj`` is what ``ref`` names: its type for a type reference, else its role
    or id."""
    if is_type_ref(ref):
        return obj.type == ref
    return obj.role == ref or obj.id == ref


def _on_floor(obj: ObjectView) -> bool:
    return obj.parent is None and obj.relation == "on"


def _rests(
    world: World, obj: ObjectView, relation: str, target: str, index: dict[str, ObjectView]
) -> bool:
    """Whether ``obj`` rests ``relation`` (on/in) something that ``target`` names."""
    if target in (FLOOR, "floor"):
        return relation == "on" and _on_floor(obj)
    if obj.relation != relation or obj.parent is None:
        return False
    parent = index.get(obj.parent)
    return parent is not None and matches(parent, target)


def _in_room(world: World, obj: ObjectView, room: str) -> bool:
    return obj.room == room or world.room_type(obj.room) == room


def _fits(
    world: World,
    obj: ObjectView,
    where: Where,
    attrs: Mapping[str, str],
    states: Mapping[str, bool],
    index: dict[str, ObjectView],
) -> bool:
    if where.on is not None and not _rests(world, obj, "on", where.on, index):
        return False
    if where.in_ is not None and not _rests(world, obj, "in", where.in_, index):
        return False
    if where.room is not None and not _in_room(world, obj, where.room):
        return False
    if any(obj.attrs.get(name) != value for name, value in attrs.items()):
        return False
    return all(obj.states.get(name, False) == flag for name, flag in states.items())


def evaluate(fact: Fact, world: World) -> bool:
    """Whether ``fact`` holds in ``world``.

    References with several matching objects are read existentially: ``{"in": ["Toy",
    "Box"]}`` holds when some toy is in some box. Use roles to be precise.
    """
    objects = list(world.entities)
    index = {obj.id: obj for obj in objects}
    return _evaluate(fact, world, objects, index)


def evaluate_all(facts: Iterable[Fact], world: World) -> bool:
    """Whether every fact holds (an empty list holds)."""
    objects = list(world.entities)
    index = {obj.id: obj for obj in objects}
    return all(_evaluate(fact, world, objects, index) for fact in facts)


def false_facts(facts: Iterable[Fact], world: World) -> list[Fact]:
    """The facts of ``facts`` that do not hold in ``world``, in order."""
    objects = list(world.entities)
    index = {obj.id: obj for obj in objects}
    return [fact for fact in facts if not _evaluate(fact, world, objects, index)]


def _evaluate(
    fact: Fact, world: World, objects: list[ObjectView], index: dict[str, ObjectView]
) -> bool:
    match fact:
        case Exists(ref, _, where, attrs, states):
            return any(
                matches(obj, ref) and _fits(world, obj, where, attrs, states, index)
                for obj in objects
            )
        case Absent(ref, where, attrs, states):
            return not any(
                matches(obj, ref) and _fits(world, obj, where, attrs, states, index)
                for obj in objects
            )
        case Related("near", subject, target):
            return any(
                world.near(a.id, b.id)
                for a in objects
                if matches(a, subject)
                for b in objects
                if b.id != a.id and matches(b, target)
            )
        case Related(relation, subject, target):
            return any(
                matches(obj, subject) and _rests(world, obj, relation, target, index)
                for obj in objects
            )
        case Held(ref):
            return any(matches(obj, ref) and obj.relation == "held" for obj in objects)
        case State(ref, states):
            return any(
                matches(obj, ref)
                and all(obj.states.get(name, False) == flag for name, flag in states.items())
                for obj in objects
            )
        case Attr(ref, attrs):
            return any(
                matches(obj, ref) and all(obj.attrs.get(k) == v for k, v in attrs.items())
                for obj in objects
            )
        case And(items):
            return all(_evaluate(item, world, objects, index) for item in items)
        case Or(items):
            return any(_evaluate(item, world, objects, index) for item in items)
        case Not(item):
            return not _evaluate(item, world, objects, index)
    raise TypeError(f"not a fact: {fact!r}")  # pragma: no cover
