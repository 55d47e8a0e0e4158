"""``--logicenv-report=cobertura:PATH``: decision-path coverage as a Cobertura XML file, the
coverage format GitLab merge requests and Codecov read (as ``pytest --cov-report=xml`` writes
it). Each task is a class whose file is its plan; conditions are its lines and decision paths
their branches (:mod:`~pytest_logicenv.report.plan_lines`), so the line rate is condition
coverage and the branch rate LogCov."""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from pytest_logicenv.report.plan_lines import CoveredFile, covered_files
from pytest_logicenv.report.report_model import Report
from pytest_logicenv.version import __version__

DTD = "<!DOCTYPE coverage SYSTEM 'http://cobertura.sourceforge.net/xml/coverage-04.dtd'>"


def to_cobertura(report: Report, rootdir: Path) -> str:
    """The report as a Cobertura document; file names relative to ``rootdir``, its source."""
    files = covered_files(report, rootdir)
    root = ET.Element("coverage", _rates(files))
    root.set("version", f"pytest-logicenv {__version__}")
    root.set("timestamp", str(int(time.time() * 1000)))
    ET.SubElement(ET.SubElement(root, "sources"), "source").text = str(rootdir)
    packages = ET.SubElement(root, "packages")
    for file in files:
        package = ET.SubElement(packages, "package", {"name": _package(file), **_rates([file])})
        classes = ET.SubElement(package, "classes")
        attributes = {"name": file.task, "filename": file.path, **_rates([file])}
        _lines(ET.SubElement(classes, "class", attributes), file)
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" ?>\n{DTD}\n{text}\n'


def _package(file: CoveredFile) -> str:
    """The entry's folder, dotted as Cobertura names packages."""
    return file.path.rpartition("/")[0].replace("/", ".") or "."


def _lines(element: ET.Element, file: CoveredFile) -> None:
    ET.SubElement(element, "methods")
    lines = ET.SubElement(element, "lines")
    for line in file.lines:
        attributes = {"number": str(line.number), "hits": str(line.hits)}
        if line.branches:
            share = f"{_rate(line.branches_taken, len(line.branches)) * 100:.0f}%"
            attributes["branch"] = "true"
            attributes["condition-coverage"] = (
                f"{share} ({line.branches_taken}/{len(line.branches)})"
            )
        else:
            attributes["branch"] = "false"
        ET.SubElement(lines, "line", attributes)


def _rates(files: Sequence[CoveredFile]) -> dict[str, str]:
    lines = sum(len(file.lines) for file in files)
    hit = sum(file.lines_hit for file in files)
    branches = sum(file.branches for file in files)
    taken = sum(file.branches_taken for file in files)
    return {
        "lines-valid": str(lines),
        "lines-covered": str(hit),
        "line-rate": f"{_rate(hit, lines):.4g}",
        "branches-valid": str(branches),
        "branches-covered": str(taken),
        "branch-rate": f"{_rate(taken, branches):.4g}",
        "complexity": "0",
    }


def _rate(part: int, whole: int) -> float:
    """As coverage.py's rates: 1 when there is nothing to cover."""
    return part / whole if whole else 1.0
