"""The LogCov report as an HTML page (``html:DIR``).

At the top, what the session says at a glance (LogCov, how many scenes ran and were
not selected, the declared faults, the failing runs) and one row per task, named by its task.
Per task: its decision trees coloured by coverage, the matrix of policies x scenes, each
failing run with its explanation, reproduce line and its scene drawn with the agent's path
(:mod:`~pytest_logicenv.report.runs`), and every scene's picture at full size. All text from
plans, LLMs and policies is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path

from pytest_logicenv.atomic import write_atomic, write_through
from pytest_logicenv.cache import Entry, safe_file_name
from pytest_logicenv.logic.coverage import Branch, covered_branches
from pytest_logicenv.logic.plan import Leaf, Node, Plan, plan_reading
from pytest_logicenv.report.mutation import to_html
from pytest_logicenv.report.report_model import FaultCheck, Report, TaskReport
from pytest_logicenv.report.runs import failure_sections, failures, matrix, revealed
from pytest_logicenv.report.terminal import shown_entry

#: How much of a task's text names it in the table (the rest is in its section).
TASK_NAME_CHARS = 110

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; max-width: 1400px; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: .3rem .6rem; text-align: right; vertical-align: top; }
th:first-child, td:first-child { text-align: left; }
.tests { color: #666; font-size: .85rem; }
.summary { font-size: 1.1rem; }
.tree ul { list-style: none; padding-left: 1.2rem; border-left: 1px dashed #bbb; }
.covered { color: #17692f; } .missed { color: #b3261e; font-weight: bold; }
.matrix td, .matrix th { text-align: center; font-size: .9rem; }
.matrix th.scene-id { font-weight: normal; font-family: monospace; }
td.pass { background: #ebfbee; } td.expected { background: #fff4e6; }
td.fault { background: #ffe3e3; font-weight: bold; } td.none { color: #aaa; }
.failure-run { border-left: 4px solid #c92a2a; padding: .2rem 1rem; margin: 1.5rem 0; }
.failure { color: #c92a2a; font-weight: bold; font-size: 1.05rem; }
.explanation { background: #f8f9fa; padding: .6rem; white-space: pre-wrap; }
.reproduce code { background: #f1f3f5; padding: .1rem .3rem; }
.picture { overflow: auto; max-height: 90vh; border: 1px solid #ddd; }
.picture svg { display: block; }
.zoom button { min-width: 2rem; }
.scenes { display: flex; flex-wrap: wrap; gap: 1rem; }
.scene-card { border: 1px solid #ddd; padding: .5rem; width: 380px; }
.scene-card img { width: 100%; height: auto; }
.unreviewed { background: #fff3bf; color: #7a4d00; font-weight: bold; padding: 0 .3rem; }
.reading { background: #f8f9fa; padding: .6rem; white-space: pre-wrap; }
.verdict-missed { color: #b3261e; font-weight: bold; } .verdict-unjudged { color: #8a5a00; }
"""

#: Zooming a picture: a factor of its current width, or 0 for its full size.
_SCRIPT = """
function zoom(anchor, factor) {
  const svg = document.getElementById(anchor + "-picture").querySelector("svg");
  const full = parseFloat(svg.getAttribute("width"));
  const now = svg.getBoundingClientRect().width;
  svg.style.width = (factor ? now * factor : full) + "px";
  svg.style.height = "auto";
}
"""


def write_html(report: Report, directory: Path) -> Path:
    """Write the report to ``directory/index.html`` (with its pictures beside it)."""
    directory.mkdir(parents=True, exist_ok=True)
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Logic coverage</title>",
        f"<style>{_CSS}</style><script>{_SCRIPT}</script></head><body>",
        "<h1>Logic coverage</h1>",
        _summary(report),
        _task_table(report),
        _fault_table(report.faults, _fault_links(report)),
    ]
    if report.mutation is not None:
        parts.append(to_html(report.mutation))
    for task in report.tasks:
        parts.append(_task_section(task, directory))
    parts.append("</body></html>")
    index = directory / "index.html"
    write_through(index, "\n".join(parts))  # through a symlink, as the others
    return index


def task_name(task: TaskReport) -> str:
    """A task as the report names it: its text, cut at a word when long."""
    text = " ".join(task.plan.task.split()) or task.label
    if len(text) <= TASK_NAME_CHARS:
        return text
    return text[:TASK_NAME_CHARS].rsplit(" ", 1)[0] + " …"


def _anchor(task: TaskReport) -> str:
    return "task-" + safe_file_name(Path(task.entry).name)


def _summary(report: Report) -> str:
    failing = sum(len(failures(task, "x")) for task in report.tasks)
    revealed = sum(check.revealed for check in report.faults)
    items = [f"LogCov <b>{report.total.log_cov:.0f}%</b>", f"{report.scenes_ran} scenes ran"]
    if report.scenes_idle:
        items.append(f"<b>{report.scenes_idle} ran no policy</b> (not counted as covered)")
    if report.scenes_not_selected:
        items.append(f"<b>{report.scenes_not_selected} not selected</b> (a partial run)")
    if report.faults:
        items.append(f"faults revealed {revealed}/{len(report.faults)}")
    items.append(f"<b>{failing} failing run{'s' if failing != 1 else ''}</b>")
    problems = "".join(f"<p class='note'>{html.escape(p)}</p>" for p in report.problems)
    return f"<p class='summary'>{' · '.join(items)}</p>{problems}"


def _task_table(report: Report) -> str:
    rows = [
        "<table><tr><th>Task</th><th>Conditions</th><th>Covered</th><th>Paths</th>"
        "<th>Covered</th><th>LogCov</th></tr>"
    ]
    for task in report.tasks:
        cov = task.coverage
        tests = ", ".join(task.functions)
        rows.append(
            f"<tr><td><a href='#{_anchor(task)}'>{html.escape(task_name(task))}</a>"
            f"{' <span class=unreviewed>unreviewed</span>' if task.unreviewed else ''}"
            f"<div class='tests'>{html.escape(tests)}</div></td>"
            f"<td>{cov.total_conditions}</td><td>{cov.covered_conditions}</td>"
            f"<td>{cov.total_paths}</td><td>{cov.covered_paths}</td><td>{cov.log_cov:.0f}%</td></tr>"
        )
    t = report.total
    rows.append(
        f"<tr><th>TOTAL</th><th>{t.total_conditions}</th><th>{t.covered_conditions}</th>"
        f"<th>{t.total_paths}</th><th>{t.covered_paths}</th><th>{t.log_cov:.0f}%</th></tr>"
        "</table>"
    )
    return "\n".join(rows)


def _fault_links(report: Report) -> dict[tuple[str, str, str], str]:
    """(test function, policy, fault) -> the anchor of the scene drawn revealing it."""
    return {
        (shown.record.function, shown.run.policy, str(shown.run.expect_fault)): shown.anchor
        for task in report.tasks
        for shown in revealed(task, _anchor(task))
    }


def _fault_table(checks: tuple[FaultCheck, ...], links: Mapping[tuple[str, str, str], str]) -> str:
    if not checks:
        return ""
    rows = [
        "<h2>Declared faults</h2><table><tr><th>Test (policy)</th><th>Fault</th>"
        "<th>Verdict</th><th>Scenes revealing</th></tr>"
    ]
    for check in checks:
        link = links.get((check.function, check.policy, check.expect_fault))
        if check.revealed:
            verdict = f"<a href='#{link}'>revealed</a>" if link else "revealed"
        elif not check.judged:
            verdict = f"<span class='verdict-unjudged'>not judged ({check.not_run} not run)</span>"
        else:
            verdict = "<span class='verdict-missed'>MISSED</span>"
        rows.append(
            f"<tr><td>{html.escape(check.label)}</td><td>{html.escape(check.expect_fault)}</td>"
            f"<td>{verdict}</td><td>{check.hits}/{len(check.scenes)}</td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def _task_section(task: TaskReport, directory: Path) -> str:
    anchor = _anchor(task)
    failing = failures(task, anchor)
    shown = revealed(task, anchor)
    parts = [
        f"<section id='{anchor}'><h2>{html.escape(task_name(task))}</h2>",
        f"<p>{html.escape(task.plan.task)}</p>",
        f"<p class='tests'>tests: {html.escape(', '.join(task.functions))}</p>",
        *_review_note(task),
        "<h3>Decision trees</h3><div class='tree'>",
    ]
    covered = covered_branches(task.plan, task.coverage)
    for subtask in task.plan.subtasks:
        tree = _tree_html(task.plan, subtask.tree, (subtask.name, ()), covered)
        parts.append(f"<h4>{html.escape(subtask.name)}</h4>{tree}")
    parts += ["</div>", "<h3>Policies x scenes</h3>", matrix(task, failing, shown)]
    if failing:
        parts.append(f"<h3>Failing runs ({len(failing)})</h3>")
        parts += failure_sections(task, failing, directory)
    if shown:
        parts.append(f"<h3>Declared faults revealed ({len(shown)})</h3>")
        parts += failure_sections(task, shown, directory)
    parts += ["<h3>Scenes</h3>", _scene_cards(task, directory), "</section>"]
    return "\n".join(parts)


def _review_note(task: TaskReport) -> list[str]:
    """Who made the plan; for a model's plan no person reviewed, the plan as a person reads
    it (the facts of each answer, the goals) and the command that marks it reviewed."""
    if task.review is None or not task.review.needs_review:
        return []
    said = html.escape(task.review.words)
    if not task.unreviewed:
        return [f"<p class='tests'>plan {said}</p>"]
    entry = html.escape(shown_entry(task))
    reading = html.escape("\n".join(plan_reading(task.plan)))
    return [
        f"<p><span class='unreviewed'>unreviewed</span> plan {said}. Read it, then mark it "
        f"reviewed: <code>logicenv review {entry}</code></p>",
        f"<h3>The plan as a person reads it</h3><pre class='reading'>{reading}</pre>",
    ]


def _scene_cards(task: TaskReport, directory: Path) -> str:
    """Each scene that ran: its picture (click for the full size)."""
    pictures = directory / "scenes"
    pictures.mkdir(exist_ok=True)
    cards = []
    for trajectory in task.trajectories:
        source = Entry(Path(task.entry)).scene_path(trajectory, ".svg")
        image = "<p class='note'>no picture</p>"
        if source.is_file():
            name = safe_file_name(f"{Path(task.entry).name}-{trajectory}") + ".svg"
            write_atomic(pictures / name, source.read_text(encoding="utf-8"))
            link = html.escape(f"scenes/{name}")
            alt = html.escape(f"scene {trajectory}")
            image = f"<a href='{link}' target='_blank'><img src='{link}' alt='{alt}'></a>"
        cards.append(f"<div class='scene-card'><h4>{html.escape(trajectory)}</h4>{image}</div>")
    return f"<div class='scenes'>{''.join(cards)}</div>"


def _tree_html(plan: Plan, node: Node, at: Branch, covered: frozenset[Branch]) -> str:
    """A decision tree, each answer coloured by whether a covered path takes that branch
    (``at``: the subtask and the steps to ``node``)."""
    if isinstance(node, Leaf):
        return f"<em>{html.escape(node.action)}</em>"
    factor = plan.factor(node.factor)
    items = []
    for value, child in node.branches:
        branch = (at[0], (*at[1], (node.factor, value)))
        css = "covered" if branch in covered else "missed"
        items.append(
            f'<li><span class="{css}">{html.escape(factor.answer(value))}</span> '
            f"{_tree_html(plan, child, branch, covered)}</li>"
        )
    return f"{html.escape(factor.question)}<ul>{''.join(items)}</ul>"
