"""A small pytester project for the plugin's tests: the bathroom task (close the window if it
is open, switch the light off if it is on), its hand-written plan and policies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_llm import FakeLLMServer, answer, planner_script

PLAN = json.loads((Path(__file__).parent / "data" / "window_light_plan.json").read_text())
TASK = PLAN["task"]

POLICIES = """
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Close, GoTo, IsOpen, IsToggledOn, ToggleOff


def window():
    return when("Window", IsOpen("window"), sequence("Shut", GoTo("window"), Close("window")))


def light():
    return when("Light", IsToggledOn("light"), sequence("Off", GoTo("light"), ToggleOff("light")))


def correct():
    return sequence("Reset", window(), light())


def forgets_the_light():  # unreachable when the light is on
    return sequence("Reset", window())


def always_closes():  # counterfactual when the window is already closed
    return sequence("Reset", GoTo("window"), Close("window"), light())
"""


def make_project(pytester: pytest.Pytester, tests: str, *, task: str = TASK) -> None:
    pytester.makefile(".json", plan=json.dumps(PLAN))
    pytester.makepyfile(policies=POLICIES)
    pytester.makepyfile(
        test_bath=(f"import pytest\nfrom policies import *\n\nTASK = {task!r}\n\n" + tests)
    )
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\n")


CORRECT_TEST = """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_reset(logic_env):
    logic_env.run(correct).assert_ok()
"""


def entries(pytester: pytest.Pytester) -> list[Path]:
    cache = pytester.path / "cache"
    if not cache.is_dir():  # strict mode never creates it
        return []
    return sorted(p for p in cache.iterdir() if p.is_dir() and not p.name.startswith("."))


def llm_steps() -> tuple[dict[str, object], dict[str, object]]:
    """The planner's first two answers (subtasks, then factors) for the bathroom task."""
    decomposition = {
        "subtasks": [
            {"name": "window", "description": "close the window if open"},
            {"name": "light", "description": "switch the light off if on"},
        ]
    }
    factors = {
        "subtasks": [
            {"name": "window", "factors": [{"id": "window", "question": "Is the window open?"}]},
            {"name": "light", "factors": [{"id": "light", "question": "Is the light on?"}]},
        ]
    }
    return decomposition, factors


def serve_plan(server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point the plugin at ``server``, scripted to derive the bathroom task's plan."""
    decomposition, factors = llm_steps()
    server.respond_with(planner_script(decomposition, factors, [answer(PLAN)]))
    monkeypatch.setenv("LOGICENV_LLM_BASE_URL", server.base_url)
    monkeypatch.setenv("LOGICENV_LLM_MODEL", "fake-planner")


def no_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    """No LLM endpoint from here on (a later run, on another machine)."""
    for name in ("LOGICENV_LLM_BASE_URL", "LOGICENV_LLM_MODEL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
