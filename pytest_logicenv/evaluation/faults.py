"""Which faults the scenes revealed, and as what: SceVR, FauDR and the class accuracy.

A faulty policy is *revealed* in a valid scene (one where the correct policy passes: the
paper excludes the others, where every policy would fail) when it does not pass there. It is
revealed *as* its declared class when some valid scene shows exactly that class; otherwise as
the class its revealing runs show most often (the first of them on a tie). The class accuracy
is the share of revealed faults whose class matches the declared one: a suite can detect
every fault and still misjudge what kind each one is.

>>> runs = {"correct": ("pass", "pass", "lackbranch"),
...         "unreachable": ("pass", "lackbranch", "lackbranch")}
>>> valid, findings = judge(runs)
>>> valid, findings[0].revealed_as, findings[0].matches, findings[0].scenes
((0, 1), 'lackbranch', False, (1,))
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_logicenv.sim.outcome import FAULTS

Metrics = dict[str, float | None]


@dataclass(frozen=True)
class FaultFinding:
    """What the valid scenes showed of one faulty policy: the class it was revealed as
    (``None``: never revealed) and the indexes of the scenes that revealed it."""

    fault: str
    revealed_as: str | None
    scenes: tuple[int, ...] = ()

    @property
    def revealed(self) -> bool:
        return self.revealed_as is not None

    @property
    def matches(self) -> bool:
        """Whether it was revealed as the class it was declared to have."""
        return self.revealed_as == self.fault


def judge(runs: Mapping[str, Sequence[str]]) -> tuple[tuple[int, ...], tuple[FaultFinding, ...]]:
    """The valid scenes (where the correct policy passes) and a finding per faulty policy
    that ran; ``runs`` maps each policy kind to its outcome kind per scene."""
    correct = runs.get("correct", ())
    valid = tuple(i for i, kind in enumerate(correct) if kind == "pass")
    findings = []
    for fault in (f for f in FAULTS if f in runs):
        shown = [(i, runs[fault][i]) for i in valid if runs[fault][i] != "pass"]
        findings.append(FaultFinding(fault, _revealed_as(fault, shown), tuple(i for i, _ in shown)))
    return valid, tuple(findings)


def _revealed_as(fault: str, shown: Sequence[tuple[int, str]]) -> str | None:
    kinds = [kind for _, kind in shown]
    if not kinds:
        return None
    if fault in kinds:
        return fault
    counts = Counter(kinds)
    return max(kinds, key=lambda kind: (counts[kind], -kinds.index(kind)))


def fault_metrics(
    runs: Mapping[str, Sequence[str]], scenes: int
) -> tuple[Metrics, tuple[FaultFinding, ...], list[str]]:
    """SceVR, FauDR per class and on average, and the class accuracy (``None`` where there is
    nothing to measure), the findings, and notes on what stands out."""
    metrics: Metrics = {"SceVR": None, "FauDR": None, "ClassAcc": None}
    metrics.update({f"FauDR_{fault}": None for fault in FAULTS})
    if "correct" not in runs:
        return metrics, (), []
    valid, findings = judge(runs)
    metrics["SceVR"] = 100.0 * len(valid) / scenes if scenes else None
    notes = []
    for finding in findings:
        metrics[f"FauDR_{finding.fault}"] = 100.0 if finding.revealed else 0.0
        if not finding.revealed:
            notes.append(f"{finding.fault} policy passes in every valid scene: not revealed")
        elif not finding.matches:
            notes.append(f"{finding.fault} policy detected, but shown as {finding.revealed_as}")
    present = [v for f in FAULTS if (v := metrics[f"FauDR_{f}"]) is not None]
    metrics["FauDR"] = statistics.fmean(present) if present else None
    revealed = [f for f in findings if f.revealed]
    if revealed:
        metrics["ClassAcc"] = 100.0 * sum(f.matches for f in revealed) / len(revealed)
    return metrics, findings, notes
