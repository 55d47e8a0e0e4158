"""A pairwise covering array by In-Parameter-Order growth (Lei and Tai), deterministic.

Parameters are added largest domain first; each is grown horizontally (a value per existing
row, the first that covers the most new pairs) and then vertically (rows for the pairs still
missing, filling don't-care cells before adding rows).

The missing pairs of the parameter being added are bit sets, one per value ``v`` of it: bit
``q * stride + a`` of ``missing[v]`` is the pair (parameter ``q`` = ``a``, new parameter = ``v``).
A row's cells are a mask in the same layout, so a value's gain for a row is one ``&`` and a
bit count, whatever the number of parameters, and covering its pairs is one ``&= ~``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

#: A row being grown: a value per parameter so far, ``None`` for a don't-care cell.
Row = list[int | None]


@dataclass
class _Grid:
    """The rows so far, each with its mask and its count of don't-care cells."""

    stride: int
    rows: list[Row] = field(default_factory=list)
    masks: list[int] = field(default_factory=list)
    holes: list[int] = field(default_factory=list)

    def add(self, row: Row) -> None:
        self.rows.append(row)
        self.masks.append(sum(_bit(v, q, self.stride) for q, v in enumerate(row) if v is not None))
        self.holes.append(row.count(None))

    def fill(self, r: int, q: int, value: int) -> None:
        self.rows[r][q] = value
        self.masks[r] |= _bit(value, q, self.stride)
        self.holes[r] -= 1


def ipog(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """Rows covering every pair of values of two parameters, ``counts[k]`` values for
    parameter ``k`` (at least two parameters), in the parameters' own order."""
    order = sorted(range(len(counts)), key=lambda k: -counts[k])
    sizes = [counts[k] for k in order]
    grid = _Grid(max(sizes))
    for a in range(sizes[0]):
        for b in range(sizes[1]):
            grid.add([a, b])
    done = _column(sizes[0], 0, grid.stride) | _column(sizes[1], 1, grid.stride)
    for p in range(2, len(sizes)):
        missing = _grow_horizontally(grid, sizes[p], p, done)
        _grow_vertically(grid, p, _missing_pairs(missing, grid.stride))
        done |= _column(sizes[p], p, grid.stride)
    return _in_original_order(grid.rows, order, sizes)


def _bit(value: int, q: int, stride: int) -> int:
    return 1 << (q * stride + value)


def _column(size: int, q: int, stride: int) -> int:
    """Every value of parameter ``q``, as bits."""
    return ((1 << size) - 1) << (q * stride)


def _grow_horizontally(grid: _Grid, size: int, p: int, done: int) -> list[int]:
    """Give each row a value of parameter ``p``; return the pairs still missing, by value."""
    missing = [done] * size
    column = _bit(0, p, grid.stride)
    for r, row in enumerate(grid.rows):
        mask = grid.masks[r]
        # The first rows take each value once, as IPOG prescribes; ties go to the first value.
        if r < size:
            best = r
        else:
            gains = [(m & mask).bit_count() for m in missing]
            best = gains.index(max(gains))
        missing[best] &= ~mask
        row.append(best)
        grid.masks[r] = mask | (column << best)
    return missing


def _missing_pairs(missing: list[int], stride: int) -> list[tuple[int, int, int]]:
    """The ``(q, value of q, value of p)`` pairs the bit sets hold, sorted."""
    pairs = []
    for vp, bits in enumerate(missing):
        while bits:
            low = bits & -bits
            index = low.bit_length() - 1
            pairs.append((index // stride, index % stride, vp))
            bits ^= low
    pairs.sort()
    return pairs


def _grow_vertically(grid: _Grid, p: int, pairs: list[tuple[int, int, int]]) -> None:
    """Cover each pair in the first row with its value of ``p`` and a don't-care cell at its
    ``q``, or in a new row. Only rows with don't-care cells are looked at, by value of ``p``."""
    open_rows: dict[int, list[int]] = {}
    for r, holes in enumerate(grid.holes):
        value = grid.rows[r][p]
        if holes and value is not None:
            open_rows.setdefault(value, []).append(r)
    for q, vq, vp in pairs:
        found = next((r for r in open_rows.get(vp, ()) if grid.rows[r][q] is None), None)
        if found is not None:
            grid.fill(found, q, vq)
            continue
        fresh: Row = [None] * (p + 1)
        fresh[q], fresh[p] = vq, vp
        open_rows.setdefault(vp, []).append(len(grid.rows))
        grid.add(fresh)


def _in_original_order(
    rows: list[Row], order: Sequence[int], sizes: Sequence[int]
) -> list[tuple[int, ...]]:
    """Fill the don't-care cells, put the parameters back in plan order, drop repeated rows."""
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
