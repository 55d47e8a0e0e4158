"""The ``syntax`` rules: well-formed trees, non-empty domains, unique names fit for test ids.

Each rule is a small generator over one part of the plan; :func:`check_syntax` runs them in
document order (plan-wide rules, then per subtask its name, each factor, its tree). A new rule
is a function added to the tuple of its scope.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.plan import Factor, Leaf, Node, Plan, Subtask
from pytest_logicenv.logic.rules.common import (
    Found,
    duplicates,
    factor_location,
    subtask_location,
)

# Names become parts of pytest ids, so they keep to a safe alphabet.
_NAME = re.compile(r"^[a-z0-9][a-z0-9_]*$")


def _violation(location: str, message: str) -> Violation:
    return Violation("syntax", location, message)


# --------------------------------------------------------------------------- the plan


def _has_subtasks(plan: Plan) -> Found:
    if not plan.subtasks:
        yield _violation("subtasks", "the plan has no subtasks; add at least one")


def _unique_subtask_names(plan: Plan) -> Found:
    for name in duplicates(s.name for s in plan.subtasks):
        yield _violation("subtasks", f"two subtasks are named {name!r}; rename one")


def _unique_factor_ids(plan: Plan) -> Found:
    for factor_id in duplicates(f.id for f in plan.factors):
        yield _violation("factors", f"factor id {factor_id!r} is defined twice; rename one")


# --------------------------------------------------------------------------- a subtask


def _subtask_name(subtask: Subtask, where: str) -> Found:
    if not _NAME.match(subtask.name):
        yield _violation(
            f"{where}.name",
            f"subtask name {subtask.name!r} must be lower case letters, digits and "
            "underscores (it becomes part of test ids)",
        )


# --------------------------------------------------------------------------- a factor


def _factor_id(factor: Factor, at: str) -> Found:
    if not _NAME.match(factor.id):
        yield _violation(
            f"{at}.id",
            f"factor id {factor.id!r} must be lower case letters, digits and underscores",
        )


def _domain_size(factor: Factor, at: str) -> Found:
    if not factor.domain:
        yield _violation(f"{at}.domain", "the domain is empty; list the factor's possible values")
    elif len(factor.domain) == 1:
        yield _violation(
            f"{at}.domain",
            f"a factor with one value ({factor.domain[0]!r}) is not uncertain; "
            "add the other values or drop the factor",
        )


def _unique_values(factor: Factor, at: str) -> Found:
    for value in duplicates(factor.domain):
        yield _violation(f"{at}.domain", f"value {value!r} appears twice")


def _value_names(factor: Factor, at: str) -> Found:
    for value in factor.domain:
        if not _NAME.match(value):
            yield _violation(
                f"{at}.domain",
                f"value {value!r} must be lower case letters, digits and "
                "underscores (put the original wording in 'answers')",
            )


# --------------------------------------------------------------------------- a tree


def _tree_shape(node: Node, where: str) -> Found:
    """A leaf has an action; a query has branches, each value once."""
    if isinstance(node, Leaf):
        if not node.action.strip():
            yield _violation(where, "a leaf needs an action text, e.g. 'Do nothing.'")
        return
    if not node.branches:
        yield _violation(where, f"the query on {node.factor!r} has no branches")
    for value in duplicates(v for v, _ in node.branches):
        yield _violation(where, f"branch {value!r} appears twice")
    for value, child in node.branches:
        yield from _tree_shape(child, f"{where}.branches.{value}")


# --------------------------------------------------------------------------- in document order

_PLAN_RULES: tuple[Callable[[Plan], Found], ...] = (
    _has_subtasks,
    _unique_subtask_names,
    _unique_factor_ids,
)
_FACTOR_RULES: tuple[Callable[[Factor, str], Found], ...] = (
    _factor_id,
    _domain_size,
    _unique_values,
    _value_names,
)


def check_syntax(plan: Plan) -> Found:
    """Every syntax violation of ``plan``, in document order."""
    for plan_rule in _PLAN_RULES:
        yield from plan_rule(plan)
    for i, subtask in enumerate(plan.subtasks):
        where = subtask_location(i, subtask)
        yield from _subtask_name(subtask, where)
        for j, factor in enumerate(subtask.factors):
            at = factor_location(where, j, factor)
            for factor_rule in _FACTOR_RULES:
                yield from factor_rule(factor, at)
        yield from _tree_shape(subtask.tree, f"{where}.tree")
