"""BT.CPP v4's control nodes, tick by tick as BT.CPP's sources run them.

======================  ===================================================================
``Sequence``            children in order; a RUNNING child is resumed next tick, a FAILURE
                        restarts from the first child (``AsyncSequence`` also returns
                        RUNNING after each child that succeeded at its first tick)
``SequenceWithMemory``  as ``Sequence``, but a FAILURE does not restart: the failed child is
                        ticked again next time; each child that succeeds at once yields a tick
``Fallback``            children in order until one succeeds (``AsyncFallback``: yields)
``ReactiveSequence``    every tick from the first child; a RUNNING child halts the others
``ReactiveFallback``    the same, until one succeeds
``Parallel``            every child each tick until ``success_count`` succeeded (negative:
                        children + 1 + n) or ``failure_count`` failed
``ParallelAll``         every child to completion; FAILURE if ``max_failures`` failed
``IfThenElse``          2 or 3 children: the first decides which of the others runs
``WhileDoElse``         the same, but the condition is ticked every tick (reactive)
``Switch2`` .. ``6``    the child whose ``case_N`` equals ``variable``, else the last
======================  ===================================================================

Children are halted (``haltChild``) as BT.CPP halts them; ``SKIPPED`` children are counted
and a node whose children were all skipped is skipped itself.
"""

from __future__ import annotations

from pytest_logicenv.errors import PolicyRuntimeError
from pytest_logicenv.sim.bt.node import (
    FAILURE,
    IDLE,
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
from pytest_logicenv.sim.bt.ports import parse_double

_EPSILON = 1.1920928955078125e-07


def is_idle(child: Behaviour) -> bool:
    return child.status == Status.INVALID


class Sequence(BtControl):
    """``Sequence`` and ``AsyncSequence`` (``asynch=True``).

    Its subclasses differ only in what ends the walk early (``stop_on``), what the walk
    returns when it runs out of children (``exhausted``), whether the stopping child keeps its
    place (``keeps_place``) and when a child that finished at its first tick yields a tick.
    """

    stop_on: BtStatus = FAILURE
    exhausted: BtStatus = SUCCESS
    keeps_place = False

    def __init__(self, name: str, children: list[Behaviour], *, asynch: bool = False) -> None:
        super().__init__(name, children)
        self.asynch = asynch
        self.index = 0
        self.skipped = 0

    def on_halt(self) -> None:
        self.index = self.skipped = 0

    def yields(self) -> bool:
        """Whether a child that finished at its first tick returns RUNNING before the next."""
        return self.asynch

    def on_tick(self) -> BtStatus:
        if self.status == Status.INVALID:
            self.skipped = 0
        self.set_running()
        count = len(self.children)
        while self.index < count:
            child = self.children[self.index]
            was_idle = is_idle(child)
            result = tick_child(self, child)
            if result is RUNNING:
                return RUNNING
            if result is self.stop_on:
                return self.end_early()
            self.index += 1
            if result is SKIPPED:
                self.skipped += 1
            elif self.yields() and was_idle and self.index < count:
                return RUNNING
        return self.finish(self.exhausted)

    def end_early(self) -> BtStatus:
        """End the walk at the current child with ``stop_on``."""
        if self.keeps_place:
            self.halt_children(self.index)
        else:
            self.halt_children()
            self.index = 0
        return self.stop_on

    def finish(self, result: BtStatus) -> BtStatus:
        all_skipped = self.skipped == len(self.children)
        self.halt_children()
        self.index = self.skipped = 0
        return SKIPPED if all_skipped else result


class SequenceWithMemory(Sequence):
    """A FAILURE keeps the failed child's place; each child that succeeds at once yields."""

    keeps_place = True

    def on_halt(self) -> None:
        pass  # BT.CPP keeps the index across a halt

    def yields(self) -> bool:
        return True


class Fallback(Sequence):
    """``Fallback`` and ``AsyncFallback``: children in order until one succeeds."""

    stop_on = SUCCESS
    exhausted = FAILURE


class ReactiveSequence(BtControl):
    """Every tick from the first child; ``stop_on`` is FAILURE (``ReactiveFallback``:
    SUCCESS)."""

    stop_on = FAILURE

    def __init__(self, name: str, children: list[Behaviour]) -> None:
        super().__init__(name, children)
        self.running_child = -1

    def on_halt(self) -> None:
        self.running_child = -1

    def on_tick(self) -> BtStatus:
        if self.status == Status.INVALID:
            self.running_child = -1
        self.set_running()
        all_skipped = True
        for index, child in enumerate(self.children):
            result = tick_child(self, child)
            all_skipped &= result is SKIPPED
            if result is RUNNING:
                for other, sibling in enumerate(self.children):
                    if other != index:
                        halt_child(sibling)
                if self.running_child == -1:
                    self.running_child = index
                return RUNNING
            if result is self.stop_on:
                self.halt_children()
                return result
            if result is SKIPPED:
                halt_child(child)
        self.halt_children()
        return SKIPPED if all_skipped else (SUCCESS if self.stop_on is FAILURE else FAILURE)


class ReactiveFallback(ReactiveSequence):
    stop_on = SUCCESS


def threshold(value: int, count: int) -> int:
    """A Parallel threshold: negative values count from the number of children."""
    return max(count + value + 1, 0) if value < 0 else value


class Parallel(BtControl):
    """``Parallel``: ``success_count`` (default -1: all) and ``failure_count`` (default 1)."""

    def __init__(self, name: str, children: list[Behaviour]) -> None:
        super().__init__(name, children)
        self.completed: set[int] = set()
        self.successes = self.failures = 0

    def on_halt(self) -> None:
        self.completed.clear()
        self.successes = self.failures = 0

    def done(self, result: BtStatus) -> BtStatus:
        self.on_halt()
        self.halt_children()
        return result

    def on_tick(self) -> BtStatus:
        success_value = self.ports.integer("success_count")
        failure_value = self.ports.integer("failure_count")
        count = len(self.children)
        need_success = threshold(success_value, count)
        need_failure = threshold(failure_value, count)
        if count < need_success or count < need_failure:
            raise self.fail(
                f"{count} children cannot reach success_count={success_value} or "
                f"failure_count={failure_value}"
            )
        self.set_running()
        skipped = 0
        for index, child in enumerate(self.children):
            if index not in self.completed:
                result = tick_child(self, child)
                if result is SKIPPED:
                    skipped += 1
                elif result.completed:
                    self.completed.add(index)
                    if result is SUCCESS:
                        self.successes += 1
                    else:
                        self.failures += 1
            if self.successes >= need_success or (
                success_value < 0 and self.successes + skipped >= need_success
            ):
                return self.done(SUCCESS)
            if count - self.failures < need_success or self.failures == need_failure:
                return self.done(FAILURE)
        return SKIPPED if skipped == count else RUNNING


class ParallelAll(Parallel):
    """``ParallelAll``: every child to completion; FAILURE if ``max_failures`` failed."""

    def on_tick(self) -> BtStatus:
        count = len(self.children)
        need = threshold(self.ports.integer("max_failures"), count)
        if count < need:
            raise self.fail(f"{count} children can never reach max_failures={need}")
        self.set_running()
        skipped = 0
        for index, child in enumerate(self.children):
            if index in self.completed:
                continue
            result = tick_child(self, child)
            if result is SKIPPED:
                skipped += 1
            elif result.completed:
                self.completed.add(index)
                self.failures += result is FAILURE
        if skipped == count:
            return SKIPPED
        if skipped + len(self.completed) >= count:
            result = FAILURE if self.failures >= need else SUCCESS
            return self.done(result)
        return RUNNING


class IfThenElse(BtControl):
    """The first child decides: SUCCESS runs the second, FAILURE the third (or fails)."""

    def __init__(self, name: str, children: list[Behaviour]) -> None:
        super().__init__(name, children)
        self.branch = 0

    def on_halt(self) -> None:
        self.branch = 0

    def on_tick(self) -> BtStatus:
        self.set_running()
        if self.branch == 0:
            condition = tick_child(self, self.children[0])
            if condition is RUNNING:
                return RUNNING
            if condition is SUCCESS:
                self.branch = 1
            elif condition is FAILURE and len(self.children) == 3:
                self.branch = 2
            elif condition is FAILURE:
                return FAILURE
            else:
                raise self.fail("the condition (first child) was skipped; IfThenElse needs it")
        result = tick_child(self, self.children[self.branch])
        if result is RUNNING:
            return RUNNING
        self.halt_children()
        self.branch = 0
        return result


class WhileDoElse(BtControl):
    """The condition is ticked every tick; switching branch halts the other one."""

    def on_tick(self) -> BtStatus:
        self.set_running()
        condition = tick_child(self, self.children[0])
        if condition is RUNNING:
            return RUNNING
        three = len(self.children) == 3
        if condition is SUCCESS:
            if three:
                halt_child(self.children[2])
            result = tick_child(self, self.children[1])
        elif condition is FAILURE:
            if not three:
                self.halt_children()
                return FAILURE
            halt_child(self.children[1])
            result = tick_child(self, self.children[2])
        else:
            raise self.fail("the condition (first child) was skipped; WhileDoElse needs it")
        if result is RUNNING:
            return RUNNING
        self.halt_children()
        return result


def same_case(variable: str, case: str, enums: dict[str, int] | None = None) -> bool:
    """BT.CPP's ``CheckStringEquality``: equal text, or equal numbers / enum values."""
    if variable == case:
        return True
    numbers = []
    for text in (variable, case):
        if enums and text in enums:
            numbers.append(float(enums[text]))
            continue
        try:
            numbers.append(parse_double(text))
        except ValueError:
            return False
    return abs(numbers[0] - numbers[1]) <= _EPSILON


class Switch(BtControl):
    """``SwitchN``: ``N`` cases and a default child."""

    def __init__(self, name: str, children: list[Behaviour], cases: int) -> None:
        super().__init__(name, children)
        self.cases = cases
        self.running_child = -1

    def on_halt(self) -> None:
        self.running_child = -1

    def read(self, port: str) -> str | None:
        if port not in self.ports:
            return None
        try:
            return self.ports.text(port)
        except PolicyRuntimeError:
            return None  # no variable: BT.CPP jumps to the default

    def on_tick(self) -> BtStatus:
        match = self.cases
        variable = self.read("variable")
        if variable is not None:
            for index in range(self.cases):
                case = self.read(f"case_{index + 1}")
                if case is not None and same_case(variable, case, dict(self.context.enums)):
                    match = index
                    break
        if self.running_child not in (-1, match):
            halt_child(self.children[self.running_child])
        result = tick_child(self, self.children[match])
        if result is SKIPPED:
            self.running_child = -1
        elif result is RUNNING:
            self.running_child = match
        else:
            self.halt_children()
            self.running_child = -1
        return result


__all__ = [
    "IDLE",
    "Fallback",
    "IfThenElse",
    "Parallel",
    "ParallelAll",
    "ReactiveFallback",
    "ReactiveSequence",
    "Sequence",
    "SequenceWithMemory",
    "Switch",
    "WhileDoElse",
]
