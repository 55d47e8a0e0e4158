"""Decision-path coverage as line and branch coverage, for the tools that read those
(Cobertura, :mod:`~pytest_logicenv.report.cobertura`; LCOV, :mod:`~pytest_logicenv.report.lcov`).

Each task is its cache entry's ``plan.json`` (a file in the repository, relative to the
rootdir). Each condition ``(factor, value)`` is a line: the line of the plan where the value's
realization is written, hit as many times as scenes it held in. Each decision path is a branch
of the line of its last condition (the answer that leads to its leaf), taken as many times as
scenes it held in; so the line rate is condition coverage and the branch rate LogCov. A
subtask without decisions has one path and no condition: it is the line of its ``"name"``.

>>> text = '{\\n "id": "window",\\n "realization": {\\n  "yes": [],\\n  "no": []\\n }\\n}\\n'
>>> from pytest_logicenv.logic.plan import Factor, Leaf, Plan, Query, Subtask
>>> window = Factor("window", "Is it open?", ("yes", "no"))
>>> tree = Query("window", (("yes", Leaf("Close it.")), ("no", Leaf("Nothing."))))
>>> plan_text_lines(text, Plan("", (Subtask("window", (window,), tree),)))
{('window', 'yes'): 4, ('window', 'no'): 5}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from pytest_logicenv.cache import Entry
from pytest_logicenv.logic.plan import Leaf, Plan
from pytest_logicenv.logic.trajectories import plan_paths
from pytest_logicenv.report.report_model import Report, TaskReport, relative_path

Condition = tuple[str, str]


@dataclass(frozen=True)
class CoveredLine:
    """A line of a plan file: the scenes its condition held in, and per decision path ending
    there, the scenes the path held in."""

    number: int
    hits: int
    branches: tuple[int, ...] = ()
    what: str = ""  # the condition (factor=value) or the subtask the line stands for

    @property
    def branches_taken(self) -> int:
        return sum(taken > 0 for taken in self.branches)


@dataclass(frozen=True)
class CoveredFile:
    """One task's plan file as coverage tools see it."""

    path: str  # relative to the rootdir, with ``/``
    task: str  # the task's label in the LogCov report
    lines: tuple[CoveredLine, ...]

    @property
    def lines_hit(self) -> int:
        return sum(line.hits > 0 for line in self.lines)

    @property
    def branches(self) -> int:
        return sum(len(line.branches) for line in self.lines)

    @property
    def branches_taken(self) -> int:
        return sum(line.branches_taken for line in self.lines)


def covered_files(report: Report, rootdir: Path) -> tuple[CoveredFile, ...]:
    """Every task of the report as its plan file's lines, in the report's order."""
    return tuple(covered_file(task, rootdir) for task in report.tasks)


def covered_file(task: TaskReport, rootdir: Path) -> CoveredFile:
    """One task's conditions and paths on the lines of its plan file."""
    plan_path = Entry(Path(task.entry)).plan_path
    try:
        text = plan_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):  # read moments ago by the report; gone since
        text = ""
    numbers = plan_text_lines(text, task.plan)
    cov = task.coverage
    ending: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for group in plan_paths(task.plan):
        for path in group:
            at = numbers[path.conditions[-1]] if path.conditions else numbers[path.subtask]
            ending.setdefault(at, []).append(cov.path_taken(path.key))
            names.setdefault(at, path.subtask)
    lines = [
        CoveredLine(numbers[c], cov.hits(c), tuple(ending.get(numbers[c], ())), "=".join(c))
        for c in task.plan.conditions
    ]
    known = {line.number for line in lines}
    lines += [
        CoveredLine(at, cov.scenes, tuple(taken), names[at])
        for at, taken in ending.items()
        if at not in known
    ]
    return CoveredFile(relative_path(plan_path, rootdir), task.label, tuple(sorted(lines, key=_at)))


def _at(line: CoveredLine) -> int:
    return line.number


def plan_text_lines(text: str, plan: Plan) -> dict[Condition | str, int]:
    """The line of each condition's realization in the plan file's text (and of the name of
    each subtask without decisions); numbered in plan order instead when the file is not as
    the cache writes it (one not found, or two on one line), so that each keeps a line."""
    found: dict[Condition | str, int | None] = {
        (factor.id, value): _realization_line(text, factor.id, value)
        for factor in plan.factors
        for value in factor.domain
    }
    for subtask in plan.subtasks:
        if isinstance(subtask.tree, Leaf):
            found[subtask.name] = _line_of(text, "name", subtask.name)
    numbers = [number for number in found.values() if number is not None]
    if len(set(numbers)) == len(found):
        return {key: number for key, number in found.items() if number is not None}
    return {key: number for number, key in enumerate(found, start=1)}


def _line_of(text: str, key: str, value: str) -> int | None:
    """The line of the first ``"key": "value"`` in ``text``."""
    match = re.search(rf"{re.escape(json.dumps(key))}\s*:\s*{re.escape(_quoted(value))}", text)
    return None if match is None else text.count("\n", 0, match.start()) + 1


def _quoted(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _realization_line(text: str, factor: str, value: str) -> int | None:
    """The line of ``"value":`` in the ``"realization"`` of the factor whose id it is, before
    the next factor's id; else (a value without facts) of the value in its ``"domain"``."""
    ids = [m.start() for m in re.finditer(r'"id"\s*:', text)]
    own = re.search(rf'"id"\s*:\s*{re.escape(_quoted(factor))}', text)
    if own is None:
        return None
    end = next((at for at in ids if at > own.start()), len(text))
    quoted = re.escape(_quoted(value))
    for part, after in (("realization", r"\s*:"), ("domain", r"\s*[,\]]")):
        start = re.compile(rf'"{part}"\s*:\s*[{{\[]').search(text, own.end(), end)
        match = None if start is None else re.compile(quoted + after).search(text, start.end(), end)
        if match is not None:
            return text.count("\n", 0, match.start()) + 1
    return None
