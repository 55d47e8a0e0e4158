"""The strategies that walk the Cartesian product of the paths: ``greedy`` and ``exhaustive``.

Both refuse products larger than :data:`MAX_PRODUCT`, naming the strategies that scale.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

from pytest_logicenv.errors import SelectionError
from pytest_logicenv.logic.trajectories.paths import Combo, Feasible, Paths

#: Strategies that walk the Cartesian product refuse products larger than this.
MAX_PRODUCT = 2_000_000

#: The path indices a combination holds, as ``(subtask, path)`` pairs.
_Constraints = frozenset[tuple[int, int]]


def greedy(paths: Paths, feasible: Feasible | None, notes: list[str]) -> list[Combo]:
    """Algorithm 1 of the paper over the Cartesian product, in lexicographic order: take
    trajectories whose paths are all new, keep partly new ones as candidates, then add the
    candidates that still bring a new path (its final *Update* step)."""
    size = math.prod(len(group) for group in paths)
    if size > MAX_PRODUCT:
        raise SelectionError(
            f"greedy scans the Cartesian product, here {size:,} combinations (limit "
            f"{MAX_PRODUCT:,}); use --strategy minimal or pairwise for plans this large"
        )
    chosen: list[Combo] = []
    candidates: list[tuple[Combo, _Constraints]] = []
    pool: set[tuple[int, int]] = set()
    for combo in itertools.product(*paths):
        if feasible is not None and not feasible(combo):
            continue
        constraints = frozenset((k, p.index) for k, p in enumerate(combo))
        if pool.isdisjoint(constraints):
            chosen.append(combo)  # prioritize: every constraint is new
            pool |= constraints
        elif not constraints <= pool:
            candidates.append((combo, constraints))  # partly new: keep as a candidate
    for combo, constraints in candidates:  # Update: take candidates that still add something
        if not constraints <= pool:
            chosen.append(combo)
            pool |= constraints
    return chosen


def exhaustive(paths: Paths, feasible: Feasible | None, notes: list[str]) -> list[Combo]:
    """The whole feasible product, up to :data:`MAX_PRODUCT` trajectories."""
    return list(iter_exhaustive(paths, feasible, limit=MAX_PRODUCT))


def iter_exhaustive(
    paths: Paths, feasible: Feasible | None = None, limit: int | None = None
) -> Iterator[Combo]:
    """The feasible part of the Cartesian product, lazily, in lexicographic order."""
    size = math.prod(len(group) for group in paths)
    if limit is not None and size > limit:
        raise SelectionError(
            f"exhaustive would make {size:,} trajectories (limit {limit:,}); "
            "use --strategy minimal or pairwise"
        )
    for combo in itertools.product(*paths):
        if feasible is None or feasible(combo):
            yield combo
