"""Relaxation: which soft literals of a problem hold, and which are dropped and why.

A problem's solver holds its hard constraints; its soft parts hang on assumption literals
passed to :meth:`z3.Solver.check`: ``r<i>`` for relation ``i`` of the design, ``p<n>`` for the
presence of item ``n`` when objects may be left out, ``m<i>`` for relation ``i`` met with margin
(see :mod:`~.tolerances` and ``solving._prefer_margins``). :class:`Relaxation` finds a set
of them that holds together:

1. Check with every literal assumed. On unsat, drop the greatest-ranked literal of the unsat
   core (for relations: the lowest priority, the later one among equals) and check again.
2. Give each dropped literal another chance, most important first: it is kept if it holds with
   the kept ones; a relation may displace kept relations of lower priority that block it (they
   get their own chance later).

So a relation ends up dropped only when it conflicts with kept relations of equal or higher
priority (the reason names them: the unsat core, not necessarily minimal). Every check gets its
share of the time left (see :mod:`~.budget`). When Z3 gives up on a check (``unknown``), the
literals the last model met are kept and the others are added, most important first, in
batches that grow while they hold, while time is left (:meth:`Relaxation.grow`: the best
partial answer found so far, never less than the last model's); *urgent* literals (the
relations the task needs) are tried even after the deadline, within the grace.

**Z3 objects' lifetimes are behaviour** (see :mod:`~.budget`): a new model replaces the last
one at once, and an unsat core is read and freed in one comprehension.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import z3

from pytest_logicenv.errors import LayoutError
from pytest_logicenv.scenes.layout.decomposition import Problem
from pytest_logicenv.scenes.layout.state import LayoutState
from pytest_logicenv.scenes.scene_model import SpatialRelation

#: Why a relation was dropped when Z3 gave up before it could settle it.
OUT_OF_TIME = "not met in time (Z3 gave up within its share of the layout's budget)"


#: Records a literal dropped for good, with the kept ones that blocked it (None: out of time).
GiveUp = Callable[[str, Sequence[str] | None], None]


@dataclass(frozen=True)
class Failure:
    """No model: the hard constraints cannot hold (``unfit``) or Z3 gave up first (``time``)."""

    kind: str


class Relaxation:
    """One problem's solver, the literals assumed so far, and the last model.

    ``base`` are assumed in every check (the items kept present, the relations enforced);
    ``grace``: a check of the base alone places only what the task needs (it may run into
    the grace after the deadline, see :mod:`~.budget`)."""

    def __init__(
        self,
        state: LayoutState,
        problem: Problem,
        solver: z3.Solver,
        base: Sequence[str],
        grace: bool = False,
    ) -> None:
        self.state = state
        self.problem = problem
        self.solver = solver
        self.base = list(base)
        self.grace = grace
        self.model: z3.ModelRef = None
        self.model_active: list[str] = []
        #: Fixes, for the rest of the problem, what the last model placed of the base and the
        #: given literals (see :meth:`grow`); None: nothing is fixed.
        self.pin: Callable[[Sequence[str]], None] | None = None
        #: Called on each model found.
        self.on_model: Callable[[], None] | None = None

    # ------------------------------------------------------------------------- checking

    def check(
        self,
        names: Sequence[str],
        urgent: bool = False,
        off: Sequence[str] = (),
        whole: bool = False,
    ) -> Any:
        """Check with ``base`` and ``names`` assumed, and ``off`` assumed false; a sat model
        replaces the last one. The base alone (when it is what the task needs) and ``urgent``
        checks get the grace; a ``whole`` check, all the time left (see :mod:`~.budget`)."""
        literals = [z3.Bool(name, self.state.ctx) for name in (*self.base, *names)]
        literals += [z3.Not(z3.Bool(name, self.state.ctx)) for name in off]
        grace = urgent or (self.grace and not names)
        self.solver.set("timeout", self.state.clock.check_ms(grace, whole))
        result = self.solver.check(*literals)
        if result == z3.sat:
            self.model = self.solver.model()
            self.model_active = list(names)
            if self.on_model is not None:
                self.on_model()
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
        urgent: Callable[[str], bool] = lambda name: False,
    ) -> list[str] | Failure:
        """The literals of ``soft`` kept (see the module docstring), or why there is no model.
        ``urgent`` literals are tried past the deadline when Z3 gave up on the first checks."""
        active = list(soft)
        dropped: list[str] = []
        while True:
            result = self.check(active)
            if result == z3.sat:
                break
            if result == z3.unknown:
                return self.grow(soft, rank, give_up, urgent, base_tried=not soft)
            conflict = self.core(active)
            if not conflict:
                return Failure("unfit")
            victim = max(conflict, key=rank)
            active.remove(victim)
            dropped.append(victim)
        self._retry(active, dropped, rank, give_up, priority, urgent)
        return active

    def _retry(
        self,
        active: list[str],
        dropped: list[str],
        rank: Callable[[str], tuple[int, ...]],
        give_up: GiveUp,
        priority: Callable[[str], int] | None,
        urgent: Callable[[str], bool],
    ) -> None:
        """Give each dropped literal another chance, most important first; ``active`` grows
        by those kept (and may lose those they displace). The last model meets all of it.
        Past the deadline, only urgent ones get it."""
        queue = sorted(dropped, key=rank)
        while queue:
            name = queue.pop(0)
            while True:
                late = self.state.clock.expired() and not urgent(name)
                result = z3.unknown if late else self.check((*active, name), urgent(name))
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

    def grow(
        self,
        soft: Sequence[str],
        rank: Callable[[str], tuple[int, ...]],
        give_up: GiveUp,
        urgent: Callable[[str], bool] = lambda name: False,
        base_tried: bool = False,
    ) -> list[str] | Failure:
        """Z3 gave up: keep what the last model met (without one, the base alone must hold;
        ``base_tried``: with nothing else to assume, that was the check Z3 gave up on), then
        add the others, most important first, while time is left (urgent ones within the
        grace): a batch at a time, twice as many after each that holds and half as many after
        one that does not, down to one, which is given up. The others are assumed false
        meanwhile (an object left out is one less to place). With :attr:`pin`, what is kept
        stays where it is, so that a check places only the batch."""
        # Without a model, the base alone is the last chance of this attempt: all the time left.
        if self.model is None and (base_tried or self.check((), off=soft, whole=True) != z3.sat):
            return Failure("time")
        kept = [name for name in self.model_active if name in soft]
        if self.pin is not None:
            self.pin(kept)
        pending = sorted((n for n in soft if n not in kept), key=rank)
        size = 1
        while pending:
            if self.state.clock.expired():
                for name in [n for n in pending if not urgent(n)]:
                    give_up(name, None)
                pending, size = [n for n in pending if urgent(n)], 1
                if not pending:
                    break
            batch = pending[:size]
            off = [n for n in soft if n not in kept and n not in batch]
            result = self.check((*kept, *batch), urgent=any(map(urgent, batch)), off=off)
            if result == z3.sat:
                kept += batch
                if self.pin is not None:
                    self.pin(batch)
                pending, size = pending[len(batch) :], 2 * size
            elif size > 1:
                size //= 2
            else:
                give_up(batch[0], self.core(kept) if result == z3.unsat else None)
                pending = pending[1:]
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
        if self.state.clock.expired():
            return []
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
        urgent=lambda name: state.ranking.needs(relations[index(name)]),
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
