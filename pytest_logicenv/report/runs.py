"""A task's policy runs for the HTML report: the matrix of policies x scenes, and each failing
run with its explanation, reproduce line and the picture of what the agent did.

Every run that did not pass (and was not the fault its test declares) is a failing run: it
gets an anchor the matrix links to, its explanation as the terminal shows it, the command
that reruns its scene, and its scene drawn with the agent's path (inline, zoomable, and as a
file of its own to open at full size).
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_logicenv.atomic import write_atomic
from pytest_logicenv.cache import Entry, pytest_command
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.pipeline.entry_reads import scene_at
from pytest_logicenv.render import render_svg
from pytest_logicenv.report.records import PolicyRun, RunRecord
from pytest_logicenv.report.report_model import TaskReport
from pytest_logicenv.sim.outcome import Outcome


@dataclass(frozen=True)
class Failure:
    """A failing run: the test item, its scene, which policy, and its anchor in the page."""

    record: RunRecord
    run: PolicyRun
    anchor: str


def failures(task: TaskReport, prefix: str) -> list[Failure]:
    """The task's failing runs, in node id order, with anchors ``<prefix>-<n>``."""
    found: list[Failure] = []
    for record in sorted(task.runs, key=lambda r: r.nodeid):
        for run in record.runs:
            if _failed(run):
                found.append(Failure(record, run, f"{prefix}-{len(found) + 1}"))
    return found


def revealed(task: TaskReport, prefix: str) -> list[Failure]:
    """Each declared fault of the task as a scene revealed it (the first, in node id order),
    with anchors ``<prefix>-fault-<n>``: drawn like a failing run, linked from the matrix and
    the declared faults' table."""
    found: dict[tuple[str, str, str], Failure] = {}
    for record in sorted(task.runs, key=lambda r: r.nodeid):
        for run in record.runs:
            key = (record.function, run.policy, str(run.expect_fault))
            if run.expect_fault is not None and run.outcome == run.expect_fault:
                found.setdefault(key, Failure(record, run, f"{prefix}-fault-{len(found) + 1}"))
    return list(found.values())


def _failed(run: PolicyRun) -> bool:
    if run.outcome is None:
        return True
    return run.outcome != "pass" and run.outcome != run.expect_fault


def matrix(task: TaskReport, failing: list[Failure], shown: Sequence[Failure] = ()) -> str:
    """Policies (rows: test function and policy) x scenes (columns), each cell the outcome,
    a failing one (and a declared fault ``shown`` drawn) linking to its explanation below."""
    anchors = {(f.record.nodeid, f.run.policy): f.anchor for f in (*failing, *shown)}
    rows: dict[tuple[str, str], dict[str, list[tuple[PolicyRun, str]]]] = {}
    for record in sorted(task.runs, key=lambda r: r.nodeid):
        for run in record.runs:
            cells = rows.setdefault((record.function, run.policy), {})
            cells.setdefault(record.trajectory, []).append((run, record.nodeid))
    scenes = task.trajectories
    head = "".join(f"<th class='scene-id'>{html.escape(s)}</th>" for s in scenes)
    lines = [f"<table class='matrix'><tr><th>Test</th><th>Policy</th>{head}</tr>"]
    for (function, policy), cells in rows.items():
        tds = []
        for scene in scenes:
            runs = cells.get(scene, [])
            tds.append(_cell(runs, anchors) if runs else "<td class='none'>not run</td>")
        test = html.escape(function.rsplit("::", 1)[-1])
        lines.append(f"<tr><th>{test}</th><th>{html.escape(policy or '-')}</th>{''.join(tds)}</tr>")
    lines.append("</table>")
    return "\n".join(lines)


def _cell(runs: list[tuple[PolicyRun, str]], anchors: Mapping[tuple[str, str], str]) -> str:
    texts, css = [], "pass"
    for run, nodeid in runs:
        kind = run.outcome or "no outcome"
        anchor = anchors.get((nodeid, run.policy))
        if run.expect_fault is not None and run.outcome == run.expect_fault:
            css = "expected" if css == "pass" else css
            shown = f"<a href='#{anchor}'>{html.escape(kind)}</a>" if anchor else html.escape(kind)
            texts.append(f"{shown} <small>(declared)</small>")
        elif anchor is not None:
            css = "fault"
            texts.append(f"<a href='#{anchor}'>{html.escape(kind)}</a>")
        else:
            texts.append(html.escape(kind))
    return f"<td class='{css}'>{'<br>'.join(texts)}</td>"


def failure_sections(task: TaskReport, failing: list[Failure], directory: Path) -> Iterator[str]:
    """Each failing run: headline, explanation, reproduce line and the run's picture."""
    for failure in failing:
        yield _failure_html(task, failure, directory)


def _failure_html(task: TaskReport, failure: Failure, directory: Path) -> str:
    record, run, anchor = failure.record, failure.run, failure.anchor
    result = run.result or {}
    explanation = str(result.get("explanation") or "the policy did not run to an outcome")
    headline, _, rest = explanation.partition("\n")
    where = f"{run.policy} in {record.trajectory}" if run.policy else record.trajectory
    reproduce = pytest_command(record.nodeid)
    parts = [
        f"<article class='failure-run' id='{anchor}'>",
        f"<h4>{html.escape(where)}</h4>",
        f"<p class='failure'>{html.escape(headline)}</p>",
        f"<pre class='explanation'>{html.escape(rest)}</pre>" if rest else "",
        f"<p class='reproduce'>reproduce: <code>{html.escape(reproduce)}</code></p>",
        _picture(task, record, result, anchor, directory),
        "</article>",
    ]
    return "\n".join(part for part in parts if part)


def _picture(
    task: TaskReport, record: RunRecord, result: Mapping[str, Any], anchor: str, directory: Path
) -> str:
    """The run drawn on its scene, inline with zoom buttons, and written beside the page."""
    if not result:
        return ""
    try:
        scene = scene_at(Entry(Path(task.entry)).scene_path(record.trajectory))
        svg = render_svg(scene, Outcome.from_json(result), ident=f"{anchor}-")
    except LogicEnvError as error:  # a damaged cache file: say so, keep the report
        return f"<p class='note'>no picture: {html.escape(str(error))}</p>"
    name = f"runs/{anchor}.svg"
    write_atomic(directory / name, svg)
    return (
        f"<div class='zoom'><button type='button' onclick=\"zoom('{anchor}', 0.8)\">-</button>"
        f"<button type='button' onclick=\"zoom('{anchor}', 1.25)\">+</button>"
        f"<button type='button' onclick=\"zoom('{anchor}', 0)\">full size</button> "
        f"<a href='{name}' target='_blank'>open the picture alone</a></div>"
        f"<div class='picture' id='{anchor}-picture'>{svg}</div>"
    )
