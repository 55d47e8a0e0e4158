"""A plan whose scenes cannot be built is kept with its exchanges, and the rerun asks the
model nothing (issue 21, item 5): the scripted server counts the requests."""

from __future__ import annotations

import json

import pytest
from fake_llm import FakeLLMServer
from window_answers import planner, write_project

pytest_plugins = ["pytester"]

TEST = """
@pytest.mark.logic_env(TASK("A"), rooms=["Bathroom"])
def test_a(logic_env):
    assert logic_env.scene.rooms
"""
#: A designer whose every scene the independent checker rejects, as the layout's did for a
#: pot on the stove (issue 21).
REJECTING_LAYOUT = """
from pytest_logicenv.errors import LayoutRejected

def pytest_logicenv_designer(config):
    def build(plan, trajectory, seed):
        raise LayoutRejected(
            f"scene {trajectory.id!r} breaks Table 1 (1 violation(s): [entity] objects[pot]: "
            "collides with 'stove_stove_burner_1'); it is invalid and will not be used"
        )
    return build
"""


@pytest.fixture(autouse=True)
def one_attempt_per_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOGICENV_LLM_MAX_RETRIES", "0")


def test_a_layout_failure_keeps_the_plan_and_the_rerun_asks_the_model_nothing(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer
) -> None:
    fake_llm.respond_with(planner)
    write_project(pytester, fake_llm, TEST)
    pytester.makeconftest(REJECTING_LAYOUT)
    first = pytester.runpytest("-p", "no:cacheprovider")
    first.assert_outcomes(errors=1)
    assert len(fake_llm.requests) == 3  # decomposition, factors, plan
    first.stdout.fnmatch_lines(
        [
            "*a layout bug: no scene was built for *, though its facts can hold*",
            "*what failed: the layout (a layout bug, not the plan's: its facts can hold)",
            "*the plan (llm:*) is kept in */plan.json with the model's answers in */llm/: a "
            "rerun builds the scenes from it and asks the model nothing",
        ]
    )
    assert "fix them in the plan" not in first.stdout.str()
    (entry,) = [path for path in (pytester.path / "cache").iterdir() if path.is_dir()]
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["scenes"]["stage"] == "layout"
    assert "collides with 'stove_stove_burner_1'" in manifest["scenes"]["failed"]
    assert manifest["plan"]["made_by"].startswith("llm:")
    assert len(list((entry / "llm").glob("*.json"))) == 3
    second = pytester.runpytest("-p", "no:cacheprovider")
    second.assert_outcomes(errors=1)
    assert len(fake_llm.requests) == 3  # the same failure: the model is not asked again
    second.stdout.fnmatch_lines(["*a layout bug: no scene was built for *"])
    assert len(list((entry / "llm").glob("*.json"))) == 3  # the exchanges are still there
    (pytester.path / "conftest.py").unlink()  # the layout fixed: built from the kept plan
    third = pytester.runpytest("-p", "no:cacheprovider")
    third.assert_outcomes(
        passed=len(json.loads((entry / "trajectories.json").read_text())["trajectories"])
    )
    assert len(fake_llm.requests) == 3
    regenerated = pytester.runpytest("-p", "no:cacheprovider", "--logicenv-regenerate")
    regenerated.assert_outcomes(passed=third.parseoutcomes()["passed"])
    assert len(fake_llm.requests) == 6  # asked anew only when told to
