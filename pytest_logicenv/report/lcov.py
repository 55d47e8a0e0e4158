"""``--logicenv-report=lcov:PATH``: decision-path coverage as an LCOV tracefile (what
``genhtml``, Codecov and most CI coverage widgets read). One record per task, for its plan
file: a ``DA`` line per condition and a ``BRDA`` branch per decision path
(:mod:`~pytest_logicenv.report.plan_lines`)."""

from __future__ import annotations

import re
from pathlib import Path

from pytest_logicenv.report.plan_lines import CoveredFile, covered_files
from pytest_logicenv.report.report_model import Report


def to_lcov(report: Report, rootdir: Path) -> str:
    """The report as an LCOV tracefile, file names relative to ``rootdir``."""
    return "".join(_record(file) for file in covered_files(report, rootdir))


def _record(file: CoveredFile) -> str:
    lines = [f"TN:{lcov_test_name(file.task)}", f"SF:{file.path}"]
    lines += [f"DA:{line.number},{line.hits}" for line in file.lines]
    for line in file.lines:
        for number, taken in enumerate(line.branches):
            # "-": the line's condition never held, so its paths were not even reached.
            lines.append(f"BRDA:{line.number},0,{number},{taken if line.hits else '-'}")
    lines += [f"BRF:{file.branches}", f"BRH:{file.branches_taken}"]
    lines += [f"LF:{len(file.lines)}", f"LH:{file.lines_hit}", "end_of_record"]
    return "\n".join(lines) + "\n"


def lcov_test_name(label: str) -> str:
    """A test name as lcov's tools accept one (letters, digits and ``_``).

    >>> lcov_test_name("test_bath.py::test_reset")
    'test_bath_py__test_reset'
    """
    return re.sub(r"\W", "_", label)
