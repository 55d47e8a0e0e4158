"""Helpers for the BT.CPP conformance tests: scripted leaves that log their ticks and halts,
and a driver that ticks a tree the way BT.CPP's ``tickOnce`` does.

``<Step name="A" results="RRS"/>`` returns RUNNING, RUNNING, then SUCCESS on its ticks (the
last letter repeats: S, F, R, or K for SKIPPED is not possible for a py_trees leaf). Each tick
logs ``A``, each halt of a running step logs ``A halted``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import py_trees

from pytest_logicenv.sim.bt import PortsBehaviour, action, input_port, parse_bt_xml
from pytest_logicenv.sim.bt.node import BtNode

LETTERS = {
    "S": py_trees.common.Status.SUCCESS,
    "F": py_trees.common.Status.FAILURE,
    "R": py_trees.common.Status.RUNNING,
}


class Step(PortsBehaviour):
    """Returns its ``results`` letters one tick after another; logs ticks and halts."""

    log: ClassVar[list[str]] = []

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.done = 0

    def update(self) -> py_trees.common.Status:
        results = self.ports.text("results")
        letter = results[min(self.done, len(results) - 1)]
        self.done += 1
        Step.log.append(self.name)
        return LETTERS[letter]

    def terminate(self, new_status: py_trees.common.Status) -> None:
        if new_status == py_trees.common.Status.INVALID and self.status == LETTERS["R"]:
            Step.log.append(f"{self.name} halted")


NODES: Mapping[str, Any] = {"Step": action(Step, input_port("results", default="S"))}


def xml(body: str, *trees: str) -> str:
    return (
        '<root BTCPP_format="4" main_tree_to_execute="Main">'
        f'<BehaviorTree ID="Main">{body}</BehaviorTree>{"".join(trees)}</root>'
    )


def build(body: str, *trees: str, **options: Any) -> BtNode:
    Step.log.clear()
    root = parse_bt_xml(xml(body, *trees), "t.xml", nodes=NODES, **options)()
    assert isinstance(root, BtNode)
    return root


def run(root: BtNode, ticks: int) -> list[str]:
    """The root's status after each of ``ticks`` ticks (BT.CPP names); a root that completed
    is reset before the next tick, as BT.CPP's ``Tree::tickOnce`` does."""
    results = []
    for _ in range(ticks):
        root.tick_once()
        results.append(root.result.value)
        if root.result.completed:
            root.reset()
    return results


def ticked(body: str, ticks: int, *trees: str, **options: Any) -> tuple[list[str], list[str]]:
    """Statuses per tick and the step log."""
    root = build(body, *trees, **options)
    return run(root, ticks), list(Step.log)
