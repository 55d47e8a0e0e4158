"""The planner grounded in the world model, end to end: the real openai client, the scripted
server, the catalog. What the scene stages would reject goes back to the model; a model that
never fixes it, answers in the wrong shape, or names what does not exist is bounded."""

from __future__ import annotations

from typing import Any

import pytest
from fake_llm import MODEL, FakeLLMServer, Reply, answer, planner_script
from grounded_answers import (
    MIRROR_DECOMPOSITION,
    MIRROR_FACTORS,
    MIRROR_TASK,
    STUDY_DECOMPOSITION,
    STUDY_FACTORS,
    STUDY_ROOMS,
    STUDY_TASK,
    mirror_plan,
    study_plan,
    with_setting,
)

from pytest_logicenv.llm.client import OpenAILLM
from pytest_logicenv.llm.config import LLMConfig
from pytest_logicenv.llm.exchange import PlanDerivationError
from pytest_logicenv.llm.planner import derive_plan
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.design import design_scene

CATALOG = default_catalog()


def llm(server: FakeLLMServer) -> OpenAILLM:
    config = LLMConfig(server.base_url, MODEL, max_retries=0, backoff_s=0.001)
    return OpenAILLM(config, sleep=lambda s: None)


def mirror_script(server: FakeLLMServer, *plans: Reply) -> None:
    server.respond_with(planner_script(MIRROR_DECOMPOSITION, MIRROR_FACTORS, plans))


def user_messages(server: FakeLLMServer, request: int) -> list[str]:
    return [m["content"] for m in server.requests[request].messages if m["role"] == "user"]


def test_a_state_the_type_cannot_have_goes_back_to_the_model_and_is_fixed(
    fake_llm: FakeLLMServer,
) -> None:
    mirror_script(fake_llm, answer(mirror_plan("Painting")), answer(mirror_plan("Mirror")))
    derivation = derive_plan(MIRROR_TASK, ["Bathroom"], llm(fake_llm), catalog=CATALOG)
    assert derivation.rounds == 2
    assert derivation.plan.setting[0].ref == "Mirror"  # type: ignore[union-attr]
    # The model was told what a mirror can be before it answered ...
    first = user_messages(fake_llm, 0)[0]
    assert (
        "- Mirror: can be dirty, broken; hangs on a wall; "
        "rooms LivingRoom, Kitchen, Bedroom, Bathroom, Study, LaundryRoom"
    ) in first
    # ... and why its Painting was refused, once for the four places that ask it.
    (violation,) = derivation.rejected[0]
    assert violation.code == "capability"
    assert violation.message.startswith(
        "mirror (a Painting) cannot be dirty: a Painting is not dirtyable; use a type that can "
        "be (Bathtub, Bed, BedSheet, Blanket, Bowl, Cloth, CoffeeTable, CounterTop, Cup, Desk "
        "and 20 more)"
    )
    assert violation.message.endswith("(asked in 4 places)")
    feedback = user_messages(fake_llm, 3)[-1]
    assert feedback.startswith("Your answer has 1 problem:\n- [capability] subtasks[0](mirror)")
    assert "a Painting is not dirtyable" in feedback


def test_a_task_in_two_rooms_is_asked_for_rooms_and_its_scenes_honour_them(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.respond_with(
        planner_script(
            STUDY_DECOMPOSITION,
            STUDY_FACTORS,
            [answer(study_plan(rooms=False)), answer(study_plan())],
        )
    )
    derivation = derive_plan(STUDY_TASK, STUDY_ROOMS, llm(fake_llm), catalog=CATALOG)
    first = user_messages(fake_llm, 0)[0].splitlines()
    assert first[1:3] == [
        "Rooms: LivingRoom, Study",
        "This task has 2 rooms: give every object the setting and the realizations require its "
        'room ("where": {"room": "LivingRoom"}), or put it on or in an object whose room is '
        "given.",
    ]
    assert [v.location for v in derivation.rejected[0]] == ["setting[0]", "setting[1]"]
    assert "say which one desk is in" in derivation.rejected[0][1].message
    plan = derivation.plan
    assert plan.rooms == ("LivingRoom", "Study")
    for trajectory in select(plan, "minimal").trajectories:
        objects = {o.id: o for o in design_scene(plan, trajectory, catalog=CATALOG).objects}
        assert (objects["sofa"].room, objects["desk"].room) == ("living_room", "study")
        if "book" in objects:
            assert (objects["book"].room, objects["book"].parent) == ("study", "desk")


def test_a_model_that_never_fixes_a_violation_is_stopped_with_its_last_plan(
    fake_llm: FakeLLMServer,
) -> None:
    mirror_script(fake_llm, *[answer(mirror_plan("Painting"))] * 2)
    with pytest.raises(PlanDerivationError) as caught:
        derive_plan(MIRROR_TASK, ["Bathroom"], llm(fake_llm), catalog=CATALOG, max_rounds=2)
    error = caught.value
    assert len(fake_llm.requests) == 4  # two steps, then two plan answers: bounded
    assert str(error).startswith(
        f"plan.tree: the answer of model {MODEL!r} after 2 rounds: 1 problem\n"
        "  [capability] subtasks[0](mirror).factors[0](mirror_dirty).realization.yes[0]: "
        "mirror (a Painting) cannot be dirty"
    )
    assert error.document is not None
    assert (error.document["task"], error.document["rooms"]) == (MIRROR_TASK, ["Bathroom"])
    assert error.document["setting"][0] == {"exists": "Painting", "as": "mirror"}
    assert [e.purpose for e in error.exchanges] == [
        "plan.decompose",
        "plan.factors",
        "plan.tree",
        "plan.tree#2",
    ]


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (answer("Sure! The subtasks are: wipe the mirror."), "the answer holds no JSON object"),
        (answer({"steps": ["wipe"]}), "expected a non-empty list of subtask objects"),
    ],
)
def test_a_model_that_answers_in_the_wrong_shape_is_stopped_at_that_step(
    fake_llm: FakeLLMServer, reply: Reply, said: str
) -> None:
    fake_llm.respond_with(lambda request: reply)
    with pytest.raises(PlanDerivationError) as caught:
        derive_plan(MIRROR_TASK, ["Bathroom"], llm(fake_llm), catalog=CATALOG, max_rounds=2)
    assert len(fake_llm.requests) == 2
    assert str(caught.value).startswith("plan.decompose: the answer of model")
    assert said in str(caught.value)
    assert caught.value.document is None  # no plan answer got that far


NOT_THERE: list[tuple[dict[str, Any], str]] = [
    (
        with_setting(
            study_plan(setting=[]),
            {"exists": "Nightstand", "as": "desk"},
            {"exists": "Sofa", "as": "sofa", "where": {"room": "LivingRoom"}},
        ),
        "unknown object type 'Nightstand' (did you mean 'SideTable'?)",
    ),
    (
        with_setting(
            study_plan(setting=[]),
            {"exists": "Desk", "as": "desk", "where": {"room": "Attic"}},
            {"exists": "Sofa", "as": "sofa", "where": {"room": "LivingRoom"}},
        ),
        "unknown room type 'Attic'; known room types: LivingRoom, Kitchen, Bedroom",
    ),
    (
        with_setting(
            study_plan(),
            {"exists": "Drawer", "as": "drawer", "where": {"part_of": "sofa"}},
        ),
        "a Sofa has no Drawer (its parts: none); types with a Drawer: CounterTop, Desk",
    ),
]


@pytest.mark.parametrize(("plan", "said"), NOT_THERE, ids=["type", "room", "part"])
def test_types_rooms_and_parts_that_do_not_exist_are_named_with_what_does(
    fake_llm: FakeLLMServer, plan: dict[str, Any], said: str
) -> None:
    fake_llm.respond_with(planner_script(STUDY_DECOMPOSITION, STUDY_FACTORS, [answer(plan)] * 2))
    with pytest.raises(PlanDerivationError) as caught:
        derive_plan(STUDY_TASK, STUDY_ROOMS, llm(fake_llm), catalog=CATALOG, max_rounds=2)
    assert said in str(caught.value)
    assert len(fake_llm.requests) == 4
    assert said in user_messages(fake_llm, 3)[-1]  # the model was told, too
