"""BT.CPP v4's decorators (the timed ones are in :mod:`pytest_logicenv.sim.bt.timing`).

==========================  =============================================================
``Inverter``                SUCCESS and FAILURE swapped; RUNNING and SKIPPED passed on
``ForceSuccess/Failure``    a completed child counts as SUCCESS (FAILURE)
``Repeat``                  the child ``num_cycles`` times while it succeeds (-1: forever)
``RetryUntilSuccessful``    the child up to ``num_attempts`` times while it fails (-1: ever)
``KeepRunningUntilFailure`` RUNNING after each success; FAILURE when the child fails
``RunOnce``                 the child once; then SKIPPED (``then_skip``) or its result again
``Precondition``            the child while script ``if`` held when it started, else
                            ``else`` (default FAILURE)
``SubTree``                 the called tree's root, in its own blackboard scope
``LoopInt/Double/String/Bool``  pops ``queue`` into ``value`` and ticks the child per item
``SkipUnlessUpdated``       ticks the child only if ``entry`` was written since last time
                            (SKIPPED if not, or if it was never written or does not exist)
``WaitValueUpdate``         the same, RUNNING (instead of SKIPPED) until it is
==========================  =============================================================

``Repeat`` and ``RetryUntilSuccessful`` return RUNNING after each round of a child that
completed at its first tick (BT.CPP's wake-up): one round per simulator tick.
"""

from __future__ import annotations

from pytest_logicenv.sim.bt.node import (
    FAILURE,
    IDLE,
    RUNNING,
    SKIPPED,
    SUCCESS,
    Behaviour,
    BtDecorator,
    BtNode,
    BtStatus,
    Status,
    halt_child,
)
from pytest_logicenv.sim.bt.ports import PortType, Value, coerce
from pytest_logicenv.sim.bt.script import Script, ScriptSyntaxError, parse_script


class Inverter(BtDecorator):
    def on_tick(self) -> BtStatus:
        self.set_running()
        result = self.tick_child()
        if result.completed:
            halt_child(self.child)
            return FAILURE if result is SUCCESS else SUCCESS
        return result


class ForceResult(BtDecorator):
    """``ForceSuccess`` (``forced=SUCCESS``) and ``ForceFailure``."""

    def __init__(self, name: str, child: Behaviour, forced: BtStatus) -> None:
        super().__init__(name, child)
        self.forced = forced

    def on_tick(self) -> BtStatus:
        self.set_running()
        result = self.tick_child()
        if result.completed:
            halt_child(self.child)
            return self.forced
        return result


class Repeat(BtDecorator):
    """``Repeat`` (``until=FAILURE``, port ``num_cycles``) and ``RetryUntilSuccessful``
    (``until=SUCCESS``, port ``num_attempts``): the loop both share."""

    def __init__(self, name: str, child: Behaviour, *, port: str, until: BtStatus) -> None:
        super().__init__(name, child)
        self.port = port
        self.until = until
        self.count = 0

    def on_halt(self) -> None:
        self.count = 0

    def limit(self) -> int:
        return self.ports.integer(self.port)

    def on_tick(self) -> BtStatus:
        limit = self.limit()
        looping = self.count < limit or limit == -1
        self.set_running()
        while looping:
            was_idle = self.child.status == Status.INVALID
            result = self.tick_child()
            if result is RUNNING:
                return RUNNING
            if result is SKIPPED:
                halt_child(self.child)
                return SKIPPED
            halt_child(self.child)
            if result is self.until:
                self.count = 0
                return result
            self.count += 1  # the limit stays the one read at this tick's start, as BT.CPP's
            looping = self.count < limit or limit == -1
            if was_idle and looping:
                return RUNNING  # BT.CPP's wake-up: the next round is the next tick
        self.count = 0
        return SUCCESS if self.until is FAILURE else FAILURE


class KeepRunningUntilFailure(BtDecorator):
    def on_tick(self) -> BtStatus:
        self.set_running()
        result = self.tick_child()
        if result.completed:
            halt_child(self.child)
        return FAILURE if result is FAILURE else RUNNING


class RunOnce(BtDecorator):
    def __init__(self, name: str, child: Behaviour) -> None:
        super().__init__(name, child)
        self.done: BtStatus | None = None

    def on_tick(self) -> BtStatus:
        skip = self.ports.flag("then_skip")
        if self.done is not None:
            return SKIPPED if skip else self.done
        self.set_running()
        result = self.tick_child()
        if result.completed:
            self.done = result
            halt_child(self.child)
        return result


class ScriptPort:
    """A port holding a script: parsed once per distinct text (text may come from the
    blackboard, so it is parsed again when it changes)."""

    def __init__(self, node: BtNode, port: str) -> None:
        self.node = node
        self.port = port
        self.script: Script | None = None

    def get(self) -> Script:
        node = self.node
        text = node.ports.text(self.port)
        if self.script is None or self.script.text != text:
            try:
                self.script = parse_script(text)
            except ScriptSyntaxError as error:
                raise node.fail(f"{self.port}={text!r}: {error}") from None
        return self.script


class Precondition(BtDecorator):
    def __init__(self, name: str, child: Behaviour) -> None:
        super().__init__(name, child)
        self.script = ScriptPort(self, "if")
        self.child_running = False

    def on_tick(self) -> BtStatus:
        otherwise = BtStatus(self.ports.get("else"))
        if not self.child_running:
            self.child_running = self.holds(self.script.get(), "if")
        if not self.child_running:
            if otherwise is IDLE:
                raise self.fail("else='IDLE' is not a status a node may return")
            return otherwise
        result = self.tick_child()
        if result.completed:
            halt_child(self.child)
            self.child_running = False
        return result


class SubTree(BtDecorator):
    """A ``<SubTree>`` call: the called tree's root as its only child."""

    def on_tick(self) -> BtStatus:
        self.set_running()
        result = self.tick_child()
        if result.completed:
            halt_child(self.child)
        return result


class Loop(BtDecorator):
    """``LoopInt``/``LoopDouble``/``LoopString``/``LoopBool`` (``item`` is the type)."""

    def __init__(self, name: str, child: Behaviour, item: PortType) -> None:
        super().__init__(name, child)
        self.item = item
        self.child_running = False
        self.queue: list[Value] = []

    def on_tick(self) -> BtStatus:
        static = self.ports.key("queue") is None
        if self.status == Status.INVALID:
            self.child_running = False
            if static:
                self.queue = self.items(self.ports.get("queue"))
        popped = False
        if not self.child_running:
            if not static:
                self.queue = self.items(self.ports.get("queue"))
            if self.queue:
                value = self.queue.pop(0)
                popped = True
                if not static:
                    self.ports.set("queue", tuple(str(item) for item in self.queue))
                self.ports.set("value", value)
        if not popped and not self.child_running:
            return BtStatus(self.ports.get("if_empty"))
        self.set_running()
        result = self.tick_child()
        self.child_running = result is RUNNING
        if result.completed:
            halt_child(self.child)
        return FAILURE if result is FAILURE else RUNNING

    def items(self, queue: Value) -> list[Value]:
        raw = queue if isinstance(queue, tuple) else coerce(queue, "queue")
        assert isinstance(raw, tuple)
        try:
            return [coerce(item, self.item) for item in raw]
        except ValueError as error:
            raise self.fail(f"queue: {error}") from None


class EntryUpdated(BtDecorator):
    """``SkipUnlessUpdated`` (``otherwise=SKIPPED``) and ``WaitValueUpdate`` (RUNNING).

    As BT.CPP's ``EntryUpdatedDecorator``: the write count last seen starts at 0, the count of
    an entry nothing has written yet, so such an entry is not "updated"; a missing entry is not
    either."""

    def __init__(self, name: str, child: Behaviour, otherwise: BtStatus) -> None:
        super().__init__(name, child)
        self.otherwise = otherwise
        self.seen = 0
        self.child_running = False

    def on_halt(self) -> None:
        self.child_running = False

    def halt_node(self) -> None:
        # BT.CPP 4.8's EntryUpdatedDecorator::halt only clears its flag: the running child
        # is not halted (no onHalted) and is resumed if the entry is updated again.
        BtNode.halt_node(self)

    def on_tick(self) -> BtStatus:
        if not self.child_running:
            key = self.ports.key("entry") or self.ports.given("entry")
            entry = self.ports.blackboard.entry(key)
            if entry is None:
                return self.otherwise
            seen, self.seen = self.seen, entry.seq
            if entry.seq == seen:
                return self.otherwise
        result = self.tick_child()
        self.child_running = result is RUNNING
        return result
