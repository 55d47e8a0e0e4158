"""The ``minimal`` strategy: every path covered by as few trajectories as can be.

A trajectory holds one path per subtask, so the subtask with the most paths needs that many
trajectories; ``minimal`` uses exactly that many when every combination is feasible, walking
the path lists side by side without ever building the Cartesian product.
"""

from __future__ import annotations

from pytest_logicenv.logic.trajectories.paths import Combo, Feasible, Paths
from pytest_logicenv.logic.trajectories.search import Preference, search


def minimal(paths: Paths, feasible: Feasible | None, notes: list[str]) -> list[Combo]:
    """``max_k paths(k)`` trajectories side by side; with a feasibility rule, one search per
    path still uncovered, preferring paths not yet covered."""
    if feasible is None:
        return _side_by_side(paths)
    return _cover_feasibly(paths, feasible)


def _side_by_side(paths: Paths) -> list[Combo]:
    """Trajectory ``i`` takes path ``i`` of each subtask, cycling the shorter lists."""
    counts = [len(group) for group in paths]
    return [
        tuple(group[i % n] for group, n in zip(paths, counts, strict=True))
        for i in range(max(counts))
    ]


def _cover_feasibly(paths: Paths, feasible: Feasible) -> list[Combo]:
    counts = [len(group) for group in paths]
    uncovered = [set(range(n)) for n in counts]
    chosen: list[Combo] = []
    unreachable: set[tuple[int, int]] = set()
    while (target := _first_uncovered(counts, uncovered, unreachable)) is not None:
        preference = _prefer_uncovered(counts, uncovered, start=len(chosen))
        combo = search(paths, {target[0]: target[1]}, preference, feasible)
        if combo is None:
            unreachable.add(target)
            continue
        chosen.append(combo)
        for k, path in enumerate(combo):
            uncovered[k].discard(path.index)
    return chosen


def _first_uncovered(
    counts: list[int], uncovered: list[set[int]], unreachable: set[tuple[int, int]]
) -> tuple[int, int] | None:
    """The first ``(subtask, path)`` still to cover and not yet found impossible."""
    return next(
        (
            (k, j)
            for k, n in enumerate(counts)
            for j in range(n)
            if j in uncovered[k] and (k, j) not in unreachable
        ),
        None,
    )


def _prefer_uncovered(counts: list[int], uncovered: list[set[int]], start: int) -> Preference:
    """Paths not yet covered first, each group rotated by ``start`` so that successive
    trajectories spread over the paths."""

    def preference(k: int) -> list[int]:
        rotation = [(start + r) % counts[k] for r in range(counts[k])]
        return sorted(rotation, key=lambda index: index not in uncovered[k])

    return preference
