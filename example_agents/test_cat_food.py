"""The example agents of ``cat_food.py`` under the plugin (the py_trees policies),
one test over them all: the correct policy passes in every generated environment; each faulty
one declares its fault per run (the table in ``faults.py``), and some environment must reveal
it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cat_food import POLICIES
from faults import policy_params  # example_agents is on the pythonpath

from pytest_logicenv import LogicEnv

TASK_FILE = Path(__file__).parent / "tasks" / "cat_food.json"
TASK = json.loads(TASK_FILE.read_text(encoding="utf-8"))["description"]
PLAN = "plans/cat_food.json"  # relative to this file


@pytest.mark.logic_env(TASK, plan=PLAN)
@pytest.mark.parametrize(("policy", "expect_fault"), policy_params("cat_food", POLICIES))
def test_policies(logic_env: LogicEnv, policy: Any, expect_fault: str | None) -> None:
    logic_env.run(policy, expect_fault=expect_fault).assert_ok()
