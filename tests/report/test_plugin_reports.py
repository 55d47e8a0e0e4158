"""What the reports say about a session, as a user reads them: a failing run in the JSON, HTML
and junit reports (with its trace, picture and reproduce line), and partial runs."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from plugin_project import entries, make_project

from pytest_logicenv.cli import main

pytest_plugins = ["pytester"]

THREE_POLICIES = """
@pytest.mark.logic_env(TASK, plan="plan.json")
@pytest.mark.parametrize("name", ["correct", "always_closes", "forgets_the_light"])
def test_reset(logic_env, name):
    fault = "unreachable" if name == "forgets_the_light" else None
    logic_env.run(globals()[name], expect_fault=fault).assert_ok()
"""
FAILING = "test_bath.py::test_reset[window=no-light=no-always_closes]"
HEADLINE = "Counterfactual: Close(window) broke a precondition: window is open"


def test_a_failing_run_reads_in_the_json_html_and_junit_reports(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(pytester, THREE_POLICIES)
    result = pytester.runpytest(
        "--logicenv-report=json:report.json",
        "--logicenv-report=html:html",
        "--junitxml=junit.xml",
    )
    result.assert_outcomes(passed=5, failed=1)
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["scenes"] == {"ran": 2, "not_selected": 0, "without_a_policy_run": 0}
    [task] = report["tasks"].values()
    [failed] = [run for run in task["runs"] if run["test"] == FAILING]
    assert failed["policy"] == "always_closes"
    assert failed["outcome"]["kind"] == "counterfactual"
    assert [step["name"] for step in failed["outcome"]["trace"]] == ["GoTo", "Close"]

    # The JSON report is a run file logicenv render draws from.
    [entry] = entries(pytester)
    scene = entry / "scenes" / "window=no-light=no.json"
    monkeypatch.chdir(pytester.path)
    assert main(["render", str(scene), "--trace", "report.json", "--run", "always_closes"]) == 0
    assert "2 actions drawn (counterfactual)" in capsys.readouterr().out
    drawn = pytester.path / ".logicenv" / "render" / f"{entry.name}--window=no-light=no.run1.svg"
    assert 'class="route"' in drawn.read_text()  # outside the committed entry

    page = (pytester.path / "html" / "index.html").read_text()
    assert "1 failing run" in page
    assert HEADLINE in page
    assert f"reproduce: <code>pytest &quot;{FAILING}&quot;</code>" in page
    assert page.count("<svg") == 2  # the failing run's picture and the declared fault's, inline
    assert 'class="route"' in page
    assert "<td class='fault'><a href='#task-" in page  # the matrix links to the failure
    [picture] = [
        p for p in (pytester.path / "html" / "runs").glob("*.svg") if "-fault-" not in p.name
    ]
    assert "Counterfactual: Close(window) broke a precondition" in picture.read_text()

    cases = ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")
    [case] = [c for c in cases if c.get("name") == FAILING.split("::")[1]]
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert properties == {
        "logicenv.scene": "window=no-light=no",
        "logicenv.entry": f"cache/{entry.name}",
        "logicenv.run": "always_closes: counterfactual",
    }


WORKERS = pytest.mark.parametrize(
    "workers",
    [
        pytest.param([], id="serial"),
        pytest.param(["-p", "xdist", "-n", "2"], id="xdist", marks=pytest.mark.slow),
    ],
)
#: The scene where forgets_the_light passes: its fault cannot be judged there alone.
PASSING_SCENE = "test_bath.py::test_reset[window=no-light=no-forgets_the_light]"


def _run(pytester: pytest.Pytester, workers: list[str], *args: str) -> pytest.RunResult:
    """xdist's workers in a subprocess of their own; a serial run in this one (faster)."""
    if workers:
        return pytester.runpytest_subprocess(*workers, *args)
    return pytester.runpytest(*args)


def _not_judged_lines() -> list[str]:
    return [
        "partial run: 1 scene ran, 1 not selected; coverage and declared faults count only the "
        "scenes that ran",
        "  test_bath.py::test_reset: unreachable not judged (0/1 scenes, 1 not run)",
        "warning: test_bath.py::test_reset: expect_fault='unreachable' not judged: the 1 scene "
        "that ran did not reveal it and 1 of its scenes did not run (not selected, skipped or "
        "not reached); run them all to judge it",
    ]


@WORKERS
def test_a_partial_run_says_what_ran_and_judges_a_fault_only_on_it(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    make_project(pytester, THREE_POLICIES)
    result = _run(pytester, workers, "-k", "forgets and not yes")
    assert result.ret == 0
    result.stdout.fnmatch_lines(_not_judged_lines())
    assert "was not revealed" not in result.stdout.str()
    # Every scene of that policy: judged, and revealed.
    result = _run(pytester, workers, "-k", "forgets")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["  test_bath.py::test_reset: unreachable revealed (1/2 scenes)"])
    assert "partial run" not in result.stdout.str()  # its scenes all ran: nothing left out


@WORKERS
def test_a_node_id_is_a_partial_run_too(pytester: pytest.Pytester, workers: list[str]) -> None:
    """The tutorial's way to rerun one situation: pytest's deselect hook never sees the other
    scenes, the report still must, with xdist too (one worker runs the item, the other
    none)."""
    make_project(pytester, THREE_POLICIES)
    result = _run(
        pytester,
        workers,
        PASSING_SCENE,
        "--logicenv-report=term",
        "--logicenv-report=json:report.json",
    )
    result.assert_outcomes(passed=1)
    assert result.ret == 0
    result.stdout.fnmatch_lines(_not_judged_lines())
    assert "MISSED" not in result.stdout.str()
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["scenes"] == {"ran": 1, "not_selected": 1, "without_a_policy_run": 0}
    [check] = report["faults"].values()
    assert (check["verdict"], check["judged"], check["scenes_not_run"]) == ("not judged", False, 1)


def test_last_failed_is_a_partial_run(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
from pathlib import Path

@pytest.mark.logic_env(TASK, plan="plan.json", expect_fault="unreachable")
def test_reset(logic_env):
    outcome = logic_env.run(forgets_the_light)
    outcome.assert_ok()
    assert not (Path("flaky").exists() and outcome.kind == "pass"), "flaky"
""",
    )
    pytester.makeini("[pytest]\npythonpath = .\n")  # --lf needs the cache provider
    (pytester.path / "flaky").touch()
    first = pytester.runpytest()
    first.assert_outcomes(passed=1, failed=1)
    first.stdout.fnmatch_lines(["  test_bath.py::test_reset: unreachable revealed (1/2 scenes)"])
    (pytester.path / "flaky").unlink()
    result = pytester.runpytest("--lf")
    result.assert_outcomes(passed=1)  # the last failed alone collected: nothing deselected
    assert result.ret == 0
    result.stdout.fnmatch_lines(_not_judged_lines())


def test_a_scene_skipped_before_its_fixture_leaves_a_fault_not_judged(
    pytester: pytest.Pytester,
) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json", expect_fault="unreachable")
def test_reset(logic_env):
    logic_env.run(forgets_the_light).assert_ok()
""",
    )
    pytester.makeconftest(
        """
import pytest

def pytest_collection_modifyitems(items):
    for item in items:
        if "light=yes" in item.name:
            item.add_marker(pytest.mark.skip(reason="no robot today"))
"""
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, skipped=1)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "scenes: 1 ran a policy, 1 did not (skipped, not reached, or no logic_env.run() "
            "reached an outcome) and cover nothing",
            "  test_bath.py::test_reset: unreachable not judged (0/1 scenes, 1 not run)",
        ]
    )
    assert "partial run" not in result.stdout.str()  # every scene was selected


def test_a_fault_no_scene_revealed_reads_missed_in_every_report(pytester: pytest.Pytester) -> None:
    """Every scene ran and none revealed it: missed, in the terminal, JSON, Markdown, HTML and
    junit reports; a partial run's reads not judged in each."""
    make_project(pytester, THREE_POLICIES.replace('"unreachable"', '"lackbranch"'))
    reports = [
        "--logicenv-report=term",
        "--logicenv-report=json:report.json",
        "--logicenv-report=markdown:report.md",
        "--logicenv-report=html:html",
        "--junitxml=junit.xml",
    ]
    result = pytester.runpytest("-k", "forgets", *reports)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["  test_bath.py::test_reset: lackbranch MISSED (0/2 scenes)"])
    _assert_reports(pytester, "missed", "**missed**", "verdict-missed'>MISSED")
    assert _suite_properties(pytester) == {
        "logicenv.fault": "test_bath.py::test_reset: lackbranch MISSED (0/2 scenes)"
    }

    result = pytester.runpytest(PASSING_SCENE, *reports)
    assert result.ret == pytest.ExitCode.OK
    _assert_reports(pytester, "not judged", "not judged (1 not run)", "not judged (1 not run)")
    assert _suite_properties(pytester) == {
        "logicenv.scenes": "1 ran, 1 not selected",
        "logicenv.fault": "test_bath.py::test_reset: lackbranch not judged (0/1 scenes, 1 not run)",
    }


def _assert_reports(pytester: pytest.Pytester, verdict: str, markdown: str, page: str) -> None:
    report = json.loads((pytester.path / "report.json").read_text())
    assert [check["verdict"] for check in report["faults"].values()] == [verdict]
    assert f"lackbranch {markdown}" in (pytester.path / "report.md").read_text()
    assert page in (pytester.path / "html" / "index.html").read_text()


def _suite_properties(pytester: pytest.Pytester) -> dict[str, str]:
    suite = ET.parse(pytester.path / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    found = suite.find("properties")
    return {} if found is None else {p.get("name", ""): p.get("value", "") for p in found}


def test_the_junit_properties_of_an_item_that_ran_no_policy(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_nothing(logic_env):
    pass
""",
    )
    pytester.runpytest("--junitxml=junit.xml").assert_outcomes(passed=2)
    root = ET.parse(Path(pytester.path) / "junit.xml").getroot()
    for prop in root.iter("property"):
        assert not prop.get("value", "").startswith("{")  # never a Python repr
        assert not prop.get("value", "").startswith(str(pytester.path))  # never absolute


def test_a_file_report_replaces_the_terminal_table_as_pytest_cov_does(
    pytester: pytest.Pytester,
) -> None:
    """``--cov-report=html`` alone prints no coverage table either; the verdicts that fail or
    warn still print, and --help says how to keep the table."""
    make_project(pytester, THREE_POLICIES)
    result = pytester.runpytest(PASSING_SCENE, "--logicenv-report=json:cov.json")
    assert "logic coverage" not in result.stdout.str()
    result.stdout.fnmatch_lines(["json report written to *cov.json", _not_judged_lines()[-1]])
    result = pytester.runpytest(
        PASSING_SCENE, "--logicenv-report=json:cov.json", "--logicenv-report=term"
    )
    result.stdout.fnmatch_lines(["*- logic coverage -*", "json report written to *cov.json"])
    help_text = " ".join(pytester.runpytest("--help").stdout.str().split())
    assert (
        "The types given replace the default, as pytest-cov's --cov-report: add term" in help_text
    )
