"""``expect_fault`` per run: one test function checks several policies, each judged apart, as a
user sees it (pytester)."""

from __future__ import annotations

import json

import pytest
from plugin_project import make_project

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def test_each_policy_of_a_function_is_judged_apart(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_policies(logic_env):
    logic_env.run(always_closes, expect_fault="counterfactual").assert_ok()
    logic_env.run(forgets_the_light, expect_fault="unreachable").assert_ok()
    logic_env.run(correct, expect_fault="lackbranch").assert_ok()
""",
    )
    result = pytester.runpytest("--logicenv-report=term", "--logicenv-report=json:cov.json")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "faults revealed: 2/3 declared faulty policies",
            "  test_bath.py::test_policies (always_closes): counterfactual revealed (1/2 scenes)",
            "  test_bath.py::test_policies (correct): lackbranch MISSED (0/2 scenes)",
            "  test_bath.py::test_policies (forgets_the_light): unreachable revealed (1/2 scenes)",
            "test_bath.py::test_policies (correct): expect_fault='lackbranch' was not revealed in "
            "its 2 scenes: the policy passed in every one, so either it does not have this fault "
            "or no environment has the situation that shows it",
        ]
    )
    faults = json.loads((pytester.path / "cov.json").read_text())["faults"]
    assert faults["test_bath.py::test_policies (forgets_the_light)"] == {
        "test": "test_bath.py::test_policies",
        "policy": "forgets_the_light",
        "expect_fault": "unreachable",
        "verdict": "revealed",
        "revealed": True,
        "judged": True,
        "scenes_revealing": 1,
        "scenes": 2,
        "scenes_not_run": 0,
    }


def test_a_run_overrides_the_markers_fault(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json", expect_fault="unreachable")
def test_mixed(logic_env):
    logic_env.run(correct, expect_fault=None).assert_ok()
    logic_env.run(forgets_the_light).assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "faults revealed: 1/1 declared faulty policies",
            "  test_bath.py::test_mixed (forgets_the_light): unreachable revealed (1/2 scenes)",
        ]
    )


def test_an_unasserted_fault_warns_naming_its_policy(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_forgot_assert(logic_env):
    logic_env.run(always_closes, expect_fault="counterfactual")
    logic_env.run(forgets_the_light)
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines(
        [
            "test_bath.py::test_forgot_assert[[]window=yes-light=yes[]]",
            "  *LogicEnvWarning: the run of forgets_the_light ended in unreachable but the test "
            "passed: call .assert_ok() on what logic_env.run() returns (declare a known fault "
            "with expect_fault=)",
        ]
    )
    assert "the run of always_closes" not in result.stdout.str()


def test_a_bad_expect_fault_names_the_value_and_the_classes(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_typo(logic_env):
    logic_env.run(correct, expect_fault="lack_branch").assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        [
            '>*logic_env.run(correct, expect_fault="lack_branch").assert_ok()',
            "E*ExpectFaultError: test_bath.py::test_typo: logic_env.run(): "
            "expect_fault='lack_branch' is not a fault class; choose one of counterfactual, "
            "unreachable, lackbranch",
        ]
    )
