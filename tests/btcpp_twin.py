"""The differential harness: one BT.CPP XML document ticked by the product's engine and by real
BehaviorTree.CPP (``behaviortreepy``), side by side, with the same scripted leaves.

A tree's leaves carry their script in their name, so that a document alone (a regression file,
a shrunk counterexample) says everything: ``<Act name="a3_RRS"/>`` is a stateful action whose
callbacks (``onStart``, then ``onRunning``) return RUNNING, RUNNING, SUCCESS, ... cycling;
``<Cond name="c1_SF"/>`` a condition returning SUCCESS, FAILURE, ...; ``<Sync name="s0_F"/>``
a synchronous action. Both engines log each callback (``start``, ``running``, ``halted``,
``tick``) and the twin compares, tick by tick, the root status, the log and the root
blackboard, plus whether the document loads at all.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import behaviortreepy as bt
import py_trees

from pytest_logicenv.errors import PolicyError, PolicyLintWarning, PolicyRuntimeError
from pytest_logicenv.sim.bt import action, condition, parse_bt_xml
from pytest_logicenv.sim.bt.node import BtNode
from pytest_logicenv.sim.bt.ports import to_text

Status = py_trees.common.Status
Event = tuple[str, str]
#: The root blackboard both engines start from (BT.CPP's entries are set from Python).
INITIAL: Mapping[str, int | str] = {"x": 0, "y": 1, "t": "on"}
TICKS = 6
_LETTER = {"R": "RUNNING", "S": "SUCCESS", "F": "FAILURE"}


def script_of(name: str) -> str:
    """The status letters a leaf's name ends with (``a3_RRS`` -> ``RRS``)."""
    return name.rsplit("_", 1)[-1]


class Script:
    """A leaf's next status, by how many callbacks it has answered."""

    def __init__(self, name: str) -> None:
        self.letters = script_of(name)
        self.calls = 0

    def next(self) -> str:
        letter = self.letters[self.calls % len(self.letters)]
        self.calls += 1
        return _LETTER[letter]


@dataclass
class Outcome:
    """What one engine did: the load verdict, then per tick the root status (or ``error``),
    the leaves' callbacks and the root blackboard."""

    loaded: bool
    ticks: list[tuple[str, tuple[Event, ...], tuple[tuple[str, str], ...]]] = field(
        default_factory=list
    )
    detail: str = ""

    def verdicts(self) -> tuple[object, ...]:
        return (self.loaded, self.ticks)


# -- the product's engine -------------------------------------------------------------------


class _Leaf(py_trees.behaviour.Behaviour):
    """A scripted py_trees leaf as a user writes one: ``initialise`` is BT.CPP's ``onStart``,
    ``update`` while running ``onRunning``, ``terminate`` from RUNNING ``onHalted``."""

    log: list[Event]

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.script = Script(name)
        self.starting = False

    def initialise(self) -> None:
        self.starting = True

    def update(self) -> Status:
        self.log.append((self.name, "start" if self.starting else "running"))
        self.starting = False
        return Status[self.script.next()]

    def terminate(self, new_status: Status) -> None:
        if new_status == Status.INVALID and self.status == Status.RUNNING:
            self.log.append((self.name, "halted"))


class _Cond(_Leaf):
    def update(self) -> Status:
        self.log.append((self.name, "tick"))
        return Status[self.script.next()]


def _ours_nodes(log: list[Event]) -> dict[str, object]:
    def make(kind: type[_Leaf]) -> Callable[[str], _Leaf]:
        def build(name: str) -> _Leaf:
            leaf = kind(name)
            leaf.log = log
            return leaf

        return build

    return {
        "Act": action(make(_Leaf), stateful=True),
        "Cond": condition(make(_Cond)),
        "Sync": condition(make(_Cond)),
    }


def _ours_board(root: BtNode) -> tuple[tuple[str, str], ...]:
    storage = root.ports.blackboard.root.storage
    return tuple(
        sorted(
            (key, _text(entry.value)) for key, entry in storage.items() if entry.value is not None
        )
    )


def _text(value: object) -> str:
    if isinstance(value, float) and math.isfinite(value):
        return repr(float(value)) if value != int(value) else str(int(value))
    return to_text(value)  # type: ignore[arg-type]


def run_ours(xml: str, ticks: int = TICKS) -> Outcome:
    log: list[Event] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PolicyLintWarning)
            policy = parse_bt_xml(xml, nodes=_ours_nodes(log), blackboard=dict(INITIAL))  # type: ignore[arg-type]
        root = policy()
    except PolicyError as error:
        return Outcome(False, detail=str(error))
    assert isinstance(root, BtNode)
    outcome = Outcome(True)
    for _ in range(ticks):
        del log[:]
        try:
            root.tick_once()
            status = root.result.value
        except PolicyRuntimeError as error:
            outcome.ticks.append(("error", tuple(log), ()))
            outcome.detail = str(error)
            break
        outcome.ticks.append((status, tuple(log), _ours_board(root)))
        if status in ("SUCCESS", "FAILURE"):
            break
    return outcome


# -- real BehaviorTree.CPP ------------------------------------------------------------------


class _Real:
    """One factory for every tree (registering is the costly part); the leaves' scripts and
    the log are reset per tree."""

    def __init__(self) -> None:
        self.log: list[Event] = []
        self.scripts: dict[str, Script] = {}
        factory = bt.BehaviorTreeFactory()
        factory.register_simple_stateful_action(
            "Act", self.on_start, self.on_running, self.on_halted
        )
        factory.register_simple_condition("Cond", self.on_condition)
        factory.register_simple_action("Sync", self.on_condition)
        self.factory = factory

    def status(self, node: bt.TreeNode) -> bt.NodeStatus:
        name = node.name()
        script = self.scripts.setdefault(node.uid(), Script(name))
        return getattr(bt.NodeStatus, script.next())

    def on_start(self, node: bt.TreeNode) -> bt.NodeStatus:
        self.log.append((node.name(), "start"))
        return self.status(node)

    def on_running(self, node: bt.TreeNode) -> bt.NodeStatus:
        self.log.append((node.name(), "running"))
        return self.status(node)

    def on_halted(self, node: bt.TreeNode) -> None:
        self.log.append((node.name(), "halted"))

    def on_condition(self, node: bt.TreeNode) -> bt.NodeStatus:
        self.log.append((node.name(), "tick"))
        return self.status(node)


_REAL: _Real | None = None


def _real() -> _Real:
    global _REAL
    if _REAL is None:
        _REAL = _Real()
    return _REAL


def _real_board(board: bt.Blackboard) -> tuple[tuple[str, str], ...]:
    found = []
    for key in board.get_keys():
        try:
            text = board.get_string(key)
        except RuntimeError:
            continue  # an empty entry
        found.append((key, _number_text(text)))
    return tuple(sorted(found))


def _number_text(text: str) -> str:
    try:
        number = float(text)
    except ValueError:
        return text
    return _text(number) if math.isfinite(number) and "." in text else text


def run_real(xml: str, ticks: int = TICKS) -> Outcome:
    real = _real()
    real.scripts.clear()
    del real.log[:]
    board = bt.Blackboard.create()
    for key, value in INITIAL.items():
        (board.set_string if isinstance(value, str) else board.set_int)(key, value)  # type: ignore[operator]
    try:
        tree = real.factory.create_tree_from_text(xml, board)
    except RuntimeError as error:
        return Outcome(False, detail=str(error))
    outcome = Outcome(True)
    for _ in range(ticks):
        del real.log[:]
        try:
            status = tree.tick_exactly_once().name
        except (RuntimeError, IndexError, KeyError) as error:  # C++ exceptions, as pybind maps them
            outcome.ticks.append(("error", tuple(real.log), ()))
            outcome.detail = str(error)
            break
        outcome.ticks.append((status, tuple(real.log), _real_board(board)))
        if status in ("SUCCESS", "FAILURE"):
            break
    _halt(tree)
    return outcome


#: Trees whose halting kept failing: kept alive, since BT.CPP's destructor halts them again
#: and a script failing there would end the process.
_UNHALTABLE: list[bt.Tree] = []


def _halt(tree: bt.Tree) -> None:
    for _ in range(8):
        try:
            tree.halt_tree()
            return
        except RuntimeError:  # an _onHalted script failed; the others are halted next time
            continue
    _UNHALTABLE.append(tree)


def differences(xml: str, ticks: int = TICKS) -> str | None:
    """``None`` when both engines agree on ``xml``, else what differs, first tick first."""
    ours, real = run_ours(xml, ticks), run_real(xml, ticks)
    if ours.loaded != real.loaded:
        return (
            f"load: ours {'loads' if ours.loaded else 'refuses'} ({ours.detail}), BT.CPP "
            f"{'loads' if real.loaded else 'refuses'} ({real.detail})"
        )
    for index, (mine, theirs) in enumerate(zip(ours.ticks, real.ticks, strict=False), 1):
        if mine != theirs:
            return f"tick {index}: ours {mine} ({ours.detail}); BT.CPP {theirs} ({real.detail})"
    if len(ours.ticks) != len(real.ticks):
        return f"ticks: ours {len(ours.ticks)}, BT.CPP {len(real.ticks)}"
    return None
