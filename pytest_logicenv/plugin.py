"""The pytest plugin: each hook hands its job to the run's session object in a line.

A test marked ``@pytest.mark.logic_env("task")`` that takes the ``logic_env`` fixture runs once
per generated environment. Who does what (all in :mod:`pytest_logicenv.session`):

* ``options``: the ``--logicenv-*`` and ini options declared; ``settings``: their values,
  read once into frozen settings in ``config.stash``;
* ``marker``: the marker's arguments, checked (``marker_registration``: its help line);
* ``logicenv_session``: the session object, the one owner of what changes during the run; its
  methods ask ``collection``, ``generation``, ``partial``, ``unused`` and ``reporter`` for
  what to keep;
* ``fixture``: the ``logic_env`` fixture's value and the run record of its item;
* ``reporter``: also how a fault reads and the unasserted-fault warning, per item.

pytest loads this module in every run, so only ``options``, ``settings`` and
``marker_registration`` load with it; the session object (and z3, openai, py_trees) load when
a run first has work for it. The guards below keep the hooks of projects without marked tests
from loading anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_logicenv.errors import PolicyFault
from pytest_logicenv.session import marker_registration, options
from pytest_logicenv.session.settings import (
    SETTINGS,
    Settings,
    cache_folder_skipped,
    read_settings,
)

if TYPE_CHECKING:
    from pytest_logicenv.session.fixture import LogicEnv
    from pytest_logicenv.session.logicenv_session import LogicEnvSession


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from pytest_logicenv import hookspec

    pluginmanager.add_hookspecs(hookspec)


def pytest_addoption(parser: pytest.Parser) -> None:
    options.add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", marker_registration.MARKER_LINE)
    settings = config.stash[SETTINGS] = read_settings(config)
    config.pluginmanager.register(RunHooks(config, settings), "logicenv-run")


@pytest.fixture
def logic_env(request: pytest.FixtureRequest) -> Iterator[LogicEnv]:
    """The environment this test item runs in (see ``pytest_logicenv.LogicEnv``)."""
    from pytest_logicenv.session.fixture import provide

    yield from provide(request)


@pytest.fixture(autouse=True)
def _logicenv_marker_without_fixture(request: pytest.FixtureRequest) -> None:
    marker_registration.require_fixture(request)


class RunHooks:
    """The run-time hooks, registered per run as pytest-cov registers its plugin object; each
    hands its job to the session object, made when the run first has work for it."""

    def __init__(self, config: pytest.Config, settings: Settings) -> None:
        self.config, self.settings = config, settings
        self.made = False

    @property
    def session(self) -> LogicEnvSession:
        from pytest_logicenv.session.logicenv_session import session_of

        self.made = True
        return session_of(self.config)

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if metafunc.definition.get_closest_marker("logic_env") and (
            "logic_env" in metafunc.fixturenames
        ):
            self.session.parametrize(metafunc)

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
            self.session.gather(report)
        elif report.failed:
            self.session.once(report)

    def pytest_ignore_collect(self, collection_path: Path) -> bool | None:
        # None, not False, for every other path: False would stop pytest's own ignore rules
        return True if cache_folder_skipped(self.settings, collection_path) else None

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if not report.passed:  # a module that did not import or was skipped whole
            self.session.note_uncollected(report.nodeid)

    @pytest.hookimpl(tryfirst=True)  # the run's items settled, before xdist sends them
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if self.made:
            self.session.collection_finished(session)

    @pytest.hookimpl(optionalhook=True)  # an xdist controller's: a worker is done
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        self.session.take_over(getattr(node, "workeroutput", None) or {})

    @pytest.hookimpl(tryfirst=True)  # before xdist sends a worker's output, junitxml writes
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        settings = self.settings
        files = any(":" in spec for spec in settings.reports)  # a report file is always written
        if self.made or files or settings.cache_root.is_dir() or settings.usage_json is not None:
            self.session.finish(session)

    @pytest.hookimpl(tryfirst=True)  # before pytest's own collector passes (unraisable)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self.made:
            self.session.close()

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        if self.made:
            self.session.summarize(terminalreporter)
