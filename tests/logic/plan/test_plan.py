"""The plan model: the paper's form, our JSON form, and errors that name the problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import TASKS
from hypothesis import given
from strategies import plans

from pytest_logicenv.errors import PlanError
from pytest_logicenv.logic.plan import (
    PLAN_FORMAT,
    Plan,
    load_plan,
    plan_from_json,
    plan_from_paper,
    plan_to_json,
)


def test_paper_form_derives_subtasks_factors_and_domains() -> None:
    plan = load_plan(TASKS / "clean_living_room.json")
    assert [s.name for s in plan.subtasks] == ["toy", "book", "wipe"]
    toy_type = plan.factor("toy_type")
    assert toy_type.domain == ("doll", "other_types")
    assert toy_type.answer("other_types") == "other types"
    assert plan.rooms == ("LivingRoom",)
    assert plan.task.startswith("You are in the living room.")
    assert not plan.has_facts  # the paper's form carries no facts


@pytest.mark.parametrize("path", sorted(TASKS.glob("*.json")), ids=lambda p: p.stem)
def test_every_example_task_loads_and_round_trips(path: Path) -> None:
    plan = load_plan(path)
    assert plan_from_json(json.loads(json.dumps(plan_to_json(plan)))) == plan


@given(plans())
def test_our_json_form_round_trips(plan: Plan) -> None:
    assert plan_from_json(plan_to_json(plan)) == plan


def test_answers_become_short_value_ids() -> None:
    plan = load_plan(TASKS / "breakfast.json")
    assert plan.factor("bread_apple").domain == ("fridge", "fruit_bowl")


def test_not_json_names_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "plan.json"
    path.write_text('{"format": "logicenv-plan/1",\n  "task": oops}')
    with pytest.raises(PlanError) as caught:
        load_plan(path)
    assert str(path) in str(caught.value)
    assert "line 2 column 11: not valid JSON" in str(caught.value)


def test_missing_file_is_a_plan_error(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match="no such file"):
        load_plan(tmp_path / "absent.json")


def test_every_shape_problem_is_reported_at_once(write_json) -> None:  # type: ignore[no-untyped-def]
    path = write_json(
        "plan.json",
        {
            "format": PLAN_FORMAT,
            "task": "t",
            "subtasks": [
                {"name": "a", "factors": "nope", "tree": {"query": "x", "branches": []}},
                {"factors": [], "tree": {"neither": 1}},
            ],
        },
    )
    with pytest.raises(PlanError) as caught:
        load_plan(path)
    text = str(caught.value)
    assert "4 problems" in text
    assert "[syntax] subtasks[0].factors: expected a list of factors" in text
    assert "[syntax] subtasks[0].tree.branches: a query needs 'branches'" in text
    assert "[syntax] subtasks[1].name: expected a non-empty string" in text
    assert "[syntax] subtasks[1].tree: a tree node needs 'query'" in text


def test_bad_fact_in_a_realization_is_located(write_json) -> None:  # type: ignore[no-untyped-def]
    data = plan_to_json(load_plan(TASKS / "bathroom_reset.json"))
    data["subtasks"][1]["factors"][0]["realization"] = {"yes": [{"state": "light", "lit": True}]}
    with pytest.raises(PlanError) as caught:
        load_plan(write_json("plan.json", data))
    assert "[facts] subtasks[1].factors[0].realization.yes[0]" in str(caught.value)
    assert "unknown state 'lit'" in str(caught.value)


def test_paper_form_errors_name_the_question() -> None:
    with pytest.raises(PlanError, match=r"question 'Is it\?' needs an object of answers"):
        plan_from_paper([{"Is it?": "yes"}])
    with pytest.raises(PlanError, match="exactly one question"):
        plan_from_paper([{"Is it?": {"YES": "a"}, "Or this?": {"NO": "b"}}])


def test_a_document_that_is_no_plan_says_what_is_accepted(write_json) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PlanError, match="the paper's list of question trees"):
        load_plan(write_json("x.json", {"hello": 1}))
