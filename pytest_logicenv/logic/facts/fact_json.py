"""The JSON form of facts: :func:`parse_fact` reads it, :func:`to_json` writes it back.

Parsing dispatches on a fact's keyword through :data:`READERS`, one small reader per form;
the readers share the value readers (:func:`read_ref`, :func:`read_where`, ...) so every error
is a :class:`~pytest_logicenv.errors.FactError` that names where in the document it is.

>>> parse_fact({"near": ["toy", "Sofa"]})
Related(relation='near', subject='toy', target='Sofa')
>>> parse_fact({"held": "toy", "on": ["toy", "Sofa"]})
Traceback (most recent call last):
...
pytest_logicenv.errors.FactError: fact: a 'held' fact accepts ['held']; remove ['on']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pytest_logicenv.bounded import shown
from pytest_logicenv.errors import FactError
from pytest_logicenv.logic.facts.fact_model import (
    STATES,
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
    canonical_state,
    is_type_ref,
    not_a_fact,
)

#: Reads one form: ``(keyword, data, location) -> Fact``; ``keyword`` is the one it matched.
Reader = Callable[[str, Mapping[str, Any], str], Fact]

# --------------------------------------------------------------------------- value readers


def read_ref(value: Any, location: str) -> str:
    """An object reference (a type or a role), stripped."""
    if not isinstance(value, str) or not value.strip():
        raise FactError(location, f"expected an object type or role name, got {shown(value)}")
    return value.strip()


def read_states(value: Any, location: str) -> dict[str, bool]:
    """``{state: flag}`` with canonical state names."""
    if not isinstance(value, Mapping):
        raise FactError(location, "'states' must be an object like {\"open\": true}")
    return {
        _state_name(name, location): _flag(name, flag, location) for name, flag in value.items()
    }


def _state_name(name: Any, location: str) -> str:
    state = canonical_state(str(name))
    if state is None:
        raise FactError(location, f"unknown state {shown(name)}; known states: {', '.join(STATES)}")
    return state


def _flag(name: Any, flag: Any, location: str) -> bool:
    if not isinstance(flag, bool):
        raise FactError(location, f"state {shown(name)} must be true or false, got {shown(flag)}")
    return flag


def read_attrs(value: Any, location: str) -> dict[str, str]:
    """``{attribute: text}``; numbers are accepted and read as text."""
    if not isinstance(value, Mapping):
        raise FactError(location, '\'attrs\' must be an object like {"colour": "red"}')
    result: dict[str, str] = {}
    for name, item in value.items():
        if not isinstance(item, str | int | float) or isinstance(item, bool):
            raise FactError(
                location, f"attribute {shown(name)} must be a string, got {shown(item)}"
            )
        result[str(name)] = str(item)
    return result


#: The qualifiers ``"where"`` accepts, in the order its error message lists them.
WHERE_KEYS: tuple[str, ...] = ("on", "in", "room", "part_of")


def read_where(value: Any, location: str) -> Where:
    """The ``"where"`` of an ``exists``/``absent`` fact; a new qualifier is read here."""
    if value is None:
        return Where()
    if not isinstance(value, Mapping):
        raise FactError(location, '\'where\' must be an object like {"on": "Floor"}')
    unknown = set(value) - set(WHERE_KEYS)
    if unknown:
        accepted = ", ".join(repr(key) for key in WHERE_KEYS[:-1]) + f" and {WHERE_KEYS[-1]!r}"
        raise FactError(location, f"'where' accepts {accepted}; remove {sorted(unknown)}")
    if "on" in value and "in" in value:
        raise FactError(location, "'where' cannot be both 'on' and 'in' something")

    def ref(key: str) -> str | None:
        return read_ref(value[key], f"{location}.{key}") if key in value else None

    return Where(on=ref("on"), in_=ref("in"), room=ref("room"), part_of=ref("part_of"))


def check_keys(data: Mapping[str, Any], allowed: set[str], location: str, form: str) -> None:
    """Refuse keys a form does not know, naming the ones it does."""
    unknown = set(data) - allowed
    if unknown:
        raise FactError(
            location, f"a {form!r} fact accepts {sorted(allowed)}; remove {sorted(unknown)}"
        )


# --------------------------------------------------------------------------- one reader per form


def _read_object(form: str, data: Mapping[str, Any], location: str) -> Fact:
    """``exists``/``absent``: a reference, where it is, its attributes and states."""
    allowed = {form, "where", "attrs", "states"} | ({"as"} if form == "exists" else set())
    check_keys(data, allowed, location, form)
    ref = read_ref(data[form], f"{location}.{form}")
    where = read_where(data.get("where"), f"{location}.where")
    attrs = read_attrs(data.get("attrs", {}), f"{location}.attrs")
    states = read_states(data.get("states", {}), f"{location}.states")
    if form == "absent":
        return Absent(ref, where, attrs, states)
    return Exists(ref, _read_role(data, location), where, attrs, states)


def _read_role(data: Mapping[str, Any], location: str) -> str | None:
    """The role an ``exists`` binds (``"as"``): lower case, since capitals mark types."""
    if "as" not in data:
        return None
    role = read_ref(data["as"], f"{location}.as")
    if is_type_ref(role):
        raise FactError(
            f"{location}.as",
            f"role {role!r} starts with a capital, which marks a type; "
            f"write it in lower case, e.g. {role[0].lower() + role[1:]!r}",
        )
    return role


def _read_held(form: str, data: Mapping[str, Any], location: str) -> Fact:
    check_keys(data, {form}, location, form)
    return Held(read_ref(data[form], f"{location}.{form}"))


def _read_state(form: str, data: Mapping[str, Any], location: str) -> Fact:
    """``{"state": ref, name: flag, ...}``: every other key is a state."""
    states = {k: v for k, v in data.items() if k != form}
    if not states:
        raise FactError(location, "a 'state' fact needs at least one state, e.g. open")
    return State(read_ref(data[form], f"{location}.{form}"), read_states(states, location))


def _read_attr(form: str, data: Mapping[str, Any], location: str) -> Fact:
    """``{"attr": ref, name: value, ...}``: every other key is an attribute."""
    attrs = {k: v for k, v in data.items() if k != form}
    if not attrs:
        raise FactError(location, "an 'attr' fact needs at least one attribute")
    return Attr(read_ref(data[form], f"{location}.{form}"), read_attrs(attrs, location))


def _read_related(relation: str, data: Mapping[str, Any], location: str) -> Fact:
    """``{relation: [subject, target]}``."""
    check_keys(data, {relation}, location, relation)
    pair = data[relation]
    if not isinstance(pair, list | tuple) or len(pair) != 2:
        raise FactError(location, f"{relation!r} takes a pair [subject, target], got {shown(pair)}")
    return Related(
        relation,
        read_ref(pair[0], f"{location}.{relation}[0]"),
        read_ref(pair[1], f"{location}.{relation}[1]"),
    )


def _read_junction(form: str, data: Mapping[str, Any], location: str) -> Fact:
    """``{"and": [...]}`` / ``{"or": [...]}``."""
    check_keys(data, {form}, location, form)
    items = data[form]
    if not isinstance(items, list) or not items:
        raise FactError(location, f"{form!r} takes a non-empty list of facts")
    parsed = tuple(parse_fact(item, f"{location}.{form}[{i}]") for i, item in enumerate(items))
    return And(parsed) if form == "and" else Or(parsed)


def _read_not(form: str, data: Mapping[str, Any], location: str) -> Fact:
    check_keys(data, {form}, location, form)
    return Not(parse_fact(data[form], f"{location}.{form}"))


#: Keyword -> reader, in the order :func:`parse_fact` tries them: the first keyword present
#: decides the form. Order matters: ``state`` and ``attr`` read every other key as a state or
#: an attribute (and ``on`` is also a state alias), so they come before the relations. A new
#: form is one reader above and one line here.
READERS: Mapping[str, Reader] = {
    "exists": _read_object,
    "absent": _read_object,
    "held": _read_held,
    "state": _read_state,
    "attr": _read_attr,
    "on": _read_related,
    "in": _read_related,
    "near": _read_related,
    "and": _read_junction,
    "or": _read_junction,
    "not": _read_not,
}
# How the error for an unknown fact lists the forms (the language's own order, not READERS').
_FORMS_LISTED = "exists, absent, on, in, near, held, state, attr, and, or, not"


def parse_fact(data: Any, location: str = "fact") -> Fact:
    """Parse one fact from its JSON form; a :class:`FactError` names ``location`` on error."""
    if not isinstance(data, Mapping) or not data:
        raise FactError(location, f"a fact must be a non-empty JSON object, got {shown(data)}")
    for keyword, reader in READERS.items():
        if keyword in data:
            return reader(keyword, data, location)
    raise FactError(
        location, f"unknown fact {shown(dict(data))}; a fact starts with one of {_FORMS_LISTED}"
    )


def parse_facts(data: Any, location: str) -> tuple[Fact, ...]:
    """Parse a list of facts (a single fact object is accepted as a one-item list)."""
    if data is None:
        return ()
    if isinstance(data, Mapping):
        data = [data]
    if not isinstance(data, list):
        raise FactError(location, f"expected a list of facts, got {shown(data)}")
    return tuple(parse_fact(item, f"{location}[{i}]") for i, item in enumerate(data))


# --------------------------------------------------------------------------- writing


def where_json(where: Where) -> dict[str, str]:
    """The JSON of a ``"where"``; a new qualifier is written here."""
    pairs = (
        ("on", where.on),
        ("in", where.in_),
        ("room", where.room),
        ("part_of", where.part_of),
    )
    return {key: value for key, value in pairs if value is not None}


def _object_json(fact: Exists | Absent) -> dict[str, Any]:
    form = "exists" if isinstance(fact, Exists) else "absent"
    result: dict[str, Any] = {form: fact.ref}
    if isinstance(fact, Exists) and fact.as_ is not None:
        result["as"] = fact.as_
    if not fact.where.is_empty():
        result["where"] = where_json(fact.where)
    if fact.attrs:
        result["attrs"] = dict(fact.attrs)
    if fact.states:
        result["states"] = dict(fact.states)
    return result


def to_json(fact: Fact) -> dict[str, Any]:
    """The JSON form of a fact; ``parse_fact(to_json(f)) == f``."""
    match fact:
        case Exists() | Absent():
            return _object_json(fact)
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
    not_a_fact(fact)
