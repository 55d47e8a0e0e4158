"""The example agents of ``tidy_bed.py`` under the plugin (the py_trees policies and their
BehaviorTree.CPP twins): the correct policy passes in every generated environment; each faulty
one declares its fault, which some environment must reveal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tidy_bed import POLICIES, xml_policy  # example_agents is on the pythonpath

from pytest_logicenv.session.fixture import LogicEnv

TASK_FILE = Path(__file__).parent / "tasks" / "tidy_bed.json"
TASK = json.loads(TASK_FILE.read_text(encoding="utf-8"))["description"]
PLAN = "plans/tidy_bed.json"  # relative to this file


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


@pytest.mark.logic_env(TASK, plan=PLAN)
def test_correct_xml(logic_env: LogicEnv) -> None:
    logic_env.run(xml_policy("correct")).assert_ok()


@pytest.mark.logic_env(TASK, plan=PLAN, expect_fault="counterfactual")
def test_counterfactual_xml(logic_env: LogicEnv) -> None:
    logic_env.run(xml_policy("counterfactual")).assert_ok()


@pytest.mark.logic_env(TASK, plan=PLAN, expect_fault="unreachable")
def test_unreachable_xml(logic_env: LogicEnv) -> None:
    logic_env.run(xml_policy("unreachable")).assert_ok()


@pytest.mark.logic_env(TASK, plan=PLAN, expect_fault="lackbranch")
def test_lackbranch_xml(logic_env: LogicEnv) -> None:
    logic_env.run(xml_policy("lackbranch")).assert_ok()
