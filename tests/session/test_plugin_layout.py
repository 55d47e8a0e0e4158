"""The layout as a user meets it: a marked test whose task object cannot be placed errors
alone, with a message that names the object and the space it needs."""

from __future__ import annotations

import copy
import json

import pytest
from plugin_project import PLAN, make_project

pytest_plugins = ["pytester"]

#: The user's catalog: their light switch is 3 m tall (a typo for 0.3 m, say).
CONFTEST = """
import dataclasses

from pytest_logicenv.scenes.catalog import default_catalog


def pytest_logicenv_catalog(config):
    catalog = default_catalog()
    switch = catalog.types["LightSwitch"]
    assets = tuple(dataclasses.replace(a, size=(0.1, 3.0, 0.05)) for a in switch.assets)
    types = {**catalog.types, "LightSwitch": dataclasses.replace(switch, assets=assets)}
    return dataclasses.replace(catalog, types=types)
"""

TESTS = """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_reset(logic_env):
    logic_env.run(correct).assert_ok()


@pytest.mark.logic_env("In the bathroom: close the window if it is open.", plan="window.json")
def test_window(logic_env):
    logic_env.run(window).assert_ok()
"""


def window_only() -> dict[str, object]:
    """The bathroom plan without its light: nothing in it needs the switch."""
    plan = copy.deepcopy(PLAN)
    plan["task"] = "In the bathroom: close the window if it is open."
    plan["setting"] = [fact for fact in plan["setting"] if fact.get("as") != "light"]
    plan["subtasks"] = [s for s in plan["subtasks"] if s["name"] != "light"]
    return plan


def test_a_task_object_that_cannot_fit_errors_only_its_test(pytester: pytest.Pytester) -> None:
    make_project(pytester, TESTS)
    pytester.makeconftest(CONFTEST)
    pytester.makefile(".json", window=json.dumps(window_only()))
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, errors=1)  # the window task runs in its two situations
    result.stdout.fnmatch_lines(
        [
            "*test_reset*logicenv-error*",
            "*objects[[]light[]]: 3.00 m is taller than the wall (2.50 m); use a lower object*",
        ]
    )
    # The window's bathroom would have had a light switch as decoration: it is left out, and
    # the scene says so.
    files = [json.loads(p.read_text()) for p in pytester.path.glob("cache/*/scenes/*.json")]
    scenes = [f for f in files if f.get("format") == "logicenv-scene/1"]
    assert len(scenes) == 2
    for scene in scenes:
        (switch,) = scene["provenance"]["dropped_objects"]
        assert switch["type"] == "LightSwitch"
        assert switch["reason"] == "3.00 m is taller than the wall (2.50 m); use a lower object"
        assert switch["id"] not in {o["id"] for o in scene["objects"]}
