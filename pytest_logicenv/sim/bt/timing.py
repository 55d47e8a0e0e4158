"""Time-based nodes, counted in simulator ticks.

The simulator has no wall clock: one tick of the policy's root is :data:`TICK_MS`
milliseconds (100 ms, a 10 Hz tick rate). A duration of ``msec`` milliseconds lasts
``ceil(msec / TICK_MS)`` ticks, counted from the tick the node started in:

=============  ==========================================================================
``Sleep``      RUNNING until ``msec`` have passed, then SUCCESS (``msec="250"``: 3 ticks
               RUNNING, SUCCESS on the 4th); ``msec="0"``: SUCCESS at once
``Delay``      RUNNING for ``delay_msec`` without ticking the child, then the child; each
               time the child completes (or the node is halted) the next tick delays again
``Timeout``    the child, halted with FAILURE when it is still RUNNING ``msec`` after it
               started (``msec="300"``: the child gets 3 ticks); ``0``: no limit
=============  ==========================================================================

Nav2's ``RateController`` (in :mod:`pytest_logicenv.sim.bt.nav2`) counts ticks the same way.
"""

from __future__ import annotations

import math

from pytest_logicenv.sim.bt.node import (
    FAILURE,
    RUNNING,
    SUCCESS,
    Behaviour,
    BtDecorator,
    BtLeaf,
    BtStatus,
    Status,
    halt_child,
)

#: How long one simulator tick lasts, in milliseconds.
TICK_MS = 100
#: The ticks an infinite duration lasts: more than any run has.
FOREVER = 2**62


def ticks(msec: float) -> int:
    """The number of ticks ``msec`` milliseconds last.

    >>> ticks(0), ticks(100), ticks(250), ticks(float("inf")) == FOREVER
    (0, 1, 3, True)
    """
    if not math.isfinite(msec):  # 1000 / hz for a tiny hz: never (nan: no wait)
        return FOREVER if msec > 0 else 0
    return max(0, math.ceil(msec / TICK_MS))


class Sleep(BtLeaf):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.start = 0
        self.duration = 0

    def on_tick(self) -> BtStatus:
        if self.status != Status.RUNNING:
            self.duration = ticks(self.ports.number("msec"))
            if self.duration <= 0:
                return SUCCESS
            self.start = self.context.now
            return RUNNING
        return SUCCESS if self.context.now - self.start >= self.duration else RUNNING


class _Timed(BtDecorator):
    """A decorator that counts the ticks since it started: its first tick after a halt or a
    completion (subclasses clear ``started`` when their child completes, as BT.CPP does)."""

    def __init__(self, name: str, child: Behaviour) -> None:
        super().__init__(name, child)
        self.started = False
        self.start = 0

    def on_halt(self) -> None:
        self.started = False

    def elapsed(self) -> int:
        """Ticks since the timer started; starts it (and the node RUNNING) on the first call."""
        if not self.started:
            self.started = True
            self.start = self.context.now
            self.set_running()
        return int(self.context.now - self.start)


class Delay(_Timed):
    def on_tick(self) -> BtStatus:
        if self.elapsed() < ticks(self.ports.number("delay_msec")):
            return RUNNING
        result = self.tick_child()
        if result is not RUNNING:  # as BT.CPP: the next tick after this one delays again
            self.started = False
            halt_child(self.child)
        return result


class Timeout(_Timed):
    def on_tick(self) -> BtStatus:
        duration = ticks(self.ports.number("msec"))
        elapsed = self.elapsed()  # started even without a limit, as BT.CPP starts its timer
        expired = duration > 0 and elapsed >= duration
        if expired and self.child.status == Status.RUNNING:
            halt_child(self.child)
            self.started = False
            return FAILURE
        result = self.tick_child()
        if result.completed:
            self.started = False
            halt_child(self.child)
        return result
