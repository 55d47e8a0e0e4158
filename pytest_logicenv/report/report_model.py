"""The LogCov report as data: coverage per task and the declared faults, from the run records.

Coverage is computed from the scenes a policy actually ran in, by evaluating each condition's
realization facts on them (see :mod:`pytest_logicenv.logic.coverage`): as pytest-cov counts
only executed lines, a scene whose test was skipped, never called ``logic_env.run()`` or whose
policy could not even be built covers nothing. A declared
fault is judged per test function *and policy*: one function may run several policies, each
with its own ``expect_fault``, and each must be revealed by some scene it ran in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from pytest_logicenv.cache import Entry, regenerate_hint
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.logic.coverage import (
    PlanCoverage,
    TotalCoverage,
    conditions_coverage,
    total,
    true_conditions,
)
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.mutation.scores import MutationReport
from pytest_logicenv.pipeline.cached import load_plan_of
from pytest_logicenv.pipeline.entry_reads import scene_at
from pytest_logicenv.pipeline.plan_review import ReviewStatus, review_status
from pytest_logicenv.report.mutation import mutation_report
from pytest_logicenv.report.records import RunRecord


@dataclass(frozen=True)
class TaskReport:
    """One task's environments (one cache entry), however many test functions ran them."""

    label: str
    functions: tuple[str, ...]
    entry: str
    coverage: PlanCoverage
    plan: Plan
    runs: tuple[RunRecord, ...]
    #: Who made the plan and whether a person reviewed it (``None``: the manifest cannot tell).
    review: ReviewStatus | None = None

    @property
    def unreviewed(self) -> bool:
        """Whether a model made the plan and no person has reviewed it as it is."""
        return self.review is not None and self.review.unreviewed

    @property
    def trajectories(self) -> tuple[str, ...]:
        """The environments that ran, in first-run order."""
        return tuple(dict.fromkeys(run.trajectory for run in self.runs))

    def outcomes(self, trajectory: str) -> dict[str, tuple[str, ...]]:
        """Test function -> the outcome kinds of its runs in one environment (its items in
        node id order, so that the result does not depend on which xdist worker ran what)."""
        found: dict[str, tuple[str, ...]] = {}
        for run in sorted(self.runs, key=lambda record: record.nodeid):
            if run.trajectory == trajectory:
                found[run.function] = found.get(run.function, ()) + run.outcomes
        return found


@dataclass(frozen=True)
class FaultCheck:
    """A policy a test function declares faulty (``expect_fault``): did a scene show it?

    ``scenes`` holds, per scene the policy ran in, the outcome kinds of its runs there (none
    when it could not run), and ``trajectories`` which scene each is; ``label`` names the check
    in reports: the test function, and the policy too when the function runs several.
    ``not_run`` counts the function's scenes the policy did not run in (a partial run did not
    select them, a skip marker or ``-x`` kept them from running): a fault none of the scenes
    that ran revealed is then not judged, since a scene left out may be the one that shows
    it."""

    function: str
    policy: str
    expect_fault: str
    scenes: tuple[tuple[str, ...], ...]
    label: str
    trajectories: tuple[str, ...] = ()
    not_run: int = 0

    @property
    def hits(self) -> int:
        return sum(self.expect_fault in kinds for kinds in self.scenes)

    @property
    def revealed(self) -> bool:
        return self.hits > 0

    @property
    def judged(self) -> bool:
        """Whether the run can tell: the fault showed, or every scene of the test ran."""
        return self.revealed or self.not_run == 0

    @property
    def verdict(self) -> str:
        """``revealed``, ``missed`` (every scene ran, none showed it) or ``not judged``."""
        if self.revealed:
            return "revealed"
        return "missed" if self.judged else "not judged"


@dataclass(frozen=True)
class SceneSelection:
    """What a run selected of each marked test function's scenes: ``scenes``, every scene
    (trajectory id) of the function's cache entry; ``selected``, those of its items the run
    kept (node ids, ``-k``, ``-m``, ``--deselect``, ``--lf``; over every xdist worker). A
    function it does not name counts as whole: only its records are known then."""

    scenes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    selected: Mapping[str, frozenset[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Report:
    """The session's coverage per task, its declared faults, how many scenes (a test
    function's environment) a policy ran in, how many the run selected that did not run one
    (skipped, stopped before them, or no ``logic_env.run()``) and how many it did not select,
    and the mutation score when mutants ran."""

    tasks: tuple[TaskReport, ...]
    faults: tuple[FaultCheck, ...]
    total: TotalCoverage
    problems: tuple[str, ...] = field(default=())
    scenes_ran: int = 0
    scenes_not_selected: int = 0
    scenes_idle: int = 0
    #: The mutation score, with ``--logicenv-mutate`` (``report/mutation.py``).
    mutation: MutationReport | None = None

    @property
    def missed_faults(self) -> tuple[FaultCheck, ...]:
        """Declared faults no scene revealed although every scene of their test ran."""
        return tuple(c for c in self.faults if c.verdict == "missed")

    @property
    def unjudged_faults(self) -> tuple[FaultCheck, ...]:
        """Declared faults the scenes that ran did not reveal, with some not run."""
        return tuple(c for c in self.faults if c.verdict == "not judged")


def relative_path(path: Path, rootdir: Path) -> str:
    """``path`` relative to the rootdir where it is under it, as ``/``-separated text (what
    every report shows: the same on every machine).

    >>> relative_path(Path("/p/cache/e"), Path("/p")), relative_path(Path("/q/e"), Path("/p"))
    ('cache/e', '/q/e')
    """
    return (path.relative_to(rootdir) if path.is_relative_to(rootdir) else path).as_posix()


def _label(functions: Sequence[str]) -> str:
    if len(functions) == 1:
        return functions[0]
    modules = {function.split("::", 1)[0] for function in functions}
    if len(modules) == 1:
        return f"{modules.pop()} ({len(functions)} tests)"
    return f"{functions[0]} (+{len(functions) - 1} tests)"


def build_report(records: Iterable[RunRecord], selection: SceneSelection | None = None) -> Report:
    """Group run records by task (cache entry) and compute coverage from the scenes that ran;
    judge the declared faults per test function and policy, only on the scenes that ran, out
    of every scene of the function (``selection``)."""
    records = list(records)
    selection = selection or SceneSelection()
    by_entry: dict[str, list[RunRecord]] = {}
    for record in records:
        by_entry.setdefault(record.entry, []).append(record)
    tasks = []
    problems = []
    for root, runs in sorted(by_entry.items()):
        task = _task_report(Entry(Path(root)), runs)
        if isinstance(task, str):
            problems.append(task)
        else:
            tasks.append(task)
    tasks.sort(key=lambda task: task.label)  # the order a reader looks things up in
    ran = {(record.function, record.trajectory) for record in records if record.outcomes}
    chosen = {(record.function, record.trajectory) for record in records}
    chosen |= {(f, t) for f, trajectories in selection.selected.items() for t in trajectories}
    functions = {function for function, _ in chosen}
    every = {(f, t) for f in functions for t in selection.scenes.get(f, ())}
    checks = tuple(
        replace(
            check, not_run=len({*selection.scenes.get(check.function, ())} - {*check.trajectories})
        )
        for check in fault_checks(records)
    )
    return Report(
        tuple(tasks),
        checks,
        total([t.coverage for t in tasks]),
        tuple(problems),
        scenes_ran=len(ran),
        scenes_not_selected=len(every - chosen),
        scenes_idle=len(chosen - ran),
        mutation=mutation_report(records),
    )


def _task_report(entry: Entry, runs: list[RunRecord]) -> TaskReport | str:
    """One task's coverage, or why it has none (errors name the file)."""
    functions = tuple(sorted({run.function for run in runs}))
    label = _label(functions)
    try:
        fix = f"delete {entry.root} and run {regenerate_hint(functions[0])}"
        plan = load_plan_of(entry, fix=fix)
        # Only where a policy ran to an outcome: a skipped test covers nothing.
        ran = [run for run in runs if run.outcomes]
        carried = {run.trajectory: run.holds for run in ran if run.holds is not None}
        holdings = [
            carried[trajectory]
            if trajectory in carried
            else true_conditions(plan, scene_at(entry.scene_path(trajectory)))
            for trajectory in dict.fromkeys(run.trajectory for run in ran)
        ]
    except LogicEnvError as error:
        return f"{label}: no coverage: {error}"
    return TaskReport(
        label=label,
        functions=functions,
        entry=str(entry.root),
        coverage=conditions_coverage(plan, holdings, name=label),
        plan=plan,
        runs=tuple(runs),
        review=_review(entry),
    )


def _review(entry: Entry) -> ReviewStatus | None:
    try:
        return review_status(entry)
    except LogicEnvError:  # a damaged manifest: the entry's tests say so
        return None


Key = tuple[str, str, str]  # (test function, policy, declared fault)


def fault_checks(records: Sequence[RunRecord]) -> tuple[FaultCheck, ...]:
    """One check per (test function, policy, declared fault), sorted by function, fault and
    policy. An item that ran no policy at all (it failed or skipped first) still counts as a
    scene without an outcome for the fault its marker declares."""
    scenes: dict[Key, list[tuple[str, tuple[str, ...]]]] = {}
    for record in records:
        declared = dict.fromkeys((r.policy, r.expect_fault) for r in record.runs if r.expect_fault)
        for policy, fault in declared:
            kinds = tuple(
                r.outcome
                for r in record.runs
                if (r.policy, r.expect_fault) == (policy, fault) and r.outcome is not None
            )
            key = (record.function, policy, str(fault))
            scenes.setdefault(key, []).append((record.trajectory, kinds))
    for record in records:
        if record.runs or record.expect_fault is None:
            continue
        same = [k for k in scenes if k[0] == record.function and k[2] == record.expect_fault]
        for key in same or [(record.function, "", record.expect_fault)]:
            scenes.setdefault(key, []).append((record.trajectory, ()))
    policies: dict[str, set[str]] = {}
    for record in records:
        policies.setdefault(record.function, set()).update(record.policies)
    return tuple(
        FaultCheck(
            function,
            policy,
            fault,
            tuple(kinds for _, kinds in scenes[function, policy, fault]),
            _check_label(function, policy, policies[function]),
            trajectories=tuple(trajectory for trajectory, _ in scenes[function, policy, fault]),
        )
        for function, policy, fault in sorted(scenes, key=lambda k: (k[0], k[2], k[1]))
    )


def _check_label(function: str, policy: str, policies: set[str]) -> str:
    if len(policies) <= 1:
        return function
    return f"{function} ({policy or 'no policy ran'})"
