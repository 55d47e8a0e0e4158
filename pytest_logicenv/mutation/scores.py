"""Mutants run in scenes, and the mutation score.

In each scene a test item runs, :func:`run_mutants` runs every mutant of the policy where the
policy itself passed (a scene the policy fails in cannot tell a mutant from it) and returns
what happened as JSON, which the item's record carries (from xdist workers too). After the
session, :func:`score_policy` joins a policy's scenes: a mutant is *killed* when some scene
where the policy passed ends otherwise for it (any outcome but ``pass``: a test over that
scene would fail), and *survives* otherwise: then either no scene has the situation that shows
its fault, or it changes nothing the scenes can see. The score is killed / total.

>>> scene = {"original": "pass", "mutants": [
...     {"id": "a", "operator": "swap-sequence", "fault": "counterfactual", "node": "n",
...      "change": "c", "outcome": "counterfactual"},
...     {"id": "b", "operator": "retarget", "fault": "unreachable", "node": "n", "change": "c",
...      "outcome": "pass"}]}
>>> score = score_policy("t.py::test", "tidy", [("s=1", scene)])
>>> score.killed, score.total, f"{score.score:.0f}%", [m.id for m in score.survivors]
(1, 2, '50%', ['b'])
>>> score.by_fault["counterfactual"], score.by_operator["retarget"]
((1, 1), (0, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytest_logicenv.errors import LogicEnvError

if TYPE_CHECKING:  # the report reads scores without loading the operators (and py_trees)
    from pytest_logicenv.mutation.mutants import Mutants
    from pytest_logicenv.mutation.operators import Mutation

#: The fault classes an operator models, in the order reports list them.
FAULT_CLASSES = ("counterfactual", "unreachable", "lackbranch")
#: The operators in the order reports list them (``operators.OPERATORS``'s order).
OPERATOR_ORDER = (
    "drop-open",
    "delete-needed",
    "delete-goal-action",
    "remove-branch",
    "swap-sequence",
    "negate-condition",
    "retarget",
)
#: Why a policy has no mutants, in the words a test shows.
NOTHING_TO_MUTATE = (
    "has nothing to mutate: its tree has no Sequence, Fallback, condition or simulator "
    "action the operators change (behaviours of your own are run, not mutated)"
)


def run_mutants(mutants: Mutants, original: str, run: Callable[[Any], Any]) -> dict[str, Any]:
    """Run each mutant with ``run`` (policy -> outcome) in a scene where the policy ended in
    ``original``; the JSON a record carries. A mutant that cannot be built is ``invalid``."""
    found: dict[str, Any] = {
        "original": original,
        "equivalent": [_described(m) for m in mutants.equivalent],
        "duplicates": mutants.duplicates,
    }
    if mutants.refused or mutants.nothing:
        found["nothing"] = mutants.refused or NOTHING_TO_MUTATE
    results = []
    for mutant in mutants.mutants:
        entry = _described(mutant.mutation)
        if original == "pass":
            try:
                entry["outcome"] = run(mutant).kind
            except LogicEnvError as error:
                entry["outcome"], entry["invalid"] = None, str(error)
        results.append(entry)
    found["mutants"] = results
    return found


def _described(mutation: Mutation) -> dict[str, Any]:
    return {
        "id": mutation.id,
        "operator": mutation.operator,
        "fault": mutation.fault,
        "node": mutation.node,
        "change": mutation.change,
    }


@dataclass(frozen=True)
class MutantVerdict:
    """One mutant over a policy's scenes: killed or not, and by which scenes and outcomes."""

    id: str
    operator: str
    fault: str
    node: str
    change: str
    kills: tuple[tuple[str, str], ...] = ()  # (scene, outcome) where it was told apart

    @property
    def killed(self) -> bool:
        return bool(self.kills)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "operator": self.operator,
            "fault": self.fault,
            "node": self.node,
            "change": self.change,
            "killed": self.killed,
            "kills": [{"scene": scene, "outcome": kind} for scene, kind in self.kills],
        }


@dataclass(frozen=True)
class PolicyScore:
    """A policy's mutation score over the scenes its test ran: its mutants' verdicts, what
    was discarded (equivalent, duplicates, invalid), and the scenes that counted. Only a
    policy that passes in every scene it ran in is scored: one that fails in some (``fails``,
    their outcomes) has no verdicts, its mutants made but not scored (``not_run``), since a
    mutant of a failing policy cannot be told from the fault it already has."""

    function: str
    policy: str
    verdicts: tuple[MutantVerdict, ...] = ()
    equivalent: tuple[Mapping[str, str], ...] = ()
    duplicates: int = 0
    invalid: tuple[str, ...] = ()
    scenes: int = 0  # scenes where the policy passed: those that can kill
    nothing: str | None = None
    ran_in: int = 0  # every scene the policy ran in
    not_run: int = 0  # mutants made but not scored: the policy fails in some scene
    fails: tuple[str, ...] = ()  # the outcome of each scene the policy did not pass in

    @property
    def label(self) -> str:
        return f"{self.function} ({self.policy})"

    @property
    def total(self) -> int:
        return len(self.verdicts)

    @property
    def killed(self) -> int:
        return sum(v.killed for v in self.verdicts)

    @property
    def score(self) -> float | None:
        """Killed / total in percent (``None``: no mutant, or no scene the policy passed)."""
        return 100.0 * self.killed / self.total if self.total and self.scenes else None

    @property
    def survivors(self) -> tuple[MutantVerdict, ...]:
        return tuple(v for v in self.verdicts if not v.killed)

    @property
    def by_operator(self) -> dict[str, tuple[int, int]]:
        return tally(self.verdicts, lambda v: v.operator, list(OPERATOR_ORDER))

    @property
    def by_fault(self) -> dict[str, tuple[int, int]]:
        return tally(self.verdicts, lambda v: v.fault, list(FAULT_CLASSES))


def tally(
    verdicts: Iterable[MutantVerdict], key: Callable[[MutantVerdict], str], order: Sequence[str]
) -> dict[str, tuple[int, int]]:
    """(killed, total) per key, in ``order``, keys without mutants left out."""
    counts: dict[str, list[int]] = {name: [0, 0] for name in order}
    for verdict in verdicts:
        count = counts.setdefault(key(verdict), [0, 0])
        count[0] += verdict.killed
        count[1] += 1
    return {name: (k, n) for name, (k, n) in counts.items() if n}


def score_policy(
    function: str, policy: str, scenes: Sequence[tuple[str, Mapping[str, Any]]]
) -> PolicyScore:
    """Join a policy's per-scene results (``(trajectory, run_mutants JSON)``) into its score."""
    described: dict[str, Mapping[str, Any]] = {}
    kills: dict[str, list[tuple[str, str]]] = {}
    invalid: dict[str, str] = {}
    counted = 0
    fails = []
    for trajectory, result in scenes:
        passed = result.get("original") == "pass"
        counted += passed
        fails += [] if passed else [str(result.get("original"))]
        for entry in result.get("mutants", ()):
            described.setdefault(entry["id"], entry)
            kills.setdefault(entry["id"], [])
            if entry.get("invalid"):
                invalid[entry["id"]] = str(entry["invalid"])
            elif passed and entry.get("outcome") not in (None, "pass"):
                kills[entry["id"]].append((trajectory, str(entry["outcome"])))
    first = scenes[0][1] if scenes else {}
    verdicts = tuple(
        MutantVerdict(
            **{k: str(entry[k]) for k in ("id", "operator", "fault", "node", "change")},
            kills=tuple(kills[mutant_id]),
        )
        for mutant_id, entry in described.items()
        if mutant_id not in invalid
    )
    scored = counted and not fails
    return PolicyScore(
        function,
        policy,
        verdicts if scored else (),
        equivalent=tuple(first.get("equivalent", ())),
        duplicates=int(first.get("duplicates", 0)),
        invalid=tuple(f"{mutant_id}: {why}" for mutant_id, why in invalid.items()),
        scenes=counted,
        nothing=first.get("nothing"),
        ran_in=len(scenes),
        not_run=0 if scored else len(verdicts),
        fails=tuple(fails),
    )


@dataclass(frozen=True)
class MutationReport:
    """Every mutated policy's score, and the totals."""

    policies: tuple[PolicyScore, ...] = field(default=())

    @property
    def verdicts(self) -> tuple[MutantVerdict, ...]:
        return tuple(v for p in self.policies if p.score is not None for v in p.verdicts)

    @property
    def killed(self) -> int:
        return sum(v.killed for v in self.verdicts)

    @property
    def total(self) -> int:
        return len(self.verdicts)

    @property
    def score(self) -> float | None:
        return 100.0 * self.killed / self.total if self.total else None

    @property
    def equivalent(self) -> int:
        return sum(len(p.equivalent) for p in self.policies)

    @property
    def duplicates(self) -> int:
        return sum(p.duplicates for p in self.policies)

    @property
    def by_operator(self) -> dict[str, tuple[int, int]]:
        return tally(self.verdicts, lambda v: v.operator, list(OPERATOR_ORDER))

    @property
    def by_fault(self) -> dict[str, tuple[int, int]]:
        return tally(self.verdicts, lambda v: v.fault, list(FAULT_CLASSES))
