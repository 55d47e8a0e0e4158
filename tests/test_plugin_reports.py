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
    assert report["scenes"] == {"ran": 2, "deselected": 0, "without_a_policy_run": 0}
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
    assert 'class="route"' in scene.with_suffix(".svg").read_text()

    page = (pytester.path / "html" / "index.html").read_text()
    assert "1 failing run" in page
    assert HEADLINE in page
    assert f"reproduce: <code>pytest &quot;{FAILING}&quot;</code>" in page
    assert page.count("<svg") == 1  # the failing run's picture, inline
    assert 'class="route"' in page
    assert "<td class='fault'><a href='#task-" in page  # the matrix links to the failure
    [picture] = (pytester.path / "html" / "runs").glob("*.svg")
    assert "Counterfactual: Close(window) broke a precondition" in picture.read_text()

    cases = ET.parse(pytester.path / "junit.xml").getroot().iter("testcase")
    [case] = [c for c in cases if c.get("name") == FAILING.split("::")[1]]
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert properties == {
        "logicenv.scene": "window=no-light=no",
        "logicenv.entry": f"cache/{entry.name}",
        "logicenv.run": "always_closes: counterfactual",
    }


@pytest.mark.parametrize("workers", [[], ["-p", "xdist", "-n", "2"]], ids=["serial", "xdist"])
def test_a_partial_run_says_what_ran_and_judges_a_fault_only_on_it(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    make_project(pytester, THREE_POLICIES)
    # Only the scene where forgets_the_light passes: its fault cannot be judged, not failed.
    result = pytester.runpytest_subprocess(*workers, "-k", "forgets and not yes")
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "partial run: 1 scene ran, 1 deselected; coverage and declared faults count only "
            "the scenes that ran",
            "  test_bath.py::test_reset: unreachable not judged (0/1 scenes, 1 deselected)",
            "warning: test_bath.py::test_reset: expect_fault='unreachable' not judged: the 1 "
            "scene that ran did not reveal it and 1 of its scenes were deselected; run them all "
            "to judge it",
        ]
    )
    assert "was not revealed" not in result.stdout.str()
    # Every scene of that policy: judged, and revealed.
    result = pytester.runpytest_subprocess(*workers, "-k", "forgets")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["  test_bath.py::test_reset: unreachable revealed (1/2 scenes)"])
    assert "partial run" not in result.stdout.str()  # its scenes all ran: nothing left out


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
