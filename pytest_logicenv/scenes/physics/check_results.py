"""What the physics checker reports: one :class:`DimensionCheck` per Table 1 dimension, a
:class:`SceneCheck` per scene, and :func:`phypr`, the paper's pass rates over many scenes.

>>> from pytest_logicenv.errors import Violation
>>> ok = DimensionCheck("floor_plan", 3, ())
>>> bad = DimensionCheck("entity", 5, (Violation("entity", "objects[cup]", "floats"),))
>>> print(phypr([SceneCheck("a", ok, ok, ok), SceneCheck("b", ok, bad, ok)]))
PhyPR over 2 scenes: floor plan 100.0%, entity 50.0%, relation 100.0%, all three 50.0%
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pytest_logicenv.errors import Violation


@dataclass(frozen=True)
class DimensionCheck:
    """One dimension of one scene: how many checks ran and which failed."""

    name: str
    checks: int
    violations: tuple[Violation, ...]

    @property
    def passed(self) -> bool:
        return not self.violations


@dataclass(frozen=True)
class SceneCheck:
    """The three dimensions of one scene."""

    scene: str
    floor_plan: DimensionCheck
    entity: DimensionCheck
    relation: DimensionCheck

    @property
    def dimensions(self) -> tuple[DimensionCheck, DimensionCheck, DimensionCheck]:
        return self.floor_plan, self.entity, self.relation

    @property
    def passed(self) -> bool:
        return all(d.passed for d in self.dimensions)

    @property
    def violations(self) -> tuple[Violation, ...]:
        return tuple(v for d in self.dimensions for v in d.violations)


@dataclass(frozen=True)
class PhyPR:
    """Physics pass rates (percent) over a set of scenes."""

    scenes: int
    floor_plan: float
    entity: float
    relation: float
    overall: float

    @property
    def average(self) -> float:
        """The mean of the three dimensions (the paper's "Avg" column)."""
        return (self.floor_plan + self.entity + self.relation) / 3

    def __str__(self) -> str:
        return (
            f"PhyPR over {self.scenes} scene{'s' if self.scenes != 1 else ''}: "
            f"floor plan {self.floor_plan:.1f}%, entity {self.entity:.1f}%, "
            f"relation {self.relation:.1f}%, all three {self.overall:.1f}%"
        )


def phypr(checks: Sequence[SceneCheck]) -> PhyPR:
    """The share of scenes passing each dimension, and all three.

    >>> phypr([])
    PhyPR(scenes=0, floor_plan=0.0, entity=0.0, relation=0.0, overall=0.0)
    """
    count = len(checks)

    def rate(passed: Iterable[bool]) -> float:
        return 100.0 * sum(passed) / count if count else 0.0

    return PhyPR(
        scenes=count,
        floor_plan=rate(c.floor_plan.passed for c in checks),
        entity=rate(c.entity.passed for c in checks),
        relation=rate(c.relation.passed for c in checks),
        overall=rate(c.passed for c in checks),
    )


class Collector:
    """Counts one dimension's checks as they run and keeps the failures.

    Every check goes through :meth:`expect`, so the count a report prints is the number of
    conditions tested, passed or not.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.checks = 0
        self.violations: list[Violation] = []

    def expect(self, ok: bool, location: str, message: str) -> bool:
        """Count one check; record ``message`` at ``location`` when ``ok`` is false."""
        self.checks += 1
        if not ok:
            self.violations.append(Violation(self.name, location, message))
        return ok

    def result(self) -> DimensionCheck:
        return DimensionCheck(self.name, self.checks, tuple(self.violations))
