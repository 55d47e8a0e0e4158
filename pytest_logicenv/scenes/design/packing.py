"""Surface packing: whether things fit on or in what holds them, side by side.

The geometric tests the designer applies before any layout: conservative, so that what passes
here the layout can place (``assets.settle_supports`` makes every support pass them).

>>> packs((0.6, 0.9, 0.6), [(0.3, 0.2, 0.3), (0.25, 0.1, 0.25)])
True
>>> packs((0.6, 0.9, 0.6), [(0.44, 0.3, 0.40), (0.22, 0.3, 0.45), (0.22, 0.1, 0.22)])
False
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.scenes.catalog import Asset
from pytest_logicenv.scenes.scene_model import FINE_GRID, Vector

#: Space kept around each object on a surface when checking that things fit together (m).
PACKING_MARGIN = 0.02


def area(asset: Asset) -> float:
    return asset.size[0] * asset.size[2]


def fits_in(child: Vector, holder: Vector) -> bool:
    """Whether a footprint fits inside another, turned by 90 degrees if need be."""
    small, large = sorted((child[0], child[2])), sorted((holder[0], holder[2]))
    return small[0] <= large[0] and small[1] <= large[1]


def packs(holder: Vector, children: Sequence[Vector]) -> bool:
    """Whether the footprints of ``children`` fit side by side on ``holder``'s top.

    A shelf (strip) packing, first fit by decreasing depth, with each footprint turned as
    suits it and the holder tried both ways round: conservative (the solver may find packings
    this misses) but never optimistic, so what passes here the layout can place. Footprints
    keep :data:`PACKING_MARGIN` from each other, not from the rim: each is grown by it, and so
    is the holder, less one step of the layout's positions on a receptacle: a row as wide as
    its holder fits only where some step lands it exactly.
    """
    grow = PACKING_MARGIN - FINE_GRID
    for width, depth in ((holder[0], holder[2]), (holder[2], holder[0])):
        if _shelf_pack(width + grow, depth + grow, children):
            return True
    return False


def _shelf_pack(width: float, depth: float, children: Sequence[Vector]) -> bool:
    items = []
    for child in children:
        a, b = child[0] + PACKING_MARGIN, child[2] + PACKING_MARGIN
        long, short = max(a, b), min(a, b)
        if long <= width:  # lie along the row: the row grows by the short side
            items.append((long, short))
        elif short <= width and long <= depth:
            items.append((short, long))
        else:
            return False
    rows: list[list[float]] = []  # [used width, row depth]
    for along, across in sorted(items, key=lambda item: -item[1]):
        for row in rows:
            if row[0] + along <= width:
                row[0] += along
                break
        else:
            rows.append([along, across])
    return sum(row[1] for row in rows) <= depth


def holds(holder: Vector, children: Sequence[Vector]) -> bool:
    """Whether ``holder``'s top or inside can take every child, side by side."""
    top = holder[0] * holder[2]
    return (
        all(fits_in(c, holder) for c in children)
        and sum(c[0] * c[2] for c in children) <= 0.8 * top
    )


def fits(assets: Sequence[Asset], holders: Sequence[Asset]) -> bool:
    """Whether the smallest of ``assets`` fits on the largest of ``holders``."""
    if not assets or not holders:
        return False
    return fits_in(min(assets, key=area).size, max(holders, key=area).size)


def small_on(assets: Sequence[Asset], holder: Vector) -> bool:
    """Whether some asset is small enough to be an ornament on ``holder`` (a third of it)."""
    return any(fits_in(a.size, holder) and area(a) <= holder[0] * holder[2] / 3 for a in assets)
