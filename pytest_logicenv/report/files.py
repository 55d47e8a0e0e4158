"""The LogCov report as files: ``json:PATH`` and ``markdown:PATH`` (e.g. for
``$GITHUB_STEP_SUMMARY``), with the mutation score when mutants ran
(:mod:`pytest_logicenv.report.mutation`), and the dispatch of every ``--logicenv-report`` file
type (the HTML report is :mod:`pytest_logicenv.report.html`, Cobertura
:mod:`~pytest_logicenv.report.cobertura` and LCOV :mod:`~pytest_logicenv.report.lcov`)."""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pytest_logicenv.atomic import write_through
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.report import mutation
from pytest_logicenv.report.cobertura import to_cobertura
from pytest_logicenv.report.html import write_html
from pytest_logicenv.report.lcov import to_lcov
from pytest_logicenv.report.report_model import Report, TaskReport, relative_path

REPORT_FORMAT = "logicenv-report/1"
#: The reports written to a file (``html`` to a folder).
FILE_KINDS = ("json", "markdown", "cobertura", "lcov", "html")
KINDS_SHOWN = "term, term-missing, json:PATH, markdown:PATH, cobertura:PATH, lcov:PATH or html:DIR"


def to_json(report: Report, rootdir: Path | None = None) -> dict[str, Any]:
    """The report as a JSON document (format :data:`REPORT_FORMAT`), paths relative to
    ``rootdir``. ``tasks`` is keyed by test function node id, which adding a test does not
    change: a task several functions run is under each, with that function's runs."""
    tasks = {
        function: _task_json(task, function, rootdir)
        for task in report.tasks
        for function in task.functions
    }
    t = report.total
    return {
        "format": REPORT_FORMAT,
        "tasks": tasks,
        "faults": {
            check.label: {
                "test": check.function,
                "policy": check.policy,
                "expect_fault": check.expect_fault,
                "verdict": check.verdict,
                "revealed": check.revealed,
                "judged": check.judged,
                "scenes_revealing": check.hits,
                "scenes": len(check.scenes),
                "scenes_not_run": check.not_run,
            }
            for check in report.faults
        },
        "total": {
            "conditions": t.total_conditions,
            "covered_conditions": t.covered_conditions,
            "paths": t.total_paths,
            "covered_paths": t.covered_paths,
            "condition_coverage": round(t.condition_cov, 2),
            "LogCov": round(t.log_cov, 2),
        },
        "scenes": {
            "ran": report.scenes_ran,
            "not_selected": report.scenes_not_selected,
            "without_a_policy_run": report.scenes_idle,
        },
        "problems": list(report.problems),
        **({"mutation": mutation.to_json(report.mutation)} if report.mutation else {}),
    }


def _task_json(task: TaskReport, function: str, rootdir: Path | None) -> dict[str, Any]:
    cov = task.coverage
    return {
        "label": task.label,
        "tests": list(task.functions),
        "entry": relative_path(Path(task.entry), rootdir) if rootdir else task.entry,
        "conditions": cov.total_conditions,
        "covered_conditions": cov.covered_conditions,
        "paths": cov.total_paths,
        "covered_paths": cov.covered_paths,
        "condition_coverage": round(cov.condition_cov, 2),
        "LogCov": round(cov.log_cov, 2),
        "missing_conditions": [list(c) for c in cov.missing_conditions],
        "missing_paths": list(cov.missing_paths),
        "unverifiable_conditions": [list(c) for c in cov.unverifiable],
        "scenes": {
            trajectory: {
                function: list(kinds) for function, kinds in task.outcomes(trajectory).items()
            }
            for trajectory in task.trajectories
        },
        "plan": plan_json(task),
        "runs": runs_json(task, function),
    }


def plan_json(task: TaskReport) -> dict[str, Any] | None:
    """Who made the task's plan and its review: ``unreviewed`` is true for a model's plan no
    person has read as it is (what ``--logicenv-require-reviewed`` fails on), and
    ``unreviewed_because`` says why; ``reviewed_by``/``reviewed_at`` name the person who did.
    ``None`` when the manifest cannot tell."""
    status = task.review
    if status is None:
        return None
    review = status.review if status.needs_review and not status.unreviewed else None
    return {
        "made_by": status.made_by,
        "needs_review": status.needs_review,
        "unreviewed": status.unreviewed,
        "reviewed_by": None if review is None else review.by,
        "reviewed_at": None if review is None else review.at,
        "reviewed_plan_sha256": None if review is None else review.plan_sha256,
        "unreviewed_because": status.why if status.unreviewed else None,
        "status": status.words,
    }


def runs_json(task: TaskReport, function: str | None = None) -> list[dict[str, Any]]:
    """Every policy run of a task (of one test function of it, if given), in node id order:
    the test item, its scene, the policy,
    the fault it declares and its outcome as ``Outcome.to_json`` writes it (with the trace;
    ``logicenv render SCENE --trace REPORT.json --run N`` draws it), and what
    ``--logicenv-explore`` found in other scenes of the situation."""
    return [
        {
            "test": record.nodeid,
            "scene": record.trajectory,
            "policy": run.policy,
            "expect_fault": run.expect_fault,
            "outcome": None if run.result is None else dict(run.result),
            **({"explored": dict(run.explored)} if run.explored is not None else {}),
        }
        for record in sorted(task.runs, key=lambda record: record.nodeid)
        if function is None or record.function == function
        for run in record.runs
    ]


def to_markdown(report: Report, rootdir: Path | None = None) -> str:
    """A Markdown table, e.g. for ``$GITHUB_STEP_SUMMARY``, then the review status of each
    plan a model made (entries named relative to ``rootdir``)."""

    def cell(text: str) -> str:
        return html.escape(text).replace("|", "\\|")

    lines = [
        "## Logic coverage",
        "",
        "| Task | Conditions | Covered | Paths | Covered | LogCov |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for task in report.tasks:
        cov = task.coverage
        lines.append(
            f"| `{cell(task.label)}` | {cov.total_conditions} | {cov.covered_conditions} | "
            f"{cov.total_paths} | {cov.covered_paths} | {cov.log_cov:.0f}% |"
        )
    t = report.total
    lines.append(
        f"| **TOTAL** | {t.total_conditions} | {t.covered_conditions} | {t.total_paths} | "
        f"{t.covered_paths} | **{t.log_cov:.0f}%** |"
    )
    if report.scenes_not_selected:
        lines += [
            "",
            f"Partial run: {report.scenes_ran} scenes ran, {report.scenes_not_selected} not "
            "selected; coverage and declared faults count only the scenes that ran.",
        ]
    lines += _review_lines(report, cell, rootdir)
    if report.faults:
        revealed = sum(check.revealed for check in report.faults)
        lines += ["", f"Faults revealed: {revealed}/{len(report.faults)}", ""]
        for check in report.faults:
            status = {"missed": "**missed**", "not judged": f"not judged ({check.not_run} not run)"}
            shown = status.get(check.verdict, check.verdict)
            lines.append(f"- `{cell(check.label)}`: {cell(check.expect_fault)} {shown}")
    if report.mutation is not None:
        lines += mutation.to_markdown(report.mutation)
    lines += [line for problem in report.problems for line in ("", f"Warning: {cell(problem)}")]
    return "\n".join(lines) + "\n"


def _review_lines(report: Report, cell: Callable[[str], str], rootdir: Path | None) -> list[str]:
    """The review status of each plan a model made (a hand-written one needs none), as the
    terminal and HTML reports say it, with the command for an unreviewed one."""
    tasks = [task for task in report.tasks if task.review and task.review.needs_review]
    if not tasks:
        return []
    lines = ["", "Plans made by a model:", ""]
    for task in tasks:
        assert task.review is not None
        said = cell(task.review.words)
        if task.unreviewed:
            entry = relative_path(Path(task.entry), rootdir) if rootdir else task.entry
            said = said.replace("UNREVIEWED", "**UNREVIEWED**", 1)
            said += f"; read it with `logicenv show {entry}`, then mark it with "
            said += f"`logicenv review {entry}`"
        lines.append(f"- `{cell(task.label)}`: {said}")
    return lines


def parse_report_spec(spec: str) -> tuple[str, Path | None]:
    """``"json:out.json"`` -> ``("json", Path("out.json"))``; ``"term"`` -> ``("term", None)``."""
    kind, _, target = spec.partition(":")
    if kind in ("term", "term-missing") and not target:
        return kind, None
    if kind in FILE_KINDS and target:
        return kind, Path(target)
    raise ValueError(f"--logicenv-report={spec!r}: use {KINDS_SHOWN}")


def write_reports(
    report: Report, specs: Sequence[str], rootdir: Path
) -> tuple[list[str], list[str]]:
    """Write the file reports; returns the lines for the terminal (one per file written, and
    the report itself for a target of ``-``, standard output, as coverage.py reads it) and
    why a report could not be written, naming its path (the previous one is left whole)."""
    shown: list[str] = []
    failures: list[str] = []
    for spec in specs:
        kind, target = parse_report_spec(spec)
        if target is None:
            continue
        path = target if target.is_absolute() or str(target) == "-" else rootdir / target
        try:
            shown += _write_one(report, kind, path, rootdir)
        except (OSError, LogicEnvError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            failures.append(
                f"logicenv: the {kind} report {path} could not be written ({reason}); "
                "a previous one there is left as it was"
            )
    return shown, failures


def _write_one(report: Report, kind: str, path: Path, rootdir: Path) -> list[str]:
    if kind == "html":
        return [f"html report written to {write_html(report, path)}"]
    text = report_text(kind, report, rootdir)
    if str(path) == "-":
        return text.splitlines()
    write_through(path, text)
    return [f"{kind} report written to {path}"]


def report_text(kind: str, report: Report, rootdir: Path) -> str:
    """The text of one file report."""
    if kind == "json":
        return json.dumps(to_json(report, rootdir), indent=2) + "\n"
    if kind == "cobertura":
        return to_cobertura(report, rootdir)
    if kind == "lcov":
        return to_lcov(report, rootdir)
    return to_markdown(report, rootdir)
