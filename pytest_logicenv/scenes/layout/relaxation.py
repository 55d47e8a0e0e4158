"""Relaxation: which soft literals of a problem hold, and which are dropped and why.

A problem's solver holds its hard constraints; its soft parts hang on assumption literals
passed to :meth:`z3.Solver.check`: ``r<i>`` for relation ``i`` of the design, ``p<n>`` for the
presence of item ``n`` when objects may be left out, ``m<i>`` for relation ``i`` met with margin
(see :mod:`~.margins`). :class:`Relaxation` finds a set of them that holds together:

1. Check with every literal assumed. On unsat, drop the greatest-ranked literal of the unsat
   core (for relations: the lowest priority, the later one among equals) and check again.
2. Give each dropped literal another chance, most important first: it is kept if it holds with
   the kept ones; a relation may displace kept relations of lower priority that block it (they
   get their own chance later).

So a relation ends up dropped only when it conflicts with kept relations of equal or higher
priority (the reason names them: the unsat core, not necessarily minimal). Every check gets the
time left of the layout (at most :data:`~.budget.CHECK_MS`); when Z3 gives up (``unknown``),
relations keep what the last model met, and objects drop the least important one still
assumed.

**Z3 objects' lifetimes are behaviour** (see :mod:`~.budget`): a new model replaces the last
one at once, and an unsat core is read and freed in one comprehension.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import z3

from pytest_logicenv.errors import LayoutError
from pytest_logicenv.scenes.layout.budget import CHECK_MS
from pytest_logicenv.scenes.layout.decomposition import Problem
from pytest_logicenv.scenes.layout.state import LayoutState
from pytest_logicenv.scenes.model import SpatialRelation

#: Why a relation was dropped when Z3 gave up before it could settle it.
OUT_OF_TIME = "not met in time (the layout's budget, or a check's)"


#: Records a literal dropped for good, with the kept ones that blocked it (None: out of time).
GiveUp = Callable[[str, Sequence[str] | None], None]


@dataclass(frozen=True)
class Failure:
    """No model: the hard constraints cannot hold (``unfit``) or Z3 gave up first (``time``)."""

    kind: str


class Relaxation:
    """One problem's solver, the literals assumed so far, and the last model.

    ``base`` are assumed in every check (the items kept present); ``rank`` orders the soft
    literals (greatest first to drop); ``displace`` lets a dropped literal push out kept ones
    of lower ``priority``; ``give_up`` records a literal dropped for good, with the names of
    kept literals that blocked it."""

    def __init__(
        self,
        state: LayoutState,
        problem: Problem,
        solver: z3.Solver,
        base: Sequence[str],
    ) -> None:
        self.state = state
        self.problem = problem
        self.solver = solver
        self.base = list(base)
        self.model: z3.ModelRef = None
        self.model_active: list[str] = []

    # ------------------------------------------------------------------------- checking

    def check(self, names: Sequence[str]) -> Any:
        """Check with ``base`` and ``names`` assumed; a sat model replaces the last one. The
        hard constraints alone get at least :data:`~.budget.GRACE_MS`."""
        literals = [z3.Bool(name, self.state.ctx) for name in (*self.base, *names)]
        budget = self.state.clock.remaining_ms(grace=not literals)
        self.solver.set("timeout", min(budget, CHECK_MS))
        result = self.solver.check(*literals)
        if result == z3.sat:
            self.model = self.solver.model()
            self.model_active = list(names)
        return result

    def core(self, names: Sequence[str]) -> list[str]:
        """The literals of ``names`` in the last unsat core."""
        wanted = set(names)
        # Read as the comprehension goes, and freed with it (see :mod:`~.budget`).
        return [str(lit) for lit in self.solver.unsat_core() if str(lit) in wanted]

    # ------------------------------------------------------------------------- relaxing

    def relax(
        self,
        soft: Sequence[str],
        rank: Callable[[str], tuple[int, ...]],
        give_up: GiveUp,
        *,
        priority: Callable[[str], int] | None = None,
        on_unknown: str = "stop",
    ) -> list[str] | Failure:
        """The literals of ``soft`` kept (see the module docstring), or why there is no model.

        ``on_unknown``: ``"stop"`` keeps what the last model met and gives up the rest;
        ``"drop"`` drops the greatest-ranked literal still assumed and goes on."""
        active = list(soft)
        dropped: list[str] = []
        while True:
            result = self.check(active)
            if result == z3.sat:
                break
            if result == z3.unknown and (on_unknown == "stop" or not active):
                return self._out_of_time(soft, give_up)
            conflict = self.core(active) if result == z3.unsat else active
            if not conflict:
                return Failure("unfit")
            victim = max(conflict, key=rank)
            active.remove(victim)
            dropped.append(victim)
        self._retry(active, dropped, rank, give_up, priority)
        return active

    def _retry(
        self,
        active: list[str],
        dropped: list[str],
        rank: Callable[[str], tuple[int, ...]],
        give_up: GiveUp,
        priority: Callable[[str], int] | None,
    ) -> None:
        """Give each dropped literal another chance, most important first; ``active`` grows
        by those kept (and may lose those they displace). The last model meets all of it."""
        queue = sorted(dropped, key=rank)
        while queue:
            name = queue.pop(0)
            while True:
                result = self.check((*active, name))
                if result == z3.sat:
                    active.append(name)
                    break
                if result == z3.unknown:
                    give_up(name, None)
                    break
                blockers = self.core(active)
                lower = [
                    i for i in blockers if priority is not None and priority(i) < priority(name)
                ]
                if not lower:
                    give_up(name, blockers)
                    break
                victim = max(lower, key=rank)
                active.remove(victim)
                queue.append(victim)
                queue.sort(key=rank)

    def _out_of_time(self, soft: Sequence[str], give_up: GiveUp) -> list[str] | Failure:
        """Keep what the last model met; without one, keep none (if what is assumed holds)."""
        if self.model is None and self.check(()) != z3.sat:
            return Failure("time")
        kept = [name for name in self.model_active if name in soft]
        for name in soft:
            if name not in kept:
                give_up(name, None)
        return kept

    def prefer(
        self,
        soft: Sequence[str],
        rank: Callable[[str], tuple[int, ...]],
        rounds: int,
        effort: int,
    ) -> list[str]:
        """Keep as many of ``soft`` as hold with what the last model met, in at most
        ``rounds`` checks of at most ``effort`` Z3 resource units each (a count, so the
        answer does not depend on the machine's speed): on unsat, drop the greatest-ranked
        literal of the core, and in the last two rounds the whole core (preferences: cheap,
        not maximal). The last model stays when none is found."""
        held = list(self.model_active)
        active = list(soft)
        self.solver.set("rlimit", effort)
        try:
            for round_ in range(rounds):
                if not active:
                    break
                result = self.check((*held, *active))
                if result == z3.sat:
                    return active
                core = self.core(active) if result == z3.unsat else []
                if not core:
                    break
                drop = core if round_ >= rounds - 2 else [max(core, key=rank)]
                active = [name for name in active if name not in drop]
            return []
        finally:
            self.solver.set("rlimit", 0)


# --------------------------------------------------------------------------- relations


def relax_relations(
    relaxation: Relaxation, relations: Mapping[int, SpatialRelation]
) -> list[int] | Failure:
    """Keep as many of ``relations`` (by index) as hold together, most important first; record
    the kept and the dropped ones in the layout's state."""
    state, problem = relaxation.state, relaxation.problem

    def index(name: str) -> int:
        return int(name[1:])

    def rank(name: str) -> tuple[int, ...]:
        return -relations[index(name)].priority, index(name)

    def give_up(name: str, blockers: Sequence[str] | None) -> None:
        # The core (not necessarily minimal) with the hard constraints is unsat.
        if blockers is None:
            why = OUT_OF_TIME
        elif blockers:
            names = ", ".join(str(relations[index(i)]) for i in sorted(blockers, key=index))
            why = f"cannot hold together with {names}"
        else:
            why = "cannot hold with these sizes, supports, doors and walls"
        drop_relation(state, index(name), relations[index(name)], f"{why} ({problem.label})")

    kept = relaxation.relax(
        [f"r{i}" for i in relations],
        rank,
        give_up,
        priority=lambda name: relations[index(name)].priority,
    )
    if isinstance(kept, Failure):
        return kept
    for name in kept:
        state.kept[index(name)] = relations[index(name)]
    return [index(name) for name in kept]


def drop_relation(state: LayoutState, index: int, relation: SpatialRelation, why: str) -> None:
    """Record relation ``index`` as dropped, with the reason, in the relation and the notes."""
    reason = f"dropped: {why}" + (f"; was: {relation.reason}" if relation.reason else "")
    state.dropped[index] = replace(relation, reason=reason)
    state.kept.pop(index, None)
    state.notes.append(f"dropped {relation} (priority {relation.priority}): {why}")


def unfit_error(state: LayoutState, problem: Problem, ids: Sequence[str]) -> LayoutError:
    """The error for a problem whose essential items (``ids``: task objects, what holds them,
    the agent's start) cannot be placed even with everything else left out."""
    essential = [i for i in ids if not state.ranking.droppable(i)]
    sizes = ", ".join(
        f"{i} ({state.items[i].obj.size[0]:.2f} x {state.items[i].obj.size[2]:.2f} m)"
        if state.items[i].kind != "agent"
        else f"the agent's start ({state.items[i].obj.size[0]:.2f} m square)"
        for i in essential
    )
    return LayoutError(
        f"scene design {state.spec.id!r}: cannot place {problem.label} without collisions: "
        f"{sizes}: {problem.advice}"
    )
