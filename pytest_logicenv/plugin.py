"""The pytest plugin: thin glue between pytest and the pipeline.

A test marked ``@pytest.mark.logic_env("task")`` that takes the ``logic_env`` fixture runs once
per generated environment. Options live under ``--logicenv-*`` with ini equivalents; run state
lives in ``config.stash``. Nothing heavy (z3, openai, py_trees) is imported until a marked test
needs it.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from pytest_logicenv.errors import LogicEnvError, LogicEnvWarning, MarkerError

if TYPE_CHECKING:
    from pytest_logicenv.cache import Cache
    from pytest_logicenv.pipeline.environments import (
        Builders,
        Case,
        Environments,
        Mode,
        TaskRequest,
    )
    from pytest_logicenv.report import FaultCheck, Report, RunRecord

T = TypeVar("T")

REPORT_KINDS = ("term", "term-missing", "json", "markdown", "html")
#: Who designs the scenes: room templates (no LLM), or the LLM of the run.
DESIGNERS = ("procedural", "llm")
MARKER_LINE = (
    "logic_env(task, *, plan=None, rooms=None, select='minimal', seed=0, expect_fault=None, "
    "tree=None, nodes=None): "
    "run the test once per logically diverse environment generated for the task "
    "(pytest-logicenv)"
)


# --------------------------------------------------------------------------- options


def _report_spec(value: str) -> str:
    if value == "":
        return value
    kind, _, target = value.partition(":")
    if (
        kind not in REPORT_KINDS
        or (kind.startswith("term") and target)
        or (not kind.startswith("term") and not target)
    ):
        raise argparse.ArgumentTypeError(
            f"{value!r}: use term, term-missing, json:PATH, markdown:PATH or html:DIR"
        )
    return value


def _designer(value: str) -> str:
    if value not in DESIGNERS:
        raise argparse.ArgumentTypeError(f"{value!r}: use {' or '.join(DESIGNERS)}")
    return value


def _percent(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 0 <= number <= 100:
        raise argparse.ArgumentTypeError(f"{value!r} must be between 0 and 100")
    return number


def _positive_int(value: str) -> int:
    from pytest_logicenv.cli.args import (
        positive_int,  # only when the option is given: start-up stays light
    )

    return positive_int(value)


def _checked_ini(config: pytest.Config, name: str, convert: Callable[[str], T], value: str) -> T:
    """An ini value checked like its command-line twin: a bad one is a usage error naming
    the option and the file, not a traceback."""
    try:
        return convert(value)
    except argparse.ArgumentTypeError as error:
        raise pytest.UsageError(f"{name} in {config.inipath or 'the ini file'}: {error}") from None


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from pytest_logicenv import hookspec as hooks

    pluginmanager.add_hookspecs(hooks)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("logicenv", "logically diverse environments (pytest-logicenv)")
    group.addoption(
        "--logicenv-cache-dir",
        metavar="DIR",
        help="where generated plans and scenes are cached (default: cache/ at the rootdir; "
        "ini: logicenv_cache_dir)",
    )
    group.addoption(
        "--logicenv-regenerate",
        action="store_true",
        help="generate the plans and scenes of the selected tests anew",
    )
    group.addoption(
        "--logicenv-offline",
        action="store_true",
        default=None,
        help="never call an LLM (the default when the CI variable is set; ini: logicenv_offline)",
    )
    group.addoption(
        "--logicenv-designer",
        type=_designer,
        metavar="NAME",
        help="who designs the scenes: procedural (room templates, the default) or llm (the "
        "LLM that derives plans; ini: logicenv_designer)",
    )
    group.addoption(
        "--logicenv-report",
        action="append",
        type=_report_spec,
        metavar="TYPE",
        help="LogCov report: term (default), term-missing, json:PATH, markdown:PATH, html:DIR; "
        "repeatable; an empty value turns the report off",
    )
    group.addoption(
        "--logicenv-fail-under",
        type=_percent,
        metavar="PCT",
        help="fail the run if total LogCov is below PCT (ini: logicenv_fail_under)",
    )
    group.addoption(
        "--logicenv-max-ticks",
        type=_positive_int,
        metavar="N",
        help="tick budget of one policy run (ini: logicenv_max_ticks)",
    )
    group.addoption(
        "--logicenv-clean",
        action="store_true",
        help="remove cache entries no selected test uses (see also: logicenv clean)",
    )
    group.addoption("--logicenv-unused-json", metavar="PATH", help=argparse.SUPPRESS)
    parser.addini("logicenv_cache_dir", "cache directory for logic_env tests", default="cache")
    parser.addini("logicenv_offline", "never call an LLM", type="bool", default=False)
    parser.addini(
        "logicenv_designer", "who designs the scenes: procedural or llm", default=DESIGNERS[0]
    )
    parser.addini("logicenv_fail_under", "minimum total LogCov in percent", default="")
    parser.addini("logicenv_max_ticks", "tick budget of one policy run", default="")
    parser.addini("logicenv_report", "LogCov report types", type="args", default=[])
    parser.addini(
        "logicenv_nodes",
        "modules whose BT_NODES (users' own leaves and controls) XML policies may use",
        type="args",
        default=[],
    )
    parser.addini("logicenv_llm_base_url", "OpenAI-compatible endpoint for plan generation")
    parser.addini("logicenv_llm_model", "model name for plan generation")


# --------------------------------------------------------------------------- state


@dataclass
class LogicEnvState:
    """Per-run state, kept in ``config.stash``."""

    config: pytest.Config
    cache_root: Path
    offline: bool
    regenerate: bool
    run_id: str
    designer: str
    reports: list[str]
    fail_under: float | None
    max_ticks: int | None
    prepared: dict[str, Any] = field(default_factory=dict)  # function -> (args, environments)
    collected: set[str] = field(default_factory=set)  # every marked function, even failed
    records: list[RunRecord] = field(default_factory=list)
    report: Report | None = None
    failures: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)

    @property
    def cache(self) -> Cache:
        from pytest_logicenv.cache import Cache

        return Cache(self.cache_root)

    @property
    def mode(self) -> Mode:
        from pytest_logicenv.pipeline.environments import Mode

        return Mode(regenerate=self.regenerate, offline=self.offline, run_id=self.run_id)


STATE = pytest.StashKey[LogicEnvState]()


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() not in ("0", "false", "no", "")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER_LINE)
    root = config.rootpath
    cache_dir = config.getoption("logicenv_cache_dir") or config.getini("logicenv_cache_dir")
    offline = config.getoption("logicenv_offline")
    if offline is None:
        offline = bool(config.getini("logicenv_offline")) or _truthy(os.environ.get("CI"))
    reports = config.getoption("logicenv_report")
    if reports is None:
        reports = [
            _checked_ini(config, "logicenv_report", _report_spec, str(value))
            for value in config.getini("logicenv_report")
        ] or ["term"]
    fail_under = config.getoption("logicenv_fail_under")
    if fail_under is None and config.getini("logicenv_fail_under"):
        fail_under = _checked_ini(
            config, "logicenv_fail_under", _percent, str(config.getini("logicenv_fail_under"))
        )
    designer = config.getoption("logicenv_designer") or _checked_ini(
        config, "logicenv_designer", _designer, str(config.getini("logicenv_designer") or "")
    )
    max_ticks = config.getoption("logicenv_max_ticks")
    if max_ticks is None and config.getini("logicenv_max_ticks"):
        max_ticks = _checked_ini(
            config, "logicenv_max_ticks", _positive_int, str(config.getini("logicenv_max_ticks"))
        )
    worker = getattr(config, "workerinput", None)
    config.stash[STATE] = LogicEnvState(
        config=config,
        cache_root=(root / cache_dir).resolve(),
        offline=offline,
        regenerate=bool(config.getoption("logicenv_regenerate")),
        run_id=str(worker["testrunuid"]) if worker else uuid.uuid4().hex,
        designer=designer,
        reports=[r for r in reports if r],
        fail_under=fail_under,
        max_ticks=max_ticks,
    )
    config.pluginmanager.register(LogicEnvReporter(config.stash[STATE]), "logicenv-reporter")


# --------------------------------------------------------------------------- collection


def _marker_signature(
    task: str,
    *,
    plan: str | os.PathLike[str] | None = None,
    rooms: Any = None,
    select: str = "minimal",
    seed: int = 0,
    expect_fault: str | None = None,
    tree: str | None = None,
    nodes: str | Sequence[str] | None = None,
) -> None:
    """The arguments ``@pytest.mark.logic_env`` accepts."""


@dataclass(frozen=True)
class MarkerArgs:
    request: TaskRequest
    expect_fault: str | None
    tree: str | None = None  # the BehaviorTree an XML policy runs
    nodes: tuple[str, ...] = ()  # modules whose BT_NODES XML policies may use


def parse_marker(
    marker: pytest.Mark, test_file: Path, nodeid: str, rootdir: Path | None = None
) -> MarkerArgs:
    """Validate a ``logic_env`` marker; errors name the test and the argument."""
    from pytest_logicenv.pipeline.environments import TaskRequest

    accepted = "task, plan, rooms, select, seed, expect_fault, tree, nodes"
    needs_task = MarkerError(
        f"{nodeid}: @pytest.mark.logic_env needs the task description as its first "
        'argument, e.g. @pytest.mark.logic_env("Close the window if it is open.")'
    )
    if not marker.args and "task" not in marker.kwargs:
        raise needs_task
    try:
        bound = inspect.signature(_marker_signature).bind(*marker.args, **marker.kwargs)
    except TypeError as error:
        unknown = sorted(set(marker.kwargs) - set(accepted.split(", ")))
        detail = f"unknown argument(s) {', '.join(unknown)}" if unknown else str(error)
        if len(marker.args) > 1:
            detail += " (only the task is positional: give the others by name, plan=...)"
        raise MarkerError(
            f"{nodeid}: @pytest.mark.logic_env: {detail}; it accepts {accepted}, e.g. "
            '@pytest.mark.logic_env("Put the toy in the box.", select="pairwise")'
        ) from None
    args = bound.arguments
    task = args["task"]
    if not isinstance(task, str) or not task.strip():
        raise needs_task
    from pytest_logicenv.logic.trajectories import STRATEGIES

    select = args.get("select", "minimal")
    if select not in STRATEGIES:
        raise MarkerError(
            f"{nodeid}: select={select!r} is not a strategy; choose one of {', '.join(STRATEGIES)}"
        )
    seed = args.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise MarkerError(f"{nodeid}: seed={seed!r} must be an integer")
    from pytest_logicenv.sim.outcome import FAULTS

    expect_fault = args.get("expect_fault")
    if expect_fault is not None and expect_fault not in FAULTS:
        raise MarkerError(
            f"{nodeid}: expect_fault={expect_fault!r} is not a fault class; choose one of "
            f"{', '.join(FAULTS)}"
        )
    rooms = args.get("rooms") or ()
    if isinstance(rooms, str):
        rooms = (rooms,)
    if not all(isinstance(r, str) for r in rooms):
        raise MarkerError(f"{nodeid}: rooms={rooms!r} must be room types like ['Kitchen']")
    plan = args.get("plan")
    plan_path = None
    if plan is not None:
        plan_path = (test_file.parent / plan).resolve()  # an absolute plan stays itself
        if not plan_path.is_file():
            hint = "paths are relative to the test file's folder"
            at_root = rootdir / plan if rootdir is not None else None
            if at_root is not None and at_root.is_file():
                relative = Path(os.path.relpath(at_root, test_file.parent)).as_posix()
                hint += f"; for {at_root} write plan={relative!r}"
            raise MarkerError(
                f"{nodeid}: plan={str(plan)!r} does not exist (looked for {plan_path}); {hint}"
            )
    request = TaskRequest(
        task=task, plan_file=plan_path, rooms=tuple(rooms), select=select, seed=seed
    )
    tree, nodes = _xml_options(args, nodeid)
    return MarkerArgs(request, expect_fault, tree, nodes)


def _xml_options(args: dict[str, Any], nodeid: str) -> tuple[str | None, tuple[str, ...]]:
    """The marker's ``tree`` (a tree ID) and ``nodes`` (module names) for XML policies."""
    tree = args.get("tree")
    if tree is not None and (not isinstance(tree, str) or not tree):
        raise MarkerError(f"{nodeid}: tree={tree!r} must be the ID of a BehaviorTree")
    nodes = args.get("nodes") or ()
    if isinstance(nodes, str):
        nodes = (nodes,)
    if not isinstance(nodes, list | tuple) or not all(isinstance(n, str) for n in nodes):
        raise MarkerError(
            f"{nodeid}: nodes={nodes!r} must name modules, e.g. nodes='my_robot.bt_nodes'"
        )
    return tree, tuple(nodes)


@dataclass(frozen=True)
class ErrorCase:
    """Stands for the environments of a test whose preparation failed: the test errors with
    ``message`` while the other tests run."""

    message: str


@dataclass(frozen=True)
class CaseParam:
    case: Case
    function: str
    expect_fault: str | None
    tree: str | None = None
    nodes: tuple[str, ...] = ()


def _builders(config: pytest.Config, designer_name: str) -> Builders:
    from pytest_logicenv.pipeline.environments import Builders
    from pytest_logicenv.pipeline.generators import (
        default_scene_builder,
        planner_for,
        scene_designer_for,
    )

    designer = config.hook.pytest_logicenv_designer(config=config)
    catalog = config.hook.pytest_logicenv_catalog(config=config)
    scene_builder = designer or default_scene_builder(catalog)
    asks_llm = designer is None and designer_name == "llm"  # the hook overrides both

    def known_types() -> frozenset[str] | None:
        from pytest_logicenv.scenes.catalog import default_catalog

        return frozenset((catalog or default_catalog()).types)

    def on_scene(scene: Any, trajectory: Any) -> None:
        config.hook.pytest_logicenv_scene_generated(
            config=config, scene=scene, trajectory=trajectory
        )

    return Builders(
        scene=scene_builder,
        planner=lambda: planner_for(config),
        known_types=known_types,
        on_scene=on_scene,
        llm_scenes=(lambda: scene_designer_for(config)) if asks_llm else None,
    )


def _prepare(state: LogicEnvState, metafunc: pytest.Metafunc) -> Environments | ErrorCase:
    from pytest_logicenv.pipeline.environments import prepare

    nodeid = metafunc.definition.nodeid
    state.collected.add(nodeid)
    try:
        marker = metafunc.definition.get_closest_marker("logic_env")
        assert marker is not None
        args = parse_marker(marker, metafunc.definition.path, nodeid, state.config.rootpath)
        environments = prepare(
            replace(args.request, designer=state.designer),
            state.cache,
            state.mode,
            _builders(state.config, state.designer),
            nodeid=nodeid,
            rootdir=state.config.rootpath,
        )
    except LogicEnvError as error:
        return ErrorCase(str(error))
    state.prepared[nodeid] = (args, environments)  # only what succeeded: see unused.py
    return environments


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("logic_env")
    if marker is None or "logic_env" not in metafunc.fixturenames:
        return
    state = metafunc.config.stash[STATE]
    prepared = _prepare(state, metafunc)
    if isinstance(prepared, ErrorCase):
        metafunc.parametrize("logic_env", [prepared], ids=["logicenv-error"], indirect=True)
        return
    args, _ = state.prepared[metafunc.definition.nodeid]
    params = [
        CaseParam(case, metafunc.definition.nodeid, args.expect_fault, args.tree, args.nodes)
        for case in prepared.cases
    ]
    metafunc.parametrize(
        "logic_env", params, ids=[p.case.trajectory_id for p in params], indirect=True
    )


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def logic_env(request: pytest.FixtureRequest) -> Any:
    """The environment this test item runs in (see ``pytest_logicenv.session.fixture.LogicEnv``)."""
    param = getattr(request, "param", None)
    if param is None:
        pytest.fail(
            f"{request.node.nodeid} uses the logic_env fixture but has no "
            '@pytest.mark.logic_env("task description") marker; add one',
            pytrace=False,
        )
    if isinstance(param, ErrorCase):
        pytest.fail(param.message, pytrace=False)
    from pytest_logicenv.session.fixture import LogicEnv

    state = request.config.stash[STATE]
    record: dict[str, Any] = {
        "function": param.function,
        "entry": str(param.case.entry_root),
        "trajectory": param.case.trajectory_id,
        "outcomes": [],
        "expect_fault": param.expect_fault,
        "nodeid": request.node.nodeid,
    }
    request.node.user_properties.append(("logicenv", record))
    item = request.node

    def on_outcome(outcome: Any) -> None:
        record["outcomes"].append(outcome.kind)
        item.config.hook.pytest_logicenv_outcome(item=item, outcome=outcome)

    return LogicEnv(
        param.case,
        expect_fault=param.expect_fault,
        max_ticks=state.max_ticks,
        tree=param.tree,
        nodes=(*request.config.getini("logicenv_nodes"), *param.nodes),
        base_dir=Path(request.node.path).parent,
        nodeid=param.function,
        on_outcome=on_outcome,
    )


@pytest.fixture(autouse=True)
def _logicenv_marker_without_fixture(request: pytest.FixtureRequest) -> None:
    """A marked test that forgot the fixture would silently test nothing: fail it."""
    node = request.node
    if "logic_env" not in request.fixturenames and node.get_closest_marker("logic_env"):
        pytest.fail(
            f"{node.nodeid} is marked logic_env but does not take the logic_env fixture; "
            "add a `logic_env` argument and call logic_env.run(policy)",
            pytrace=False,
        )


# --------------------------------------------------------------------------- reporting


@dataclass(frozen=True)
class _Crash:
    message: str


class FaultRepr:
    """A policy fault as pytest shows it: the explanation in the failure section, its first
    line in the short test summary (pytest reads ``reprcrash.message`` there)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.reprcrash = _Crash(text.splitlines()[0])

    def toterminal(self, tw: Any) -> None:
        for line in self.text.splitlines():
            tw.line(line)

    def __str__(self) -> str:
        return self.text


def _warn_unasserted_faults(item: pytest.Item) -> None:
    """A test that passed although a policy run in it showed a fault (other than the one it
    declares) most likely forgot ``.assert_ok()``: say so rather than pass in silence."""
    __tracebackhide__ = True
    for name, record in item.user_properties:
        if name != "logicenv" or not isinstance(record, dict):
            continue
        faults = [
            kind for kind in record["outcomes"] if kind not in ("pass", record["expect_fault"])
        ]
        if faults:
            item.warn(
                LogicEnvWarning(
                    f"the policy's run ended in {', '.join(dict.fromkeys(faults))} but the test "
                    "passed: call .assert_ok() on what logic_env.run() returns (declare a "
                    "known fault with expect_fault=)"
                )
            )


def _missed_fault(check: FaultCheck) -> str:
    """Why a declared fault counts as missed, from what its runs did."""
    seen = sorted({kind for run in check.runs for kind in run.outcomes})
    if not seen:
        why = "its policy never ran to an outcome (see the failures above)"
    elif seen == ["pass"]:
        why = (
            "the policy passed in every one, so either it does not have this fault or no "
            "environment has the situation that shows it"
        )
    else:
        why = f"its runs ended in {', '.join(seen)}"
    return (
        f"{check.function}: expect_fault={check.expect_fault!r} was not revealed in its "
        f"{len(check.runs)} scenes: {why}"
    )


class LogicEnvReporter:
    """The run-time half of the plugin, registered per run like pytest-cov's plugin: it
    gathers what each item ran, then reports coverage and sets the exit status."""

    def __init__(self, state: LogicEnvState) -> None:
        self.state = state

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        report = yield
        if call.excinfo is not None and call.when == "call":
            from pytest_logicenv.errors import PolicyFault

            if isinstance(call.excinfo.value, PolicyFault):
                # The explanation is the whole story; a traceback into assert_ok() is noise.
                explanation = call.excinfo.value.outcome.explain()
                report.longrepr = FaultRepr(f'{explanation}\nreproduce: pytest "{item.nodeid}"')
        return report

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Any:
        __tracebackhide__ = True  # under -W error the warning alone is the failure
        result = yield  # raises when the test failed: then nothing passed in silence
        _warn_unasserted_faults(item)
        return result

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # Teardown reports carry everything the fixture recorded, with and without xdist.
        if report.when != "teardown":
            return
        for name, value in report.user_properties:
            if name == "logicenv" and isinstance(value, dict):
                from pytest_logicenv.report import RunRecord

                self.state.records.append(RunRecord.from_json(value))

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if hasattr(session.config, "workerinput") or not self.state.cache_root.is_dir():
            return
        from pytest_logicenv.session.unused import find_unused

        state = self.state
        state.unused = find_unused(state.cache, state.prepared, state.collected, session)
        clean = session.config.getoption("logicenv_clean")
        if clean:
            from pytest_logicenv.cache import Entry

            for root in state.unused:
                state.cache.remove(Entry(Path(root)))
            state.cache.forget_orphans()
        result_file = session.config.getoption("logicenv_unused_json")
        if result_file:  # for `logicenv clean`, which runs this collection
            from pytest_logicenv.cache import write_atomic

            write_atomic(Path(result_file), json.dumps({"unused": state.unused, "removed": clean}))

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        state = self.state
        if hasattr(session.config, "workerinput") or not state.records:
            return
        from pytest_logicenv.report import build_report

        report = build_report(state.records)
        state.report = report
        for check in report.missed_faults:
            state.failures.append(_missed_fault(check))
        if state.fail_under is not None and report.total.log_cov < state.fail_under:
            state.failures.append(
                f"FAIL Required LogCov of {state.fail_under:g}% not reached. "
                f"Total LogCov: {report.total.log_cov:.2f}%"
            )
        if state.failures and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        state = self.state
        if state.unused:
            verb = "removed" if config.getoption("logicenv_clean") else "unused"
            noun = "entry" if len(state.unused) == 1 else "entries"
            terminalreporter.write_sep("-", f"logicenv: {len(state.unused)} {verb} cache {noun}")
            for root in state.unused:
                terminalreporter.write_line(f"  {root}")
            if verb == "unused":
                terminalreporter.write_line("  remove them with: logicenv clean")
        report = state.report
        if report is None:
            return
        from pytest_logicenv.report import format_term, write_reports

        kinds = [spec.partition(":")[0] for spec in state.reports]
        if "term" in kinds or "term-missing" in kinds:
            terminalreporter.write_sep("-", "logic coverage")
            for line in format_term(report, missing="term-missing" in kinds):
                terminalreporter.write_line(line)
        for line in write_reports(report, state.reports, config.rootpath):
            terminalreporter.write_line(line)
        for failure in state.failures:
            terminalreporter.write_line(failure, red=True, bold=True)
