"""The layout's time budget, and the Z3 solvers that share it.

Every problem of one layout (the openings, then each room's floor, surfaces and walls) gets a
solver set to the time left of the layout's ``timeout_ms``. When Z3 gives up, the layout keeps
what it placed so far and leaves out the rest; but the hard constraints alone (the doors and
windows, the task objects and the agent's start with everything else left out) always get at
least :data:`GRACE_MS`, so that a layout out of time still places what its task needs. No
single check of a problem gets more than :data:`CHECK_MS`. Only when even that fails does
:func:`timeout_error` say what it was placing.

**Z3 objects' lifetimes are behaviour.** One Z3 context serves all the problems of a layout;
Z3 reuses the ids of freed terms for new ones, and its search depends on the ids. So the order
in which the layout creates and frees solvers, models and unsat cores decides which of the
equally good answers a large problem gets (measured: freeing a model and an unsat core a few
calls later moved six objects of a 60-object design). The code keeps the order of the single
module it was split from: a solver is freed before its last model, a new model frees the one
it replaces at once, an unsat core is freed as soon as it is read.

>>> clock = Clock(20_000)
>>> 0 < clock.remaining_ms() <= 20_000
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import z3

from pytest_logicenv.errors import LayoutTimeout
from pytest_logicenv.scenes.model import SceneSpec

#: The least time (milliseconds) a check of the hard constraints alone gets, even past the
#: deadline: what a task needs is placed even when the time ran out on the rest.
GRACE_MS = 1000
#: The most time (milliseconds) one check of a problem gets, so that no single question eats
#: the layout's budget (measured: the longest check of the layout benchmarks took 0.8 s).
CHECK_MS = 5000


class Clock:
    """The layout's time budget, shared by all its problems."""

    def __init__(self, timeout_ms: int) -> None:
        self.timeout_ms = timeout_ms
        self.deadline = time.monotonic() + timeout_ms / 1000

    def remaining_ms(self, grace: bool = False) -> int:
        """What is left of the budget (at least :data:`GRACE_MS` with ``grace``)."""
        left = int((self.deadline - time.monotonic()) * 1000)
        return max(GRACE_MS if grace else 1, left)

    def expired(self) -> bool:
        return time.monotonic() >= self.deadline


def new_solver(ctx: z3.Context, seed: int, clock: Clock) -> z3.Solver:
    """A solver seeded with ``seed`` that gives up when the budget runs out."""
    solver = z3.SimpleSolver(ctx=ctx)
    solver.set("random_seed", seed % (2**32))
    solver.set("timeout", clock.remaining_ms(grace=True))
    return solver


def model_int(model: z3.ModelRef, name: str) -> int:
    """The value of integer variable ``name`` (any value if the model leaves it free)."""
    return int(model.eval(z3.Int(name, model.ctx), model_completion=True).as_long())


def timeout_error(spec: SceneSpec, what: str, names: Iterable[str], clock: Clock) -> LayoutTimeout:
    """The error for a problem (placing ``what``) that ran out of time before it placed what
    the task needs (``names``: task objects, what holds them, doors and windows)."""
    return LayoutTimeout(
        f"scene design {spec.id!r}: layout timed out after {clock.timeout_ms} ms placing {what} "
        f"before it placed what the task needs ({', '.join(names) or 'none'}); raise "
        "timeout_ms, or split the room's objects over more rooms or receptacles"
    )
