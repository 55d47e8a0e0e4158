"""The layout's time budget, and the Z3 solvers that share it.

Every problem of one layout (the openings, then each room's floor, surfaces and walls) draws
on one :class:`Clock` set to the layout's ``timeout_ms``. No check has a fixed limit: each gets
:data:`CHECK_SHARE` of what is left (of the budget, or of the part of it one attempt was given,
see :meth:`Clock.part`), so that when Z3 gives up there is time left for a smaller question, and
the last model found so far is kept (see :mod:`~.relaxation`). Once the budget is spent, a
problem places only what its task needs (the doors and windows, the task objects, what holds
them and the agent's start) and leaves out the rest; those checks, and only those, may run
:data:`GRACE_MS` past the deadline, all of them together. Only when even that fails does
:func:`timeout_error` say what it was placing, how long it took and what stopped it.

So a layout returns within ``timeout_ms`` plus the grace (when what the task needs was not
placed by the deadline) plus the time to encode the problem under way and to check the
agent's reach on the result.

Z3 objects' lifetimes are behaviour: Z3 reuses freed terms' ids, and its search depends on
them, so the order in which solvers, models and unsat cores are freed is kept as it is
(``docs/explanation/layout.md``, "The time budget").

>>> clock = Clock(20_000)
>>> 0 < clock.check_ms() <= 20_000 * CHECK_SHARE
True
>>> with clock.part(0.5):
...     clock.check_ms() <= 10_000 * CHECK_SHARE
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import z3

from pytest_logicenv.errors import LayoutTimeout
from pytest_logicenv.scenes.scene_model import SceneSpec

#: How long (milliseconds) the checks that place only what the task needs may run past the
#: deadline, all of them together: a task's objects are placed even when the time ran out on
#: the rest.
GRACE_MS = 1000
#: The share of what is left of the budget one check may take, so that when it gives up the
#: rest is left for a smaller question.
CHECK_SHARE = 0.5


class Clock:
    """The layout's time budget, shared by all its problems."""

    def __init__(self, timeout_ms: int) -> None:
        self.timeout_ms = timeout_ms
        self.started = time.monotonic()
        self.deadline = self.started + timeout_ms / 1000
        #: Earlier deadlines of the parts of the budget being spent (innermost last).
        self._parts: list[float] = []

    def _until(self) -> float:
        return min([self.deadline, *self._parts])

    def remaining_ms(self) -> int:
        """What is left of the budget (of the current part of it), at least 1 ms."""
        return max(1, int((self._until() - time.monotonic()) * 1000))

    def check_ms(self, grace: bool = False, whole: bool = False) -> int:
        """The limit of one check: :data:`CHECK_SHARE` of what is left; ``whole``: all of it
        (the last check of an attempt); with ``grace`` (the check places only what the task
        needs), all that is left and the grace after it."""
        if grace:
            left = self.deadline + GRACE_MS / 1000 - time.monotonic()
            return max(1, int(left * 1000))
        return max(1, int(self.remaining_ms() * (1.0 if whole else CHECK_SHARE)))

    def expired(self) -> bool:
        """Whether the budget (the current part of it) is spent."""
        return time.monotonic() >= self._until()

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    @contextmanager
    def part(self, share: float) -> Iterator[None]:
        """Spend at most ``share`` of what is left inside the block (until :meth:`lift`): an
        attempt with another to follow when it fails leaves the rest to that one."""
        now = time.monotonic()
        self._parts.append(now + share * max(0.0, self._until() - now))
        try:
            yield
        finally:
            self._parts.pop()

    def lift(self) -> None:
        """End the current part's own limit: what it was kept for is not needed any more."""
        if self._parts:
            self._parts[-1] = math.inf


def new_solver(ctx: z3.Context, seed: int, clock: Clock) -> z3.Solver:
    """A solver seeded with ``seed`` that gives up when the budget runs out."""
    solver = z3.SimpleSolver(ctx=ctx)
    solver.set("random_seed", seed % (2**32))
    solver.set("timeout", clock.check_ms(grace=True))
    return solver


def model_int(model: z3.ModelRef, name: str) -> int:
    """The value of integer variable ``name`` (any value if the model leaves it free)."""
    return int(model.eval(z3.Int(name, model.ctx), model_completion=True).as_long())


def timeout_error(
    spec: SceneSpec, what: str, names: Iterable[str], clock: Clock, room: str = ""
) -> LayoutTimeout:
    """The error for a problem (placing ``what``) that ran out of time before it placed what
    the task needs (``names``: task objects, what holds them, doors and windows); ``room``
    says how much of its floor they take, when it is a floor."""
    listed = ", ".join(names) or "none"
    return LayoutTimeout(
        f"scene design {spec.id!r}: the layout gave up after {clock.elapsed_s():.1f} s placing "
        f"{what}: its budget (timeout_ms={clock.timeout_ms}, and {GRACE_MS} ms of grace for "
        f"what the task needs) ran out before Z3 found where {listed} go{room}. Give them "
        "more room (a larger room, smaller objects, or some of them in another room or "
        "receptacle); a larger timeout_ms gives Z3 longer to look"
    )
