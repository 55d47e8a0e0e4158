"""Logic coverage: which conditions and decision paths the scenes that ran really covered.

Like line and branch coverage, there are two measures:

* **condition coverage** (the paper's Definition 1, logical diversity): the share of atomic
  conditions ``(factor, value)`` found true in at least one scene;
* **path coverage** (the paper's LogCov metric): the share of decision paths whose conditions
  all hold together in at least one scene.

A condition counts only when the facts evaluator finds its realization true in a scene that
was run, never because a generator claims it. A value without realization facts cannot be
verified: it is reported as such and not counted as covered.

>>> from pytest_logicenv.logic.plan import plan_from_json
>>> plan = plan_from_json({"format": "logicenv-plan/1", "task": "", "subtasks": [{
...     "name": "window", "factors": [{"id": "window", "question": "Is the window open?",
...     "domain": ["yes", "no"], "realization": {
...         "yes": [{"state": "Window", "open": True}],
...         "no": [{"not": {"state": "Window", "open": True}}]}}],
...     "tree": {"query": "window", "branches": {
...         "yes": {"action": "Close it."}, "no": {"action": "Do nothing."}}}}]})
>>> from pytest_logicenv.scenes.scene_model import Room, Scene, Window
>>> room = Room("bath", "Bathroom", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> scene = Scene("s", rooms=(room,), windows=(Window("w", "wall", "bath", 1.0, open=True),))
>>> report = plan_coverage(plan, [scene], name="close_window")
>>> report.covered_paths, report.log_cov
(1, 50.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from pytest_logicenv.logic.facts import World, evaluate_all
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import DecisionPath, Trajectory, plan_paths


@dataclass(frozen=True)
class PlanCoverage:
    """Coverage of one plan (one marked test) by the scenes that ran."""

    name: str
    conditions: tuple[tuple[str, str], ...]
    covered_condition_set: frozenset[tuple[str, str]]
    paths: tuple[str, ...]
    covered_path_set: frozenset[str]
    unverifiable: tuple[tuple[str, str], ...] = ()
    scenes: int = 0
    #: In how many of the scenes each condition held (what a line's hits are in Cobertura).
    condition_hits: tuple[tuple[tuple[str, str], int], ...] = ()
    #: In how many of the scenes each path held (a branch taken, so many times).
    path_hits: tuple[tuple[str, int], ...] = ()

    def hits(self, condition: tuple[str, str]) -> int:
        """The scenes ``condition`` held in."""
        return dict(self.condition_hits).get(condition, 0)

    def path_taken(self, path: str) -> int:
        """The scenes the path (by key) held in."""
        return dict(self.path_hits).get(path, 0)

    @property
    def total_conditions(self) -> int:
        return len(self.conditions)

    @property
    def covered_conditions(self) -> int:
        return len(self.covered_condition_set)

    @property
    def total_paths(self) -> int:
        return len(self.paths)

    @property
    def covered_paths(self) -> int:
        return len(self.covered_path_set)

    @property
    def condition_cov(self) -> float:
        return percent(self.covered_conditions, self.total_conditions)

    @property
    def log_cov(self) -> float:
        """Path coverage in percent: the paper's LogCov."""
        return percent(self.covered_paths, self.total_paths)

    @property
    def missing_conditions(self) -> tuple[tuple[str, str], ...]:
        return tuple(c for c in self.conditions if c not in self.covered_condition_set)

    @property
    def missing_paths(self) -> tuple[str, ...]:
        return tuple(p for p in self.paths if p not in self.covered_path_set)


@dataclass(frozen=True)
class TotalCoverage:
    """Sums over several plans, as a coverage report's TOTAL line."""

    total_conditions: int
    covered_conditions: int
    total_paths: int
    covered_paths: int

    @property
    def condition_cov(self) -> float:
        return percent(self.covered_conditions, self.total_conditions)

    @property
    def log_cov(self) -> float:
        return percent(self.covered_paths, self.total_paths)


def percent(part: int, whole: int) -> float:
    """``part`` of ``whole`` in percent; 100 when there is nothing to cover."""
    return 100.0 * part / whole if whole else 100.0


def _path_holds(path: DecisionPath, true_conditions: set[tuple[str, str]]) -> bool:
    return all(condition in true_conditions for condition in path.conditions)


def true_conditions(plan: Plan, world: World) -> set[tuple[str, str]]:
    """The plan's conditions whose realization facts all hold in ``world``."""
    return {
        (factor.id, value)
        for factor in plan.factors
        for value in factor.domain
        if factor.realizations.get(value) and evaluate_all(factor.realizations[value], world)
    }


def plan_coverage(plan: Plan, worlds: Iterable[World], name: str = "") -> PlanCoverage:
    """Condition and path coverage of ``plan`` by the scenes in ``worlds``."""
    return conditions_coverage(plan, (true_conditions(plan, world) for world in worlds), name)


def conditions_coverage(
    plan: Plan, holdings: Iterable[Collection[tuple[str, str]]], name: str = ""
) -> PlanCoverage:
    """Coverage of ``plan`` by scenes given as the conditions each makes true
    (:func:`true_conditions`, found where the scene was read: a test item's run record)."""
    all_paths = [path for group in plan_paths(plan) for path in group]
    conditions: Counter[tuple[str, str]] = Counter()
    paths: Counter[str] = Counter()
    count = 0
    for found in holdings:
        count += 1
        holding = set(found)
        conditions.update(holding)
        paths.update(p.key for p in all_paths if _path_holds(p, holding))
    return PlanCoverage(
        name=name,
        conditions=plan.conditions,
        covered_condition_set=frozenset(conditions),
        paths=tuple(p.key for p in all_paths),
        covered_path_set=frozenset(paths),
        unverifiable=tuple(
            (f.id, v) for f in plan.factors for v in f.domain if not f.realizations.get(v)
        ),
        scenes=count,
        condition_hits=tuple(sorted(conditions.items())),
        path_hits=tuple(sorted(paths.items())),
    )


Branch = tuple[str, tuple[tuple[str, str], ...]]  # (subtask, the (factor, value) steps to it)


def covered_branches(plan: Plan, coverage: PlanCoverage) -> frozenset[Branch]:
    """Every branch some covered path takes, as ``(subtask, steps)``: the steps themselves,
    never a text prefix of a path's key (``box=box`` is not a start of ``box=box_lid``).

    >>> from pytest_logicenv.logic.plan import Factor, Leaf, Plan, Query, Subtask
    >>> box = Factor("box", "Which box?", ("box", "box_lid"))
    >>> tree = Query("box", (("box", Leaf("a")), ("box_lid", Leaf("b"))))
    >>> plan = Plan("", (Subtask("s", (box,), tree),))
    >>> cov = PlanCoverage("s", (), frozenset(), ("s:box=box", "s:box=box_lid"),
    ...                    frozenset({"s:box=box_lid"}))
    >>> sorted(covered_branches(plan, cov))
    [('s', (('box', 'box_lid'),))]
    """
    branches: set[Branch] = set()
    for group in plan_paths(plan):
        for path in group:
            if path.key in coverage.covered_path_set:
                steps = path.conditions
                branches.update((path.subtask, steps[:n]) for n in range(1, len(steps) + 1))
    return frozenset(branches)


def total(coverages: Sequence[PlanCoverage]) -> TotalCoverage:
    return TotalCoverage(
        total_conditions=sum(c.total_conditions for c in coverages),
        covered_conditions=sum(c.covered_conditions for c in coverages),
        total_paths=sum(c.total_paths for c in coverages),
        covered_paths=sum(c.covered_paths for c in coverages),
    )


def claimed_paths(plan: Plan, trajectories: Iterable[Trajectory]) -> tuple[int, int]:
    """``(paths the trajectories name, all paths)``: what a selection *claims* to cover.

    This is a property of the selection, not coverage: only scenes that ran count for that.
    """
    named = {path.key for trajectory in trajectories for path in trajectory.paths}
    every = [path.key for group in plan_paths(plan) for path in group]
    return sum(key in named for key in every), len(every)
