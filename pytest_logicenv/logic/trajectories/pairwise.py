"""The ``pairwise`` strategy: every pair of paths from two subtasks meets in some trajectory.

This is combinatorial interaction testing, for policies whose subtasks interfere. The rows
come from a covering array over the subtasks' path counts: the smaller of IPOG's
(:mod:`.ipog`) and a row-by-row density greedy's. With a feasibility rule, infeasible rows
are dropped and each pair they alone covered is searched for again.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from pytest_logicenv.logic.trajectories.ipog import ipog
from pytest_logicenv.logic.trajectories.minimal import minimal
from pytest_logicenv.logic.trajectories.paths import Combo, Feasible, Paths
from pytest_logicenv.logic.trajectories.search import search

#: Above this many path pairs only IPOG runs: the row-by-row greedy costs far more time there.
GREEDY_PAIR_LIMIT = 5_000

#: A pair of paths from two subtasks: ``(subtask k1, path j1, subtask k2, path j2)``, k1 < k2.
Pair = tuple[int, int, int, int]


def pairwise(paths: Paths, feasible: Feasible | None, notes: list[str]) -> list[Combo]:
    """Rows of a pairwise covering array as trajectories; one subtask falls back to
    ``minimal``. A note counts the pairs no feasible trajectory holds."""
    if len(paths) < 2:
        return minimal(paths, feasible, notes)
    counts = [len(group) for group in paths]
    combos = [tuple(paths[k][j] for k, j in enumerate(row)) for row in _pairwise_rows(counts)]
    if feasible is None:
        return combos
    return _repair(paths, combos, feasible, notes)


def _repair(paths: Paths, combos: list[Combo], feasible: Feasible, notes: list[str]) -> list[Combo]:
    """Keep the feasible rows, then search a feasible trajectory for each pair still missing."""
    counts = [len(group) for group in paths]
    kept = [combo for combo in combos if feasible(combo)]
    covered = _pairs_of([[p.index for p in combo] for combo in kept])
    missing = sorted(_all_pairs(counts) - covered)
    excluded = 0
    while missing:
        (k1, j1, k2, j2) = missing[0]
        combo = search(paths, {k1: j1, k2: j2}, lambda k: range(counts[k]), feasible)
        if combo is None:
            excluded += 1
            missing.pop(0)
            continue
        kept.append(combo)
        covered |= _pairs_of([[p.index for p in combo]])
        missing = [pair for pair in missing if pair not in covered]
    if excluded:
        notes.append(f"{excluded} path pair(s) excluded: no feasible trajectory holds them")
    return kept


def _all_pairs(counts: Sequence[int]) -> set[Pair]:
    return {
        (k1, j1, k2, j2)
        for k1, k2 in itertools.combinations(range(len(counts)), 2)
        for j1 in range(counts[k1])
        for j2 in range(counts[k2])
    }


def _pair_count(counts: Sequence[int]) -> int:
    """How many pairs :func:`_all_pairs` holds, counted without making them."""
    total = sum(counts)
    return (total * total - sum(c * c for c in counts)) // 2


def _pairs_of(rows: Sequence[Sequence[int]]) -> set[Pair]:
    return {
        (k1, row[k1], k2, row[k2])
        for row in rows
        for k1, k2 in itertools.combinations(range(len(row)), 2)
    }


def _first_best(count: int, gain: Callable[[int], int]) -> int:
    """The first value of ``range(count)`` with the highest gain (0 when there is none)."""
    best, best_gain = 0, -1
    for value in range(count):
        value_gain = gain(value)
        if value_gain > best_gain:
            best, best_gain = value, value_gain
    return best


# --------------------------------------------------------------------------- covering arrays


def _pairwise_rows(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """The smaller of two deterministic covering arrays: IPOG, which grows parameter by
    parameter, and a row-by-row density greedy, which often does better on many parameters
    with few values (4^8: 34 rows against 46)."""
    rows = ipog(counts)
    if _pair_count(counts) <= GREEDY_PAIR_LIMIT:
        greedy = _density_rows(counts)
        if len(greedy) < len(rows):
            rows = greedy
    return rows


def _density_rows(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """Rows built one at a time until every pair is covered."""
    missing = _all_pairs(counts)
    rows: list[tuple[int, ...]] = []
    while missing:
        row = _density_row(counts, missing)
        rows.append(row)
        missing -= _pairs_of([row])
    return rows


def _density_row(counts: Sequence[int], missing: set[Pair]) -> tuple[int, ...]:
    """Start from the path that most pairs still lack, then give every other subtask the
    path that covers the most missing pairs with those chosen."""
    start = _most_wanted(missing)
    row = {start[0]: start[1]}
    for k in range(len(counts)):
        if k not in row:
            row[k] = _best_path(row, k, counts[k], missing)
    return tuple(row[k] for k in range(len(counts)))


def _best_path(row: dict[int, int], k: int, size: int, missing: set[Pair]) -> int:
    """The path of subtask ``k`` that covers the most missing pairs with those in ``row``."""
    return _first_best(
        size,
        lambda j: sum(((q, row[q], k, j) if q < k else (k, j, q, row[q])) in missing for q in row),
    )


def _most_wanted(missing: set[Pair]) -> tuple[int, int]:
    """The ``(subtask, path)`` in the most missing pairs (the least such, on a tie)."""
    tally: dict[tuple[int, int], int] = {}
    for k1, j1, k2, j2 in missing:
        tally[(k1, j1)] = tally.get((k1, j1), 0) + 1
        tally[(k2, j2)] = tally.get((k2, j2), 0) + 1
    return max(sorted(tally), key=lambda kv: tally[kv])
