"""BT.CPP 4.9's ``TryCatch``: its children but the last run as a ``Sequence`` (the try
block); when one fails, the try block is reset and the last child (the catch block) runs to
completion, after which the node returns FAILURE. With ``catch_on_halt="true"``, halting the
node while its try block runs ticks the catch block once (halted if it is still running).
All the try children skipped: SKIPPED, as a ``Sequence``.
"""

from __future__ import annotations

from pytest_logicenv.sim.bt.node import (
    FAILURE,
    RUNNING,
    SKIPPED,
    SUCCESS,
    Behaviour,
    BtControl,
    BtStatus,
    Status,
    halt_child,
    tick_child,
)


class TryCatch(BtControl):
    def __init__(self, name: str, children: list[Behaviour]) -> None:
        super().__init__(name, children)
        self.index = self.skipped = 0
        self.in_catch = False

    def on_halt(self) -> None:
        running = self.status == Status.RUNNING
        if running and not self.in_catch and self.ports.flag("catch_on_halt"):
            self.halt_children()
            tick_child(self, self.children[-1])
            halt_child(self.children[-1])  # halted if still running, reset either way
        self.index = self.skipped = 0
        self.in_catch = False

    def on_tick(self) -> BtStatus:
        if self.status != Status.RUNNING:
            self.skipped = 0
            self.in_catch = False
        self.set_running()
        if self.in_catch:
            return self.catch()
        tries = len(self.children) - 1
        while self.index < tries:
            result = tick_child(self, self.children[self.index])
            if result is RUNNING:
                return RUNNING
            if result is FAILURE:
                self.halt_children()
                self.index, self.in_catch = 0, True
                return self.catch()
            self.index += 1
            self.skipped += result is SKIPPED
        all_skipped = self.skipped == tries
        self.halt_children()
        self.index = self.skipped = 0
        return SKIPPED if all_skipped else SUCCESS

    def catch(self) -> BtStatus:
        if tick_child(self, self.children[-1]) is RUNNING:
            return RUNNING
        self.halt_children()
        self.index, self.in_catch = 0, False
        return FAILURE
