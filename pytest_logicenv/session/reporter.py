"""The session's run-time reporting: how a policy fault reads, the warning for an outcome never
asserted, the record an item's report carries, and at the end the LogCov report and the
declared faults' verdicts.

The plugin's per-item hooks and the session object
(:mod:`~pytest_logicenv.session.logicenv_session`) call these functions; none keeps state.
Nothing here runs for a test that does not use the ``logic_env`` fixture beyond a look at its
report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from _pytest.junitxml import xml_key  # what pytest's record_testsuite_property uses

from pytest_logicenv.cache import pytest_command
from pytest_logicenv.errors import LogicEnvWarning, PolicyFault
from pytest_logicenv.report import mutation
from pytest_logicenv.report.files import write_reports
from pytest_logicenv.report.records import PROPERTY, RunRecord
from pytest_logicenv.report.report_model import Report, SceneSelection, build_report
from pytest_logicenv.report.terminal import fault_line, format_term, missed_fault, unjudged_fault
from pytest_logicenv.session.settings import SETTINGS, Settings

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
            lines += [str(note) for note in getattr(error, "__notes__", ())]  # Hypothesis's
            report.longrepr = FaultRepr("\n".join(lines))  # type: ignore[assignment]  # duck-typed by pytest


def reproduce_command(item: pytest.Item) -> str:
    """The command that reruns one item as this run ran it (its outcome-changing options)."""
    options = item.config.stash[SETTINGS].command_options
    return pytest_command(item.nodeid, *options)


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


def record_of(report: pytest.TestReport) -> RunRecord | None:
    """The record a ``logic_env`` item's teardown report carries (complete, with and without
    xdist); where the session reports (not on an xdist worker, which ships it on), the
    report's properties then read as plain text for the junit XML written next."""
    for name, value in report.user_properties:
        if name == PROPERTY and isinstance(value, dict):
            return RunRecord.from_json(value)
    return None


def readable(report: pytest.TestReport, record: RunRecord, rootdir: Path) -> None:
    """The record in the report's properties as plain text, paths relative to ``rootdir``
    (what junit XML shows)."""
    properties = list(report.user_properties)
    at = next(i for i, (name, _) in enumerate(properties) if name == PROPERTY)
    shown = record.properties(rootdir)
    report.user_properties = [*properties[:at], *shown, *properties[at + 1 :]]


# --------------------------------------------------------------------------- per session


def nothing_ran(settings: Settings) -> str:
    """Why ``--logicenv-fail-under`` fails a run whose marked tests ran no policy."""
    return (
        f"FAIL Required LogCov of {settings.fail_under:g}% not reached: no policy ran in "
        "any scene. Total LogCov: 0.00%"
    )


#: How the line that says why no report was built begins.
NO_REPORT = "logicenv: no coverage report: "


def built(records: Sequence[RunRecord], selection: SceneSelection) -> Report | str:
    """The LogCov report of the records, or why there is none (a bug, or a cache damaged
    mid-run: the tests' results stay)."""
    try:
        return build_report(records, selection)
    except Exception as error:
        return f"{NO_REPORT}{type(error).__name__}: {error}"


def verdicts(settings: Settings, report: Report) -> tuple[list[str], list[str]]:
    """What fails the run (a declared fault no scene showed, a threshold not met) and what
    is only said (a declared fault no scene could judge)."""
    failures = [missed_fault(check) for check in report.missed_faults]
    warnings = [unjudged_fault(check) for check in report.unjudged_faults]
    if settings.fail_under is not None and report.total.log_cov < settings.fail_under:
        failures.append(
            f"FAIL Required LogCov of {settings.fail_under:g}% not reached. "
            f"Total LogCov: {report.total.log_cov:.2f}%"
        )
    score = report.mutation.score if report.mutation is not None else None
    wanted = settings.mutate_fail_under
    if wanted is not None and (score or 0.0) < wanted:
        shown = "no mutant was scored" if score is None else f"Total mutation score: {score:.2f}%"
        failures.append(f"FAIL Required mutation score of {wanted:g}% not reached. {shown}")
    return failures, warnings


def junit_properties(config: pytest.Config, report: Report) -> None:
    """With ``--junitxml``, the partial run and the declared faults' verdicts as properties of
    the test suite (junitxml writes its file after this hook), as the terminal words them."""
    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    if report.scenes_not_selected:
        shown = f"{report.scenes_ran} ran, {report.scenes_not_selected} not selected"
        xml.add_global_property("logicenv.scenes", shown)
    for check in report.faults:
        xml.add_global_property("logicenv.fault", fault_line(check))


def exploration_summary(records: Sequence[RunRecord]) -> str | None:
    """With ``--logicenv-explore``, what it did over the run, failures or not (the counts
    would otherwise be only in the JSON report)."""
    explored = [run.explored for record in records for run in record.runs if run.explored]
    if not explored:
        return None
    scenes = sum(int(found.get("ran") or 0) for found in explored)
    failed = sum(found.get("outcome") is not None for found in explored)
    problems = sum(found.get("problem") is not None for found in explored)
    runs = f"{len(explored)} passing run" + ("" if len(explored) == 1 else "s")
    found = f"{failed} failed in a scene it found" if failed else "none failed"
    found += f", {problems} could not be explored" if problems else ""
    return f"explored: {runs} in {scenes} other scenes of their situations; {found}"


def show_report(settings: Settings, report: Report, terminal: Any) -> None:
    """The coverage (and mutation) table in the terminal, when asked for."""
    kinds = [spec.partition(":")[0] for spec in settings.reports]
    if "term" in kinds or "term-missing" in kinds:
        terminal.write_sep("-", "logic coverage")
        for line in format_term(report, missing="term-missing" in kinds):
            terminal.write_line(line)
        if report.mutation is not None:
            terminal.write_sep("-", "mutation score")
            for line in mutation.format_term(report.mutation):
                terminal.write_line(line)


def write_files(settings: Settings, report: Report, rootdir: Path) -> tuple[list[str], list[str]]:
    """The report files: what the terminal says of them, and what could not be written
    (each a failure of the run naming its path)."""
    return write_reports(report, settings.reports, rootdir)


def empty_report(
    used: Mapping[str, str], selection: SceneSelection, why: str | None = None
) -> Report:
    """The report of a run in which no ``logic_env`` test ran (or none could be built:
    ``why``), saying why, so that a report file asked for is written (a previous one is
    never left as if it were this run's)."""
    if why is not None:
        why = why.removeprefix(NO_REPORT)
    elif not used:
        why = "no logic_env test was collected in this run"
    else:
        why = (
            f"no logic_env test ran: {len(used)} marked test function(s) collected, none "
            "selected with an environment (deselected, or their environments could not be "
            "generated: see the errors above)"
        )
    return replace(build_report((), selection), problems=(f"empty report: {why}",))
