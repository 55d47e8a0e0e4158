"""The LogCov report: computed once as data, then printed or written in several formats.

As pytest-cov does, the report is data first (:func:`build_report`) and formats second:
``term``, ``term-missing``, ``json:PATH``, ``markdown:PATH`` and ``html:DIR``. Coverage is
computed from the scenes of test items that actually ran, by evaluating each condition's
realization facts on them (see :mod:`pytest_logicenv.logic.coverage`).
"""

from __future__ import annotations

import html
import json
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_logicenv.cache import Entry, regenerate_hint, safe_file_name, write_atomic
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.logic.coverage import PlanCoverage, TotalCoverage, plan_coverage, total
from pytest_logicenv.logic.plan import Leaf, Node, Plan, plan_from_json
from pytest_logicenv.scenes.model import load_scene

REPORT_FORMAT = "logicenv-report/1"


@dataclass(frozen=True)
class RunRecord:
    """What one test item reported: which environment ran, and the policy outcomes."""

    function: str
    entry: str
    trajectory: str
    outcomes: tuple[str, ...] = ()
    expect_fault: str | None = None
    nodeid: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunRecord:
        return cls(
            function=str(data["function"]),
            entry=str(data["entry"]),
            trajectory=str(data["trajectory"]),
            outcomes=tuple(data.get("outcomes", ())),
            expect_fault=data.get("expect_fault"),
            nodeid=str(data.get("nodeid", "")),
        )


@dataclass(frozen=True)
class TaskReport:
    """One task's environments (one cache entry), however many test functions ran them."""

    label: str
    functions: tuple[str, ...]
    entry: str
    coverage: PlanCoverage
    plan: Plan
    runs: tuple[RunRecord, ...]

    @property
    def trajectories(self) -> tuple[str, ...]:
        """The environments that ran, in first-run order."""
        return tuple(dict.fromkeys(run.trajectory for run in self.runs))

    def outcomes(self, trajectory: str) -> list[tuple[str, tuple[str, ...]]]:
        """``(test function, outcome kinds)`` for each run of one environment."""
        return [(run.function, run.outcomes) for run in self.runs if run.trajectory == trajectory]


@dataclass(frozen=True)
class FaultCheck:
    """A test that declares its policy faulty (``expect_fault``): did an environment show it?"""

    function: str
    expect_fault: str
    runs: tuple[RunRecord, ...]

    @property
    def hits(self) -> int:
        return sum(self.expect_fault in run.outcomes for run in self.runs)

    @property
    def revealed(self) -> bool:
        return self.hits > 0


@dataclass(frozen=True)
class Report:
    tasks: tuple[TaskReport, ...]
    faults: tuple[FaultCheck, ...]
    total: TotalCoverage
    problems: tuple[str, ...] = field(default=())

    @property
    def missed_faults(self) -> tuple[FaultCheck, ...]:
        return tuple(check for check in self.faults if not check.revealed)


def _label(functions: Sequence[str]) -> str:
    if len(functions) == 1:
        return functions[0]
    modules = {function.split("::", 1)[0] for function in functions}
    if len(modules) == 1:
        return f"{modules.pop()} ({len(functions)} tests)"
    return f"{functions[0]} (+{len(functions) - 1} tests)"


def build_report(records: Iterable[RunRecord]) -> Report:
    """Group run records by task (cache entry) and compute coverage from the scenes that ran;
    collect the declared faults per test function."""
    by_entry: dict[str, list[RunRecord]] = {}
    by_function: dict[str, list[RunRecord]] = {}
    for record in records:
        by_entry.setdefault(record.entry, []).append(record)
        by_function.setdefault(record.function, []).append(record)
    tasks = []
    problems = []
    for root, runs in sorted(by_entry.items()):
        functions = tuple(sorted({run.function for run in runs}))
        entry = Entry(Path(root))
        label = _label(functions)
        try:
            fix = f"delete {entry.root} and run {regenerate_hint(functions[0])}"
            plan = plan_from_json(entry.read_json(entry.plan_path, fix=fix), str(entry.plan_path))
            trajectories = dict.fromkeys(run.trajectory for run in runs)
            scenes = [load_scene(entry.scene_path(trajectory)) for trajectory in trajectories]
        except LogicEnvError as error:  # errors name the file
            problems.append(f"{label}: no coverage: {error}")
            continue
        tasks.append(
            TaskReport(
                label=label,
                functions=functions,
                entry=str(entry.root),
                coverage=plan_coverage(plan, scenes, name=label),
                plan=plan,
                runs=tuple(runs),
            )
        )
    faults = tuple(
        FaultCheck(function, str(runs[0].expect_fault), tuple(runs))
        for function, runs in sorted(by_function.items())
        if runs[0].expect_fault is not None
    )
    tasks.sort(key=lambda task: task.label)  # the order a reader looks things up in
    return Report(tuple(tasks), faults, total([t.coverage for t in tasks]), tuple(problems))


# --------------------------------------------------------------------------- terminal


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
    if report.faults:
        revealed = sum(check.revealed for check in report.faults)
        lines.append(f"faults revealed: {revealed}/{len(report.faults)} declared faulty policies")
        for check in report.faults:
            mark = "revealed" if check.revealed else "MISSED"
            lines.append(
                f"  {check.function}: {check.expect_fault} {mark} "
                f"({check.hits}/{len(check.runs)} scenes)"
            )
    for problem in report.problems:
        lines.append(f"warning: {problem}")
    return lines


# --------------------------------------------------------------------------- files


def to_json(report: Report) -> dict[str, Any]:
    tasks = {}
    for task in report.tasks:
        cov = task.coverage
        tasks[task.label] = {
            "tests": list(task.functions),
            "entry": task.entry,
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
                trajectory: {function: list(kinds) for function, kinds in task.outcomes(trajectory)}
                for trajectory in task.trajectories
            },
        }
    t = report.total
    return {
        "format": REPORT_FORMAT,
        "tasks": tasks,
        "faults": {
            check.function: {
                "expect_fault": check.expect_fault,
                "revealed": check.revealed,
                "scenes_revealing": check.hits,
                "scenes": len(check.runs),
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
        "problems": list(report.problems),
    }


def to_markdown(report: Report) -> str:
    """A Markdown table, e.g. for ``$GITHUB_STEP_SUMMARY``."""

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
    if report.faults:
        revealed = sum(check.revealed for check in report.faults)
        lines += ["", f"Faults revealed: {revealed}/{len(report.faults)}", ""]
        for check in report.faults:
            status = "revealed" if check.revealed else "**missed**"
            lines.append(f"- `{cell(check.function)}`: {cell(check.expect_fault)} {status}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- HTML

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: .3rem .6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.tree ul { list-style: none; padding-left: 1.2rem; border-left: 1px dashed #bbb; }
.covered { color: #17692f; } .missed { color: #b3261e; font-weight: bold; }
.scenes { display: flex; flex-wrap: wrap; gap: 1rem; }
.scene { border: 1px solid #ddd; padding: .5rem; width: 420px; }
.scene img { width: 400px; height: auto; background: #fafafa; }
.pass { color: #17692f; } .fault { color: #b3261e; } .expected { color: #8a5a00; }
"""


def _tree_html(
    plan: Plan, node: Node, prefix: tuple[tuple[str, str], ...], task: TaskReport
) -> str:
    covered_paths = task.coverage.covered_path_set
    if isinstance(node, Leaf):
        return f"<em>{html.escape(node.action)}</em>"
    factor = plan.factor(node.factor)
    items = []
    for value, child in node.branches:
        steps = (*prefix, (node.factor, value))
        key_tail = "/".join(f"{f}={v}" for f, v in steps)
        hit = any(key.split(":", 1)[1].startswith(key_tail) for key in covered_paths)
        css = "covered" if hit else "missed"
        items.append(
            f'<li><span class="{css}">{html.escape(factor.answer(value))}</span> '
            f"{_tree_html(plan, child, steps, task)}</li>"
        )
    return f"{html.escape(factor.question)}<ul>{''.join(items)}</ul>"


def write_html(report: Report, directory: Path) -> Path:
    """An HTML report: per task, its decision trees coloured by coverage and, per scene,
    its picture and outcome. All text from plans and LLMs is escaped."""
    directory.mkdir(parents=True, exist_ok=True)
    pictures = directory / "scenes"
    pictures.mkdir(exist_ok=True)
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Logic coverage</title>",
        f"<style>{_CSS}</style></head><body><h1>Logic coverage</h1>",
        "<table><tr><th>Task</th><th>Conditions</th><th>Covered</th><th>Paths</th>"
        "<th>Covered</th><th>LogCov</th></tr>",
    ]
    for task in report.tasks:
        cov = task.coverage
        parts.append(
            f"<tr><td><a href='#{html.escape(safe_file_name(task.label))}'>"
            f"{html.escape(task.label)}</a></td><td>{cov.total_conditions}</td>"
            f"<td>{cov.covered_conditions}</td><td>{cov.total_paths}</td>"
            f"<td>{cov.covered_paths}</td><td>{cov.log_cov:.0f}%</td></tr>"
        )
    t = report.total
    parts.append(
        f"<tr><th>TOTAL</th><th>{t.total_conditions}</th><th>{t.covered_conditions}</th>"
        f"<th>{t.total_paths}</th><th>{t.covered_paths}</th><th>{t.log_cov:.0f}%</th></tr>"
        "</table>"
    )
    for task in report.tasks:
        anchor = html.escape(safe_file_name(task.label))
        parts.append(f"<section id='{anchor}'><h2>{html.escape(task.label)}</h2>")
        parts.append(f"<p>{html.escape(task.plan.task)}</p><div class='tree'>")
        for subtask in task.plan.subtasks:
            tree = _tree_html(task.plan, subtask.tree, (), task)
            parts.append(f"<h3>{html.escape(subtask.name)}</h3>{tree}")
        parts.append("</div><div class='scenes'>")
        for trajectory in task.trajectories:
            source = Entry(Path(task.entry)).scene_path(trajectory, ".svg")
            name = safe_file_name(f"{Path(task.entry).name}-{trajectory}") + ".svg"
            image = ""
            if source.is_file():
                shutil.copyfile(source, pictures / name)
                alt = html.escape(f"scene {trajectory}")
                image = f"<img src='scenes/{html.escape(name)}' alt='{alt}'>"
            results = []
            for run in (r for r in task.runs if r.trajectory == trajectory):
                kinds = run.outcomes
                css = "pass" if kinds and set(kinds) <= {"pass"} else "fault"
                text = ", ".join(kinds) or "not run"
                if run.expect_fault is not None and run.expect_fault in kinds:
                    css, text = "expected", f"{text} (declared: revealed)"
                test = html.escape(run.function.rsplit("::", 1)[-1])
                results.append(f"<li class='{css}'>{test}: {html.escape(text)}</li>")
            parts.append(
                f"<div class='scene'><h4>{html.escape(trajectory)}</h4>{image}"
                f"<ul>{''.join(results)}</ul></div>"
            )
        parts.append("</div></section>")
    parts.append("</body></html>")
    index = directory / "index.html"
    write_atomic(index, "\n".join(parts))
    return index


def parse_report_spec(spec: str) -> tuple[str, Path | None]:
    """``"json:out.json"`` -> ``("json", Path("out.json"))``; ``"term"`` -> ``("term", None)``."""
    kind, _, target = spec.partition(":")
    if kind in ("term", "term-missing") and not target:
        return kind, None
    if kind in ("json", "markdown", "html") and target:
        return kind, Path(target)
    raise ValueError(
        f"--logicenv-report={spec!r}: use term, term-missing, json:PATH, markdown:PATH or html:DIR"
    )


def write_reports(report: Report, specs: Sequence[str], rootdir: Path) -> list[str]:
    """Write the file reports; returns one line per file written, for the terminal."""
    written = []
    for spec in specs:
        kind, target = parse_report_spec(spec)
        if target is None:
            continue
        path = target if target.is_absolute() else rootdir / target
        if kind == "json":
            write_atomic(path, json.dumps(to_json(report), indent=2) + "\n")
        elif kind == "markdown":
            write_atomic(path, to_markdown(report))
        else:
            path = write_html(report, path)
        written.append(f"{kind} report written to {path}")
    return written
