"""What an evaluation measured: one :class:`TaskResult` per task, and their :class:`Evaluation`."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pytest_logicenv.sim.outcome import FAULTS

#: The paper's Table 2 columns, in its order (FauDR per fault class, then on average).
METRIC_KEYS = (
    "PhyPR",
    "PhyPR_floor_plan",
    "PhyPR_entity",
    "PhyPR_relation",
    "LogCov",
    "SceVR",
    "FauDR",
    *(f"FauDR_{fault}" for fault in FAULTS),
    "ST",
    "JI",
)


@dataclass(frozen=True)
class TaskResult:
    """The metrics of one task (``None`` where they could not be computed) and why."""

    task_id: str
    scenes: int = 0
    metrics: Mapping[str, float | None] = field(default_factory=dict)
    detected: Mapping[str, str] = field(default_factory=dict)  # fault -> outcome seen
    notes: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()  # what kept a metric from being measured


@dataclass(frozen=True)
class Evaluation:
    """Every task's result under one selection strategy, and notes on the inputs."""

    strategy: str
    tasks: tuple[TaskResult, ...]
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether there were tasks and every one could be measured."""
        return bool(self.tasks) and not any(task.errors for task in self.tasks)

    @property
    def overall(self) -> dict[str, float | None]:
        """Each metric's mean over the tasks that have it."""
        result: dict[str, float | None] = {}
        for key in METRIC_KEYS:
            values = [t.metrics[key] for t in self.tasks if t.metrics.get(key) is not None]
            result[key] = statistics.fmean(v for v in values if v is not None) if values else None
        return result

    def to_json(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "overall": _rounded(self.overall),
            "tasks": {
                t.task_id: {
                    **_rounded(t.metrics),
                    "scenes": t.scenes,
                    "notes": list(t.notes),
                    "errors": list(t.errors),
                }
                for t in self.tasks
            },
            "notes": list(self.notes),
        }


def _rounded(metrics: Mapping[str, float | None]) -> dict[str, float | None]:
    return {
        key: None if metrics.get(key) is None else round(float(metrics[key] or 0.0), 4)
        for key in METRIC_KEYS
    }
