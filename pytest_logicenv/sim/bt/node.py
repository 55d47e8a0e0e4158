"""The tick protocol of BT.CPP v4 on py_trees behaviours: statuses, halting and scripts.

Every node the loader builds is a :class:`BtNode`, a py_trees behaviour whose ``tick`` follows
BT.CPP's ``executeTick``: the pre-condition scripts first (``_failureIf``, ``_successIf``,
``_skipIf`` when the node is idle; ``_while`` also while it runs, halting it when false; none
on a node that completed and was not reset), then
the node's own tick, then the post-condition scripts (``_onSuccess`` or ``_onFailure``, then
``_post``); ``_onHalted`` runs when the node is halted. BT.CPP's ``SKIPPED`` status, which
py_trees lacks, is what :meth:`BtNode.execute_tick` returns to a BT.CPP parent; the skipped
node itself stays idle (py_trees ``INVALID``).

A parent ticks a child with :func:`tick_child` and halts it with :func:`halt_child`, whether
the child is a :class:`BtNode` or a user's plain py_trees behaviour.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import py_trees

from pytest_logicenv.errors import PolicyRuntimeError
from pytest_logicenv.sim.bt.blackboard import Blackboard
from pytest_logicenv.sim.bt.portio import Ports
from pytest_logicenv.sim.bt.ports import Value
from pytest_logicenv.sim.bt.script import Script
from pytest_logicenv.sim.bt.script_eval import ScriptRuntimeError, run_script, truthy

Behaviour = py_trees.behaviour.Behaviour
Status = py_trees.common.Status


class BtStatus(enum.Enum):
    """BT.CPP's node statuses (``IDLE`` is py_trees' ``INVALID``)."""

    IDLE = "IDLE"
    RUNNING = "RUNNING"
    SUCCESS = "SUCCESS"
    FAILURE = "FAILURE"
    SKIPPED = "SKIPPED"

    @property
    def completed(self) -> bool:
        return self in (BtStatus.SUCCESS, BtStatus.FAILURE)


IDLE, RUNNING, SUCCESS, FAILURE, SKIPPED = (
    BtStatus.IDLE,
    BtStatus.RUNNING,
    BtStatus.SUCCESS,
    BtStatus.FAILURE,
    BtStatus.SKIPPED,
)
_TO_PY = {RUNNING: Status.RUNNING, SUCCESS: Status.SUCCESS, FAILURE: Status.FAILURE}
_FROM_PY = {
    Status.RUNNING: RUNNING,
    Status.SUCCESS: SUCCESS,
    Status.FAILURE: FAILURE,
    Status.INVALID: IDLE,
}
#: Pre-condition attributes in the order BT.CPP evaluates them, and what a true one returns.
PRE_CONDITIONS = ("_failureIf", "_successIf", "_skipIf", "_while")
POST_CONDITIONS = ("_onHalted", "_onFailure", "_onSuccess", "_post")
_PRE_RESULT = {"_failureIf": FAILURE, "_successIf": SUCCESS, "_skipIf": SKIPPED}


@dataclass
class TreeContext:
    """What the nodes of one built tree share: the registered enums and the clock, counted in
    ticks of the tree's root (see :mod:`pytest_logicenv.sim.bt.timing`)."""

    enums: Mapping[str, int] = field(default_factory=dict)
    now: int = 0
    #: The ids of the user's py_trees leaves registered ``action(..., stateful=True)``,
    #: which tick as BT.CPP's stateful actions (see :func:`tick_child`).
    stateful: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Conditions:
    """A node's pre- and post-condition scripts, by attribute name."""

    pre: tuple[tuple[str, Script], ...] = ()
    post: Mapping[str, Script] = field(default_factory=dict)


class BtNode(Behaviour):
    """A node with BT.CPP's tick protocol; subclasses implement :meth:`on_tick` (and
    :meth:`on_halt` when they keep state). The loader calls :meth:`configure`."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.context = TreeContext()
        self.ports = Ports({}, {}, Blackboard(), name)
        self.conditions = Conditions()
        self.origin = ""
        self.is_root = False
        self.result = IDLE

    def configure(
        self, context: TreeContext, ports: Ports, conditions: Conditions, origin: str
    ) -> None:
        self.context = context
        self.ports = ports
        self.conditions = conditions
        self.origin = origin

    # -- status ----------------------------------------------------------------------------

    def set_running(self) -> None:
        self.status = Status.RUNNING

    def reset(self) -> None:
        """BT.CPP's ``resetStatus``: back to idle, without halting."""
        self.status = Status.INVALID

    def fail(self, message: str) -> PolicyRuntimeError:
        return PolicyRuntimeError(f"{self.origin or self.name}: {message}")

    # -- ticking ---------------------------------------------------------------------------

    def tick(self) -> Iterator[Behaviour]:
        self.execute_tick()
        yield self

    def execute_tick(self) -> BtStatus:
        """Tick once as BT.CPP's ``executeTick`` does; the status for a BT.CPP parent."""
        if self.is_root:
            self.context.now += 1
        result = self.check_pre_conditions() if self.conditions.pre else None
        if result is None:
            result = self.on_tick()
        if result.completed:
            self.run_post_conditions(result)
        if result is not SKIPPED:
            self.status = _TO_PY.get(result, Status.INVALID)
        self.result = result
        return result

    def on_tick(self) -> BtStatus:
        raise NotImplementedError

    def update(self) -> Status:
        """py_trees' hook, unused: :meth:`tick` runs :meth:`execute_tick` instead."""
        return self.status

    def on_halt(self) -> None:
        """Reset the node's own state when it is halted (children: see controls)."""

    def halt_node(self) -> None:
        """BT.CPP's ``haltNode``: halt, run ``_onHalted``, back to idle."""
        self.on_halt()
        script = self.conditions.post.get("_onHalted")
        if script is not None:
            self.run(script, "_onHalted")
        self.reset()

    def stop(self, new_status: Status = Status.INVALID) -> None:
        """py_trees' entry point (a py_trees parent or the runner stops the node)."""
        if new_status == Status.INVALID:
            if self.status == Status.RUNNING:
                self.halt_node()
            self.reset()
        else:
            self.status = new_status

    # -- scripts ---------------------------------------------------------------------------

    def run(self, script: Script, attribute: str) -> Value:
        try:
            return run_script(script, self.ports.blackboard, self.context.enums)
        except ScriptRuntimeError as error:
            raise self.fail(f"{attribute}={script.text!r}: {error}") from None

    def holds(self, script: Script, attribute: str) -> bool:
        value = self.run(script, attribute)
        try:
            return truthy(value)
        except ScriptRuntimeError as error:
            raise self.fail(f"{attribute}={script.text!r}: {error}") from None

    def check_pre_conditions(self) -> BtStatus | None:
        """As BT.CPP's ``checkPreConditions``: only an idle node (a skipped one stays idle)
        evaluates them, and a running one ``_while``; a node that completed and was not
        reset by its parent ticks without them."""
        if self.status not in (Status.INVALID, Status.RUNNING):
            return None
        running = self.status == Status.RUNNING
        for attribute, script in self.conditions.pre:
            if not running:
                holds = self.holds(script, attribute)
                if holds and attribute in _PRE_RESULT:
                    return _PRE_RESULT[attribute]
                if not holds and attribute == "_while":
                    return SKIPPED
            elif attribute == "_while" and not self.holds(script, attribute):
                self.halt_node()
                return SKIPPED
        return None

    def run_post_conditions(self, result: BtStatus) -> None:
        post = self.conditions.post
        for attribute in ("_onSuccess" if result is SUCCESS else "_onFailure", "_post"):
            if attribute in post:
                self.run(post[attribute], attribute)


def tick_child(parent: BtNode, child: Behaviour) -> BtStatus:
    """Tick ``child`` once; its BT.CPP status (``SKIPPED`` included).

    A user's py_trees leaf ticks as py_trees ticks it (``initialise`` whenever it is not
    RUNNING, as BT.CPP's ``SyncActionNode`` runs every tick); registered stateful, it ticks
    as BT.CPP's ``StatefulActionNode``: ``initialise`` and ``update`` are its ``onStart``,
    ``update`` while RUNNING its ``onRunning``, ``terminate`` from RUNNING its ``onHalted``,
    and ticked while it still holds SUCCESS or FAILURE (its parent did not reset it) it
    returns that status without a call."""
    if isinstance(child, BtNode):
        return child.execute_tick()
    held = _FROM_PY.get(child.status, IDLE)
    if held.completed and id(child) in parent.context.stateful:
        return held
    for _ in child.tick():
        pass
    status = _FROM_PY.get(child.status, IDLE)
    if status is IDLE:
        raise parent.fail(
            f"child {child.name!r} returned no status (its update() must return a py_trees "
            "Status other than INVALID)"
        )
    return status


def halt_child(child: Behaviour) -> None:
    """BT.CPP's ``haltChild``: halt ``child`` if it is running, then reset it to idle."""
    if isinstance(child, BtNode):
        if child.status == Status.RUNNING:
            child.halt_node()
        child.reset()
    elif child.status != Status.INVALID:
        child.stop(Status.INVALID)


class BtLeaf(BtNode):
    """A node without children."""


class BtControl(BtNode):
    """A node with children (a control or a decorator)."""

    def __init__(self, name: str, children: list[Behaviour]) -> None:
        super().__init__(name)
        for child in children:
            child.parent = self
        self.children = list(children)

    def halt_children(self, first: int = 0) -> None:
        for child in self.children[first:]:
            halt_child(child)

    def halt_node(self) -> None:
        self.halt_children()
        super().halt_node()


class BtDecorator(BtControl):
    """A node with exactly one child."""

    def __init__(self, name: str, child: Behaviour) -> None:
        super().__init__(name, [child])

    @property
    def child(self) -> Behaviour:
        return self.children[0]

    def tick_child(self) -> BtStatus:
        return tick_child(self, self.child)


class Guarded(BtDecorator):
    """Carries the pre/post-condition scripts of a user's plain py_trees behaviour; to its
    parent it is that behaviour, so resetting it resets the behaviour too."""

    def reset(self) -> None:
        super().reset()
        if self.child.status != Status.INVALID and self.child.status != Status.RUNNING:
            self.child.stop(Status.INVALID)

    def on_tick(self) -> BtStatus:
        return self.tick_child()
