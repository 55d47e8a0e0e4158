"""Issue 21's five failures, each an LLM's plan through the marker (the scripted server, the
real openai client): the four goals no action reaches are caught before any scene and go back
to the model, whose next plan, following the feedback, is built and used; the pot on the
stove, a layout bug then, is built from the model's first plan now. (The same plans through
``logicenv plan --check`` and ``derive_plan``: ``tests/sim/test_achievable.py``; the layout:
``tests/scenes/layout/test_stove_top.py``; a scene without a witness:
``test_plugin_witness_rounds.py``.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fake_llm import FakeLLMServer, answer, planner_script
from infeasible_plans import CASES, POT_ON_STOVE, TASKS
from scripted_endpoint import use_scripted_server

from pytest_logicenv.llm.planner import factors_answer

pytest_plugins = ["pytester"]
pytestmark = pytest.mark.slow  # each case lays out its scenes and searches their witnesses

DECOMPOSITION = {"subtasks": [{"name": "chore", "covers": "the whole task"}]}
TEST = """
import pytest

@pytest.mark.logic_env({task!r}, rooms={rooms!r})
def test_chore(logic_env):
    assert logic_env.witness.solved
"""


def _project(
    pytester: pytest.Pytester,
    fake_llm: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    task: str,
    rooms: list[str],
) -> None:
    use_scripted_server(fake_llm, monkeypatch)
    monkeypatch.setenv("LOGICENV_LLM_MAX_RETRIES", "0")
    pytester.makepyfile(test_chore=TEST.format(task=task, rooms=rooms))
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\n")


def _plan_json(pytester: pytest.Pytester) -> dict[str, Any]:
    (entry,) = [p for p in (pytester.path / "cache").iterdir() if p.is_dir()]
    data: dict[str, Any] = json.loads((entry / "plan.json").read_text())
    return data


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_goal_no_action_reaches_goes_back_to_the_model_and_its_fix_is_used(
    name: str, pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, good, phrase = CASES[name]
    task, rooms = TASKS[name]
    _project(pytester, fake_llm, monkeypatch, task, list(rooms))
    fake_llm.respond_with(
        planner_script(DECOMPOSITION, factors_answer(bad), [answer(bad), answer(good)])
    )
    result = pytester.runpytest()
    assert result.parseoutcomes().get("passed", 0) >= 1, result.stdout.str()
    result.assert_outcomes(passed=result.parseoutcomes()["passed"])
    assert len(fake_llm.requests) == 4  # the three steps, and one round on the goal
    assert phrase in fake_llm.requests[-1].messages[-1]["content"]
    assert _plan_json(pytester)["setting"] == good["setting"]


def test_the_pot_on_the_stove_is_built_from_the_models_first_plan(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its facts can hold: what failed was the layout (every scene broke Table 1 through the
    stove's burners); the scenes now put the pot on the burners, and no round is needed."""
    plan = {k: v for k, v in POT_ON_STOVE.items() if k not in ("task", "rooms")}
    _project(pytester, fake_llm, monkeypatch, POT_ON_STOVE["task"], POT_ON_STOVE["rooms"])
    fake_llm.respond_with(planner_script(DECOMPOSITION, factors_answer(plan), [answer(plan)]))
    pytester.runpytest().assert_outcomes(passed=2)
    assert len(fake_llm.requests) == 3
