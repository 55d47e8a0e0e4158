"""The pytest plugin: each hook hands its job to the module that owns it.

A test marked ``@pytest.mark.logic_env("task")`` that takes the ``logic_env`` fixture runs once
per generated environment. Who does what (all in :mod:`pytest_logicenv.session`):

* ``options``: the ``--logicenv-*`` and ini options, and the run's state in ``config.stash``;
* ``marker``: the marker's arguments, checked;
* ``collection``: one item per environment the cache holds, one pending item per test whose
  environments must be made;
* ``generation``: the selected pending items' environments, made concurrently, once per task;
* ``fixture``: the ``logic_env`` fixture's value and the run record of its item;
* ``reporter``: how faults read, the unasserted-fault warning, the LogCov report, the
  declared faults' verdicts and the exit status;
* ``unused``: cache entries no test uses any more.

pytest loads this module in every run, so only ``options`` and ``marker_registration`` load
with it; the rest (and z3, openai, py_trees) load when a run needs them. The guards below keep
the hooks of projects without marked tests from loading anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from pytest_logicenv.errors import PolicyFault
from pytest_logicenv.session import marker_registration, options
from pytest_logicenv.session.options import STATE

if TYPE_CHECKING:
    from pytest_logicenv.session.fixture import LogicEnv


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from pytest_logicenv import hookspec

    pluginmanager.add_hookspecs(hookspec)


def pytest_addoption(parser: pytest.Parser) -> None:
    options.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", marker_registration.MARKER_LINE)
    state = config.stash[STATE] = options.read_state(config)
    config.pluginmanager.register(RunHooks(state), "logicenv-run")
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        from pytest_logicenv.session.partial import XdistHooks

        config.pluginmanager.register(XdistHooks(state), "logicenv-xdist")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("logic_env") and (
        "logic_env" in metafunc.fixturenames
    ):
        from pytest_logicenv.session.collection import parametrize

        parametrize(metafunc.config.stash[STATE], metafunc)


@pytest.fixture
def logic_env(request: pytest.FixtureRequest) -> Iterator[LogicEnv]:
    """The environment this test item runs in (see ``pytest_logicenv.session.fixture.LogicEnv``)."""
    from pytest_logicenv.session.fixture import provide

    yield from provide(request)


@pytest.fixture(autouse=True)
def _logicenv_marker_without_fixture(request: pytest.FixtureRequest) -> None:
    marker_registration.require_fixture(request)


class RunHooks:
    """The run-time hooks, registered per run as pytest-cov registers its plugin object: they
    need the run's state, and ``pytest_runtest_logreport`` gets no ``config`` to find it."""

    def __init__(self, state: options.LogicEnvState) -> None:
        self.state = state

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        report = yield
        if call.excinfo is not None and isinstance(call.excinfo.value, PolicyFault):
            from pytest_logicenv.session.reporter import explain_fault

            explain_fault(item, call, report)
        return report

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Any:
        __tracebackhide__ = True  # under -W error the warning alone is the failure
        result = yield  # raises when the test failed: then nothing passed in silence
        if "logic_env" in getattr(item, "fixturenames", ()):
            from pytest_logicenv.session.reporter import warn_unasserted_faults

            warn_unasserted_faults(item)
        return result

    @pytest.hookimpl(tryfirst=True)  # before junitxml writes the properties
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "teardown" and report.user_properties:
            from pytest_logicenv.session.reporter import gather

            gather(self.state, report)

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if not report.passed:  # a module that did not import or was skipped whole:
            self.state.unknown.append(report.nodeid or "(the rootdir)")  # its entries unknown

    @pytest.hookimpl(tryfirst=True)  # the run's items settled, before xdist sends them
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        config = session.config
        if self.state.pending:
            from pytest_logicenv.session.generation import generate_selected

            generate_selected(self.state, session)
        if self.state.prepared:
            from pytest_logicenv.session.partial import note_selected

            note_selected(self.state, session.items)
        if self.state.cache_root.is_dir() or config.getoption("logicenv_usage_json"):
            from pytest_logicenv.session.reporter import find_unused_entries

            find_unused_entries(self.state, session)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        config = session.config
        if self.state.selected and hasattr(config, "workerinput"):
            from pytest_logicenv.session.partial import hand_over

            hand_over(self.state, config)
        if config.getoption("logicenv_clean") and config.pluginmanager.has_plugin("dsession"):
            from pytest_logicenv.session.reporter import find_unused_entries

            find_unused_entries(self.state, session)  # an xdist controller collects nothing
        if self.state.records or self.state.fail_under is not None:
            from pytest_logicenv.session.reporter import finish

            finish(self.state, session)

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        state = self.state
        if state.unused or state.unused_undecided or state.report is not None or state.failures:
            from pytest_logicenv.session.reporter import summarize

            summarize(state, terminalreporter, config)
