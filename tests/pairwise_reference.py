"""IPOG's horizontal growth as ``pairwise.py`` had it before issue 26 (every value tried
against every cell of a row), kept to check the faster one gives the same rows."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.logic.trajectories import pairwise


def reference_ipog(counts: Sequence[int]) -> list[tuple[int, ...]]:
    order = sorted(range(len(counts)), key=lambda k: -counts[k])
    sizes = [counts[k] for k in order]
    rows: list[list[int | None]] = [[a, b] for a in range(sizes[0]) for b in range(sizes[1])]
    for p in range(2, len(sizes)):
        missing = _grow_horizontally(rows, sizes, p)
        pairwise._grow_vertically(rows, p, missing)
    return pairwise._in_original_order(rows, order, sizes)


def _grow_horizontally(
    rows: list[list[int | None]], sizes: Sequence[int], p: int
) -> set[tuple[int, int, int]]:
    missing = {(q, vq, vp) for q in range(p) for vq in range(sizes[q]) for vp in range(sizes[p])}
    for r, row in enumerate(rows):
        best = r if r < sizes[p] else _best_new_value(row, p, sizes[p], missing)
        row.append(best)
        missing -= {(q, row[q], best) for q in range(p) if row[q] is not None}
    return missing


def _best_new_value(
    row: list[int | None], p: int, size: int, missing: set[tuple[int, int, int]]
) -> int:
    return pairwise._first_best(
        size, lambda vp: sum((q, row[q], vp) in missing for q in range(p) if row[q] is not None)
    )
