"""The session's run-time reporting: how a policy fault reads, the warning for an outcome never
asserted, the records gathered from every item (and xdist worker), the unused cache entries,
and at the end the LogCov report, the declared faults' verdicts and the exit status.

The plugin's hooks call these functions; each does its job for one hook. Nothing here runs for
a test that does not use the ``logic_env`` fixture beyond a look at its report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_logicenv.errors import LogicEnvWarning, PolicyFault
from pytest_logicenv.report.records import PROPERTY, RunRecord
from pytest_logicenv.session.options import LogicEnvState

if TYPE_CHECKING:
    from pytest_logicenv.report.report_model import Report

# --------------------------------------------------------------------------- per item


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


def explain_fault(
    item: pytest.Item, call: pytest.CallInfo[None], report: pytest.TestReport
) -> None:
    """A failed ``assert_ok()`` reads as the outcome's explanation and the command that
    reruns the scene; a traceback into ``assert_ok()`` would be noise."""
    if call.excinfo is not None and call.when == "call":
        error = call.excinfo.value
        if isinstance(error, PolicyFault):
            lines = [error.outcome.explain()]
            env = getattr(item, "funcargs", {}).get("logic_env")
            found = [e for e in getattr(env, "explored", ()) if e.outcome is error.outcome]
            if found:
                lines += found[0].lines(reproduce_command(item))
            else:
                lines.append(f"reproduce: {reproduce_command(item)}")
            report.longrepr = FaultRepr("\n".join(lines))  # type: ignore[assignment]  # duck-typed by pytest


def reproduce_command(item: pytest.Item) -> str:
    """The command that reruns one item as this run ran it (its outcome-changing options)."""
    from pytest_logicenv.session.options import STATE

    options = item.config.stash[STATE].command_options
    return " ".join(["pytest", *options, f'"{item.nodeid}"'])


def warn_unasserted_faults(item: pytest.Item) -> None:
    """A test that passed although a policy run in it showed a fault (other than the one the
    run declares) most likely forgot ``.assert_ok()``: say so, per policy, rather than pass
    in silence."""
    __tracebackhide__ = True
    record = getattr(getattr(item, "funcargs", {}).get("logic_env"), "record", None)
    if not isinstance(record, RunRecord):
        return
    faults: dict[str, list[str]] = {}
    for run in record.runs:
        if run.explored_fault and run.explored is not None:
            faults.setdefault(run.policy, []).append(
                f"{run.explored['outcome']} in a scene --logicenv-explore found"
            )
        elif run.unexpected:
            faults.setdefault(run.policy, []).append(str(run.outcome))
    for policy, kinds in faults.items():
        whose = "the policy's run" if len(record.policies) == 1 else f"the run of {policy}"
        item.warn(
            LogicEnvWarning(
                f"{whose} ended in {', '.join(dict.fromkeys(kinds))} but the test passed: call "
                ".assert_ok() on what logic_env.run() returns (declare a known fault with "
                "expect_fault=)"
            )
        )


def gather(state: LogicEnvState, report: pytest.TestReport) -> None:
    """Keep the record a ``logic_env`` item carries; teardown reports carry it complete,
    with and without xdist. Where the session reports (not on an xdist worker, which must
    ship the record on), the report's properties then read as plain text for the junit XML
    written next, with paths relative to the rootdir."""
    if report.when != "teardown":
        return
    properties = list(report.user_properties)
    for index, (name, value) in enumerate(properties):
        if name == PROPERTY and isinstance(value, dict):
            record = RunRecord.from_json(value)
            state.records.append(record)
            if not hasattr(state.config, "workerinput"):
                readable = record.properties(state.config.rootpath)
                report.user_properties = [*properties[:index], *readable, *properties[index + 1 :]]
            return


# --------------------------------------------------------------------------- per session


def find_unused_entries(state: LogicEnvState, session: pytest.Session) -> None:
    """The cache entries no test of the project uses any more (see
    :mod:`~pytest_logicenv.session.unused`), removed with ``--logicenv-clean`` and written
    for ``logicenv clean``; and, for a run that collects on another's behalf, the keys its
    tests use."""
    config = session.config
    if hasattr(config, "workerinput"):
        return
    from pytest_logicenv.atomic import write_atomic
    from pytest_logicenv.session.unused import (
        Unused,
        Usage,
        collect_usage,
        unused_entries,
        whole_project,
    )

    usage = Usage(frozenset(state.used_keys.values()), tuple(state.unknown))
    if config.getoption("logicenv_usage_json"):
        write_atomic(Path(config.getoption("logicenv_usage_json")), json.dumps(usage.to_json()))
    clean = bool(config.getoption("logicenv_clean"))
    result_file = config.getoption("logicenv_unused_json")
    unused = Unused()
    if state.cache_root.is_dir() and whole_project(config):
        unused = unused_entries(state.cache, usage)
    elif state.cache_root.is_dir() and (clean or result_file):
        unused = unused_entries(state.cache, collect_usage(config, state.cache_root))
    state.unused, state.unused_undecided = list(unused.roots), unused.undecided
    if clean:
        _remove(state)
    if result_file:
        data = {"unused": state.unused, "removed": clean, "undecided": state.unused_undecided}
        write_atomic(Path(result_file), json.dumps(data))


def _remove(state: LogicEnvState) -> None:
    from pytest_logicenv.cache import Entry
    from pytest_logicenv.errors import CacheError

    removed = []
    for root in state.unused:
        try:
            state.cache.remove(Entry(Path(root)))
        except CacheError as error:
            state.failures.append(f"logicenv: {error}")
            continue
        removed.append(root)
    state.unused = removed
    state.cache.forget_orphans()


def finish(state: LogicEnvState, session: pytest.Session) -> None:
    """Build the report, judge the declared faults and ``--logicenv-fail-under``, and fail
    the session when one is not met."""
    if hasattr(session.config, "workerinput"):
        return
    if not state.records:  # marked tests, all skipped before their fixture: nothing covered
        if state.fail_under is not None and state.used_keys:
            state.failures.append(
                f"FAIL Required LogCov of {state.fail_under:g}% not reached: no policy ran in "
                "any scene. Total LogCov: 0.00%"
            )
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        return
    from pytest_logicenv.report.report_model import build_report
    from pytest_logicenv.report.terminal import missed_fault, unjudged_fault
    from pytest_logicenv.session.partial import selection

    try:
        report = build_report(state.records, selection(state))
    except Exception as error:  # a bug or a cache damaged mid-run: the tests' results stay
        state.failures.append(f"logicenv: no coverage report: {type(error).__name__}: {error}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        return
    state.report = report
    _junit_properties(session.config, report)
    state.failures.extend(missed_fault(check) for check in report.missed_faults)
    state.warnings.extend(unjudged_fault(check) for check in report.unjudged_faults)
    if state.fail_under is not None and report.total.log_cov < state.fail_under:
        state.failures.append(
            f"FAIL Required LogCov of {state.fail_under:g}% not reached. "
            f"Total LogCov: {report.total.log_cov:.2f}%"
        )
    score = report.mutation.score if report.mutation is not None else None
    if state.mutate_fail_under is not None and (score or 0.0) < state.mutate_fail_under:
        shown = "no mutant was scored" if score is None else f"Total mutation score: {score:.2f}%"
        state.failures.append(
            f"FAIL Required mutation score of {state.mutate_fail_under:g}% not reached. {shown}"
        )
    if state.failures and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _junit_properties(config: pytest.Config, report: Report) -> None:
    """With ``--junitxml``, the partial run and the declared faults' verdicts as properties of
    the test suite (junitxml writes its file after this hook), as the terminal words them."""
    from _pytest.junitxml import xml_key  # what pytest's record_testsuite_property uses

    from pytest_logicenv.report.terminal import fault_line

    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    if report.scenes_not_selected:
        shown = f"{report.scenes_ran} ran, {report.scenes_not_selected} not selected"
        xml.add_global_property("logicenv.scenes", shown)
    for check in report.faults:
        xml.add_global_property("logicenv.fault", fault_line(check))


def summarize(state: LogicEnvState, terminal: Any, config: pytest.Config) -> None:
    """The unused cache entries, the coverage table, the files written and the failures."""
    if state.unused_undecided and config.getoption("logicenv_clean"):
        terminal.write_sep("-", "logicenv: no cache entry removed")
        terminal.write_line(f"  {state.unused_undecided}")
    if state.unused:
        verb = "removed" if config.getoption("logicenv_clean") else "unused"
        noun = "entry" if len(state.unused) == 1 else "entries"
        terminal.write_sep("-", f"logicenv: {len(state.unused)} {verb} cache {noun}")
        for root in state.unused:
            terminal.write_line(f"  {root}")
        if verb == "unused":
            terminal.write_line("  remove them with: logicenv clean")
    if state.report is not None:
        _write_report(state, terminal, config)
    for failure in state.failures:
        terminal.write_line(failure, red=True, bold=True)


def _write_report(state: LogicEnvState, terminal: Any, config: pytest.Config) -> None:
    from pytest_logicenv.report.files import write_reports
    from pytest_logicenv.report.terminal import format_term

    report = state.report
    assert report is not None
    kinds = [spec.partition(":")[0] for spec in state.reports]
    if "term" in kinds or "term-missing" in kinds:
        terminal.write_sep("-", "logic coverage")
        for line in format_term(report, missing="term-missing" in kinds):
            terminal.write_line(line)
        if report.mutation is not None:
            from pytest_logicenv.report import mutation

            terminal.write_sep("-", "mutation score")
            for line in mutation.format_term(report.mutation):
                terminal.write_line(line)
    try:
        lines = write_reports(report, state.reports, config.rootpath)
    except OSError as error:  # checked at start-up; a disk that filled up since
        state.failures.append(f"logicenv: a report could not be written: {error}")
        lines = []
    for line in lines:
        terminal.write_line(line)
    for warning in state.warnings:
        terminal.write_line(f"warning: {warning}", yellow=True)
