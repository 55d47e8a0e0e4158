"""Choosing trajectories: :func:`select` runs a strategy from :data:`STRATEGY_REGISTRY`.

A strategy is a function ``(paths, feasible, notes) -> combinations``: ``paths`` are every
subtask's decision paths, ``feasible`` (or ``None``) excludes combinations that cannot exist,
``notes`` collects remarks for the report. :func:`select` checks that the choice covers every
path and gives the trajectories their ids. Adding a strategy is one function (in a module of
its own) plus one line in :data:`STRATEGY_REGISTRY`; the ``--strategy`` option and the
``select=`` marker argument accept it from then on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from pytest_logicenv.errors import SelectionError
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories.minimal import minimal
from pytest_logicenv.logic.trajectories.pairwise import pairwise
from pytest_logicenv.logic.trajectories.paths import (
    Combo,
    DecisionPath,
    Feasible,
    Paths,
    Trajectory,
    make_trajectory,
    plan_paths,
)
from pytest_logicenv.logic.trajectories.product import exhaustive, greedy

#: A selection strategy: ``(paths, feasible or None, notes to add to) -> combinations``.
Strategy = Callable[[Paths, Feasible | None, list[str]], list[Combo]]

#: Every strategy by name; the first is the default. A new strategy is one line here.
STRATEGY_REGISTRY: Mapping[str, Strategy] = {
    "minimal": minimal,
    "greedy": greedy,
    "pairwise": pairwise,
    "exhaustive": exhaustive,
}
STRATEGIES: tuple[str, ...] = tuple(STRATEGY_REGISTRY)


@dataclass(frozen=True)
class Selection:
    """The trajectories a strategy chose, with what a report needs to judge them."""

    strategy: str
    trajectories: tuple[Trajectory, ...]
    total_paths: int
    combinations: int
    notes: tuple[str, ...] = field(default=())


def select(plan: Plan, strategy: str = "minimal", feasible: Feasible | None = None) -> Selection:
    """Choose trajectories for ``plan`` with ``strategy``.

    ``feasible`` excludes combinations that cannot exist; the rest are covered again. A path
    that no feasible trajectory can hold is a :class:`SelectionError` that names it.
    """
    choose = _strategy(strategy)
    paths = plan_paths(plan)
    if not paths:
        raise SelectionError("the plan has no subtasks, so there is nothing to select")
    notes: list[str] = []
    chosen = choose(paths, feasible, notes)
    _require_full_coverage(paths, chosen)
    return Selection(
        strategy=strategy,
        trajectories=tuple(make_trajectory(c) for c in chosen),
        total_paths=sum(len(p) for p in paths),
        combinations=math.prod(len(p) for p in paths),
        notes=tuple(notes),
    )


def _strategy(name: str) -> Strategy:
    if name not in STRATEGY_REGISTRY:
        raise SelectionError(f"unknown strategy {name!r}; choose one of {', '.join(STRATEGIES)}")
    return STRATEGY_REGISTRY[name]


def _require_full_coverage(paths: Paths, chosen: Sequence[Sequence[DecisionPath]]) -> None:
    covered = {(p.subtask, p.index) for combo in chosen for p in combo}
    missing = [p for group in paths for p in group if (p.subtask, p.index) not in covered]
    if missing:
        listed = "; ".join(p.key for p in missing)
        raise SelectionError(
            f"no feasible trajectory holds {len(missing)} decision path(s): {listed}. "
            "Either the feasibility rule excludes every combination with them, or the plan "
            "asks for a situation that cannot exist: fix the plan or the rule."
        )
