"""Relaxation: which soft relations of a problem are kept, and which are dropped and why.

Each soft relation has an assumption literal. The problem is solved with every one assumed;
on unsat, the lowest-priority relation of the unsat core is dropped (the later one among
equals) and the problem solved again. Then each dropped relation gets another chance, most
important first, and may displace kept relations of lower priority that block it (they get
their own chance later). So a relation ends up dropped only when it conflicts with kept
relations of equal or higher priority (the reason names them: the unsat core, not
necessarily minimal).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import z3

from pytest_logicenv.errors import LayoutError
from pytest_logicenv.scenes.layout.budget import timeout_error
from pytest_logicenv.scenes.layout.decomposition import Problem
from pytest_logicenv.scenes.layout.state import LayoutState
from pytest_logicenv.scenes.model import SpatialRelation


def relax(
    state: LayoutState,
    problem: Problem,
    solver: z3.Solver,
    literals: dict[int, Any],
    relations: dict[int, SpatialRelation],
) -> z3.ModelRef:
    """Solve with every soft relation (``literals``, by relation index) assumed, dropping the
    fewest and least important needed (see the module docstring); record the kept ones in
    ``state`` and return the model."""
    relaxation = _Relaxation(state, problem, solver, literals, relations)
    relaxation.drop_until_sat()
    relaxation.retry_dropped()
    for index in relaxation.active:
        state.kept[index] = relations[index]
    return relaxation.model


class _Relaxation:
    """One problem's relaxation: the relations assumed so far, and the last model.

    A new model replaces the last one at once, freeing it before the next check: Z3 reuses the
    ids of freed terms, and its choices follow them (see :mod:`~.budget`)."""

    def __init__(
        self,
        state: LayoutState,
        problem: Problem,
        solver: z3.Solver,
        literals: dict[int, Any],
        relations: dict[int, SpatialRelation],
    ) -> None:
        self.state = state
        self.problem = problem
        self.solver = solver
        self.literals = literals
        self.relations = relations
        self.by_name = {str(lit): index for index, lit in literals.items()}
        self.active = list(literals)
        self.dropped: list[int] = []
        self.model: z3.ModelRef = None

    def rank(self, index: int) -> tuple[int, int]:
        """Greatest for the relation to drop first: the lowest priority, the latest."""
        return -self.relations[index].priority, index

    def core(self) -> list[int]:
        """The relations of the last unsat core."""
        # Read as the comprehension goes, and freed with it (see :mod:`~.budget`).
        return [
            self.by_name[str(lit)] for lit in self.solver.unsat_core() if str(lit) in self.by_name
        ]

    def check(self, indices: Sequence[int]) -> Any:
        literals = [self.literals[i] for i in indices]
        return check_in_time(self.state, self.problem, self.solver, literals)

    def drop_until_sat(self) -> None:
        """Drop the greatest-ranked relation of the core until the rest hold together."""
        while self.check(self.active) != z3.sat:
            conflict = self.core()
            if not conflict:  # the hard constraints alone cannot be met
                raise unfit_error(self.state, self.problem)
            victim = max(conflict, key=self.rank)
            self.active.remove(victim)
            self.dropped.append(victim)
        self.model = self.solver.model()

    def retry_dropped(self) -> None:
        """Give each dropped relation another chance, most important first."""
        queue = sorted(self.dropped, key=self.rank)
        while queue:
            self._retry(queue.pop(0), queue.append)
            queue.sort(key=self.rank)

    def _retry(self, index: int, requeue: Callable[[int], None]) -> None:
        """Keep relation ``index`` if it holds with the kept ones, displacing (and requeueing)
        kept ones of lower priority that block it; else drop it for good."""
        priority = self.relations[index].priority
        while True:
            if self.check((*self.active, index)) == z3.sat:
                self.active.append(index)
                self.model = self.solver.model()
                return
            blockers = [i for i in self.core() if i != index]
            lower = [i for i in blockers if self.relations[i].priority < priority]
            if not lower:
                self._give_up(index, blockers)
                return
            victim = max(lower, key=self.rank)
            self.active.remove(victim)
            requeue(victim)

    def _give_up(self, index: int, blockers: Sequence[int]) -> None:
        # The core (not necessarily minimal) with the hard constraints is unsat.
        names = ", ".join(str(self.relations[i]) for i in sorted(blockers))
        why = (
            f"cannot hold together with {names}"
            if blockers
            else "cannot hold with these sizes, supports, doors and walls"
        )
        drop_relation(self.state, index, self.relations[index], f"{why} ({self.problem.label})")


def check_in_time(
    state: LayoutState, problem: Problem, solver: z3.Solver, assumptions: Sequence[Any]
) -> Any:
    """``solver.check`` within the time left; a timeout is an error naming the problem."""
    solver.set("timeout", state.clock.remaining_ms())
    result = solver.check(*assumptions)
    if result == z3.unknown:
        names = [i for i in problem.items if state.items[i].kind != "agent"]
        raise timeout_error(state.spec, problem.label, names, state.clock)
    return result


def drop_relation(state: LayoutState, index: int, relation: SpatialRelation, why: str) -> None:
    """Record relation ``index`` as dropped, with the reason, in the relation and the notes."""
    reason = f"dropped: {why}" + (f"; was: {relation.reason}" if relation.reason else "")
    state.dropped[index] = replace(relation, reason=reason)
    state.notes.append(f"dropped {relation} (priority {relation.priority}): {why}")


def unfit_error(state: LayoutState, problem: Problem) -> LayoutError:
    """The error for a problem whose hard constraints cannot be met."""
    sizes = ", ".join(
        f"{i} ({state.items[i].obj.size[0]:.2f} x {state.items[i].obj.size[2]:.2f} m)"
        for i in problem.items
        if state.items[i].kind != "agent"
    )
    return LayoutError(
        f"scene design {state.spec.id!r}: cannot place {problem.label} without collisions: "
        f"{sizes}: {problem.advice}"
    )
