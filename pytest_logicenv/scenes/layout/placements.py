"""Where one object stands in its room or on its support: ``edge``, ``corner``, ``middle`` and
``center`` as conditions on its pose (their meaning: the package docstring).

Each encoder gets one case of the object's rotation (its real geometry, and which way it faces
when that matters) and the thresholds to use (:mod:`~.tolerances`).
"""

from __future__ import annotations

from collections.abc import Callable

from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.poses import FRONTS, ItemGeometry
from pytest_logicenv.scenes.layout.room_grid import RoomSide
from pytest_logicenv.scenes.layout.smt import Cond, Length, all_of, any_of, below
from pytest_logicenv.scenes.layout.state import LayoutState, Poses
from pytest_logicenv.scenes.layout.tolerances import Tolerances


def placement(
    state: LayoutState, kind: str, subject: Item, poses: Poses, tol: Tolerances
) -> tuple[Cond, str]:
    """``kind`` for ``subject`` in some case of its rotation, and why it cannot hold when the
    condition is False."""
    encode = _PLACEMENTS[kind]
    cases = state.cases(subject, poses, kind in ("edge", "corner"))
    return (
        any_of(*(all_of(cond, encode(state, subject, geo, poses, tol)) for cond, geo in cases)),
        "it cannot hold where the object must stand",
    )


def _edge(state: LayoutState, item: Item, geo: ItemGeometry, poses: Poses, tol: Tolerances) -> Cond:
    if item.kind == "floor":
        return _edge_of_room(state, item, geo, tol)
    options = []
    for cond, parent in state.support_extent(item, poses):
        options.append(
            all_of(
                cond,
                any_of(
                    below(geo.x_lo, parent.x_lo, tol.edge),
                    below(parent.x_hi, geo.x_hi, tol.edge),
                    below(geo.z_lo, parent.z_lo, tol.edge),
                    below(parent.z_hi, geo.z_hi, tol.edge),
                ),
            )
        )
    return any_of(*options)


def _edge_of_room(state: LayoutState, item: Item, geo: ItemGeometry, tol: Tolerances) -> Cond:
    """Back to a side of the room, near it and within its extent."""
    return any_of(
        *(
            _by_side(side, geo, tol)
            for side in state.plans[item.room].sides
            if geo.front == FRONTS[side.rotation]
        )
    )


def _by_side(side: RoomSide, geo: ItemGeometry, tol: Tolerances) -> Cond:
    """The footprint is at most ``tol.edge`` from ``side`` and within its extent."""
    wall = Length(0, side.line)
    if side.axis == "x":
        low, high = geo.z_lo, geo.z_hi
        along = below(Length(0, side.lo), geo.x_lo), below(geo.x_hi, Length(0, side.hi))
    else:
        low, high = geo.x_lo, geo.x_hi
        along = below(Length(0, side.lo), geo.z_lo), below(geo.z_hi, Length(0, side.hi))
    gap = below(low, wall, tol.edge) if side.inward > 0 else below(wall, high, tol.edge)
    return all_of(gap, *along)


def _corner(
    state: LayoutState, item: Item, geo: ItemGeometry, poses: Poses, tol: Tolerances
) -> Cond:
    """By two sides of the room that meet at a corner, its back to one of them; on or in
    another object, by two perpendicular sides of its footprint."""
    if item.kind == "floor":
        plan = state.plans[item.room]
        return any_of(
            *(
                all_of(_by_side(back, geo, tol), _by_side(flank, geo, tol))
                for i, j in plan.corners
                for back, flank in ((plan.sides[i], plan.sides[j]), (plan.sides[j], plan.sides[i]))
                if geo.front == FRONTS[back.rotation]
            )
        )
    return any_of(
        *(
            all_of(
                cond,
                any_of(
                    below(geo.x_lo, parent.x_lo, tol.edge),
                    below(parent.x_hi, geo.x_hi, tol.edge),
                ),
                any_of(
                    below(geo.z_lo, parent.z_lo, tol.edge),
                    below(parent.z_hi, geo.z_hi, tol.edge),
                ),
            )
            for cond, parent in state.support_extent(item, poses)
        )
    )


def _middle(
    state: LayoutState, item: Item, geo: ItemGeometry, poses: Poses, tol: Tolerances
) -> Cond:
    """Its footprint grown by ``tol.middle`` inside the room; on a support, ``center``."""
    if item.kind != "floor":
        return _center(state, item, geo, poses, tol)
    plan = state.plans[item.room]
    x0, z0, x1, z1 = plan.real_bbox
    margin = tol.middle
    inside = [
        below(Length(0, x0), geo.x_lo, -margin),
        below(geo.x_hi, Length(0, x1), -margin),
        below(Length(0, z0), geo.z_lo, -margin),
        below(geo.z_hi, Length(0, z1), -margin),
    ]
    clear = [
        any_of(
            below(geo.x_hi, Length(0, hx0), -margin),
            below(Length(0, hx1), geo.x_lo, -margin),
            below(geo.z_hi, Length(0, hz0), -margin),
            below(Length(0, hz1), geo.z_lo, -margin),
        )
        for hx0, hz0, hx1, hz1 in plan.real_holes
    ]
    return all_of(*inside, *clear)


def _close(value: Length, centre: Length, slack: float) -> Cond:
    return all_of(below(value, centre, slack), below(centre, value, slack))


def _center(
    state: LayoutState, item: Item, geo: ItemGeometry, poses: Poses, tol: Tolerances
) -> Cond:
    if item.kind == "floor":
        x0, z0, x1, z1 = state.plans[item.room].real_bbox
        return all_of(
            _close(geo.cx, Length(0, (x0 + x1) / 2), tol.center * (x1 - x0)),
            _close(geo.cz, Length(0, (z0 + z1) / 2), tol.center * (z1 - z0)),
        )
    return any_of(
        *(
            all_of(
                cond,
                _close(geo.cx, p.cx, tol.center * p.extent_x),
                _close(geo.cz, p.cz, tol.center * p.extent_z),
            )
            for cond, p in state.support_extent(item, poses)
        )
    )


_PLACEMENTS: dict[str, Callable[[LayoutState, Item, ItemGeometry, Poses, Tolerances], Cond]] = {
    "edge": _edge,
    "corner": _corner,
    "center": _center,
    "middle": _middle,
}
