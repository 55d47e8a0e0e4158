"""One exception root for everything pytest-logicenv raises on purpose.

Every error a user can cause (a bad plan file, an unknown object type, a policy that names an
action we do not know) derives from :class:`LogicEnvError`, so callers can catch the whole
family in one place, and the CLI can turn it into a message and exit code 2 instead of a
traceback.

>>> try:
...     raise PlanError("plan.json", [Violation("syntax", "subtasks[0]", "empty tree")])
... except LogicEnvError as error:
...     print(error)
plan.json: 1 problem
  [syntax] subtasks[0]: empty tree
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class LogicEnvError(Exception):
    """Root of every deliberate pytest-logicenv error."""


@dataclass(frozen=True)
class Violation:
    """One broken rule, located precisely enough for a person or an LLM to fix it.

    ``code`` names the rule family (``independence``, ``syntax``, ``grounding``, ``facts``),
    ``location`` is a path into the document (``subtasks[1].tree.branches.yes``) and
    ``message`` says what is wrong and how to fix it.
    """

    code: str
    location: str
    message: str

    def __str__(self) -> str:
        return f"[{self.code}] {self.location}: {self.message}"


def listing(source: str, violations: Sequence[Violation]) -> str:
    """``source: N problems``, then one indented line per violation."""
    count = len(violations)
    lines = [f"{source}: {count} problem{'s' if count != 1 else ''}"]
    lines += [f"  {violation}" for violation in violations]
    return "\n".join(lines)


class PlanError(LogicEnvError):
    """A plan (file or object) is malformed or breaks the plan checks."""

    def __init__(self, source: str, violations: Sequence[Violation]) -> None:
        self.source = source
        self.violations = tuple(violations)
        super().__init__(listing(source, self.violations))


class FactError(LogicEnvError):
    """A fact in the facts language is malformed; ``location`` says where in the document."""

    def __init__(self, location: str, reason: str) -> None:
        self.location = location
        self.reason = reason
        super().__init__(f"{location}: {reason}")


class SelectionError(LogicEnvError):
    """Trajectories cannot be selected as asked (unknown strategy, uncoverable path, ...)."""


class SceneError(LogicEnvError):
    """A scene (file or design) is malformed or cannot be built."""


class LayoutError(SceneError):
    """The layout solver cannot place what a scene design asks for."""


class PolicyError(LogicEnvError):
    """A policy cannot be loaded or built (unknown node, missing port, bad XML, ...)."""


class CacheError(LogicEnvError):
    """A cache entry is missing, stale or corrupt."""


class LLMError(LogicEnvError):
    """The LLM endpoint failed or kept answering with something unusable."""
