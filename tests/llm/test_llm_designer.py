"""LLM scene design end to end: the real openai client, a scripted server, the real checks."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fake_llm import MODEL, FakeLLMServer, Reply, answer, server_error, truncated

from pytest_logicenv.errors import LLMError, SceneError
from pytest_logicenv.llm.client import OpenAILLM
from pytest_logicenv.llm.config import LLMConfig
from pytest_logicenv.llm.exchange import SceneDesignError, exchange_from_json
from pytest_logicenv.llm.planner import example_plan
from pytest_logicenv.llm.protocol import CallableLLM
from pytest_logicenv.llm.scene_designer import (
    ASK,
    EXAMPLE_ANSWER,
    LLMSceneBuilder,
    design_with_llm,
    example_situation,
    llm_scene_builder,
    system_prompt,
)
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.design import condition_types
from pytest_logicenv.scenes.physics import check_scene
from pytest_logicenv.scenes.realized import require_realized
from pytest_logicenv.scenes.scene_json import scene_to_json

KEY = "sk-designer-test-key-7"
PLAN = example_plan()  # the paper's Clean Living Room
DOLL, NO_BOOK, NO_TOY = select(PLAN, "minimal").trajectories

GOOD: dict[str, Any] = {
    "materials": {"living_room": {"floor": "WhiteWood", "wall": "DrywallGreen"}},
    "objects": [
        {"name": "armchair", "description": "a leather armchair", "room": "living_room"},
        {"name": "lamp", "description": "a brass floor lamp"},
        {"name": "tv_stand", "description": "a walnut TV stand"},
        {"name": "tv", "description": "a 50 inch TV", "type": "Television", "support": "tv_stand"},
        {"name": "remote", "description": "a black remote control", "support": "tv_stand"},
        {"name": "picture", "description": "an abstract painting", "support": "wall"},
    ],
    "relations": [
        {"kind": "near", "subject": "armchair", "target": "table"},
        {"kind": "near", "subject": "lamp", "target": "armchair"},
        {"kind": "edge", "subject": "tv_stand"},
        {"kind": "face_to", "subject": "tv_stand", "target": "sofa"},
        {"kind": "above", "subject": "picture", "target": "sofa"},
        {"kind": "on_top_of", "subject": "remote", "target": "tv_stand"},
    ],
}


def designer_llm(server: FakeLLMServer, **overrides: Any) -> OpenAILLM:
    settings: dict[str, Any] = {"api_key": KEY, "backoff_s": 0.001, "max_retries": 1}
    settings.update(overrides)
    return OpenAILLM(LLMConfig(server.base_url, MODEL, **settings), sleep=lambda s: None)


def changed(**edits: Any) -> dict[str, Any]:
    """GOOD with objects or relations added (``add_objects``, ``add_relations``)."""
    data = copy.deepcopy(GOOD)
    data["objects"] += edits.get("add_objects", [])
    data["relations"] += edits.get("add_relations", [])
    return data


def test_a_good_answer_gives_a_scene_that_passes_the_checker_and_realizes_its_situation(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.push(answer("Here is the design:\n```json\n" + json.dumps(GOOD) + "\n```"))
    build = llm_scene_builder(designer_llm(fake_llm))
    assert build.name == f"llm:{MODEL}"
    scene = build(PLAN, NO_BOOK, 0)
    assert check_scene(scene).passed
    assert require_realized(scene, PLAN, NO_BOOK) is scene
    by_id = {obj.id: obj for obj in scene.objects}
    assert {"armchair", "lamp", "tv_stand", "tv", "remote", "picture"} <= set(by_id)
    assert (by_id["lamp"].type, by_id["picture"].type) == ("FloorLamp", "Painting")
    assert (by_id["remote"].parent, by_id["picture"].relation) == ("tv_stand", "wall")
    assert not any(obj.type == "Book" for obj in scene.objects)  # no book in this situation
    assert scene.rooms[0].floor_material == "WhiteWood"
    assert scene.provenance.designer == f"llm:{MODEL}"
    kept = {str(r) for r in scene.provenance.kept}
    assert {"edge(tv_stand)", "above(picture, sofa)", "near(lamp, armchair)"} <= kept
    # What the model was shown: the rules and types, then this situation's task objects.
    [request] = fake_llm.requests
    system, user = (m["content"] for m in request.messages)
    assert "Object types (in: things go in it; on: things go on it; wall: hangs on a" in system
    assert "CoffeeTable (on), CounterTop (on), CreditCard, Cup (in)," in system
    assert "Materials are AI2-THOR's names: floors such as " in system  # a rule, not a list
    assert len(system) < 9000
    assert "Answer: " + json.dumps(EXAMPLE_ANSWER) in system  # the few-shot example
    assert "Situation toy_type=other-book=no-wipes=no:" in user
    assert "- There is a book on the floor? NO" in user
    assert "no Book on Floor" in user
    assert "- wipes" not in user  # no wipes in this situation
    assert "- sofa: Sofa, in living_room, on the floor" in user
    assert "- table: CoffeeTable, in living_room, on the floor; things go on it (on_top_of)" in user
    assert "- red_box: ToyBox (colour=red), in living_room, on the floor; things go in it" in user
    assert "Types the task is about (add none of them): Book, CoffeeTable, Mop (also " in user
    assert request.body["temperature"] == 0
    # The exchanges, as the cache records them, without the key; handed over once.
    [record] = build.take_exchanges()
    assert record["purpose"] == "scene.design"
    assert KEY not in json.dumps(record)
    assert exchange_from_json(record).response.startswith("Here is the design")
    assert build.take_exchanges() == []


@pytest.mark.parametrize(
    ("wrong", "trajectory", "expected"),
    [
        (
            changed(add_objects=[{"name": "rug", "description": "a woven rug", "type": "Carpet"}]),
            DOLL,
            "- [type] objects[6] rug: unknown object type 'Carpet'; the closest catalog types: ",
        ),
        (
            changed(add_objects=[{"name": "gizmo", "description": "a shiny gizmo"}]),
            DOLL,
            "- [type] objects[6] gizmo: no object type matches the description 'a shiny gizmo'",
        ),
        (
            changed(add_objects=[{"name": "novel", "description": "a paperback novel"}]),
            NO_BOOK,
            "- [absent] objects[6] novel: the task requires 'no Book on Floor' in this situation",
        ),
        (
            changed(add_objects=[{"name": "vase", "description": "a vase", "support": "lamp"}]),
            DOLL,
            "- [support] objects[6] vase: lamp cannot hold it: a FloorLamp is not a receptacle",
        ),
        (
            changed(add_relations=[{"kind": "near", "subject": "lamp", "target": "piano"}]),
            DOLL,
            "- [relation] relations[6] near(lamp, piano): names 'piano', which no object of this "
            "scene is called",
        ),
        (
            # The paper's example: the pen in the drawer and on the bed.
            changed(
                add_relations=[{"kind": "on_top_of", "subject": "remote", "target": "armchair"}]
            ),
            DOLL,
            "- [contradiction] relations[6] on_top_of(remote, armchair): remote rests on tv_stand; "
            "this relation puts it on armchair, and an object has one place",
        ),
    ],
    ids=[
        "unknown-type",
        "no-type-matches",
        "absent",
        "not-a-receptacle",
        "unknown-object",
        "two-places",
    ],
)
def test_a_wrong_answer_is_sent_back_with_the_designers_messages_and_fixed(
    fake_llm: FakeLLMServer, wrong: dict[str, Any], trajectory: Any, expected: str
) -> None:
    fake_llm.push(answer(wrong), answer(GOOD))
    design = design_with_llm(PLAN, trajectory, designer_llm(fake_llm))
    assert design.rounds == 2
    assert [e.purpose for e in design.exchanges] == ["scene.design", "scene.design#2"]
    assert len(design.rejected[0]) == 1
    # The second request shows the model its own answer and what is wrong with it.
    refine = fake_llm.requests[-1].messages
    assert json.loads(refine[-2]["content"]) == wrong
    feedback = refine[-1]["content"]
    assert feedback.startswith("Your answer has 1 problem:\n")
    assert expected in feedback, feedback
    assert [o.name for o in design.request.objects] == [o["name"] for o in GOOD["objects"]]


def _misspelt_support() -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    data["objects"][3]["suport"] = data["objects"][3].pop("support")
    return data


@pytest.mark.parametrize(
    ("wrong", "expected"),
    [
        (
            {"objets": GOOD["objects"], "relation": GOOD["relations"]},
            [
                "- [syntax] objets: unknown key 'objets' (did you mean 'objects'?)",
                "- [syntax] relation: unknown key 'relation' (did you mean 'relations'?)",
                "- [syntax] objects: missing: the answer has materials, objects, relations "
                "([] if none)",
                "- [syntax] relations: missing: the answer has materials, objects, relations "
                "([] if none)",
            ],
        ),
        (
            {"subtasks": [{"name": "toy", "description": "put the toy away"}]},
            [
                "- [syntax] subtasks: unknown key 'subtasks' (the answer has materials, objects, "
                "relations)",
                "- [syntax] objects: missing: the answer has materials, objects, relations "
                "([] if none)",
            ],
        ),
        (
            _misspelt_support(),
            ["- [syntax] objects[3].suport: unknown key 'suport' (did you mean 'support'?)"],
        ),
    ],
    ids=["misspelt-keys", "a-plan-answer", "misspelt-object-key"],
)
def test_an_answer_of_the_wrong_shape_is_sent_back_not_read_as_an_empty_design(
    fake_llm: FakeLLMServer, wrong: dict[str, Any], expected: list[str]
) -> None:
    fake_llm.push(answer(wrong), answer(GOOD))
    design = design_with_llm(PLAN, DOLL, designer_llm(fake_llm))
    assert design.rounds == 2
    feedback = fake_llm.requests[-1].messages[-1]["content"].splitlines()
    assert set(expected) <= set(feedback), feedback
    assert [o.name for o in design.request.objects] == [o["name"] for o in GOOD["objects"]]


def test_a_truncated_answer_is_asked_again_and_a_server_error_retried(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.push(truncated(json.dumps(GOOD)), server_error(), answer(GOOD))
    design = design_with_llm(PLAN, DOLL, designer_llm(fake_llm))
    assert design.rounds == 2
    feedback = fake_llm.requests[1].messages[-1]["content"]
    assert "[syntax] answer: the JSON ends before it is complete (cut off?)" in feedback
    assert "cut off at the server's length limit: be more concise" in feedback
    assert [a.outcome for a in design.exchanges[1].attempts] == ["http 500", "ok"]


def test_a_design_still_wrong_after_the_last_round_is_an_llm_error_listing_what_remains(
    fake_llm: FakeLLMServer,
) -> None:
    wrong = changed(add_objects=[{"name": "bear", "description": "a teddy bear"}])
    fake_llm.push(answer(wrong), answer(wrong))
    build = LLMSceneBuilder(designer_llm(fake_llm), max_rounds=2)
    with pytest.raises(SceneDesignError) as caught:
        build(PLAN, DOLL, 0)
    error = caught.value
    assert isinstance(error, LLMError)
    assert not isinstance(error, SceneError)  # the model failed, not the situation
    assert str(error).startswith(
        f"scene.design: the answer of model {MODEL!r} after 2 rounds: 1 problem\n"
        "  [type] objects[6] bear: the task's conditions are about TeddyBear objects"
    )
    assert "--logicenv-designer=procedural" in str(error)
    assert len(error.exchanges) == 2


def test_an_endpoint_that_keeps_failing_is_an_llm_error(fake_llm: FakeLLMServer) -> None:
    fake_llm.push(server_error(), server_error())
    with pytest.raises(LLMError, match=r"LLM request failed \(scene.design\)"):
        design_with_llm(PLAN, DOLL, designer_llm(fake_llm))


def test_the_same_answers_give_the_same_scene(fake_llm: FakeLLMServer) -> None:
    replies: list[Reply] = [answer(changed(add_objects=[{"name": "x", "type": "Carpet"}]))]
    scenes = []
    for _ in range(2):
        fake_llm.push(*replies, answer(GOOD))
        scenes.append(scene_to_json(llm_scene_builder(designer_llm(fake_llm))(PLAN, NO_TOY, 3)))
    assert scenes[0] == scenes[1]
    assert fake_llm.requests[0].body == fake_llm.requests[2].body  # the same question too


def test_the_few_shot_example_is_itself_a_design_the_rules_accept() -> None:
    plan, trajectory, shown = example_situation()
    catalog = default_catalog()
    assert shown in system_prompt(catalog)
    for type_name in condition_types(plan, catalog):  # each named, or as a look-alike
        assert f" {type_name}" in shown.split("Types the task is about")[1]
    example = CallableLLM(lambda messages: json.dumps(EXAMPLE_ANSWER), model="example")
    design = design_with_llm(plan, trajectory, example)
    assert design.rounds == 1
    assert len(design.request.objects) == len(EXAMPLE_ANSWER["objects"])


def test_the_designer_remembers_a_tasks_corrections_in_its_later_scenes(
    fake_llm: FakeLLMServer,
) -> None:
    wrong = changed(add_objects=[{"name": "vase", "description": "a vase", "support": "lamp"}])
    fake_llm.push(answer(wrong), answer(GOOD), answer(GOOD))
    build = llm_scene_builder(designer_llm(fake_llm))
    build(PLAN, DOLL, 0)
    build(PLAN, NO_TOY, 0)
    assert len(fake_llm.requests) == 3  # the second scene took one round
    first, later = (r.messages[1]["content"] for r in (fake_llm.requests[0], fake_llm.requests[2]))
    assert "Corrections" not in first
    assert (
        "Corrections this task's earlier scenes needed (do not repeat them):\n"
        "- [support] objects[6] vase: lamp cannot hold it: a FloorLamp is not a receptacle: "
        "nothing rests on or in it\n\n" + ASK
    ) in later
    assert llm_scene_builder(designer_llm(fake_llm)).corrections == []  # one task's memory
