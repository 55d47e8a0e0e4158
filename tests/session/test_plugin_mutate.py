"""``--logicenv-mutate`` as a user sees it: the mutation score beside the LogCov report in the
terminal, JSON, Markdown and HTML reports, the surviving mutants with their operator and node,
``--logicenv-mutate-fail-under``, the ini options, and a policy with nothing to mutate."""

from __future__ import annotations

import json

import pytest
from plugin_project import CORRECT_TEST, make_project

pytest_plugins = ["pytester"]

TWO_POLICIES = """
@pytest.mark.logic_env(TASK, plan="plan.json")
@pytest.mark.parametrize("name", ["correct", "forgets_the_light"])
def test_reset(logic_env, name):
    fault = "unreachable" if name == "forgets_the_light" else None
    logic_env.run(globals()[name], expect_fault=fault).assert_ok()
"""


def test_the_mutation_score_is_reported_beside_logcov_in_every_format(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, TWO_POLICIES)
    result = pytester.runpytest(
        "--logicenv-mutate",
        "--logicenv-report=term",
        "--logicenv-report=json:report.json",
        "--logicenv-report=markdown:report.md",
        "--logicenv-report=html:html",
    )
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(
        [
            "*- logic coverage -*",
            "*- mutation score -*",
            "Policy * Mutants  Killed  Equivalent  Score",
            "test_bath.py::test_reset (correct) *%",
            "by operator: delete-needed */*, delete-goal-action */*, remove-branch */*, *",
            "by fault class: counterfactual */*, unreachable */*, lackbranch */*",
            "surviving mutants (each a situation no scene has, or a change no scene can see):",
            "  test_bath.py::test_reset (correct): swap-sequence Reset: runs Light before Window",
        ]
    )
    mutated = result.stdout.str().split("- mutation score -")[1]
    assert "forgets_the_light" not in mutated  # a run declaring its fault is not mutated
    report = json.loads((pytester.path / "report.json").read_text())
    mutation = report["mutation"]
    [policy] = mutation["policies"]
    assert policy["test"] == "test_bath.py::test_reset"
    assert policy["policy"] == "correct"
    assert policy["scenes"] == 2
    assert 0 < policy["killed"] < policy["total"] == mutation["total"]
    killed = [m for m in policy["mutants"] if m["killed"]]
    assert {"operator", "fault", "node", "change", "kills"} <= set(killed[0])
    assert killed[0]["kills"][0]["outcome"] in ("counterfactual", "unreachable", "lackbranch")
    markdown = (pytester.path / "report.md").read_text()
    assert "## Mutation score" in markdown
    assert "Surviving mutants" in markdown
    page = (pytester.path / "html" / "index.html").read_text()
    assert "<h2 id='mutation'>Mutation score</h2>" in page
    assert "runs Light before Window" in page


def test_mutate_fail_under_fails_the_session_below_the_score(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("--logicenv-mutate-fail-under=100")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["FAIL Required mutation score of 100% not reached. Total mutation score: *%"]
    )
    assert pytester.runpytest("--logicenv-mutate-fail-under=10").ret == pytest.ExitCode.OK


def test_the_ini_options_turn_mutation_on(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makeini(
        "[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\nlogicenv_mutate = true\n"
        "logicenv_mutate_fail_under = 100\n"
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*- mutation score -*", "FAIL Required mutation score*"])


def test_without_the_option_nothing_is_mutated(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("--logicenv-report=json:report.json")
    assert "mutation score" not in result.stdout.str()
    assert "mutation" not in json.loads((pytester.path / "report.json").read_text())


NOTHING_TO_MUTATE = """
import py_trees

from pytest_logicenv.sim.leaves import AgentBehaviour


class Waves(AgentBehaviour):
    def update(self):
        return py_trees.common.Status.SUCCESS


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_waves(logic_env):
    logic_env.run(Waves).assert_ok()
"""


def test_a_policy_with_nothing_to_mutate_gets_a_warning_in_its_test(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, NOTHING_TO_MUTATE)
    strict = pytester.runpytest("--logicenv-mutate")
    strict.assert_outcomes(passed=1, failed=1)  # the window=yes scene: unreachable
    strict.stdout.fnmatch_lines(
        [
            "*test_bath.py:*: LogicEnvWarning: --logicenv-mutate: Waves has nothing to mutate: "
            "its tree has no Sequence, Fallback, condition or simulator action the operators "
            "change (behaviours of your own are run, not mutated)",
            "*- mutation score -*",
            "test_bath.py::test_waves (Waves)  * 0 * 0 * 0 *-",
            "test_bath.py::test_waves (Waves) has nothing to mutate: *",
        ]
    )


@pytest.mark.slow
def test_under_xdist_the_workers_records_give_the_same_score(pytester: pytest.Pytester) -> None:
    make_project(pytester, TWO_POLICIES)
    serial = pytester.runpytest_subprocess("--logicenv-mutate", "--logicenv-report=json:a.json")
    parallel = pytester.runpytest_subprocess(
        "-p", "xdist", "-n", "2", "--logicenv-mutate", "--logicenv-report=json:b.json"
    )
    serial.assert_outcomes(passed=4)
    parallel.assert_outcomes(passed=4)
    first = json.loads((pytester.path / "a.json").read_text())["mutation"]
    second = json.loads((pytester.path / "b.json").read_text())["mutation"]
    assert first == second


FAILS_EVERYWHERE = """
from pytest_logicenv.sim.leaves import Close, GoTo
from pytest_logicenv.sim.controls import sequence


def closes_twice():  # the second Close fails in every scene
    return sequence("Twice", GoTo("window"), Close("window"), Close("window"))


@pytest.mark.logic_env(TASK, plan="plan.json")
@pytest.mark.parametrize("name", ["correct", "closes_twice"])
def test_reset(logic_env, name):
    logic_env.run(globals()[name]).assert_ok()
"""


def test_a_policy_that_passes_in_no_scene_runs_no_mutant_and_the_report_says_why(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, FAILS_EVERYWHERE)
    result = pytester.runpytest(
        "--logicenv-mutate",
        "--logicenv-report=term",
        "--logicenv-report=json:report.json",
        "--logicenv-report=markdown:report.md",
    )
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*- mutation score -*",
            "test_bath.py::test_reset (closes_twice)  *  0       0           1      -",
            "test_bath.py::test_reset (correct)  *  13      12           0    92%",
            "TOTAL  *  13      12           1    92%",
            "*",
            "test_bath.py::test_reset (closes_twice): skipped: it fails in 2 of its 2 scenes "
            "(counterfactual), so none of its 3 mutants is scored (a mutant of a failing policy "
            "cannot be told from its fault); fix the policy, or declare the fault with "
            "expect_fault= (not mutated)",
        ]
    )
    assert "none of its 3 mutants is scored" in (pytester.path / "report.md").read_text()
    report = json.loads((pytester.path / "report.json").read_text())["mutation"]
    closes_twice, correct = report["policies"]
    assert closes_twice["total"] == closes_twice["killed"] == 0
    assert closes_twice["not_run"] > 0
    assert report["total"] == correct["total"] == sum(p["total"] for p in report["policies"])


FAILS_IN_ONE = """
@pytest.mark.logic_env(TASK, plan="plan.json")
@pytest.mark.parametrize("name", ["correct", "always_closes"])
def test_reset(logic_env, name):
    logic_env.run(globals()[name]).assert_ok()
"""


def test_a_policy_failing_in_one_scene_is_not_scored_nor_drags_the_total(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, FAILS_IN_ONE)
    result = pytester.runpytest(
        "--logicenv-mutate", "--logicenv-report=term", "--logicenv-report=json:report.json"
    )
    result.assert_outcomes(passed=3, failed=1)  # always_closes: counterfactual where it is shut
    result.stdout.fnmatch_lines(
        [
            "test_bath.py::test_reset (always_closes): skipped: it fails in 1 of its 2 scenes "
            "(counterfactual), so none of its * mutants is scored *",
        ]
    )
    report = json.loads((pytester.path / "report.json").read_text())["mutation"]
    always_closes, correct = report["policies"]
    assert always_closes["total"] == 0
    assert always_closes["score"] is None
    assert always_closes["skipped"].startswith("skipped: it fails in 1 of its 2 scenes")
    assert correct["skipped"] is None
    assert report["score"] == correct["score"]  # the TOTAL is the passing policy's alone
