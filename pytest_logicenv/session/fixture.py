"""The ``logic_env`` fixture's value: one environment of a task, and a way to run a policy in it.

>>> # in a test marked @pytest.mark.logic_env("...")
>>> # def test_tidy(logic_env):
>>> #     logic_env.run(tidy_policy).assert_ok()
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from pytest_logicenv.cache import Entry, regenerate_hint
from pytest_logicenv.errors import CacheError, LogicEnvError, PolicyError
from pytest_logicenv.logic.facts import Fact
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory, trajectory_for
from pytest_logicenv.pipeline.cached import load_plan_of
from pytest_logicenv.pipeline.entry_reads import scene_at
from pytest_logicenv.pipeline.entry_situation import scene_conditions, shared_situation
from pytest_logicenv.pipeline.task_request import Case
from pytest_logicenv.pipeline.witness_files import read_witness
from pytest_logicenv.report.records import PROPERTY, PolicyRun, RunRecord, policy_label
from pytest_logicenv.report.repeats import CANNOT_RUN
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.session.catalog_choice import catalog_for
from pytest_logicenv.session.collection import ErrorCase, PendingCase
from pytest_logicenv.session.marker import check_fault
from pytest_logicenv.session.mutate import mutants_in_scene
from pytest_logicenv.session.settings import SETTINGS
from pytest_logicenv.sim.bt import XmlPolicy, load_bt_xml
from pytest_logicenv.sim.judge import NONDETERMINISTIC, judge

if TYPE_CHECKING:
    import pytest

    from pytest_logicenv.session.explore import Exploration, Explored
    from pytest_logicenv.session.settings import Settings
    from pytest_logicenv.sim.judge import Situation
    from pytest_logicenv.sim.outcome import Outcome
    from pytest_logicenv.witness import WitnessResult


class _MarkerDefault:
    def __repr__(self) -> str:
        return "<the marker's expect_fault>"


#: ``logic_env.run(policy)`` without ``expect_fault=``: the marker's applies.
MARKER_DEFAULT = _MarkerDefault()


class LogicEnv:
    """One generated environment (a solved scene for one trajectory) of a marked test.

    Attributes a test may read: ``trajectory_id``, ``situation`` (question/answer pairs),
    ``conditions``, ``goal`` (facts), ``scene``
    (the :class:`~pytest_logicenv.scenes.scene_model.Scene`),
    ``plan``, ``trajectory`` (its decision paths), ``scene_path``, ``picture`` (SVG) and
    ``house_json`` (the AI2-THOR house).
    """

    def __init__(
        self,
        case: Case,
        *,
        expect_fault: str | None = None,
        max_ticks: int | None = None,
        tree: str | None = None,
        nodes: Sequence[str] = (),
        base_dir: Path | None = None,
        function: str = "",
        item: str = "",
        on_outcome: Callable[[Outcome], None] = lambda outcome: None,
        command_options: Sequence[str] = (),
        exploration: Exploration | None = None,
        mutate: bool = False,
        rootdir: Path | None = None,
    ) -> None:
        self.case = case
        self.rootdir = rootdir  # a policy path under it is named relative to it
        self.expect_fault = expect_fault  # the marker's: the default of each run
        self.max_ticks = max_ticks
        self.tree = tree  # the BehaviorTree an XML policy runs (the marker's tree=)
        self.nodes = tuple(nodes)  # modules with the user's own XML nodes (marker, ini)
        self.base_dir = base_dir
        self.function = function  # the test function, for the command that regenerates its entry
        self._on_outcome = on_outcome
        self._command_options = tuple(command_options)  # for the command that regenerates
        self.exploration = exploration  # --logicenv-explore
        self.mutate = mutate  # --logicenv-mutate
        self.outcomes: list[Outcome] = []
        self.explored: list[Explored] = []  # the runs exploration found failing
        self._record = RunRecord(
            function, item, str(case.entry_root), case.trajectory_id, expect_fault
        )

    def __repr__(self) -> str:
        return f"<LogicEnv {self.trajectory_id} in {self.case.entry_root.name}>"

    @property
    def trajectory_id(self) -> str:
        return self.case.trajectory_id

    @property
    def situation(self) -> tuple[tuple[str, str], ...]:
        return self.case.situation

    @property
    def conditions(self) -> tuple[tuple[str, str], ...]:
        return self.case.conditions

    @property
    def goal(self) -> tuple[Fact, ...]:
        return self.case.goal

    @cached_property
    def witness(self) -> WitnessResult | None:
        """How this scene can be solved (the entry's witness file; ``None`` in an entry made
        before witnesses were); a damaged file fails the test."""
        try:
            return read_witness(self.case.entry_root, self.case.trajectory_id)
        except LogicEnvError as error:
            _fail(f"this environment's cache entry is damaged: {error}")

    @cached_property
    def scene(self) -> Scene:
        try:
            return scene_at(self.case.scene_path)
        except LogicEnvError as error:  # the cache was damaged after collection read it
            raise CacheError(f"{error}\nfix: {self._fix}") from None

    @cached_property
    def plan(self) -> Plan:
        return load_plan_of(Entry(self.case.entry_root), fix=self._fix)

    @cached_property
    def trajectory(self) -> Trajectory:
        """The situation as the plan's decision paths (one per subtask), with their leaves."""
        return trajectory_for(self.plan, self.conditions)

    @property
    def _fix(self) -> str:
        regenerate = (
            regenerate_hint(self.function, self._command_options)
            if self.function
            else "pytest --logicenv-regenerate"
        )
        return f"delete {self.case.entry_root} and run {regenerate}"

    @property
    def scene_path(self) -> Path:
        return self.case.scene_path

    @property
    def picture(self) -> Path:
        return self.case.picture_path

    @property
    def house_json(self) -> Path:
        return self.case.house_path

    @property
    def record(self) -> RunRecord:
        """What this item ran so far, for the report."""
        return self._record

    def run(
        self,
        policy: Any,
        *,
        expect_fault: str | _MarkerDefault | None = MARKER_DEFAULT,
        max_ticks: int | None = None,
        tree: str | None = None,
        nodes: Sequence[str] = (),
    ) -> Outcome:
        """Run ``policy`` (a py_trees root, a factory returning one, or a BehaviorTree.CPP
        XML path, relative paths taken from the test file's folder) in this environment and
        return its outcome; ``outcome.assert_ok()`` fails the test with an explanation.

        ``expect_fault`` declares that this policy has that fault class, so that a scene
        showing it passes; the session fails if none of the policy's scenes shows it. It
        defaults to the marker's ``expect_fault``; ``None`` declares no fault.

        For XML, ``tree`` picks the BehaviorTree (default: the marker's ``tree=``, then the
        file's main tree) and ``nodes`` adds modules of the user's own nodes to the marker's
        ``nodes=`` and the ``logicenv_nodes`` ini option."""
        __tracebackhide__ = True  # a bad expect_fault points at the test's line
        fault = self._declared(expect_fault)
        label = policy_label(policy, tree or self.tree, self.rootdir)
        try:
            runnable = self._runnable(policy, tree, nodes)
            situation = self.judged_by(max_ticks)
            outcome = self._first_run(situation, runnable)
        except BaseException:  # the policy never ran to an outcome: its scene still counts
            self._record = self._record.adding(PolicyRun(label, fault, None))
            raise
        if fault is not None:
            outcome = outcome.expecting(fault)
        if self._record.holds is None:
            holds = scene_conditions(self.case, self.plan, self.scene)
            self._record = self._record.holding(holds)
        passed = outcome.kind == "pass" and fault is None
        explored = self._explore(runnable, situation, label) if passed else None
        judged = fault is None and outcome.status != NONDETERMINISTIC  # else nothing to score
        mutation = self._mutate(runnable, situation, outcome) if judged else None
        run = PolicyRun(
            label,
            fault,
            outcome.kind,
            outcome.to_json(),
            explored=None if explored is None else explored.to_json(),
            mutation=mutation,
        )
        self._record = self._record.adding(run)
        self.outcomes.append(outcome)
        self._on_outcome(outcome)
        if explored is not None and explored.problem is not None:
            _fail(explored.problem)
        if explored is not None and explored.outcome is not None:
            self.explored.append(explored)
            return explored.outcome  # the plainest scene of the situation it fails in
        return outcome

    def _explore(self, runnable: Any, situation: Situation, label: str) -> Explored | None:
        """``--logicenv-explore``: the run again in other scenes of this situation."""
        if self.exploration is None:
            return None
        from pytest_logicenv.session.explore import explore  # Hypothesis: the explore extra

        key = f"{self._record.nodeid or self.trajectory_id}::{label}"
        return explore(self.exploration, situation, runnable, key=key)

    def _mutate(self, runnable: Any, situation: Situation, outcome: Outcome) -> Any:
        """``--logicenv-mutate``: the policy's mutants in this scene, as the record's JSON."""
        if not self.mutate:
            return None
        label = policy_label(runnable, self.tree)
        return mutants_in_scene(
            runnable, self.plan, outcome, lambda p: judge(p, situation, twice=False), label
        )

    def _declared(self, expect_fault: str | _MarkerDefault | None) -> str | None:
        if isinstance(expect_fault, _MarkerDefault):
            return self.expect_fault
        where = f"{self.function or 'logic_env'}: logic_env.run()"
        return check_fault(expect_fault, where)

    def _runnable(self, policy: Any, tree: str | None, nodes: Sequence[str]) -> Any:
        """The policy as the runner takes it (an XML file loaded with its tree and nodes)."""
        try:
            return self._xml(self._policy(policy), tree, nodes)
        except LogicEnvError as error:  # a policy that cannot be built: this test only
            problem = self._cannot_run(error)
        _fail(problem)  # outside the except: the message alone, not an exception chain

    def _cannot_run(self, error: LogicEnvError) -> str:
        """Why the policy cannot run, its files named relative to the rootdir (as every
        report names them: the same on every machine)."""
        text = str(error)
        if self.rootdir is not None:
            text = text.replace(f"{self.rootdir}{os.sep}", "")
        return f"{CANNOT_RUN}{text}"

    def judged_by(self, max_ticks: int | None = None) -> Situation:
        """What a run in this environment is judged by (its scene, goal, answers, branches
        and known names, :func:`~pytest_logicenv.sim.judge.situation_of`); a damaged entry
        fails the test."""
        try:
            ticks = max_ticks or self.max_ticks
            return shared_situation(self.case, self.plan, self.scene, max_ticks=ticks)
        except LogicEnvError as error:
            _fail(f"this environment's cache entry is damaged: {error}")

    def _first_run(self, situation: Situation, runnable: Any) -> Outcome:
        try:
            return judge(runnable, situation)
        except LogicEnvError as error:  # a policy that cannot be built: this test only
            problem = self._cannot_run(error)
        _fail(problem)

    def _xml(self, policy: Any, tree: str | None, nodes: Sequence[str]) -> Any:
        """An XML policy loaded with the tree and nodes modules asked for (others as given)."""
        tree = tree or self.tree
        modules = (*self.nodes, *nodes)
        if not (tree or modules):
            return policy
        if isinstance(policy, XmlPolicy):
            if modules:
                raise PolicyError(
                    "nodes= applies to an XML path; pass load_bt_xml(path, modules=...) a "
                    "loaded policy's nodes"
                )
            return policy.tree(tree) if tree else policy
        if isinstance(policy, str | os.PathLike) and os.fspath(policy).lower().endswith(".xml"):
            return load_bt_xml(policy, tree=tree, modules=modules)
        return policy

    def _policy(self, policy: Any) -> Any:
        """A relative XML path taken from the test file's folder, else from the current
        directory; a path found in neither is an error saying where it was looked for."""
        if not isinstance(policy, str | os.PathLike) or self.base_dir is None:
            return policy
        candidate = Path(policy)
        if candidate.is_absolute():
            return policy
        beside_test = Path(os.path.normpath(self.base_dir / candidate))
        if beside_test.exists():
            return beside_test
        if candidate.exists():
            return policy
        raise PolicyError(
            f"no policy file {os.fspath(policy)!r}: looked for {beside_test} (relative paths "
            "start at the test file's folder)"
        )


def provide(request: pytest.FixtureRequest) -> Iterator[LogicEnv]:
    """The ``logic_env`` fixture: the item's environment. At teardown the item's record joins
    its user properties, which carry it to the session's report (from xdist workers too)."""
    param = getattr(request, "param", None)
    if param is None:
        _fail(
            f"{request.node.nodeid} uses the logic_env fixture but has no "
            '@pytest.mark.logic_env("task description") marker; add one'
        )
    if isinstance(param, ErrorCase):
        _fail(param.message)
    if isinstance(param, PendingCase):
        _fail(
            f"{request.node.nodeid}: its environments were never generated: a plugin changed "
            "the run's items after pytest-logicenv generated the selected ones; run it again"
        )
    item, settings = request.node, request.config.stash[SETTINGS]

    def on_outcome(outcome: Outcome) -> None:  # the item's conftests only, as pytest's own
        item.ihook.pytest_logicenv_outcome(item=item, outcome=outcome)

    env = LogicEnv(
        param.case,
        expect_fault=param.expect_fault,
        max_ticks=settings.max_ticks,
        tree=param.tree,
        nodes=(*settings.nodes, *param.nodes),
        base_dir=Path(item.path).parent,
        function=param.function,
        item=item.nodeid,
        on_outcome=on_outcome,
        command_options=settings.command_options,
        exploration=_exploration(settings, request.config, param.seed),
        mutate=settings.mutate,
        rootdir=request.config.rootpath,
    )
    yield env
    item.user_properties.append((PROPERTY, env.record.to_json()))


def _exploration(settings: Settings, config: pytest.Config, seed: int) -> Exploration | None:
    """The ``--logicenv-explore`` setting for a test function's items, if it is on."""
    examples = settings.explore
    if not examples:
        return None
    from pytest_logicenv.session.explore import Exploration  # Hypothesis

    return Exploration(examples, seed, lambda: catalog_for(config), config.rootpath)


def _fail(message: str) -> NoReturn:
    import pytest

    pytest.fail(message, pytrace=False)
