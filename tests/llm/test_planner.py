"""Plan derivation end to end: the real openai client, a scripted server, the real checks."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fake_llm import MODEL, FakeLLMServer, Reply, answer, planner_script, truncated
from helpers import TASKS
from plan_answers import (
    DECOMPOSITION,
    FACTORS,
    GOOD_PLAN,
    TASK,
    TYPES,
    missing_branch_plan,
    shared_factor_plan,
)

from pytest_logicenv.errors import LLMError, PlanError, SceneError, Violation
from pytest_logicenv.llm.client import OpenAILLM
from pytest_logicenv.llm.config import LLMConfig
from pytest_logicenv.llm.exchange import PlanDerivationError, exchange_from_json, exchange_to_json
from pytest_logicenv.llm.planner import (
    LLMPlanner,
    derive_plan,
    example_plan,
    system_prompt,
    type_vocabulary,
)
from pytest_logicenv.logic.plan import load_plan, plan_from_json, plan_to_json
from pytest_logicenv.logic.rules import check_plan
from pytest_logicenv.logic.trajectories import plan_paths
from pytest_logicenv.scenes.catalog import default_catalog

KEY = "sk-planner-test-key-42"


def planner_llm(server: FakeLLMServer, **overrides: Any) -> OpenAILLM:
    settings: dict[str, Any] = {"api_key": KEY, "backoff_s": 0.001, "max_retries": 1}
    settings.update(overrides)
    return OpenAILLM(LLMConfig(server.base_url, MODEL, **settings), sleep=lambda s: None)


def script(server: FakeLLMServer, *plans: Reply) -> None:
    server.respond_with(planner_script(DECOMPOSITION, FACTORS, plans))


def test_a_good_first_answer_gives_the_plan_in_three_steps(fake_llm: FakeLLMServer) -> None:
    script(fake_llm, answer("Here is the plan:\n```json\n" + json.dumps(GOOD_PLAN) + "\n```"))
    derivation = derive_plan(
        TASK, ["Kitchen"], planner_llm(fake_llm), known_types=TYPES, max_rounds=3
    )
    plan = derivation.plan
    assert (plan.task, plan.rooms) == (TASK, ("Kitchen",))  # ours, not the model's
    assert [s.name for s in plan.subtasks] == ["drink", "food"]
    assert check_plan(plan, known_types=TYPES, require_facts=True) == []
    assert [len(group) for group in plan_paths(plan)] == [2, 3]
    assert (derivation.model, derivation.rounds, derivation.rejected) == (MODEL, 1, ())
    assert [e.purpose for e in derivation.exchanges] == [
        "plan.decompose",
        "plan.factors",
        "plan.tree",
    ]
    # One conversation: each step's request carries the earlier steps' answers.
    first, second, third = (r.messages for r in fake_llm.requests)
    assert [m["role"] for m in third] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert third[:4] == second
    assert first[0]["role"] == "system"
    assert f"Task: {TASK}\nRooms: Kitchen" in first[1]["content"]
    assert json.loads(third[2]["content"]) == DECOMPOSITION
    # Determinism where the server allows it.
    assert all(r.body["temperature"] == 0 for r in fake_llm.requests)
    assert all(r.body["seed"] == 0 for r in fake_llm.requests)


def test_an_unknown_room_is_refused_before_any_request(fake_llm: FakeLLMServer) -> None:
    script(fake_llm, answer(GOOD_PLAN))
    with pytest.raises(SceneError, match=r"rooms \['Attic'\]: unknown room type 'Attic'; "):
        derive_plan(TASK, ["Attic"], planner_llm(fake_llm), known_types=TYPES)
    assert fake_llm.requests == []


def test_the_prompt_offers_the_known_types_and_the_hand_written_example() -> None:
    prompt = system_prompt(sorted(TYPES))
    assert (
        "Use only these object types (the first message describes the task's own): Apple, "
        in prompt
    )
    example = example_plan()
    assert example.task in prompt
    assert '"query": "toy_type"' in prompt  # the example's step-3 answer
    assert "AI2-THOR object types in CamelCase" in system_prompt(None)


@pytest.mark.parametrize(
    ("wrong", "expected"),
    [
        (
            shared_factor_plan,
            "[independence] subtasks[1](food).factors: factor 'milk' also belongs to subtask "
            "'drink'",
        ),
        (
            missing_branch_plan,
            "[grounding] subtasks[1](food).tree.branches.no: the query on 'apple' has no branch "
            "for value 'bowl'",
        ),
    ],
)
def test_a_wrong_plan_is_sent_back_with_the_checks_messages_and_fixed(
    fake_llm: FakeLLMServer, wrong: Any, expected: str
) -> None:
    script(fake_llm, answer(wrong()), answer(GOOD_PLAN))
    derivation = derive_plan(TASK, ["Kitchen"], planner_llm(fake_llm), known_types=TYPES)
    assert derivation.rounds == 2
    assert any(str(v).startswith(expected) for v in derivation.rejected[0])
    assert derivation.plan.subtasks[1].factors[1].id == "apple"
    assert [e.purpose for e in derivation.exchanges][-2:] == ["plan.tree", "plan.tree#2"]
    # The second plan request shows the model its own answer and every violation.
    refine = fake_llm.requests[-1].messages
    assert json.loads(refine[-2]["content"]) == wrong()
    assert refine[-1]["role"] == "user"
    assert expected in refine[-1]["content"]
    assert refine[-1]["content"].startswith("Your answer has ")


def test_unknown_types_and_unbound_roles_are_fed_back(fake_llm: FakeLLMServer) -> None:
    wrong = copy.deepcopy(GOOD_PLAN)
    wrong["setting"][2] = {"exists": "Cup", "as": "cup"}  # 'mug' is now unbound, Cup unknown
    script(fake_llm, answer(wrong), answer(GOOD_PLAN))
    derivation = derive_plan(TASK, ["Kitchen"], planner_llm(fake_llm), known_types=TYPES)
    messages = [v.message for v in derivation.rejected[0]]
    assert any("unknown object type 'Cup'" in m for m in messages)
    assert any("role 'mug' is never bound" in m for m in messages)


def test_a_truncated_answer_is_asked_again_more_concisely(fake_llm: FakeLLMServer) -> None:
    script(fake_llm, truncated(json.dumps(GOOD_PLAN)), answer(GOOD_PLAN))
    derivation = derive_plan(TASK, ["Kitchen"], planner_llm(fake_llm))
    assert derivation.rounds == 2
    feedback = fake_llm.requests[-1].messages[-1]["content"]
    assert "[syntax] answer: the JSON ends before it is complete (cut off?)" in feedback
    assert "cut off at the server's length limit: be more concise" in feedback


def test_a_plan_still_wrong_after_the_last_round_is_an_error_listing_what_remains(
    fake_llm: FakeLLMServer,
) -> None:
    script(fake_llm, answer(shared_factor_plan()), answer(missing_branch_plan()))
    with pytest.raises(PlanDerivationError) as caught:
        derive_plan(TASK, ["Kitchen"], planner_llm(fake_llm), max_rounds=2)
    error = caught.value
    assert isinstance(error, PlanError)
    assert isinstance(error, LLMError)
    message = str(error)
    assert message.startswith(
        f"plan.tree: the answer of model {MODEL!r} after 2 rounds: 1 problem\n"
    )
    assert "the query on 'apple' has no branch for value 'bowl'" in message
    assert [e.purpose for e in error.exchanges] == [
        "plan.decompose",
        "plan.factors",
        "plan.tree",
        "plan.tree#2",
    ]
    assert len(fake_llm.requests) == 4  # bounded: no third plan request


def test_an_unusable_step_answer_is_refined_within_its_own_rounds(
    fake_llm: FakeLLMServer,
) -> None:
    replies = iter(
        [
            answer("I would split it into drinks and food."),
            answer(DECOMPOSITION),
            answer({"subtasks": [{"name": "drink", "factors": "milk"}]}),
            answer(FACTORS),
            answer(GOOD_PLAN),
        ]
    )
    fake_llm.respond_with(lambda request: next(replies))
    derivation = derive_plan(TASK, ["Kitchen"], planner_llm(fake_llm))
    assert [e.purpose for e in derivation.exchanges] == [
        "plan.decompose",
        "plan.decompose#2",
        "plan.factors",
        "plan.factors#2",
        "plan.tree",
    ]
    assert "holds no JSON object" in fake_llm.requests[1].messages[-1]["content"]
    assert "expected a list of factor objects" in fake_llm.requests[3].messages[-1]["content"]
    # Rejected answers do not stay in the conversation once a step is answered.
    assert len(fake_llm.requests[4].messages) == 6


def test_the_exchanges_of_a_derivation_never_hold_the_key(fake_llm: FakeLLMServer) -> None:
    script(fake_llm, answer(missing_branch_plan()), answer(GOOD_PLAN))
    derivation = derive_plan(TASK, ["Kitchen"], planner_llm(fake_llm))
    recorded = json.dumps([exchange_to_json(e) for e in derivation.exchanges])
    assert KEY not in recorded
    assert len({e.key for e in derivation.exchanges}) == 4


def test_values_no_scene_can_tell_apart_are_a_violation() -> None:
    data = plan_to_json(example_plan())
    realization = data["subtasks"][1]["factors"][0]["realization"]
    realization["no"] = realization["yes"]
    plan = plan_from_json(data)
    (violation,) = check_plan(plan, require_facts=True)
    assert violation.location == "subtasks[1](book).factors[0](book).realization.no"
    assert "the same as those of 'yes'" in violation.message


def test_the_hand_written_example_passes_every_check() -> None:
    plan = example_plan()
    assert check_plan(plan, require_facts=True) == []
    paper = load_plan(TASKS / "clean_living_room.json")
    assert plan.task == paper.task
    assert [f.question for f in plan.factors] == [f.question for f in paper.factors]
    assert [len(g) for g in plan_paths(plan)] == [len(g) for g in plan_paths(paper)]


def test_an_empty_task_is_refused_before_calling_the_model(fake_llm: FakeLLMServer) -> None:
    with pytest.raises(LLMError, match="empty task description"):
        derive_plan("  ", ["Kitchen"], planner_llm(fake_llm))
    assert fake_llm.requests == []


def test_the_plugins_plan_source_names_the_model_and_returns_recordable_exchanges(
    fake_llm: FakeLLMServer,
) -> None:
    script(fake_llm, answer(GOOD_PLAN))
    source = LLMPlanner(planner_llm(fake_llm), known_types=TYPES)
    assert source.name == f"llm:{MODEL}"
    plan, exchanges = source.derive(TASK, ["Kitchen"])
    assert plan.rooms == ("Kitchen",)
    assert [e["purpose"] for e in exchanges] == ["plan.decompose", "plan.factors", "plan.tree"]
    assert [exchange_from_json(json.loads(json.dumps(e))).key for e in exchanges] == [
        e["key"] for e in exchanges
    ]


def test_catalog_types_reach_the_prompt_with_notes_for_custom_types(
    fake_llm: FakeLLMServer,
) -> None:
    vocabulary = type_vocabulary(default_catalog())
    assert vocabulary["Sofa"] == ""
    assert "kind=doll" in vocabulary["Toy"]
    script(fake_llm, answer(GOOD_PLAN))
    derive_plan(TASK, ["Kitchen"], planner_llm(fake_llm), known_types=vocabulary)
    prompt = fake_llm.requests[0].messages[0]["content"]
    assert f"Toy ({vocabulary['Toy']})" in prompt
    assert ", Sofa, " in prompt


WITNESS = Violation(
    "witness",
    "subtasks[0](drink).tree.branches.yes.goal[0]",
    "in scene milk=yes, no sequence of actions makes mug filled true",
)


def test_what_the_scenes_show_goes_back_in_the_same_conversation_and_is_checked(
    fake_llm: FakeLLMServer,
) -> None:
    """The witness round is one more step of the derivation's conversation: the model sees
    its accepted plan and the feedback, its new answer is checked like every plan answer,
    and only the round's exchanges come back."""
    script(fake_llm, answer(GOOD_PLAN), answer(shared_factor_plan()), answer(GOOD_PLAN))
    planner = LLMPlanner(planner_llm(fake_llm), known_types=TYPES)
    with pytest.raises(LLMError, match=r"call derive\(\) first"):
        planner.refine([WITNESS])
    planner.derive(TASK, ["Kitchen"])
    plan, exchanges = planner.refine([WITNESS])
    assert plan == plan_from_json({**GOOD_PLAN, "task": TASK, "rooms": ["Kitchen"]})
    assert [e["purpose"] for e in exchanges] == ["plan.scenes", "plan.scenes#2"]
    asked = fake_llm.requests[3].messages
    assert asked[-2] == {"role": "assistant", "content": json.dumps(GOOD_PLAN)}
    assert asked[-1]["content"] == (
        "Your plan passed the checks, but the scenes built from it show that it has 1 "
        f"problem:\n- {WITNESS}\n"
        "Correct every problem and answer again with the complete JSON object only."
    )
    assert "factor id 'milk' is defined twice" in fake_llm.requests[4].messages[-1]["content"]


def test_a_witness_round_still_wrong_after_its_rounds_keeps_the_last_plan(
    fake_llm: FakeLLMServer,
) -> None:
    script(fake_llm, answer(GOOD_PLAN), answer(shared_factor_plan()), answer(shared_factor_plan()))
    planner = LLMPlanner(planner_llm(fake_llm), known_types=TYPES, max_rounds=2)
    planner.derive(TASK, ["Kitchen"])
    with pytest.raises(PlanDerivationError) as caught:
        planner.refine([WITNESS])
    assert str(caught.value).startswith(f"plan.scenes: the answer of model {MODEL!r} after 2")
    assert caught.value.document is not None
    assert len(caught.value.exchanges) == 5  # the whole conversation, for the entry to keep
