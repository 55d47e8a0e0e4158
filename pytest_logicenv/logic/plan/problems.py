"""Collecting a document's shape problems, so that one error lists all of them."""

from __future__ import annotations

from pytest_logicenv.errors import Violation


class Problems:
    """Collects every shape problem of a document instead of stopping at the first.

    >>> problems = Problems()
    >>> problems.fail("subtasks[0].name", "expected a non-empty string, got None")
    >>> [str(v.code) for v in problems.violations]
    ['syntax']
    """

    def __init__(self) -> None:
        self.violations: list[Violation] = []

    def fail(self, location: str, message: str) -> None:
        self.violations.append(Violation("syntax", location, message))
