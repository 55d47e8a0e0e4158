"""The LogCov report in the terminal (``term`` and ``term-missing``), as pytest-cov prints its
table: one line per task, a TOTAL line, then the declared faults."""

from __future__ import annotations

from pathlib import Path

from pytest_logicenv.report.report_model import FaultCheck, Report, TaskReport


def _short(function: str, width: int) -> str:
    """The test function's id, cut at the left (the test name matters most) when too long."""
    return function if len(function) <= width else "…" + function[-(width - 1) :]


def format_term(report: Report, *, missing: bool = False) -> list[str]:
    """The terminal table, one line per task, then a TOTAL line and the declared faults."""
    width = min(max([len("Task"), *(len(t.label) for t in report.tasks)]), 72)
    header = f"{'Task':<{width}}  Conditions  Covered  Paths  Covered  LogCov"
    if missing:
        header += "  Missing"
    lines = [header, "-" * len(header)] if report.tasks else []
    for task in report.tasks:
        cov = task.coverage
        line = (
            f"{_short(task.label, width):<{width}}  {cov.total_conditions:>10}  "
            f"{cov.covered_conditions:>7}  {cov.total_paths:>5}  {cov.covered_paths:>7}  "
            f"{cov.log_cov:>5.0f}%"
        )
        if missing and cov.missing_conditions:
            line += "  " + ", ".join(f"{f}={v}" for f, v in cov.missing_conditions)
        lines.append(line)
    if len(report.tasks) > 1:
        t = report.total
        lines.append("-" * len(header))
        lines.append(
            f"{'TOTAL':<{width}}  {t.total_conditions:>10}  {t.covered_conditions:>7}  "
            f"{t.total_paths:>5}  {t.covered_paths:>7}  {t.log_cov:>5.0f}%"
        )
    lines += [unreviewed_line(task) for task in report.tasks if task.unreviewed]
    if report.scenes_idle:
        lines.append(
            f"scenes: {report.scenes_ran} ran a policy, {report.scenes_idle} did not (skipped, "
            "not reached, or no logic_env.run() reached an outcome) and cover nothing"
        )
    if report.scenes_not_selected:
        ran = report.scenes_ran
        lines.append(
            f"partial run: {ran} scene{'s' if ran != 1 else ''} ran, "
            f"{report.scenes_not_selected} not selected; coverage and declared faults count only "
            "the scenes that ran"
        )
    if report.faults:
        revealed = sum(check.revealed for check in report.faults)
        lines.append(f"faults revealed: {revealed}/{len(report.faults)} declared faulty policies")
        lines.extend(f"  {fault_line(check)}" for check in report.faults)
    for problem in report.problems:
        lines.append(f"warning: {problem}")
    return lines


def shown_entry(task: TaskReport) -> str:
    """A task's entry folder as a command run here names it."""
    root, here = Path(task.entry), Path.cwd()
    return str(root.relative_to(here)) if root.is_relative_to(here) else str(root)


def unreviewed_line(task: TaskReport) -> str:
    """That a task's plan was made by a model and not read by a person, and how to."""
    assert task.review is not None
    entry = shown_entry(task)
    return (
        f"unreviewed plan: {task.label}: made by {task.review.made_by}, {task.review.why}; "
        f"read it with logicenv show {entry}, then mark it with logicenv review {entry}"
    )


def fault_line(check: FaultCheck) -> str:
    """A declared fault's verdict in a line: ``t.py::test_x: unreachable revealed (1/2
    scenes)``, ``... MISSED (0/2 scenes)``, ``... not judged (0/1 scenes, 1 not run)``."""
    shown = f"({check.hits}/{len(check.scenes)} scenes"
    shown += f", {check.not_run} not run)" if check.not_run else ")"
    verdict = "MISSED" if check.verdict == "missed" else check.verdict
    return f"{check.label}: {check.expect_fault} {verdict} {shown}"


def unjudged_fault(check: FaultCheck) -> str:
    """Why a declared fault is not judged in a partial run (a warning, not a failure)."""
    ran = len(check.scenes)
    return (
        f"{check.label}: expect_fault={check.expect_fault!r} not judged: the "
        f"{ran} scene{'s' if ran != 1 else ''} that ran did not reveal it and "
        f"{check.not_run} of its scenes did not run (not selected, skipped or not reached); "
        "run them all to judge it"
    )


def missed_fault(check: FaultCheck) -> str:
    """Why a declared fault counts as missed, from what its runs did (a line that fails the
    session)."""
    seen = sorted({kind for kinds in check.scenes for kind in kinds})
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
        f"{check.label}: expect_fault={check.expect_fault!r} was not revealed in its "
        f"{len(check.scenes)} scenes: {why}"
    )
