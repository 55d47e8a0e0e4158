"""The example agents of ``living_room_pillow_toy.py`` under the plugin (the py_trees policies):
the correct policy passes in every generated environment; each faulty one declares its fault,
which some environment must reveal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from living_room_pillow_toy import POLICIES  # example_agents is on the pythonpath

from pytest_logicenv.session.fixture import LogicEnv

TASK_FILE = Path(__file__).parent / "tasks" / "living_room_pillow_toy.json"
TASK = json.loads(TASK_FILE.read_text(encoding="utf-8"))["description"]
PLAN = "plans/living_room_pillow_toy.json"  # relative to this file


@pytest.mark.logic_env(TASK, plan=PLAN)
def test_correct(logic_env: LogicEnv) -> None:
    logic_env.run(POLICIES["correct"]).assert_ok()


@pytest.mark.logic_env(TASK, plan=PLAN, expect_fault="counterfactual")
def test_counterfactual(logic_env: LogicEnv) -> None:
    logic_env.run(POLICIES["counterfactual"]).assert_ok()


@pytest.mark.logic_env(TASK, plan=PLAN, expect_fault="unreachable")
def test_unreachable(logic_env: LogicEnv) -> None:
    logic_env.run(POLICIES["unreachable"]).assert_ok()


@pytest.mark.logic_env(TASK, plan=PLAN, expect_fault="lackbranch")
def test_lackbranch(logic_env: LogicEnv) -> None:
    logic_env.run(POLICIES["lackbranch"]).assert_ok()
