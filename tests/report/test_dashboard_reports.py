"""The Cobertura and LCOV reports as CI dashboards read them: parsed by real consumers
(pycobertura, lcovparse), they say what the LogCov report says, on the lines of the plan
where each condition is written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import lcovparse
import pytest
from plugin_project import CORRECT_TEST, entries, make_project
from pycobertura import Cobertura
from pycobertura.filesystem import DirectoryFileSystem

from pytest_logicenv.logic.plan import plan_from_json
from pytest_logicenv.report.plan_lines import plan_text_lines

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ("--logicenv-report=json:r.json", "--logicenv-report=cobertura:cov.xml")


def _json(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def test_a_partial_run_reads_alike_in_cobertura_lcov_and_json(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("-k", "not yes", *REPORTS, "--logicenv-report=lcov:cov.info")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        ["cobertura report written to */cov.xml", "lcov report written to */cov.info"]
    )
    [task] = _json(pytester.path / "r.json")["tasks"].values()
    [entry] = entries(pytester)
    plan_file = f"cache/{entry.name}/plan.json"

    cobertura = Cobertura(str(pytester.path / "cov.xml"), DirectoryFileSystem(pytester.path))
    assert cobertura.files() == [plan_file]  # relative to the rootdir, a file in the repo
    assert cobertura.line_rate() == task["condition_coverage"] / 100 == 0.5
    assert cobertura.branch_rate() == task["LogCov"] / 100 == 0.5
    # The lines missed are where the missing conditions' realizations are written.
    missed = [line for line in cobertura.file_source(plan_file) if line.status == "miss"]
    assert [line.source.strip() for line in missed] == ['"yes": [', '"yes": [']
    assert sorted(map(tuple, task["missing_conditions"])) == [("light", "yes"), ("window", "yes")]

    [record] = lcovparse.lcovparse((pytester.path / "cov.info").read_text())
    assert record["file"] == plan_file
    assert record["stats"] == {"lines": 4, "hit": 2, "br_found": 4, "br_hit": 2}
    assert [line["line"] for line in record["lines"] if not line["hit"]] == [
        line.number for line in missed
    ]


def test_a_report_whose_folder_is_missing_is_refused_before_the_run(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("--logicenv-report=cobertura:reports/cov.xml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--logicenv-report=cobertura:reports/cov.xml: *cov.xml cannot be written: its folder "
            "*reports does not exist; create it first"
        ]
    )
    result = pytester.runpytest("--logicenv-report=lcov")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*'lcov': use term, *cobertura:PATH, lcov:PATH or html:DIR*"])


def test_a_plan_not_written_as_the_cache_writes_it_keeps_a_line_per_condition() -> None:
    plan_json = json.loads((ROOT / "tests" / "data" / "window_light_plan.json").read_text())
    plan = plan_from_json(plan_json)
    indented = plan_text_lines(json.dumps(plan_json, indent=1), plan)
    assert len(set(indented.values())) == 4
    assert min(indented.values()) > 1
    # On one line, every condition would be line 1: numbered in plan order instead.
    assert plan_text_lines(json.dumps(plan_json), plan) == {
        condition: number for number, condition in enumerate(plan.conditions, start=1)
    }


@pytest.mark.slow
def test_the_example_agents_cobertura_report_reads_as_their_logcov(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "pytest", "example_agents", "-q", "-p", "no:cacheprovider"]
    reports = [f"--logicenv-report=json:{tmp_path / 'r.json'}"]
    reports.append(f"--logicenv-report=cobertura:{tmp_path / 'cov.xml'}")
    result = subprocess.run(
        [*command, *reports], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    report = _json(tmp_path / "r.json")
    cobertura = Cobertura(str(tmp_path / "cov.xml"), DirectoryFileSystem(ROOT))
    plans = sorted({f"{task['entry']}/plan.json" for task in report["tasks"].values()})
    assert sorted(cobertura.files()) == plans  # relative to the rootdir, as the JSON entry
    assert len(plans) > 5
    assert cobertura.total_statements() == report["total"]["conditions"]
    assert cobertura.branch_rate() == report["total"]["LogCov"] / 100
    for plan_file in plans:
        lines = cobertura.file_source(plan_file)  # the plan, as committed
        assert all(line.source.strip().endswith(("[", ",", '"')) for line in lines if line.status)


def _total(result: pytest.RunResult) -> str:
    """The task's line of the coverage table."""
    [line] = [line for line in result.outlines if line.startswith("test_bath.py::test_reset ")]
    return " ".join(line.split()[1:])


def test_append_combines_runs_as_cov_append_does(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("-k", "not yes")
    assert _total(result) == "4 2 4 2 50%"
    assert (pytester.path / ".logicenv" / ".gitignore").read_text().endswith("\n*\n")
    # The other scene, combined with the one the last run kept: every path covered.
    result = pytester.runpytest(
        "-k", "not no", "--logicenv-append", *REPORTS, "--logicenv-report=term"
    )
    result.assert_outcomes(passed=1)
    assert _total(result) == "4 4 4 4 100%"
    assert "partial run" not in result.stdout.str()  # both scenes ran, in one run or the other
    report = _json(pytester.path / "r.json")
    assert report["scenes"]["ran"] == 2
    assert Cobertura(str(pytester.path / "cov.xml")).branch_rate() == 1.0
    # Without it, a run starts afresh (and is kept as the next run's start).
    assert _total(pytester.runpytest("-k", "not no")) == "4 2 4 2 50%"
    assert _total(pytester.runpytest("-o", "logicenv_append=true")) == "4 4 4 4 100%"


def test_append_to_a_damaged_records_file_says_which_and_what_to_do(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makefile(".json", **{".logicenv/records": '{"format": "logicenv-records/1"'})
    result = pytester.runpytest("--logicenv-append")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "test_bath.py::test_reset * 100%",  # this run's own records
            "logicenv: --logicenv-append: */.logicenv/records.json: not valid JSON (*): delete "
            "*records.json, or run without --logicenv-append",
        ]
    )
