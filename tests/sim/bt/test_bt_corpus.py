"""Realistic trees in the styles of BT.CPP's tutorials and Nav2's navigators (``tests/data/bt``):
each loads with the corpus's application nodes and runs to SUCCESS in the test kitchen.
``python benchmarks/run.py bt_corpus`` prints the same measurement."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import ROOT

from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.sim.bt import load_bt_xml
from pytest_logicenv.sim.bt.catalog import BUILTINS
from pytest_logicenv.sim.runner import run_policy

CORPUS = ROOT / "tests" / "data" / "bt"
FILES = sorted(CORPUS.glob("*.xml"))
#: What the application sets before ticking (Nav2's navigator sets the goal).
APPLICATION = {"nav2_navigate_to_pose.xml": {"goal": "counter"}}


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_every_corpus_tree_loads_and_runs_to_success(path: Path) -> None:
    policy = load_bt_xml(path, modules=[str(CORPUS / "corpus_nodes.py")],
                         blackboard=APPLICATION.get(path.name))  # fmt: skip
    outcome = run_policy(policy, load_scene(CORPUS / "kitchen_scene.json"))
    assert outcome.status == "SUCCESS", outcome.explain()


def test_the_corpus_uses_every_control_and_decorator_family() -> None:
    used = set()
    for path in CORPUS.rglob("*.xml"):
        used.update(re.findall(r"<(\w+)", path.read_text(encoding="utf-8")))
    assert set(BUILTINS) - used <= {"Switch4", "Switch5", "Switch6"}  # Switch2/3 stand for them
    text = "".join(p.read_text(encoding="utf-8") for p in FILES)
    for construct in ("<BehaviorTree>", "<include", " && ", " < ", "_skipIf", "_while", "{=}",
                      "_autoremap", "_onHalted", "TreeNodesModel", "@"):  # fmt: skip
        assert construct in text, construct
