"""IPOG as ``pairwise.py`` had it before issue 26 (every value tried against every cell of a
row, pairs kept as a set of tuples, every row scanned for a don't-care cell), whole and on its
own, kept to check that the bit-set version (``logic/trajectories/ipog.py``) gives the same
rows."""

from __future__ import annotations

from collections.abc import Sequence


def reference_ipog(counts: Sequence[int]) -> list[tuple[int, ...]]:
    order = sorted(range(len(counts)), key=lambda k: -counts[k])
    sizes = [counts[k] for k in order]
    rows: list[list[int | None]] = [[a, b] for a in range(sizes[0]) for b in range(sizes[1])]
    for p in range(2, len(sizes)):
        missing = _grow_horizontally(rows, sizes, p)
        _grow_vertically(rows, p, missing)
    return _in_original_order(rows, order, sizes)


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
    best, best_gain = 0, -1
    for vp in range(size):
        gain = sum((q, row[q], vp) in missing for q in range(p) if row[q] is not None)
        if gain > best_gain:
            best, best_gain = vp, gain
    return best


def _grow_vertically(
    rows: list[list[int | None]], p: int, missing: set[tuple[int, int, int]]
) -> None:
    for q, vq, vp in sorted(missing):
        for row in rows:
            if row[p] == vp and row[q] is None:
                row[q] = vq
                break
        else:
            fresh: list[int | None] = [None] * (p + 1)
            fresh[q], fresh[p] = vq, vp
            rows.append(fresh)


def _in_original_order(
    rows: list[list[int | None]], order: Sequence[int], sizes: Sequence[int]
) -> list[tuple[int, ...]]:
    result: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for r, row in enumerate(rows):
        filled = [v if v is not None else r % sizes[q] for q, v in enumerate(row)]
        original = [0] * len(order)
        for position, k in enumerate(order):
            original[k] = filled[position]
        key = tuple(original)
        if key not in seen:
            seen.add(key)
            result.append(key)
    return result
