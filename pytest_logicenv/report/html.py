"""The LogCov report as an HTML page (``html:DIR``): per task, its decision trees coloured
by coverage and, per scene, its picture and what each test's policies did there."""

from __future__ import annotations

import html
import shutil
from pathlib import Path

from pytest_logicenv.cache import Entry, safe_file_name, write_atomic
from pytest_logicenv.logic.plan import Leaf, Node, Plan
from pytest_logicenv.report.model import Report, TaskReport
from pytest_logicenv.session.records import RunRecord

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


def _result_html(run: RunRecord) -> str:
    """One item's line under its scene: the test (with its parameters) and its outcomes;
    a declared fault that showed is marked as such, not as a failure."""
    kinds = run.outcomes
    css = "pass" if kinds and set(kinds) <= {"pass"} else "fault"
    text = ", ".join(kinds) or "not run"
    if any(r.expect_fault is not None and r.outcome == r.expect_fault for r in run.runs):
        css, text = "expected", f"{text} (declared: revealed)"
    test = html.escape(run.function.rsplit("::", 1)[-1] + _params(run))
    return f"<li class='{css}'>{test}: {html.escape(text)}</li>"


def _params(run: RunRecord) -> str:
    """The item's parameters besides its environment (``[counterfactual]``), if any."""
    params = run.nodeid.partition("[")[2].rstrip("]")
    rest = params.replace(run.trajectory, "", 1).strip("-")
    return f"[{rest}]" if rest else ""


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
                results.append(_result_html(run))
            parts.append(
                f"<div class='scene'><h4>{html.escape(trajectory)}</h4>{image}"
                f"<ul>{''.join(results)}</ul></div>"
            )
        parts.append("</div></section>")
    parts.append("</body></html>")
    index = directory / "index.html"
    write_atomic(index, "\n".join(parts))
    return index
