"""Every exception and warning pytest-logicenv raises on purpose, under one root.

Every error a user can cause (a bad plan file, an unknown object type, a policy that names an
action we do not know) derives from :class:`LogicEnvError`, so callers can catch the whole
family in one place, and the CLI can turn it into a message and exit code 2 instead of a
traceback. The family, by stage::

    LogicEnvError
    ├── PlanError                   a plan file or object is malformed or breaks the plan rules
    │   ├── PlanNotAcceptedError    ... a derived one, kept in the cache for a person to fix
    │   └── PlanDerivationError     ... and the LLM kept answering so (also an LLMError) *
    ├── FactError                   a fact of the facts language is malformed
    ├── SelectionError              trajectories cannot be selected as asked
    ├── SceneError                  a scene file or design is malformed or cannot be built
    │   ├── NoWitnessError          ... or no sequence of actions does its task
    │   ├── TypeFileError           a user's type file (logicenv_types) is malformed
    │   ├── EnrichmentError         a design request asks for what the design cannot hold
    │   └── LayoutError             the layout cannot place what the design asks for
    │       └── LayoutTimeout       ... within its time budget
    ├── PolicyError                 a policy cannot be loaded or built
    │   └── PolicyRuntimeError      ... or a BT.CPP tree failed while it ran (a script error)
    ├── PolicyFault                 a policy run did not pass (also an AssertionError)
    ├── RunFileError                a recorded policy run (JSON) cannot be read back
    ├── CacheError                  a cache entry is missing, stale or corrupt
    │   └── CachedFileError         ... a command would overwrite one of its files
    ├── WriteRefused                a path the product never writes (in .git, a directory)
    ├── MarkerError                 a ``logic_env`` marker is used wrongly
    │   └── ExpectFaultError        ``expect_fault`` names no fault class (marker or run)
    ├── LLMError                    the LLM endpoint failed or answered unusably
    │   ├── LLMRequestError         the endpoint kept failing *
    │   ├── AnswerError             an answer is not the JSON object asked for
    │   └── SceneDesignError        the model's scene design kept breaking the rules *
    ├── Rejected                    an answer broke rules (goes back to the model)
    ├── LogicEnvWarning             a test passed though a policy run in it did not
    └── CacheRebuilt                a stale cache entry was rebuilt (a warning: why)

    CatalogHookWarning              the catalog hook adds types the CLI cannot see
    PolicyLintWarning               a BT.CPP tree reads what nothing writes (fails if run)

The three marked ``*`` carry an LLM conversation, so they live beside it in
:mod:`pytest_logicenv.llm.exchange` (this module is the ground floor and imports nothing of
ours); ``pytest_logicenv`` exports them with the rest. One class stands outside the root on
purpose: ``sim.actions.PolicyStopped`` derives from ``BaseException`` (as Hypothesis's
``StopTest`` does), so that a user's leaf catching ``Exception`` cannot swallow the end of a run.

>>> try:
...     raise PlanError("plan.json", [Violation("syntax", "subtasks[0]", "empty tree")])
... except LogicEnvError as error:
...     print(error)
plan.json: 1 problem
  [syntax] subtasks[0]: empty tree
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

__all__ = [
    "AnswerError",
    "CacheError",
    "CacheRebuilt",
    "CatalogHookWarning",
    "EnrichmentError",
    "ExpectFaultError",
    "FactError",
    "LLMError",
    "LayoutError",
    "LayoutRejected",
    "LayoutTimeout",
    "LogicEnvError",
    "LogicEnvWarning",
    "MarkerError",
    "PlanError",
    "PlanNotAcceptedError",
    "PolicyError",
    "PolicyFault",
    "PolicyLintWarning",
    "PolicyRuntimeError",
    "Rejected",
    "RunFileError",
    "SceneError",
    "SelectionError",
    "TypeFileError",
    "Violation",
    "listing",
]


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


# --------------------------------------------------------------------------- logic


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


# --------------------------------------------------------------------------- scenes


class SceneError(LogicEnvError):
    """A scene (file or design) is malformed or cannot be built."""


class NoWitnessError(SceneError):
    """A scene of a plan has no witness: no sequence of the simulator's actions (within the
    witness budget) makes its situation's goal facts true, so it is no valid environment.
    ``results`` holds each such scene's :class:`~pytest_logicenv.witness.WitnessResult`
    (by trajectory id), with the blockers as data."""

    def __init__(self, message: str, results: Mapping[str, Any]) -> None:
        super().__init__(message)
        self.results = dict(results)


class TypeFileError(SceneError):
    """A user's type file is malformed: ``violations`` name each problem's line, the type and
    key it is about, and the fix."""

    def __init__(self, source: str, violations: Sequence[Violation]) -> None:
        self.source = source
        self.violations = tuple(violations)
        super().__init__(listing(source, self.violations))


class EnrichmentError(SceneError):
    """A design request asks for what the design cannot hold; ``violations`` name every bad
    item (``objects[2] vase``, ``relations[0] near(vase, sofa)``) and why."""

    def __init__(self, violations: Sequence[Violation]) -> None:
        self.violations = tuple(violations)
        super().__init__(listing("the design request", self.violations))


class LayoutError(SceneError):
    """The layout solver cannot place what a scene design asks for."""


class LayoutTimeout(LayoutError):
    """The layout ran out of its time budget (``timeout_ms``)."""


class LayoutRejected(LayoutError):
    """The layout made a scene that the independent checker rejects (Table 1): the design held
    the situation, so the plan is not at fault; a layout bug."""


# --------------------------------------------------------------------------- policies


class PolicyError(LogicEnvError):
    """A policy cannot be loaded or built (unknown node, missing port, bad XML, ...)."""


class PolicyRuntimeError(PolicyError):
    """A BehaviorTree.CPP tree failed while it ran, as BT.CPP would throw from ``tick()``: a
    script read an entry nothing wrote, a port value does not convert to its type. The message
    names the file, line and node; a run that meets one ends as an ``error`` outcome."""


class Explained(Protocol):
    """What a policy fault carries: a run's outcome (``sim.outcome.Outcome``), which can say
    why it did not pass. A protocol, since this floor may not import the simulator."""

    def explain(self) -> str: ...


OutcomeT = TypeVar("OutcomeT", bound=Explained)


class PolicyFault(LogicEnvError, AssertionError, Generic[OutcomeT]):
    """A policy run that did not pass; the message is the outcome's explanation.

    It is an ``AssertionError`` too, so pytest reports it as a test failure, not an error."""

    def __init__(self, outcome: OutcomeT) -> None:
        super().__init__(outcome.explain())
        self.outcome = outcome


class RunFileError(LogicEnvError):
    """A policy run's JSON (``Outcome.to_json``, as the JSON report carries it) is malformed."""


# --------------------------------------------------------------------------- the pytest side


class CacheError(LogicEnvError):
    """A cache entry is missing, stale or corrupt."""


class CachedFileError(CacheError):
    """A command would overwrite a file a cache entry's manifest lists (a committed scene's
    picture or house): its digest would no longer match, and the next run rebuilds the entry
    (in CI, fails)."""


class WriteRefused(LogicEnvError):
    """A command, a report or a render was asked to write where the product never writes:
    inside a ``.git`` folder, or over a directory."""


class CacheRebuilt(LogicEnvError, UserWarning):
    """A warning: a cache entry was rebuilt because it was stale, and why (its plan.json was
    edited, a derived file did not match its digest, an older format). Shown in pytest's
    warnings summary, so that a rebuild is never silent; a separate class from
    :class:`LogicEnvWarning`, so that ``-W error::pytest_logicenv.LogicEnvWarning`` does not
    turn it into an error."""


class MarkerError(LogicEnvError):
    """A ``logic_env`` marker is used wrongly."""


class ExpectFaultError(MarkerError, ValueError):
    """``expect_fault`` (of the marker or of ``logic_env.run``) names no fault class."""


class LogicEnvWarning(LogicEnvError, UserWarning):
    """A test passed though a policy run in it did not (its outcome was never asserted).

    ``-W error::pytest_logicenv.LogicEnvWarning`` makes such a test fail. A ``UserWarning``
    rather than a ``pytest.PytestWarning``, so that the CLI need not import pytest."""


class PolicyLintWarning(UserWarning):
    """A BT.CPP tree loads, as BT.CPP loads it, but reads a blackboard entry nothing in it
    writes, or leaves out an input port without a default: BT.CPP fails only when that read
    runs, and so do we. Not a :class:`LogicEnvError`: the application may set the entry."""


class CatalogHookWarning(UserWarning):
    """The ``pytest_logicenv_catalog`` hook adds types that ``logicenv`` commands cannot see
    (they read the type file, not the hook): a plan that uses them passes under pytest only.
    Not a :class:`LogicEnvError`: nothing failed."""


# --------------------------------------------------------------------------- LLM


class LLMError(LogicEnvError):
    """The LLM endpoint failed or kept answering with something unusable."""


class AnswerError(LLMError):
    """An answer is not the JSON object asked for; ``reason`` says why, for the model."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Rejected(LogicEnvError):
    """An answer broke rules; ``violations`` go back to the model (refinement, not failure)."""

    def __init__(self, violations: Sequence[Violation]) -> None:
        super().__init__(f"{len(violations)} violations")
        self.violations = tuple(violations)


class PlanNotAcceptedError(PlanError):
    """A plan an LLM derived still fails the checks, and is kept in the cache for a person to
    fix: the violations, then ``fix`` (which file to edit, which command reruns the test)."""

    def __init__(self, source: str, violations: Sequence[Violation], fix: str) -> None:
        super().__init__(source, violations)
        self.fix = fix

    def __str__(self) -> str:
        return f"{super().__str__()}\n{self.fix}"
