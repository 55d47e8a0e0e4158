"""The ``grounding`` rules of a subtask's tree: it asks about its own factors, fully.

Every query names a factor of its own subtask, its branches are exactly the factor's domain,
no factor is asked twice on one path, and every factor is asked somewhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.plan import Factor, Node, Query, Subtask
from pytest_logicenv.logic.rules.common import Found, factor_location, queries


def _violation(location: str, message: str) -> Violation:
    return Violation("grounding", location, message)


def _queries_on_paths(
    node: Node, location: str, on_path: tuple[str, ...] = ()
) -> Iterator[tuple[str, Query, tuple[str, ...]]]:
    """Every query, depth first, with the factors asked above it on its path."""
    if isinstance(node, Query):
        yield location, node, on_path
        for value, child in node.branches:
            yield from _queries_on_paths(
                child, f"{location}.branches.{value}", (*on_path, node.factor)
            )


def _unknown_factor(
    node: Query, subtask: Subtask, factors: Mapping[str, Factor], location: str
) -> Found:
    known = ", ".join(factors) or "none"
    yield _violation(
        location,
        f"the query asks about {node.factor!r}, which subtask {subtask.name!r} does "
        f"not define (its factors: {known}); fix the name or add the factor",
    )


def _asked_again(node: Query, on_path: tuple[str, ...], location: str) -> Found:
    if node.factor in on_path:
        yield _violation(
            location,
            f"{node.factor!r} is asked again below its own answer; remove the repeated query",
        )


def _missing_branches(node: Query, factor: Factor, location: str) -> Found:
    labels = [value for value, _ in node.branches]
    for value in factor.domain:
        if value not in labels:
            yield _violation(
                location,
                f"the query on {node.factor!r} has no branch for value {value!r}; "
                "add one (every value of the factor's domain needs a branch)",
            )


def _extra_branches(node: Query, factor: Factor, location: str) -> Found:
    for value, _ in node.branches:
        if value not in factor.domain:
            yield _violation(
                f"{location}.branches.{value}",
                f"branch {value!r} is not a value of {node.factor!r} "
                f"(domain: {', '.join(factor.domain)}); rename it or remove it",
            )


def _never_asked(subtask: Subtask, where: str) -> Found:
    asked = {node.factor for _, node in queries(subtask.tree, f"{where}.tree")}
    for j, factor in enumerate(subtask.factors):
        if factor.id not in asked:
            yield _violation(
                factor_location(where, j, factor),
                f"factor {factor.id!r} is never asked in the tree; ask it or remove it",
            )


def check_grounding(subtask: Subtask, where: str) -> Found:
    """Every grounding violation of one subtask's tree, depth first, then its unasked
    factors; ``where`` locates the subtask."""
    factors = {f.id: f for f in subtask.factors}
    for location, node, on_path in _queries_on_paths(subtask.tree, f"{where}.tree"):
        factor = factors.get(node.factor)
        if factor is None:
            yield from _unknown_factor(node, subtask, factors, location)
            continue
        yield from _asked_again(node, on_path, location)
        yield from _missing_branches(node, factor, location)
        yield from _extra_branches(node, factor, location)
    yield from _never_asked(subtask, where)
