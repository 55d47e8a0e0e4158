"""Reports read the same on every machine: paths relative to the rootdir (a policy given by
an absolute path, the cache entry) in the JSON, HTML, junit and mutation reports, and the JSON
report's tasks keyed by test node id, which adding a test does not change."""

from __future__ import annotations

import json

import pytest
from plugin_project import CORRECT_TEST, make_project

pytest_plugins = ["pytester"]

XML = """<root BTCPP_format="4" main_tree_to_execute="Reset">
  <BehaviorTree ID="Reset">
    <Sequence>
      <Fallback>
        <Inverter><IsOpen object="window"/></Inverter>
        <Sequence><GoTo target="window"/><Close target="window"/></Sequence>
      </Fallback>
      <Fallback>
        <Inverter><IsToggledOn object="light"/></Inverter>
        <Sequence><GoTo target="light"/><ToggleOff target="light"/></Sequence>
      </Fallback>
    </Sequence>
  </BehaviorTree>
</root>
"""

BY_ABSOLUTE_PATH = """
from pathlib import Path


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_xml(logic_env):
    logic_env.run(Path(__file__).parent / "agents" / "reset.xml").assert_ok()
"""


def test_every_report_names_paths_relative_to_the_rootdir(pytester: pytest.Pytester) -> None:
    make_project(pytester, BY_ABSOLUTE_PATH)
    (pytester.path / "agents").mkdir()
    (pytester.path / "agents" / "reset.xml").write_text(XML)
    result = pytester.runpytest(
        "--logicenv-mutate",
        "--logicenv-report=term",
        "--logicenv-report=json:r.json",
        "--logicenv-report=html:html",
        "--junitxml=junit.xml",
    )
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["test_bath.py::test_xml (agents/reset.xml) *%"])
    root = str(pytester.path)
    report = json.loads((pytester.path / "r.json").read_text())
    task = report["tasks"]["test_bath.py::test_xml"]
    assert task["entry"].startswith("cache/")
    assert {run["policy"] for run in task["runs"]} == {"agents/reset.xml"}
    assert report["mutation"]["policies"][0]["policy"] == "agents/reset.xml"
    junit = (pytester.path / "junit.xml").read_text()
    assert 'value="agents/reset.xml: pass"' in junit
    for name in ("r.json", "junit.xml", "html/index.html"):
        assert root not in (pytester.path / name).read_text(), name


def test_the_json_tasks_keep_their_keys_when_a_test_is_added(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest("--logicenv-report=json:r.json").assert_outcomes(passed=2)
    before = json.loads((pytester.path / "r.json").read_text())["tasks"]
    second = CORRECT_TEST.replace("def test_reset", "def test_again")
    make_project(pytester, CORRECT_TEST + second)  # the same task: one entry, two tests
    pytester.runpytest("--logicenv-report=json:r.json").assert_outcomes(passed=4)
    after = json.loads((pytester.path / "r.json").read_text())["tasks"]
    assert list(before) == ["test_bath.py::test_reset"]
    assert sorted(after) == ["test_bath.py::test_again", "test_bath.py::test_reset"]
    assert after["test_bath.py::test_reset"]["label"] == "test_bath.py (2 tests)"
    # Each function's own runs under its key; the task's coverage under both.
    assert {run["test"].split("[")[0] for run in after["test_bath.py::test_again"]["runs"]} == {
        "test_bath.py::test_again"
    }
    assert (
        after["test_bath.py::test_reset"]["LogCov"] == before["test_bath.py::test_reset"]["LogCov"]
    )
