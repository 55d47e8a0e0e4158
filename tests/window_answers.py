"""A model that plans any "close the window, switch off the light" task: the step answers of
``tests/data/window_light_plan.json``, for projects of several such tasks (each its own cache
entry: the task texts differ), and the project itself."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_llm import MODEL, FakeLLMServer, Reply, Request, answer, error

PLAN: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "window_light_plan.json").read_text(encoding="utf-8")
)
DECOMPOSITION = {
    "subtasks": [
        {"name": "window", "covers": "close the window if it is open"},
        {"name": "light", "covers": "switch the light off if it is on"},
    ]
}
FACTORS = {
    "subtasks": [
        {
            "name": subtask["name"],
            "factors": [
                {k: v for k, v in factor.items() if k != "realization"}
                for factor in subtask["factors"]
            ],
        }
        for subtask in PLAN["subtasks"]
    ]
}
#: The step-3 answer: the plan without the task and rooms the planner fills in.
STEP3 = {k: v for k, v in PLAN.items() if k not in ("task", "rooms")}


def task(name: str) -> str:
    """A task text of its own (a cache entry of its own) for each name."""
    return (
        f"In bathroom {name}: close the window if it is open, and switch the light off if it is on."
    )


def step(request: Request) -> str:
    """Which step a request asks: ``decompose``, ``factors`` or ``plan``."""
    users = [m["content"] for m in request.messages if m.get("role") == "user"]
    current = users[-1] if users else ""
    if current.startswith("Task:"):
        return "decompose"
    return "factors" if current.startswith("Step 2") else "plan"


def planner(request: Request) -> Reply:
    """Answers every step of every such task correctly."""
    return answer({"decompose": DECOMPOSITION, "factors": FACTORS, "plan": STEP3}[step(request)])


def failing(request: Request) -> Reply:
    """A server that fails every request."""
    return error(500, "the model is down")


def task_of(request: Request) -> str:
    """The task a request is about (its conversation's first user message names it)."""
    first = next(m["content"] for m in request.messages if m.get("role") == "user")
    return first.splitlines()[0].removeprefix("Task: ")


def write_project(
    pytester: pytest.Pytester, server: FakeLLMServer, tests: str, ini: str = ""
) -> None:
    """A project whose LLM is ``server``, with ``tests`` as ``test_tasks.py`` (``TASK`` is
    :func:`task` there)."""
    pytester.makeini(
        "[pytest]\npythonpath = .\n"
        f"logicenv_llm_base_url = {server.base_url}\nlogicenv_llm_model = {MODEL}\n{ini}"
    )
    header = (
        "import pytest\n\n\ndef TASK(name):\n    return " + repr(task("{}")) + ".format(name)\n"
    )
    pytester.makepyfile(test_tasks=header + tests)
