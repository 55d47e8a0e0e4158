"""Temperature through the user's path: "warm the chicken" is a goal a policy meets only by
using a heat source, and a policy that skips the microwave fails, naming the goal."""

from __future__ import annotations

import json

import pytest

pytest_plugins = ["pytester"]

TASK = "You are in the kitchen. Warm the chicken from the fridge in the microwave and close both."
PLAN = {
    "format": "logicenv-plan/1",
    "task": TASK,
    "rooms": ["Kitchen"],
    "setting": [
        {"exists": "Fridge", "as": "fridge", "states": {"open": False}},
        {"exists": "Microwave", "as": "microwave", "states": {"open": False, "toggled": False}},
        {"exists": "Chicken", "as": "chicken", "where": {"in": "fridge"}},
    ],
    "subtasks": [
        {
            "name": "warm",
            "factors": [],
            "tree": {
                "action": "Warm the chicken in the microwave.",
                "goal": [
                    {"state": "chicken", "hot": True},
                    {"state": "microwave", "open": False, "toggled": False},
                    {"state": "fridge", "open": False},
                ],
            },
        }
    ],
}
TESTS = """
import pytest
from pytest_logicenv.sim.controls import sequence
from pytest_logicenv.sim.leaves import *

def _take():
    return [GoTo("fridge"), Open("fridge"), IsCold("chicken"), PickUp("chicken"), Close("fridge")]

def warms():
    return sequence("Warm", *_take(), GoTo("microwave"), Open("microwave"),
                    PutIn("chicken", "microwave"), Close("microwave"), ToggleOn("microwave"),
                    ToggleOff("microwave"))

def skips_the_microwave():
    return sequence("Skip", *_take(), GoTo("microwave"), Open("microwave"),
                    PutIn("chicken", "microwave"), Close("microwave"))

@pytest.mark.logic_env(TASK, plan="plan.json")
@pytest.mark.parametrize("policy", [warms, skips_the_microwave])
def test_warm(logic_env, policy):
    logic_env.run(policy).assert_ok()
"""


@pytest.mark.slow
def test_warming_the_chicken_needs_the_microwave(pytester: pytest.Pytester) -> None:
    pytester.makefile(".json", plan=json.dumps(PLAN))
    pytester.makepyfile(test_warm=f"TASK = {TASK!r}\n" + TESTS)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*test_warm?default-skips_the_microwave?*",
            "*Unreachable: the policy returned SUCCESS but 1 goal fact is false*",
            '*goal not met: "chicken hot"*',
        ]
    )


def test_a_plan_that_wants_the_chicken_hot_and_cold_is_refused(
    pytester: pytest.Pytester,
) -> None:
    plan = json.loads(json.dumps(PLAN))
    plan["subtasks"][0]["tree"]["goal"][0] = {"state": "chicken", "hot": True, "cold": True}
    pytester.makefile(".json", plan=json.dumps(plan))
    pytester.makepyfile(test_warm=f"TASK = {TASK!r}\n" + TESTS)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\n")
    result = pytester.runpytest()
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(["*'chicken is hot' and 'chicken is cold' cannot both hold*"])
