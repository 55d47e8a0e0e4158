"""Facts in English, for failure messages, reports and LLM prompts.

>>> from pytest_logicenv.logic.facts.fact_json import parse_fact
>>> describe(parse_fact({"not": {"state": "lamp", "on": True}}))
'not (lamp is switched on)'
>>> describe(parse_fact({"absent": "Toy", "where": {"room": "Bedroom"}}))
'no Toy in the Bedroom'
"""

from __future__ import annotations

from collections.abc import Mapping

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
from pytest_logicenv.vocabulary import a_or_an

# How states read in sentences ("the light is not switched on").
_STATE_WORDS = {"toggled": "switched on", "used_up": "used up"}
# How a state a goal wants false reads: the goal's own words ("fridge closed").
_OPPOSITES = {
    "open": "closed",
    "toggled": "switched off",
    "dirty": "clean",
    "filled": "empty",
    "wet": "dry",
    "broken": "whole",
    "hot": "not hot",
    "cold": "not cold",
}


def where_text(where: Where) -> str:
    """``on Sofa in the LivingRoom``, ``of Desk in the Study`` (a part's whole first, so
    that the room is the whole's too); a new qualifier is worded here."""
    parts = []
    if where.part_of is not None:
        parts.append(f"of {where.part_of}")
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


def _object_text(fact: Exists | Absent) -> str:
    name = a_or_an(fact.ref) if isinstance(fact, Exists) else f"no {fact.ref}"
    if isinstance(fact, Exists) and fact.as_:
        name += f" ({fact.as_})"
    bits = [name]
    if not fact.where.is_empty():
        bits.append(where_text(fact.where))
    if fact.attrs:
        bits.append(f"with {_pairs(fact.attrs)}")
    if fact.states:
        bits.append(f"({_pairs(fact.states)})")
    text = " ".join(bits)
    return text


def _states_text(ref: str, states: Mapping[str, bool]) -> str:
    return f"{ref} is " + ", ".join(
        ("" if flag else "not ") + _STATE_WORDS.get(name, name) for name, flag in states.items()
    )


def goal_text(fact: Fact) -> str:
    """A goal fact as the goal wants things, not as a state read now: a state wanted false
    reads as its opposite.

    >>> from pytest_logicenv.logic.facts.fact_json import parse_fact
    >>> goal_text(parse_fact({"state": "fridge", "open": False, "dirty": False}))
    'fridge closed, clean'
    >>> goal_text(parse_fact({"state": "egg", "cooked": False}))
    'egg not cooked'
    """
    if isinstance(fact, State):
        words = [
            _STATE_WORDS.get(name, name) if flag else _OPPOSITES.get(name, f"not {name}")
            for name, flag in fact.states.items()
        ]
        return f"{fact.ref} " + ", ".join(words)
    return describe(fact)


def describe(fact: Fact) -> str:
    """A short English rendering of a fact, for failure messages and reports."""
    match fact:
        case Exists() | Absent():
            return _object_text(fact)
        case Related(relation, subject, target):
            return f"{subject} {relation} {target}"
        case Held(ref):
            return f"agent holds {ref}"
        case State(ref, states):
            return _states_text(ref, states)
        case Attr(ref, attrs):
            return f"{ref} has {_pairs(attrs)}"
        case And(items):
            return " and ".join(f"({describe(item)})" for item in items)
        case Or(items):
            return " or ".join(f"({describe(item)})" for item in items)
        case Not(item):
            return f"not ({describe(item)})"
    not_a_fact(fact)
