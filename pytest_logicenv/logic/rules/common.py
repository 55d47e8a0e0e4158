"""What the rule families share: locations in a plan, and walking a tree's queries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator

from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.plan import Factor, Node, Query, Subtask

#: What a rule yields: its violations, in document order.
Found = Iterator[Violation]


def subtask_location(i: int, subtask: Subtask) -> str:
    """``subtasks[1](window)``."""
    return f"subtasks[{i}]({subtask.name})"


def factor_location(where: str, j: int, factor: Factor) -> str:
    """``subtasks[1](window).factors[0](window)``."""
    return f"{where}.factors[{j}]({factor.id})"


def queries(node: Node, where: str) -> Iterator[tuple[str, Query]]:
    """Every query node under ``node`` with its location, depth first."""
    if isinstance(node, Query):
        yield where, node
        for value, child in node.branches:
            yield from queries(child, f"{where}.branches.{value}")


def duplicates(items: Iterable[str]) -> list[str]:
    """The items that occur more than once, in order of first occurrence."""
    return [item for item, count in Counter(items).items() if count > 1]
