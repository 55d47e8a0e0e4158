"""Reading a fact's structure: the facts inside it, the references it uses, the roles it binds.

>>> from pytest_logicenv.logic.facts.fact_json import parse_fact
>>> fact = parse_fact({"and": [{"exists": "Toy", "as": "toy"}, {"in": ["toy", "Box"]}]})
>>> sorted(references(fact)), bound_roles(fact)
(['Box', 'Toy', 'toy'], {'toy': 'Toy'})
"""

from __future__ import annotations

from collections.abc import Iterator

from pytest_logicenv.logic.facts.fact_model import (
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
    not_a_fact,
)


def walk(fact: Fact) -> Iterator[Fact]:
    """Every fact inside ``fact``, itself first."""
    yield fact
    if isinstance(fact, And | Or):
        for item in fact.items:
            yield from walk(item)
    elif isinstance(fact, Not):
        yield from walk(fact.item)


def where_references(where: Where) -> tuple[str, ...]:
    """The references a ``"where"`` names (a room is not an object reference); a new
    qualifier that names an object is added here."""
    return tuple(ref for ref in (where.on, where.in_, where.part_of) if ref is not None)


def _own_references(fact: Fact) -> tuple[str, ...]:
    """The references one fact names itself, not counting the facts inside it."""
    match fact:
        case Exists() | Absent():
            return (fact.ref, *where_references(fact.where))
        case Related(_, subject, target):
            return (subject, target)
        case Held(ref) | State(ref, _) | Attr(ref, _):
            return (ref,)
        case And() | Or() | Not():
            return ()  # the facts inside name their own
    not_a_fact(fact)


def references(fact: Fact) -> set[str]:
    """Every object reference a fact uses (types and roles)."""
    return {ref for item in walk(fact) for ref in _own_references(item)}


def bound_roles(fact: Fact) -> dict[str, str]:
    """Roles an ``exists`` fact binds (``as``), mapped to the type they are bound to."""
    return {
        item.as_: item.ref
        for item in walk(fact)
        if isinstance(item, Exists) and item.as_ is not None
    }
