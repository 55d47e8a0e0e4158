"""What an evaluation measured: one :class:`TaskResult` per task, and their :class:`Evaluation`."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pytest_logicenv.evaluation.faults import FaultFinding
from pytest_logicenv.sim.outcome import FAULTS

#: The paper's Table 2 columns, in its order (FauDR per fault class, then on average), and
#: ClassAcc: of the faults revealed, the share revealed as their declared class.
METRIC_KEYS = (
    "PhyPR",
    "PhyPR_floor_plan",
    "PhyPR_entity",
    "PhyPR_relation",
    "LogCov",
    "SceVR",
    "SceVR_witness",
    "FauDR",
    *(f"FauDR_{fault}" for fault in FAULTS),
    "ClassAcc",
    "ST",
    "JI",
    "TypeMis",
)

#: Metrics a task that produced nothing does not count 0 in: seconds, and a count of
#: mismatches (an absent measurement, not a bad one).
NOT_ZEROED = ("ST", "TypeMis")


@dataclass(frozen=True)
class TaskResult:
    """The metrics of one task (``None`` where they could not be computed) and why; the
    scenes (trajectory ids, in order), each policy's outcome kind per scene (by policy kind:
    ``correct``, ``counterfactual``, ...) and what the scenes revealed of each fault."""

    task_id: str
    scenes: int = 0
    metrics: Mapping[str, float | None] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()  # what kept a metric from being measured
    scene_ids: tuple[str, ...] = ()
    runs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    findings: tuple[FaultFinding, ...] = ()

    def to_json(self) -> dict[str, Any]:
        valid = {i for i, kind in enumerate(self.runs.get("correct", ())) if kind == "pass"}
        return {
            **_rounded(self.metrics),
            "scenes": self.scenes,
            "outcomes": {
                scene: {
                    "valid": index in valid if "correct" in self.runs else None,
                    **{kind: kinds[index] for kind, kinds in self.runs.items()},
                }
                for index, scene in enumerate(self.scene_ids)
            },
            "faults": {
                finding.fault: {
                    "revealed": finding.revealed,
                    "revealed_as": finding.revealed_as,
                    "class_matches": finding.matches if finding.revealed else None,
                    "scenes_revealing": [self.scene_ids[i] for i in finding.scenes],
                }
                for finding in self.findings
            },
            "notes": list(self.notes),
            "errors": list(self.errors),
        }


@dataclass(frozen=True)
class Evaluation:
    """Every task's result under one selection strategy, and notes on the inputs."""

    strategy: str
    tasks: tuple[TaskResult, ...]
    notes: tuple[str, ...] = ()
    #: Where the plans came from: ``plan`` (the formal plans) or ``llm`` (the model).
    planner: str = "plan"

    @property
    def ok(self) -> bool:
        """Whether there were tasks and every one could be measured."""
        return bool(self.tasks) and not any(task.errors for task in self.tasks)

    @property
    def empty(self) -> tuple[TaskResult, ...]:
        """The tasks that produced no scene: each counts 0 in the overall row."""
        return tuple(task for task in self.tasks if task.scenes == 0)

    @property
    def overall(self) -> dict[str, float | None]:
        """Each metric's mean over the tasks that have it and those that produced nothing
        (counted 0, except in :data:`NOT_ZEROED`)."""
        result: dict[str, float | None] = {}
        for key in METRIC_KEYS:
            values = [v for t in self.tasks if (v := t.metrics.get(key)) is not None]
            if key not in NOT_ZEROED and values:
                values += [0.0] * len(self.empty)
            result[key] = statistics.fmean(values) if values else None
        return result

    @property
    def overall_note(self) -> str | None:
        """Which tasks the overall row counts 0, and why (``None``: none)."""
        if not self.empty:
            return None
        named = "; ".join(
            f"{t.task_id} ({t.errors[0] if t.errors else 'no scenes'})" for t in self.empty
        )
        return (
            f"overall: over all {len(self.tasks)} tasks; {len(self.empty)} produced nothing "
            f"and count 0: {named}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "planner": self.planner,
            "overall": _rounded(self.overall),
            "overall_note": self.overall_note,
            "tasks": {t.task_id: t.to_json() for t in self.tasks},
            "notes": list(self.notes),
        }


def _rounded(metrics: Mapping[str, float | None]) -> dict[str, float | None]:
    return {
        key: None if metrics.get(key) is None else round(float(metrics[key] or 0.0), 4)
        for key in METRIC_KEYS
    }
