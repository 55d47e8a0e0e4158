"""Goals no action reaches, found before any scene: in the plan checks, `logicenv plan --check`
and the planner's refinement loop (issue 21, item 3)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from fake_llm import MODEL, FakeLLMServer, answer, planner_script
from infeasible_plans import CASES, TASKS, document

from pytest_logicenv.cli import main
from pytest_logicenv.llm.client import OpenAILLM
from pytest_logicenv.llm.config import LLMConfig
from pytest_logicenv.llm.planner import acceptance_violations, derive_plan, factors_answer
from pytest_logicenv.logic.plan import plan_from_json
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.sim import actions
from pytest_logicenv.sim.achievable import goal_violations

CATALOG = default_catalog()


def _violations(name: str, plan: dict[str, Any]) -> list[str]:
    return [str(v) for v in goal_violations(plan_from_json(document(name, plan)), CATALOG)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_unreachable_goal_is_a_violation_naming_its_blocker(name: str) -> None:
    bad, good, phrase = CASES[name]
    found = _violations(name, bad)
    assert found
    assert phrase in found[0]
    assert len(found) == (2 if name == "dryer" else 1), found  # the dryer: full and empty
    assert _violations(name, good) == []


def test_the_blanket_message_names_sizes_and_the_types_that_would_take_it() -> None:
    (message,) = _violations("blanket", CASES["blanket"][0])
    assert message.startswith("[goal] subtasks[0](chore).tree.branches.yes.goal[0]: ")
    assert "blanket (a Blanket) in basket: PutIn needs room" in message
    assert "the largest Basket (0.35 x 0.25 m" in message
    assert "LaundryBasket" in message.split("types that take")[1]


def test_a_goal_that_holds_from_the_start_is_no_violation() -> None:
    plan = copy.deepcopy(CASES["alarm"][0])
    goal = {"attr": "alarm_clock", "kind": "travel"}
    plan["subtasks"][0]["tree"]["branches"]["yes"]["goal"] = [goal]
    plan["subtasks"][0]["tree"]["branches"]["no"]["goal"] = []
    assert "attributes never change" in _violations("alarm", plan)[0]
    realization = plan["subtasks"][0]["factors"][0]["realization"]["yes"]
    realization[0]["attrs"] = {"kind": "travel"}  # it is a travel clock where the goal asks
    assert _violations("alarm", plan) == []


def test_what_an_action_makes_true_is_read_from_the_action_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plan asking a window open passes while Open exists; without it, nothing opens."""
    plan = copy.deepcopy(CASES["alarm"][1])
    plan["setting"].append({"exists": "Window", "as": "window", "states": {"open": False}})
    plan["subtasks"][0]["tree"]["branches"]["yes"]["goal"] = [{"state": "window", "open": True}]
    assert _violations("alarm", plan) == []
    monkeypatch.setattr(
        actions, "ACTIONS", {k: v for k, v in actions.ACTIONS.items() if k != "Open"}
    )
    (message,) = _violations("alarm", plan)
    assert "no action makes window (a Window) open" in message


def test_nothing_makes_a_clean_thing_dirty() -> None:
    plan = copy.deepcopy(CASES["alarm"][1])
    plan["setting"].append({"exists": "Mirror", "as": "mirror", "states": {"dirty": False}})
    plan["subtasks"][0]["tree"]["branches"]["no"]["goal"] = [{"state": "mirror", "dirty": True}]
    (message,) = _violations("alarm", plan)
    assert "no action makes mirror (a Mirror) dirty: no action and no rule" in message
    assert message.startswith("[goal] subtasks[0](chore).tree.branches.no.goal[0]")


def test_something_that_cannot_be_picked_up_is_put_nowhere() -> None:
    plan = copy.deepcopy(CASES["blanket"][1])
    plan["setting"].append({"exists": "Sofa", "as": "sofa"})
    plan["subtasks"][0]["tree"]["branches"]["no"]["goal"] = [{"on": ["sofa", "bed"]}]
    (message,) = _violations("blanket", plan)
    assert "nothing makes sofa (a Sofa) on bed: PutOn needs it held: PickUp needs it" in message
    assert "a Sofa is not pickupable" in message


def test_every_committed_example_plan_passes() -> None:
    plans = sorted(Path("example_agents/plans").glob("*.json"))
    assert plans
    for path in plans:
        plan = plan_from_json(json.loads(path.read_text(encoding="utf-8")))
        assert goal_violations(plan, CATALOG) == [], path


@pytest.mark.parametrize("name", sorted(CASES))
def test_plan_check_reports_the_unreachable_goal(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad, good, phrase = CASES[name]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(document(name, bad)), encoding="utf-8")
    assert main(["plan", "--check", str(path)]) == 1
    out = capsys.readouterr().out
    assert phrase in out
    assert out.endswith("problem\n" if name != "dryer" else "problems\n")
    path.write_text(json.dumps(document(name, good)), encoding="utf-8")
    assert main(["plan", "--check", str(path)]) == 0


def _llm(server: FakeLLMServer) -> OpenAILLM:
    config = LLMConfig(server.base_url, MODEL, api_key="sk-test", backoff_s=0.001, max_retries=1)
    return OpenAILLM(config, sleep=lambda s: None)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_model_hears_the_blocker_and_its_fix_is_accepted(
    name: str, fake_llm: FakeLLMServer
) -> None:
    bad, good, phrase = CASES[name]
    decomposition = {"subtasks": [{"name": "chore", "covers": "the whole task"}]}
    fake_llm.respond_with(
        planner_script(decomposition, factors_answer(bad), [answer(bad), answer(good)])
    )
    task, rooms = TASKS[name]
    derivation = derive_plan(task, rooms, _llm(fake_llm), catalog=CATALOG)
    assert derivation.rounds == 2
    (rejected,) = derivation.rejected
    assert any(phrase in v.message for v in rejected)
    assert phrase in fake_llm.requests[-1].messages[-1]["content"]
    assert acceptance_violations(derivation.plan, catalog=CATALOG) == []
