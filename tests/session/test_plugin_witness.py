"""Witnesses through the plugin: a generated scene is used only with a witness, cached beside
it and listed in the manifest; a hand-written plan whose scene has none is an error of its test
naming the leaf, the goal fact and the blocker; a failing run says how the scene is solved."""

from __future__ import annotations

import json

import pytest
from plugin_project import CORRECT_TEST, entries, make_project

BLANKET_PLAN = {
    "format": "logicenv-plan/1",
    "task": "Put the blanket in the basket if it is on the bed.",
    "rooms": ["Bedroom"],
    "setting": [
        {"exists": "Bed", "as": "bed"},
        {"exists": "Blanket", "as": "blanket"},
        {"exists": "LaundryBasket", "as": "basket"},
    ],
    "subtasks": [
        {
            "name": "blanket",
            "factors": [
                {
                    "id": "blanket",
                    "question": "Is the blanket out?",
                    "domain": ["yes", "no"],
                    "answers": {"yes": "YES", "no": "NO"},
                    "realization": {
                        "yes": [{"exists": "Blanket", "as": "blanket", "where": {"on": "Floor"}}],
                        "no": [{"exists": "Blanket", "as": "blanket", "where": {"on": "bed"}}],
                    },
                }
            ],
            "tree": {
                "query": "blanket",
                "branches": {
                    "yes": {
                        "action": "Put the blanket in the basket.",
                        "goal": [{"in": ["blanket", "basket"]}],
                    },
                    "no": {"action": "Do nothing.", "goal": []},
                },
            },
        }
    ],
}

# The designer's scenes, with the sizes of issue 21's report: a laundry basket takes a blanket
# (the static goal check passes), but not this basket this blanket: only the witness search
# can tell.
SIZED_DESIGNER = """
from dataclasses import replace
from pytest_logicenv.pipeline.scene_building import default_scene_builder

SIZES = {"Blanket": (0.9, 0.1, 0.6), "LaundryBasket": (0.35, 0.2, 0.3)}


def pytest_logicenv_designer(config):
    build = default_scene_builder()

    def sized(plan, trajectory, seed):
        scene = build(plan, trajectory, seed)
        objects = tuple(
            replace(obj, size=SIZES[obj.type]) if obj.type in SIZES else obj
            for obj in scene.objects
        )
        return replace(scene, objects=objects)

    return sized
"""

BLANKET_TEST = """
import pytest

@pytest.mark.logic_env("Put the blanket in the basket if it is on the bed.", plan="plan.json")
def test_blanket(logic_env):
    pass
"""


def test_generated_scenes_are_cached_with_their_witnesses(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    (entry,) = entries(pytester)
    manifest = json.loads((entry / "manifest.json").read_text())
    witnesses = sorted(name for name in manifest["files"] if name.endswith(".witness.json"))
    scenes = sorted(
        name
        for name in manifest["files"]
        if name.startswith("scenes/") and name.count(".") == 1 and name.endswith(".json")
    )
    assert len(witnesses) == len(scenes) == 2
    witness = json.loads((entry / witnesses[0]).read_text())
    assert witness["verdict"] == "found"


def test_a_failing_run_shows_a_passing_sequence(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_reset(logic_env):
    logic_env.run(forgets_the_light).assert_ok()
""",
    )
    result = pytester.runpytest()
    assert result.parseoutcomes()["failed"] >= 1
    result.stdout.fnmatch_lines(
        [
            # The policy never named the plan's light: it reads as its type.
            '*goal not met: "LightSwitch switched off"*',
            "*a passing sequence: GoTo(window), Close(window), GoTo(LightSwitch), "
            "ToggleOff(LightSwitch)*",
        ]
    )


def test_a_hand_written_plan_without_a_witness_is_an_error_naming_leaf_fact_and_blocker(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".json", plan=json.dumps(BLANKET_PLAN))
    pytester.makeconftest(SIZED_DESIGNER)
    pytester.makepyfile(test_blanket=BLANKET_TEST)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\n")
    result = pytester.runpytest("--logicenv-witness-ms=1500")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*plan.json (plan hand-written): no sequence of actions does the task in 1 scene(s):*",
            "*leaf blanket:blanket=yes (Put the blanket in the basket.): blanket in basket:*"
            "PutIn(blanket, basket) needs basket has room for blanket, but blanket "
            "(0.9 x 0.1 x 0.6 m) is larger than basket (0.35 x 0.2 x 0.3 m)*",
        ]
    )
    assert not entries(pytester)  # nothing half-written is cached
