"""The rules on what facts can mean together: goals that can hold, values a scene tells apart.

* **Contradictory goals**: the goal facts of a leaf, and of two leaves of different subtasks (a
  trajectory joins one leaf of each), must be able to hold together; otherwise every policy, the
  correct one too, ends *unreachable* there. What is checked is what no world can satisfy, read from
  the facts themselves: a fact and its negation, ``exists`` and ``absent`` of the same object, one
  state both true and false (or hot and cold at once), one object in two places or held while
  placed, two objects held at once. Roles name one object; types (``Window``) are read
  existentially, as the evaluator reads them, so two windows may differ.
* **Indistinct values**: a value whose realization facts hold in every scene (a tautology:
  ``or`` of the window open and the window closed), two values of a factor whose realization
  facts are the same (in any order), or where one value's facts imply the other's (``exists
  Book`` and ``exists Book on the floor``: every scene of the second realizes the first), are
  never told apart by a scene, so coverage could not say which one a scene covers.

>>> from pytest_logicenv.logic.facts import parse_facts
>>> closed, is_open = {"state": "window", "open": False}, {"state": "window", "open": True}
>>> contradiction(parse_facts([closed, is_open], "goal"))
('window is not open', 'window is open')
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import combinations, permutations

from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.facts import (
    EXCLUSIVE_STATES,
    FLOOR,
    Absent,
    Exists,
    Fact,
    Held,
    Not,
    Or,
    Related,
    State,
    describe,
    is_type_ref,
    to_json,
)
from pytest_logicenv.logic.plan import Leaf, Plan, iter_nodes
from pytest_logicenv.logic.rules.common import Found, factor_location, subtask_location
from pytest_logicenv.logic.rules.implication import Literal, forbids, implies, unimplied
from pytest_logicenv.logic.rules.implication import literals as found_literals


def _is_role(ref: str) -> bool:
    return not is_type_ref(ref) and ref not in (FLOOR, "floor")


def _place(fact: Fact) -> tuple[str, str] | None:
    """Where a placement fact puts one object: ``("on", "table")``, ``("held", "")``."""
    if isinstance(fact, Held):
        return "held", ""
    if isinstance(fact, Related) and fact.relation in ("on", "in"):
        return fact.relation, fact.target
    return None


def _subject(fact: Fact) -> str | None:
    if isinstance(fact, Held):
        return fact.ref
    return fact.subject if isinstance(fact, Related) else None


def _places_clash(first: tuple[str, str], second: tuple[str, str]) -> bool:
    """Whether one object cannot be in both places (its one parent, or the agent's hand)."""
    if first[0] != second[0]:
        return True
    a, b = first[1], second[1]
    same_kind = is_type_ref(a) == is_type_ref(b) or FLOOR in (a, b) or "floor" in (a, b)
    return a != b and same_kind


def _clash(first: Literal, second: Literal) -> bool:
    (a, pa), (b, pb) = first, second
    if a == b:
        return pa != pb
    if pa and pb and isinstance(a, State) and isinstance(b, State) and a.ref == b.ref:
        return _is_role(a.ref) and (
            any(b.states.get(k, v) != v for k, v in a.states.items())
            or _exclusive(a.states, b.states)
        )
    if pa and pb and isinstance(a, Exists) and isinstance(b, Absent):
        return forbids(b, a)
    if pa and pb and isinstance(a, Absent) and isinstance(b, Exists):
        return forbids(a, b)
    if pa and pb and (where_a := _place(a)) and (where_b := _place(b)):
        subject_a, subject_b = _subject(a), _subject(b)
        if subject_a == subject_b and subject_a is not None and _is_role(subject_a):
            return _places_clash(where_a, where_b)
        if isinstance(a, Held) and isinstance(b, Held):
            return _is_role(a.ref) and _is_role(b.ref) and a.ref != b.ref
    return False


def _exclusive(first: Mapping[str, object], second: Mapping[str, object]) -> bool:
    """Whether two states no object has together are both true (hot and cold)."""
    true = {k for k, v in (*first.items(), *second.items()) if v is True}
    return any(len(true & group) > 1 for group in EXCLUSIVE_STATES)


def _both(fact: State) -> tuple[str, str] | None:
    """Two states of one fact no object has together (hot and cold), described."""
    if not _exclusive(fact.states, {}):
        return None
    one, *_, other = (k for k, v in fact.states.items() if v is True)
    return describe(State(fact.ref, {one: True})), describe(State(fact.ref, {other: True}))


def contradiction(facts: Sequence[Fact]) -> tuple[str, str] | None:
    """Two facts of a conjunction that cannot hold together, described; else ``None``."""
    literals = found_literals(facts)
    for fact, positive in literals:
        if positive and isinstance(fact, State) and _is_role(fact.ref):
            both = _both(fact)
            if both is not None:
                return both
    for first, second in combinations(literals, 2):
        if _clash(first, second):
            return _shown(first), _shown(second)
    return None


def _shown(literal: Literal) -> str:
    fact, positive = literal
    text = describe(fact)
    return text if positive else f"not ({text})"


def _leaves(plan: Plan) -> Iterator[tuple[int, str, Leaf]]:
    for i, subtask in enumerate(plan.subtasks):
        for location, node in iter_nodes(subtask.tree, f"{subtask_location(i, subtask)}.tree"):
            if isinstance(node, Leaf):
                yield i, location, node


def check_goals(plan: Plan) -> Found:
    """Goals that cannot hold: within a leaf, then across two subtasks' leaves."""
    leaves = list(_leaves(plan))
    for _, location, leaf in leaves:
        if found := contradiction(leaf.goal):
            yield _contradictory(f"{location}.goal", found, "")
    for (i, first_at, first), (j, second_at, second) in combinations(leaves, 2):
        if i == j or contradiction(first.goal) or contradiction(second.goal):
            continue
        if found := contradiction((*first.goal, *second.goal)):
            yield _contradictory(f"{second_at}.goal", found, f" (with the goal of {first_at})")


def _contradictory(location: str, found: tuple[str, str], where: str) -> Violation:
    return Violation(
        "facts",
        location,
        f"the goal facts contradict each other{where}: {found[0]!r} and {found[1]!r} cannot "
        "both hold, so every policy, a correct one too, would end unreachable; fix one of them",
    )


def check_distinct_values(plan: Plan) -> Found:
    """Factor values no scene tells apart: their realization facts are the same, or one
    value's facts imply another's (every scene for the one makes the other's facts true, so
    it would count for both; :mod:`.implication`)."""
    for i, subtask in enumerate(plan.subtasks):
        for j, factor in enumerate(subtask.factors):
            at = factor_location(subtask_location(i, subtask), j, factor)
            seen: dict[str, str] = {}
            for value in factor.domain:
                facts = factor.realizations.get(value)
                if not facts:
                    continue
                if found := contradiction(facts):  # blamed here, not on a value it "implies"
                    yield Violation(
                        "facts",
                        f"{at}.realization.{value}",
                        f"the facts of {value!r} contradict each other: {found[0]!r} and "
                        f"{found[1]!r} cannot both hold, so no scene has {value!r}; fix one of "
                        "them",
                    )
                    continue
                if all(always_true(fact) for fact in facts):
                    yield Violation(
                        "facts",
                        f"{at}.realization.{value}",
                        f"the facts of {value!r} hold in every scene ({describe(facts[0])} is "
                        "always true), so no scene tells it apart from the other values; give "
                        "it facts that only it makes true",
                    )
                    continue
                key = json.dumps(sorted(json.dumps(to_json(f), sort_keys=True) for f in facts))
                if key in seen:
                    yield Violation(
                        "facts",
                        f"{at}.realization.{value}",
                        f"the facts of {value!r} are the same as those of {seen[key]!r}, so no "
                        "scene tells them apart; each value needs facts that only it makes true",
                    )
                else:
                    seen[key] = value
            yield from _implied_values(factor.domain, factor.realizations, at, set(seen.values()))


def always_true(fact: Fact) -> bool:
    """Whether ``fact`` holds in every world: an ``or`` whose items cannot all be false
    (the window open, or the window not open)."""
    if not isinstance(fact, Or):
        return False
    return contradiction([_negated(item) for item in fact.items]) is not None


def _negated(fact: Fact) -> Fact:
    """``not fact``, with a one-object boolean state turned round (not open: open false),
    which is how :func:`contradiction` reads a state both true and false."""
    if isinstance(fact, State) and _is_role(fact.ref) and len(fact.states) == 1:
        [(name, value)] = fact.states.items()
        if isinstance(value, bool):
            return State(fact.ref, {name: not value})
    return Not(fact)


def _implied_values(
    domain: Sequence[str], realizations: Mapping[str, Sequence[Fact]], at: str, kept: set[str]
) -> Found:
    """Values (of those ``kept``: not already reported as the same) whose facts follow from
    another value's, each pair once."""
    told: set[frozenset[str]] = set()
    for narrow, broad in permutations([v for v in domain if v in kept], 2):
        pair = frozenset((narrow, broad))
        if pair in told or not implies(realizations[narrow], realizations[broad]):
            continue
        told.add(pair)
        yield _implied(narrow, broad, realizations, f"{at}.realization.{broad}")


def _implied(
    narrow: str, broad: str, realizations: Mapping[str, Sequence[Fact]], location: str
) -> Violation:
    extra = unimplied(realizations[narrow], realizations[broad])
    if not extra:
        return Violation(
            "facts",
            location,
            f"the facts of {broad!r} say the same as those of {narrow!r}, so no scene tells "
            "them apart; each value needs facts that only it makes true",
        )
    fact, positive = extra[0]
    if isinstance(fact, Exists):  # a role bound under "not" would name nothing
        fact = replace(fact, as_=None)
    shown = to_json(fact) if not positive else {"not": to_json(fact)}
    return Violation(
        "facts",
        location,
        f"every scene for {narrow!r} also makes the facts of {broad!r} true "
        f"({_shown(extra[0])} is all that sets {narrow!r} apart), so no scene tells {broad!r} "
        f"apart from {narrow!r}; give {broad!r} a fact that rules out {narrow!r}, e.g. "
        f"{json.dumps(shown)}",
    )
