"""The spatial relations as conditions on the poses (their meaning: the package docstring).

:func:`relation_condition` encodes one relation of a problem: ``True`` when it holds whatever
the poses (a restated support, ``far`` across rooms), ``False`` with the reason when it cannot
hold, SMT-LIB text otherwise. A relation on the real geometry is split into the cases of the
items' rotations (four when the way an item faces matters, else two); ``near`` and ``far``
are encoded on the cell boxes instead, with slack for the margins (they are the commonest).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from pytest_logicenv.scenes.layout.floor_plan import RoomSide
from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.poses import FRONTS, ItemGeometry
from pytest_logicenv.scenes.layout.smt import (
    EPS,
    FINE_GRID,
    Cond,
    Length,
    all_of,
    any_of,
    below,
    le,
    lin_sum,
    within,
)
from pytest_logicenv.scenes.layout.state import LayoutState, Poses
from pytest_logicenv.scenes.model import (
    ABOVE_MARGIN,
    ADJACENT_DISTANCE,
    ALIGN_TOLERANCE,
    CENTER_FRACTION,
    EDGE_DISTANCE,
    FAR_DISTANCE,
    MIDDLE_DISTANCE,
    NEAR_DISTANCE,
    UNARY_RELATION_KINDS,
    SpatialRelation,
)

#: Relations that restate an object's support: checked before solving, never encoded.
SUPPORT_RELATIONS = ("in", "on_top_of", "mounted_on_wall")
#: Relations of one object (no target).
UNARY_RELATIONS = UNARY_RELATION_KINDS

_SIZES = "it cannot hold for these objects' sizes and supports"


def relation_condition(
    state: LayoutState, relation: SpatialRelation, poses: Poses
) -> tuple[Cond, str]:
    """The relation as a condition on the poses, and why it cannot hold when it is False."""
    subject = state.items[relation.subject]
    target = state.items[relation.target] if relation.target else None
    if relation.kind in SUPPORT_RELATIONS:
        return True, ""
    if target is not None and target.room != subject.room:
        if relation.kind == "far":
            return True, ""
        return False, f"{subject.id!r} and {target.id!r} are in different rooms"
    if subject.kind == "wall" and relation.kind in ("edge", "corner", "center", "middle"):
        return False, f"{relation.kind} applies to objects on the floor or on a surface"
    if relation.kind in ("near", "far") and target is not None:
        return _distance(state, subject, target, poses, relation.kind == "near"), _SIZES
    if target is None:
        return _unary(state, relation.kind, subject, poses)
    return _pair(state, relation.kind, subject, target, poses), _SIZES


def _unary(state: LayoutState, kind: str, subject: Item, poses: Poses) -> tuple[Cond, str]:
    """``edge``, ``corner`` or ``center`` in some case of the subject's rotation."""
    encode = _UNARY[kind]
    cases = state.cases(subject, poses, kind in ("edge", "corner"))
    return (
        any_of(*(all_of(cond, encode(state, subject, geo, poses)) for cond, geo in cases)),
        "it cannot hold where the object must stand",
    )


def _pair(state: LayoutState, kind: str, subject: Item, target: Item, poses: Poses) -> Cond:
    """A relation between two objects' real geometry, in some case of both rotations."""
    s_cases = state.cases(subject, poses, kind == "face_to")
    t_cases = state.cases(target, poses, kind in ("in_front_of", "side_of", "center_aligned"))
    encode_pair = _PAIRS[kind]
    return any_of(
        *(
            all_of(s_cond, t_cond, encode_pair(s_geo, t_geo))
            for s_cond, s_geo in s_cases
            for t_cond, t_geo in t_cases
        )
    )


# --------------------------------------------------------------------------- one object


def _edge(state: LayoutState, item: Item, geo: ItemGeometry, poses: Poses) -> Cond:
    if item.kind == "floor":
        return _edge_of_room(state, item, geo)
    options = []
    for cond, parent in state.support_extent(item, poses):
        options.append(
            all_of(
                cond,
                any_of(
                    below(geo.x_lo, parent.x_lo, EDGE_DISTANCE),
                    below(parent.x_hi, geo.x_hi, EDGE_DISTANCE),
                    below(geo.z_lo, parent.z_lo, EDGE_DISTANCE),
                    below(parent.z_hi, geo.z_hi, EDGE_DISTANCE),
                ),
            )
        )
    return any_of(*options)


def _edge_of_room(state: LayoutState, item: Item, geo: ItemGeometry) -> Cond:
    """Back to a side of the room, near it and within its extent."""
    return any_of(
        *(
            _by_side(side, geo)
            for side in state.plans[item.room].sides
            if geo.front == FRONTS[side.rotation]
        )
    )


def _by_side(side: RoomSide, geo: ItemGeometry) -> Cond:
    """The footprint is at most ``EDGE_DISTANCE`` from ``side`` and within its extent."""
    wall = Length(0, side.line)
    if side.axis == "x":
        low, high = geo.z_lo, geo.z_hi
        along = below(Length(0, side.lo), geo.x_lo), below(geo.x_hi, Length(0, side.hi))
    else:
        low, high = geo.x_lo, geo.x_hi
        along = below(Length(0, side.lo), geo.z_lo), below(geo.z_hi, Length(0, side.hi))
    gap = below(low, wall, EDGE_DISTANCE) if side.inward > 0 else below(wall, high, EDGE_DISTANCE)
    return all_of(gap, *along)


def _corner(state: LayoutState, item: Item, geo: ItemGeometry, poses: Poses) -> Cond:
    """By two sides of the room that meet at a corner, its back to one of them; on or in
    another object, by two perpendicular sides of its footprint."""
    if item.kind == "floor":
        plan = state.plans[item.room]
        return any_of(
            *(
                all_of(_by_side(back, geo), _by_side(flank, geo))
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
                    below(geo.x_lo, parent.x_lo, EDGE_DISTANCE),
                    below(parent.x_hi, geo.x_hi, EDGE_DISTANCE),
                ),
                any_of(
                    below(geo.z_lo, parent.z_lo, EDGE_DISTANCE),
                    below(parent.z_hi, geo.z_hi, EDGE_DISTANCE),
                ),
            )
            for cond, parent in state.support_extent(item, poses)
        )
    )


def _middle(state: LayoutState, item: Item, geo: ItemGeometry, poses: Poses) -> Cond:
    """Its footprint grown by ``MIDDLE_DISTANCE`` inside the room; on a support, ``center``."""
    if item.kind != "floor":
        return _center(state, item, geo, poses)
    plan = state.plans[item.room]
    x0, z0, x1, z1 = plan.real_bbox
    margin = MIDDLE_DISTANCE
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


def _close(value: Length, centre: Length, extent: float) -> Cond:
    slack = CENTER_FRACTION * extent
    return all_of(below(value, centre, slack), below(centre, value, slack))


def _center(state: LayoutState, item: Item, geo: ItemGeometry, poses: Poses) -> Cond:
    if item.kind == "floor":
        x0, z0, x1, z1 = state.plans[item.room].real_bbox
        return all_of(
            _close(geo.cx, Length(0, (x0 + x1) / 2), x1 - x0),
            _close(geo.cz, Length(0, (z0 + z1) / 2), z1 - z0),
        )
    return any_of(
        *(
            all_of(cond, _close(geo.cx, p.cx, p.extent_x), _close(geo.cz, p.cz, p.extent_z))
            for cond, p in state.support_extent(item, poses)
        )
    )


# --------------------------------------------------------------------------- two objects


def _distance(state: LayoutState, s: Item, t: Item, poses: Poses, near: bool) -> Cond:
    """``near``/``far`` on the grid boxes, whatever the rotations (no case split: these are
    the most common relations). The real boxes lie inside the grid boxes, at most a margin
    in from each side, so the real gap is at least the grid gap and at most the grid gap plus
    the margins. Near: the x gap plus the z gap (>= the Euclidean distance) is within reach.
    Far: apart by the distance along one axis (<= the Euclidean distance)."""
    a = state.grid_box(s, poses)
    b = state.grid_box(t, poses)
    if near:
        slack = 2 * (s.max_margin + t.max_margin) + 2 * state.shift_bound(s, t)
        limit = math.floor((NEAR_DISTANCE - slack) / FINE_GRID + EPS)
        xs = ((1, b.x0), (-1, a.x1)), ((1, a.x0), (-1, b.x1)), ()
        zs = ((1, b.z0), (-1, a.z1)), ((1, a.z0), (-1, b.z1)), ()
        return all_of(*(le(lin_sum((*dx, *dz)), limit) for dx in xs for dz in zs if dx or dz))
    cells = math.ceil((FAR_DISTANCE + 2 * state.shift_bound(s, t)) / FINE_GRID - EPS)
    return any_of(
        le(lin_sum(((1, a.x1), (1, cells))), b.x0),
        le(lin_sum(((1, b.x1), (1, cells))), a.x0),
        le(lin_sum(((1, a.z1), (1, cells))), b.z0),
        le(lin_sum(((1, b.z1), (1, cells))), a.z0),
    )


def _grown(value: Length, low: Length, high: Length, margin: float) -> Cond:
    return all_of(below(low, value, margin), below(value, high, margin))


def _above(s: ItemGeometry, t: ItemGeometry) -> Cond:
    return all_of(
        below(t.top, s.bottom),
        _grown(s.cx, t.x_lo, t.x_hi, ABOVE_MARGIN),
        _grown(s.cz, t.z_lo, t.z_hi, ABOVE_MARGIN),
    )


def _beyond(
    s: ItemGeometry, t: ItemGeometry, direction: tuple[int, int], reach: float | None
) -> Cond:
    """``s`` lies wholly beyond ``t``'s side in ``direction``, at most ``reach`` from it."""
    dx, dz = direction
    if dx != 0:
        near, far = (t.x_hi, s.x_lo) if dx > 0 else (s.x_hi, t.x_lo)
    else:
        near, far = (t.z_hi, s.z_lo) if dz > 0 else (s.z_hi, t.z_lo)
    if reach is None:
        return below(near, far)
    return all_of(below(near, far), below(far, near, reach))


def _across(s: ItemGeometry, t: ItemGeometry, direction: tuple[int, int]) -> Cond:
    """``s``'s centre lies within ``t``'s extent across ``direction``."""
    if direction[0] != 0:
        return within(s.cz, t.z_lo, t.z_hi)
    return within(s.cx, t.x_lo, t.x_hi)


def _in_front_of(s: ItemGeometry, t: ItemGeometry) -> Cond:
    assert t.front is not None
    return all_of(_beyond(s, t, t.front, ADJACENT_DISTANCE), _across(s, t, t.front))


def _side_of(s: ItemGeometry, t: ItemGeometry) -> Cond:
    assert t.front is not None
    fx, fz = t.front
    left, right = (fz, fx), (-fz, -fx)
    return all_of(
        any_of(_beyond(s, t, left, ADJACENT_DISTANCE), _beyond(s, t, right, ADJACENT_DISTANCE)),
        _across(s, t, left),
    )


def _center_aligned(s: ItemGeometry, t: ItemGeometry) -> Cond:
    assert t.front is not None
    if t.front[0] != 0:  # t faces along x: its axis is the line z = t.cz
        return all_of(below(s.cz, t.cz, ALIGN_TOLERANCE), below(t.cz, s.cz, ALIGN_TOLERANCE))
    return all_of(below(s.cx, t.cx, ALIGN_TOLERANCE), below(t.cx, s.cx, ALIGN_TOLERANCE))


def _face_to(s: ItemGeometry, t: ItemGeometry) -> Cond:
    assert s.front is not None
    return all_of(_beyond(t, s, s.front, None), _across(s, t, s.front))


_UNARY: dict[str, Callable[[LayoutState, Item, ItemGeometry, Poses], Cond]] = {
    "edge": _edge,
    "corner": _corner,
    "center": _center,
    "middle": _middle,
}
_PAIRS: dict[str, Callable[[ItemGeometry, ItemGeometry], Cond]] = {
    "above": _above,
    "in_front_of": _in_front_of,
    "side_of": _side_of,
    "center_aligned": _center_aligned,
    "face_to": _face_to,
}
