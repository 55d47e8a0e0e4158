"""The household's reviewed extensions as the simulator runs them: knives cut, furniture gets
dusty and a dry duster dusts it, clothes get wet, cat food pours, food heats and cools, towels
hold things, "in the sink" is in its basin, a filled mug empties into a drain, a burner
switched by hand switches its knob, and what the agent holds is meant before what is within its
reach."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sim_scenes import scene

from pytest_logicenv.logic.facts import evaluate, parse_fact
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.scene_model import SceneObject
from pytest_logicenv.sim.actions import execute
from pytest_logicenv.sim.leaves import condition_fact
from pytest_logicenv.sim.world import WorldState

CATALOG = default_catalog()


def thing(obj_id: str, type_name: str, at: tuple[float, float], **fields: Any) -> SceneObject:
    """An object with the properties and starting states the catalog gives its type."""
    obj_type = CATALOG.type(type_name)
    size = fields.pop("size", (0.3, 0.3, 0.3))
    return SceneObject(
        obj_id,
        type_name,
        role=obj_id,
        room="kitchen",
        size=size,
        position=(at[0], size[1] / 2, at[1]),
        properties=obj_type.properties,
        states={**obj_type.states, **fields.pop("states", {})},
        **fields,
    )


def world(*objects: SceneObject) -> WorldState:
    return WorldState.from_scene(scene(*objects))


def act(state: WorldState, *calls: tuple[str, dict[str, str]]) -> None:
    for action, args in calls:
        violation = execute(state, action, args)
        assert violation is None, f"{action}{args}: {violation}"


def holds(state: WorldState, fact: dict[str, Any]) -> bool:
    return evaluate(parse_fact(fact, "fact"), state)


def test_a_catalog_knife_slices_a_tomato() -> None:
    state = world(
        thing("counter", "CounterTop", (1, 4), size=(2.0, 0.9, 0.6)),
        thing("knife", "Knife", (1, 4), parent="counter", size=(0.03, 0.02, 0.25)),
        thing("tomato", "Tomato", (1, 4), parent="counter", size=(0.1, 0.1, 0.1)),
    )
    act(state, ("GoTo", {"target": "counter"}), ("PickUp", {"object": "knife"}))
    act(state, ("Slice", {"target": "tomato", "tool": "knife"}))
    assert holds(state, {"state": "tomato", "sliced": True})


def test_a_dusty_shelf_is_wiped_with_a_dry_duster_and_a_shirt_gets_wet() -> None:
    state = world(
        thing("shelf", "ShelvingUnit", (1, 4), states={"dirty": True}, size=(1.0, 1.5, 0.4)),
        thing("duster", "Duster", (1, 4), parent="shelf", size=(0.1, 0.4, 0.1)),
    )
    act(state, ("GoTo", {"target": "shelf"}), ("PickUp", {"object": "duster"}))
    act(state, ("Clean", {"target": "shelf", "tool": "duster"}))  # dry: not wettable
    assert holds(state, {"state": "shelf", "dirty": False})
    assert CATALOG.type("Shirt").has("wettable")


def test_cat_food_pours_into_a_bowl_and_a_towel_holds_soap() -> None:
    state = world(
        thing("counter", "CounterTop", (1, 4), size=(2.0, 0.9, 0.6)),
        thing("food", "CatFood", (1, 4), parent="counter", size=(0.1, 0.2, 0.08)),
        thing("bowl", "Bowl", (1, 4), parent="counter", size=(0.2, 0.08, 0.2)),
        thing("towel", "Towel", (1, 4), parent="counter", size=(0.4, 0.05, 0.3)),
        thing("soap", "SoapBar", (1, 4), parent="counter", size=(0.08, 0.04, 0.05)),
    )
    act(state, ("GoTo", {"target": "counter"}), ("PickUp", {"object": "food"}))
    act(state, ("Pour", {"object": "food", "target": "bowl"}))
    assert holds(state, {"state": "bowl", "filled": True})
    act(state, ("PutOn", {"object": "food", "target": "counter"}), ("PickUp", {"object": "soap"}))
    act(state, ("PutOn", {"object": "soap", "target": "towel"}))
    assert holds(state, {"exists": "soap", "where": {"on": "towel"}})


def sink_world() -> WorldState:
    return world(
        thing("counter", "CounterTop", (1, 4), size=(2.0, 0.9, 0.6)),
        thing("mug", "Mug", (1, 4), parent="counter", size=(0.1, 0.1, 0.1)),
        thing("sink", "Sink", (3, 4), size=(0.6, 0.9, 0.6)),
        thing("basin", "SinkBasin", (3, 4), part_of="sink", relation="part"),
        thing("faucet", "Faucet", (3, 4), part_of="sink", relation="part"),
    )


def test_in_the_sink_is_in_its_basin_under_the_faucet_and_a_mug_empties_into_it() -> None:
    state = sink_world()
    act(state, ("GoTo", {"target": "counter"}), ("PickUp", {"object": "mug"}))
    act(state, ("GoTo", {"target": "sink"}), ("PutIn", {"object": "mug", "target": "sink"}))
    assert state.objects["mug"].parent == "basin"
    assert holds(state, {"exists": "mug", "where": {"in": "sink"}})  # as a person says it
    act(state, ("ToggleOn", {"target": "faucet"}), ("ToggleOff", {"target": "faucet"}))
    assert holds(state, {"state": "mug", "filled": True})
    act(state, ("PickUp", {"object": "mug"}), ("EmptyInto", {"object": "mug", "target": "sink"}))
    assert holds(state, {"state": "mug", "filled": False})


def test_emptying_a_dry_mug_into_the_basin_is_refused() -> None:
    state = sink_world()
    act(state, ("GoTo", {"target": "counter"}), ("PickUp", {"object": "mug"}))
    act(state, ("GoTo", {"target": "sink"}))
    violation = execute(state, "EmptyInto", {"object": "mug", "target": "basin"})
    assert violation is not None
    assert str(violation) == "EmptyInto(mug, basin) needs mug is filled, but mug is empty"


def test_a_burner_switched_by_hand_switches_its_knob() -> None:
    front = {"position": "front_left"}
    state = world(
        thing("stove", "Stove", (1, 4), size=(0.76, 0.92, 0.65)),
        thing("burner", "StoveBurner", (1, 4), part_of="stove", relation="part", attrs=front),
        thing("knob", "StoveKnob", (1, 4), part_of="stove", relation="part", attrs=front),
    )
    act(state, ("GoTo", {"target": "stove"}), ("ToggleOn", {"target": "burner"}))
    assert holds(state, {"state": "knob", "toggled": True})
    act(state, ("ToggleOff", {"target": "knob"}))
    assert holds(state, {"state": "burner", "toggled": False})


def test_the_held_object_is_meant_before_one_within_reach() -> None:
    state = world(
        thing("bed", "Bed", (1, 4), size=(2.0, 0.5, 1.6)),
        thing("pillow_a", "Pillow", (1, 4), parent="bed", size=(0.5, 0.1, 0.3)),
        thing("pillow_b", "Pillow", (1, 4), parent="bed", size=(0.5, 0.1, 0.3)),
    )
    act(state, ("GoTo", {"target": "bed"}), ("PickUp", {"object": "pillow_a"}))
    act(state, ("PutOn", {"object": "Pillow", "target": "bed"}))
    assert state.objects["pillow_a"].parent == "bed"
    violation = execute(state, "PickUp", {"object": "Pillow"})  # none held: two in reach
    assert violation is not None
    assert violation.precondition == "unambiguous"


@pytest.mark.parametrize("name", ["Knife", "ButterKnife"])
def test_knives_are_cutting_tools_in_the_catalog(name: str) -> None:
    assert "cutting_tool" in CATALOG.type(name).extensions


# --------------------------------------------------------------------------- through pytest

pytest_plugins = ["pytester"]

SLICE_PLAN = {
    "format": "logicenv-plan/1",
    "task": "In the kitchen: slice the tomato on the counter with the knife, unless it is sliced.",
    "rooms": ["Kitchen"],
    "setting": [
        {"exists": "CounterTop", "as": "counter"},
        {"exists": "Knife", "as": "knife", "where": {"on": "counter"}},
        {"exists": "Tomato", "as": "tomato", "where": {"on": "counter"}},
    ],
    "subtasks": [
        {
            "name": "slice",
            "factors": [
                {
                    "id": "whole",
                    "question": "Is the tomato whole?",
                    "domain": ["yes", "no"],
                    "answers": {"yes": "YES", "no": "NO"},
                    "realization": {
                        "yes": [{"state": "tomato", "sliced": False}],
                        "no": [{"state": "tomato", "sliced": True}],
                    },
                }
            ],
            "tree": {
                "query": "whole",
                "branches": {
                    "yes": {
                        "action": "Slice it with the knife.",
                        "goal": [{"state": "tomato", "sliced": True}],
                    },
                    "no": {"action": "Do nothing.", "goal": []},
                },
            },
        }
    ],
}
SLICE_TEST = f"""
import pytest
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Check, GoTo, PickUp, Slice

TASK = {SLICE_PLAN["task"]!r}
WHOLE = Check({{"state": "tomato", "sliced": False}})

def correct():
    return when("W", WHOLE, sequence("S", GoTo("knife"), PickUp("knife"), Slice("tomato", "knife")))

def bare_handed():
    return when("W", WHOLE, sequence("S", GoTo("tomato"), Slice("tomato", "knife")))

@pytest.mark.logic_env(TASK, plan="plan.json")
def test_correct(logic_env):
    logic_env.run(correct()).assert_ok()

@pytest.mark.logic_env(TASK, plan="plan.json")
def test_bare_handed(logic_env):
    logic_env.run(bare_handed()).assert_ok()
"""


def test_a_task_slices_with_the_catalogs_knife_and_a_bare_hand_is_caught(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".json", plan=json.dumps(SLICE_PLAN))
    pytester.makepyfile(test_slice=SLICE_TEST)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "Counterfactual: Slice(tomato, knife) broke a precondition: the agent holds knife",
            "*a passing sequence: GoTo(knife), PickUp(knife), Slice(tomato, knife)",
        ]
    )


def kitchen_with_food() -> WorldState:
    return world(
        thing("counter", "CounterTop", (1, 4), size=(2.0, 0.9, 0.6)),
        thing("microwave", "Microwave", (1, 4), parent="counter", size=(0.5, 0.3, 0.4)),
        thing("fridge", "Fridge", (3, 4), size=(0.8, 1.8, 0.7)),
        thing("chicken", "Chicken", (3, 4), parent="fridge", relation="in", size=(0.2, 0.1, 0.15)),
        thing("lemon", "Lemon", (1, 4), parent="counter", size=(0.07, 0.07, 0.09)),
    )


def test_chicken_warmed_in_the_microwave_is_hot_and_food_in_the_fridge_turns_cold() -> None:
    state = kitchen_with_food()
    act(state, ("GoTo", {"target": "fridge"}), ("Open", {"target": "fridge"}))
    act(state, ("PickUp", {"object": "chicken"}), ("Close", {"target": "fridge"}))
    assert not holds(state, {"state": "chicken", "hot": True})
    act(state, ("GoTo", {"target": "microwave"}), ("Open", {"target": "microwave"}))
    act(state, ("PutIn", {"object": "chicken", "target": "microwave"}))
    act(state, ("Close", {"target": "microwave"}), ("ToggleOn", {"target": "microwave"}))
    assert holds(state, {"state": "chicken", "hot": True, "cold": False})
    act(state, ("ToggleOff", {"target": "microwave"}), ("Open", {"target": "microwave"}))
    act(state, ("PickUp", {"object": "chicken"}))
    assert holds(state, {"state": "chicken", "hot": True})  # it keeps its heat once out
    act(state, ("PutOn", {"object": "chicken", "target": "counter"}))
    act(state, ("PickUp", {"object": "lemon"}), ("GoTo", {"target": "fridge"}))
    act(state, ("Open", {"target": "fridge"}), ("PutIn", {"object": "lemon", "target": "fridge"}))
    assert holds(state, {"state": "lemon", "cold": True, "hot": False})


def test_a_heat_source_switched_off_warms_nothing_and_a_cupboard_chills_nothing() -> None:
    state = kitchen_with_food()
    act(state, ("GoTo", {"target": "counter"}), ("PickUp", {"object": "lemon"}))
    act(
        state,
        ("Open", {"target": "microwave"}),
        ("PutIn", {"object": "lemon", "target": "microwave"}),
    )
    act(state, ("Close", {"target": "microwave"}))
    assert holds(state, {"state": "lemon", "hot": False, "cold": False})  # room temperature
    assert not evaluate(condition_fact("IsHot", {"object": "lemon"}), state)
    assert not evaluate(condition_fact("IsCold", {"object": "lemon"}), state)


def test_only_food_has_a_temperature() -> None:
    assert CATALOG.type("Chicken").has("temperature")
    assert CATALOG.type("Apple").extensions == ("temperature",)
    assert not CATALOG.type("Plate").has("temperature")
