"""Nav2's control nodes and decorators (``nav2_behavior_tree``), as Nav2's sources tick them.

====================  ======================================================================
``PipelineSequence``  every child up to the one RUNNING furthest along is ticked again each
                      tick (earlier ones re-run while a later one runs); FAILURE halts all
``RecoveryNode``      2 children: the first; when it fails, the second (the recovery), then
                      the first again, up to ``number_of_retries`` recoveries (default 1); a
                      skipped first child skips the node, a skipped recovery fails it (not
                      counted as a retry)
``RoundRobin``        one child per tick in turn, from where the last success left off;
                      skipped children are passed over, and when all are: SKIPPED
``RateController``    ticks its child at most ``hz`` times per second (in simulator ticks:
                      every ``10 / hz`` ticks at 100 ms a tick); RUNNING in between
``SingleTrigger``     ticks its child once, then FAILURE until it is reset
====================  ======================================================================
"""

from __future__ import annotations

from pytest_logicenv.sim.bt.node import (
    FAILURE,
    RUNNING,
    SKIPPED,
    SUCCESS,
    Behaviour,
    BtControl,
    BtDecorator,
    BtStatus,
    Status,
    halt_child,
    tick_child,
)
from pytest_logicenv.sim.bt.timing import ticks


def _halt_itself(node: BtControl) -> None:
    """What Nav2's controls do when they finish: their own ``halt()`` (children halted, their
    state and status reset), which, unlike a parent's halt, runs no ``_onHalted`` script."""
    node.halt_children()
    node.on_halt()
    node.reset()


class PipelineSequence(BtControl):
    def __init__(self, name: str, children: list[Behaviour]) -> None:
        super().__init__(name, children)
        self.last = 0

    def on_halt(self) -> None:
        self.last = 0

    def on_tick(self) -> BtStatus:
        skipped = 0
        for index, child in enumerate(self.children):
            result = tick_child(self, child)
            if result is FAILURE:
                self.halt_children()
                self.last = 0
                return FAILURE
            if result is SKIPPED:
                skipped += 1
            elif result is RUNNING and index >= self.last:
                self.last = index
                return RUNNING
        self.halt_children()
        self.last = 0
        return SKIPPED if skipped == len(self.children) else SUCCESS


class RecoveryNode(BtControl):
    def __init__(self, name: str, children: list[Behaviour]) -> None:
        super().__init__(name, children)
        self.current = 0
        self.retries = 0

    def on_halt(self) -> None:
        self.current = self.retries = 0

    def finish(self, result: BtStatus) -> BtStatus:
        _halt_itself(self)
        return result

    def on_tick(self) -> BtStatus:
        allowed = self.ports.integer("number_of_retries")
        self.set_running()
        while self.current < 2 and self.retries <= allowed:
            result = tick_child(self, self.children[self.current])
            if result is RUNNING:
                return RUNNING
            if self.current == 0:
                if result in (SUCCESS, SKIPPED):  # skipped: the whole branch is
                    return self.finish(result)
                if self.retries >= allowed:
                    return self.finish(FAILURE)
                halt_child(self.children[0])
                self.current = 1
            elif result is SKIPPED:  # no recovery possible; Nav2 keeps the retry count
                halt_child(self.children[1])
                self.current = 0
                return FAILURE
            elif result is SUCCESS:
                halt_child(self.children[1])
                self.retries += 1
                self.current = 0
            else:
                return self.finish(FAILURE)
        return self.finish(FAILURE)


class RoundRobin(BtControl):
    def __init__(self, name: str, children: list[Behaviour]) -> None:
        super().__init__(name, children)
        self.current = 0
        self.failed = 0

    def on_halt(self) -> None:
        self.current = self.failed = 0

    def on_tick(self) -> BtStatus:
        count = len(self.children)
        skipped = 0  # per tick, while failures count across ticks (as Nav2 counts them)
        self.set_running()
        while self.failed + skipped < count:
            result = tick_child(self, self.children[self.current])
            if result is RUNNING:
                return RUNNING
            self.current = (self.current + 1) % count
            if result is SUCCESS:
                self.failed = 0
                self.halt_children()
                return SUCCESS
            if result is SKIPPED:
                skipped += 1
            else:
                self.failed += 1
        _halt_itself(self)
        return SKIPPED if skipped == count else FAILURE


class RateController(BtDecorator):
    def __init__(self, name: str, child: Behaviour) -> None:
        super().__init__(name, child)
        self.start = 0
        self.first = False

    def on_tick(self) -> BtStatus:
        if self.status == Status.INVALID:
            self.start = self.context.now
            self.first = True
        self.set_running()
        hz = self.ports.number("hz")
        period = ticks(1000.0 / hz) if hz > 0 else 0
        due = self.context.now - self.start >= period
        if self.first or self.child.status == Status.RUNNING or due:
            self.first = False
            result = self.tick_child()
            if result is SUCCESS:
                self.start = self.context.now
            return result if result in (RUNNING, SUCCESS) else FAILURE
        return RUNNING


class SingleTrigger(BtDecorator):
    def __init__(self, name: str, child: Behaviour) -> None:
        super().__init__(name, child)
        self.first = True

    def on_tick(self) -> BtStatus:
        if self.status == Status.INVALID:
            self.first = True
        self.set_running()
        if not self.first:
            return FAILURE
        result = self.tick_child()
        if result.completed:
            self.first = False
        return result
