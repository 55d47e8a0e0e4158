"""The rules on a plan's facts: known types, bound roles, realizations that fit the domain.

Facts use known object types (when a catalog is given) and roles bound by some
``exists ... as`` anywhere in the plan; realizations name values of their factor's domain,
and, when facts are required, every value has some.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection

from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.facts import FLOOR, Fact, bound_roles, is_type_ref, references
from pytest_logicenv.logic.plan import Factor, Plan, located_facts
from pytest_logicenv.logic.rules.common import Found, factor_location, subtask_location
from pytest_logicenv.vocabulary import NOT_OBJECT_TYPES, Vocabulary


def _did_you_mean(name: str, candidates: Collection[str]) -> str:
    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _unknown_type(ref: str, location: str, known_types: Collection[str] | None) -> Found:
    if known_types is not None and ref in NOT_OBJECT_TYPES:
        yield Violation("grounding", location, NOT_OBJECT_TYPES[ref])
    elif known_types is not None and ref not in known_types:
        # By meaning first (the synonym table the catalog reads: Nightstand, a SideTable).
        close = Vocabulary(known_types).suggestions(ref, limit=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        yield Violation(
            "grounding",
            location,
            f"unknown object type {ref!r}{hint}; use a catalog type (`logicenv types` lists "
            "them) or add your own in a type file (ini logicenv_types)",
        )


def _unbound_role(ref: str, location: str, roles: set[str]) -> Found:
    if ref not in roles:
        yield Violation(
            "grounding",
            location,
            f"role {ref!r} is never bound{_did_you_mean(ref, roles)}; bind it "
            f'with an exists fact (e.g. {{"exists": "Sofa", "as": "{ref}"}}) in the '
            "setting or a realization, or refer to a type (capitalized) instead",
        )


def _references(
    fact: Fact, location: str, roles: set[str], known_types: Collection[str] | None
) -> Found:
    """Each reference of one fact names a known type or a bound role (the floor always)."""
    for ref in sorted(references(fact)):
        if ref in (FLOOR, "floor"):
            continue
        if is_type_ref(ref):
            yield from _unknown_type(ref, location, known_types)
        else:
            yield from _unbound_role(ref, location, roles)


def _realizations_in_domain(factor: Factor, at: str) -> Found:
    for value in factor.realizations:
        if value not in factor.domain:
            yield Violation(
                "grounding",
                f"{at}.{value}",
                f"{value!r} is not a value of {factor.id!r} (domain: {', '.join(factor.domain)})",
            )


def _realizations_present(factor: Factor, at: str) -> Found:
    for value in factor.domain:
        if not factor.realizations.get(value):
            yield Violation(
                "facts",
                f"{at}.{value}",
                f"no realization facts for {factor.id}={value}: say what a "
                'scene must contain for it, e.g. [{"exists": "Toy", "where": '
                '{"on": "Floor"}}]',
            )


def check_facts(plan: Plan, known_types: Collection[str] | None, require_facts: bool) -> Found:
    """Every violation in the facts of ``plan``: references in document order, then each
    factor's realizations."""
    located = list(located_facts(plan))
    roles = {role for _, fact in located for role in bound_roles(fact)}
    for location, fact in located:
        yield from _references(fact, location, roles, known_types)
    for i, subtask in enumerate(plan.subtasks):
        for j, factor in enumerate(subtask.factors):
            at = factor_location(subtask_location(i, subtask), j, factor) + ".realization"
            yield from _realizations_in_domain(factor, at)
            if require_facts:
                yield from _realizations_present(factor, at)
