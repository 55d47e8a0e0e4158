"""What a witness search answers, as data: the witness, or why there is none.

Three verdicts: ``found`` (the calls, replayed green in the simulator), ``impossible`` (every
state the actions reach from the scene's start was searched: no sequence of any length
exists) and ``budget`` (none within the budget's steps or milliseconds; a longer or slower
search might find one). The two failures carry the blockers of the goal facts left false.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pytest_logicenv.errors import SceneError
from pytest_logicenv.witness.blockers import Blocker, blocker_from_json

FOUND, IMPOSSIBLE, BUDGET = "found", "impossible", "budget"
#: What ended a search: the step budget, the CPU time, the wall clock, the states kept; or,
#: for ``impossible`` before any search, the rules no action changes
#: (:mod:`~pytest_logicenv.witness.ruled_out`).
STEPS, TIME, WALL, STATES, RULES = "steps", "time", "wall time", "states", "rules"
#: The format of a ``<scene>.witness.json`` file.
WITNESS_FORMAT = "logicenv-witness/1"


@dataclass(frozen=True)
class Budget:
    """How far a search may go: calls in the witness, and milliseconds of searching."""

    max_steps: int = 60
    max_ms: float = 10000.0

    def __post_init__(self) -> None:
        if self.max_steps < 1 or self.max_ms <= 0:
            raise ValueError(
                f"a witness budget needs at least 1 step and some milliseconds, got "
                f"{self.max_steps} steps / {self.max_ms:g} ms"
            )

    def __str__(self) -> str:
        return f"{self.max_steps} steps / {self.max_ms:g} ms"


@dataclass(frozen=True)
class WitnessCall:
    """One call of a witness: the action and each port's reference (a role that names one
    object of the scene, else an object id), as a policy would write it."""

    action: str
    arguments: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return f"{self.action}({', '.join(ref for _, ref in self.arguments)})"


@dataclass(frozen=True)
class WitnessResult:
    """The answer of :func:`~pytest_logicenv.witness.find_witness` for one scene."""

    verdict: str
    calls: tuple[WitnessCall, ...] = ()
    blockers: tuple[Blocker, ...] = ()
    budget: Budget = Budget()
    states: int = 0
    elapsed_ms: float = 0.0
    #: What ended a ``budget`` search (``steps``, ``time``, ``wall time``, ``states``), or
    #: ``rules`` for an ``impossible`` proved before any search.
    stopped_by: str = ""

    @property
    def solved(self) -> bool:
        return self.verdict == FOUND

    @property
    def sequence(self) -> str:
        """The witness as calls: ``GoTo(blanket), PickUp(blanket), ...``."""
        return ", ".join(str(call) for call in self.calls) or "(nothing to do)"

    def explain(self) -> str:
        """One paragraph: the passing sequence, or why there is none and what blocks it."""
        if self.solved:
            return f"a passing sequence: {self.sequence}"
        if self.verdict == IMPOSSIBLE and self.stopped_by == RULES:
            head = (
                "proved impossible: no sequence of actions makes every goal fact true (rules "
                "no action changes rule it out, whatever the budget)"
            )
        elif self.verdict == IMPOSSIBLE:
            head = (
                f"proved impossible: no sequence of actions makes every goal fact true (all "
                f"{self.states} states the actions reach were searched)"
            )
        else:
            head = (
                f"no witness within {self.budget} (stopped by {self.stopped_by}; "
                f"{self.states} states searched)"
            )
        lines = [f"  {blocker}" for blocker in self.blockers]
        return "\n".join([head + (", left false:" if lines else ""), *lines])

    def to_json(self) -> dict[str, Any]:
        """The witness file's content: deterministic (no timing), so a regenerated entry is
        byte for byte the same."""
        return {
            "format": WITNESS_FORMAT,
            "verdict": self.verdict,
            "calls": [
                {"action": c.action, "arguments": dict(c.arguments), "text": str(c)}
                for c in self.calls
            ],
            "blockers": [blocker.to_json() for blocker in self.blockers],
            "budget": {"max_steps": self.budget.max_steps, "max_ms": self.budget.max_ms},
            "states": self.states,
        }


def witness_from_json(data: Mapping[str, Any], where: str) -> WitnessResult:
    """The result :meth:`WitnessResult.to_json` wrote; a malformed one is a
    :class:`~pytest_logicenv.errors.SceneError` naming ``where``."""
    try:
        if data.get("format") != WITNESS_FORMAT:
            raise ValueError(f"format {data.get('format')!r}, not {WITNESS_FORMAT!r}")
        calls = tuple(
            WitnessCall(
                str(c["action"]), tuple((str(p), str(r)) for p, r in c["arguments"].items())
            )
            for c in data["calls"]
        )
        budget = Budget(int(data["budget"]["max_steps"]), float(data["budget"]["max_ms"]))
        blockers = tuple(blocker_from_json(b) for b in data.get("blockers", []))
        return WitnessResult(
            str(data["verdict"]), calls, blockers, budget, states=int(data.get("states", 0))
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise SceneError(f"{where}: not a witness file ({error})") from None
