"""The mutation score beside the LogCov report, in every format (``--logicenv-mutate``).

:func:`mutation_report` joins the mutants' per-scene results that the run records carry into
a score per test function and policy (:mod:`pytest_logicenv.mutation.scores`); the functions
below write it: a table with a TOTAL line, the score per operator and per fault class, and
each surviving mutant with its operator, node and change (each is a situation no scene has,
or a mutant that changes nothing the scenes can see), in the terminal, JSON, Markdown and
HTML reports.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from typing import Any

from pytest_logicenv.mutation.scores import MutationReport, PolicyScore, score_policy
from pytest_logicenv.report.records import RunRecord

#: What a surviving mutant is, as the reports say it.
SURVIVOR_MEANING = "each a situation no scene has, or a change no scene can see"


def mutation_report(records: Iterable[RunRecord]) -> MutationReport | None:
    """The score of every policy whose runs carry mutants (``None``: none do)."""
    scenes: dict[tuple[str, str], list[tuple[str, Mapping[str, Any]]]] = {}
    for record in sorted(records, key=lambda record: record.nodeid):
        for run in record.runs:
            if run.mutation is not None:
                key = (record.function, run.policy)
                scenes.setdefault(key, []).append((record.trajectory, run.mutation))
    if not scenes:
        return None
    return MutationReport(
        tuple(score_policy(function, policy, found) for (function, policy), found in scenes.items())
    )


def _score(score: float | None) -> str:
    return "-" if score is None else f"{score:.0f}%"


def _ratio(counts: tuple[int, int]) -> str:
    killed, total = counts
    return f"{killed}/{total}"


def shares(counts: Mapping[str, tuple[int, int]]) -> str:
    """``killed/total`` per operator or fault class: ``retarget 2/3, swap-sequence 4/4``."""
    return ", ".join(f"{name} {_ratio(c)}" for name, c in counts.items()) or "none"


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else "…" + text[-(width - 1) :]


def format_term(report: MutationReport) -> list[str]:
    """The terminal section: one line per policy, TOTAL, the shares, then the survivors."""
    width = min(max([len("Policy"), *(len(p.label) for p in report.policies)]), 72)
    header = f"{'Policy':<{width}}  Mutants  Killed  Equivalent  Score"
    lines = [header, "-" * len(header)]
    for policy in report.policies:
        lines.append(
            f"{_short(policy.label, width):<{width}}  {policy.total:>7}  {policy.killed:>6}  "
            f"{len(policy.equivalent):>10}  {_score(policy.score):>5}"
        )
    if len(report.policies) > 1:
        lines.append("-" * len(header))
        lines.append(
            f"{'TOTAL':<{width}}  {report.total:>7}  {report.killed:>6}  "
            f"{report.equivalent:>10}  {_score(report.score):>5}"
        )
    lines.append(f"by operator: {shares(report.by_operator)}")
    lines.append(f"by fault class: {shares(report.by_fault)}")
    lines += _notes(report)
    survivors = [(p, v) for p in report.policies for v in p.survivors if p.score is not None]
    if survivors:
        lines.append(f"surviving mutants ({SURVIVOR_MEANING}):")
        lines += [f"  {p.label}: {v.operator} {v.node}: {v.change}" for p, v in survivors]
    return lines


def _notes(report: MutationReport) -> list[str]:
    """What was left out of the score, and why."""
    notes = []
    if report.duplicates or report.equivalent:
        notes.append(
            f"discarded: {report.equivalent} equivalent (provably the same runs), "
            f"{report.duplicates} duplicates"
        )
    for policy in report.policies:
        if policy.nothing:
            notes.append(f"{policy.label} {policy.nothing}")
        elif policy.fails or not policy.scenes:
            notes.append(f"{policy.label}: {not_scored(policy)}")
        notes += [f"{policy.label}: invalid mutant {why}" for why in policy.invalid]
    return notes


def not_scored(policy: PolicyScore) -> str:
    """Why a policy that fails in some of its scenes is not scored."""
    scenes = f"{policy.ran_in} scene" + ("" if policy.ran_in == 1 else "s")
    mutants = f"{policy.not_run} mutant" + ("" if policy.not_run == 1 else "s")
    outcomes = ", ".join(dict.fromkeys(policy.fails))
    return (
        f"skipped: it fails in {len(policy.fails)} of its {scenes} ({outcomes}), so none of "
        f"its {mutants} is scored (a mutant of a failing policy cannot be told from its "
        "fault); fix the policy, or declare the fault with expect_fault= (not mutated)"
    )


def to_json(report: MutationReport) -> dict[str, Any]:
    return {
        "killed": report.killed,
        "total": report.total,
        "score": None if report.score is None else round(report.score, 2),
        "equivalent": report.equivalent,
        "duplicates": report.duplicates,
        "by_operator": {k: {"killed": a, "total": b} for k, (a, b) in report.by_operator.items()},
        "by_fault": {k: {"killed": a, "total": b} for k, (a, b) in report.by_fault.items()},
        "policies": [_policy_json(policy) for policy in report.policies],
    }


def _policy_json(policy: PolicyScore) -> dict[str, Any]:
    return {
        "test": policy.function,
        "policy": policy.policy,
        "killed": policy.killed,
        "total": policy.total,
        "score": None if policy.score is None else round(policy.score, 2),
        "scenes": policy.scenes,
        "not_run": policy.not_run,
        "skipped": not_scored(policy) if policy.fails else None,
        "by_operator": {k: {"killed": a, "total": b} for k, (a, b) in policy.by_operator.items()},
        "by_fault": {k: {"killed": a, "total": b} for k, (a, b) in policy.by_fault.items()},
        "mutants": [verdict.to_json() for verdict in policy.verdicts],
        "equivalent": [dict(entry) for entry in policy.equivalent],
        "duplicates": policy.duplicates,
        "invalid": list(policy.invalid),
        "nothing_to_mutate": policy.nothing,
    }


def to_markdown(report: MutationReport) -> list[str]:
    def cell(text: str) -> str:
        return html.escape(text).replace("|", "\\|")

    lines = [
        "",
        "## Mutation score",
        "",
        "| Policy | Mutants | Killed | Equivalent | Score |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for p in report.policies:
        lines.append(
            f"| `{cell(p.label)}` | {p.total} | {p.killed} | {len(p.equivalent)} | "
            f"{_score(p.score)} |"
        )
    lines.append(
        f"| **TOTAL** | {report.total} | {report.killed} | {report.equivalent} | "
        f"**{_score(report.score)}** |"
    )
    lines += ["", f"By operator: {shares(report.by_operator)}", ""]
    lines += [f"By fault class: {shares(report.by_fault)}", ""]
    lines += [f"{cell(note)}  " for note in _notes(report)]
    lines += [""] if _notes(report) else []
    survivors = [(p, v) for p in report.policies for v in p.survivors if p.score is not None]
    if survivors:
        lines.append(f"Surviving mutants ({SURVIVOR_MEANING}):")
        lines.append("")
        lines += [
            f"- `{cell(p.label)}`: {cell(v.operator)} `{cell(v.node)}`: {cell(v.change)}"
            for p, v in survivors
        ]
    return lines


def to_html(report: MutationReport) -> str:
    e = html.escape
    rows = [
        "<h2 id='mutation'>Mutation score</h2><table><tr><th>Policy</th><th>Mutants</th>"
        "<th>Killed</th><th>Equivalent</th><th>Score</th></tr>"
    ]
    for p in report.policies:
        rows.append(
            f"<tr><td>{e(p.label)}</td><td>{p.total}</td><td>{p.killed}</td>"
            f"<td>{len(p.equivalent)}</td><td>{_score(p.score)}</td></tr>"
        )
    rows.append(
        f"<tr><th>TOTAL</th><th>{report.total}</th><th>{report.killed}</th>"
        f"<th>{report.equivalent}</th><th>{_score(report.score)}</th></tr></table>"
    )
    rows.append(f"<p>By operator: {e(shares(report.by_operator))}</p>")
    rows.append(f"<p>By fault class: {e(shares(report.by_fault))}</p>")
    survivors = [(p, v) for p in report.policies for v in p.survivors if p.score is not None]
    if survivors:
        rows.append(f"<h3>Surviving mutants</h3><p class='tests'>{e(SURVIVOR_MEANING)}</p><ul>")
        rows += [
            f"<li>{e(p.label)}: <b>{e(v.operator)}</b> <code>{e(v.node)}</code>: {e(v.change)}</li>"
            for p, v in survivors
        ]
        rows.append("</ul>")
    rows += [f"<p class='note'>{e(note)}</p>" for note in _notes(report)]
    return "\n".join(rows)
