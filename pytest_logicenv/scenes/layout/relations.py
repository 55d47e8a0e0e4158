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

from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.placements import placement
from pytest_logicenv.scenes.layout.poses import ItemGeometry
from pytest_logicenv.scenes.layout.smt import (
    EPS,
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
from pytest_logicenv.scenes.layout.tolerances import DEFINED, Tolerances
from pytest_logicenv.scenes.scene_model import FINE_GRID, UNARY_RELATION_KINDS, SpatialRelation

#: Relations that restate an object's support: checked before solving, never encoded.
SUPPORT_RELATIONS = ("in", "on_top_of", "mounted_on_wall")
#: Relations of one object (no target).
UNARY_RELATIONS = UNARY_RELATION_KINDS

_SIZES = "it cannot hold for these objects' sizes and supports"


def relation_condition(
    state: LayoutState, relation: SpatialRelation, poses: Poses, tol: Tolerances = DEFINED
) -> tuple[Cond, str]:
    """The relation as a condition on the poses, and why it cannot hold when it is False
    (with the thresholds ``tol``: the definition's, or the natural margins')."""
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
        return _distance(state, subject, target, poses, relation.kind == "near", tol), _SIZES
    if target is None:
        return placement(state, relation.kind, subject, poses, tol)
    return _pair(state, relation.kind, subject, target, poses, tol), _SIZES


def _pair(
    state: LayoutState, kind: str, subject: Item, target: Item, poses: Poses, tol: Tolerances
) -> Cond:
    """A relation between two objects' real geometry, in some case of both rotations."""
    s_cases = state.cases(subject, poses, kind == "face_to")
    t_cases = state.cases(target, poses, kind in ("in_front_of", "side_of", "center_aligned"))
    encode_pair = _PAIRS[kind]
    return any_of(
        *(
            all_of(s_cond, t_cond, encode_pair(s_geo, t_geo, tol))
            for s_cond, s_geo in s_cases
            for t_cond, t_geo in t_cases
        )
    )


# --------------------------------------------------------------------------- two objects


def _distance(
    state: LayoutState, s: Item, t: Item, poses: Poses, near: bool, tol: Tolerances
) -> Cond:
    """``near``/``far`` on the grid boxes, whatever the rotations (no case split: these are
    the most common relations). The real boxes lie inside the grid boxes, at most a margin
    in from each side, so the real gap is at least the grid gap and at most the grid gap plus
    the margins. Near: the x gap plus the z gap (>= the Euclidean distance) is within reach.
    Far: apart by the distance along one axis (<= the Euclidean distance)."""
    a = state.grid_box(s, poses)
    b = state.grid_box(t, poses)
    if near:
        slack = 2 * (s.max_margin + t.max_margin) + 2 * state.shift_bound(s, t)
        limit = math.floor((tol.near - slack) / FINE_GRID + EPS)
        xs = ((1, b.x0), (-1, a.x1)), ((1, a.x0), (-1, b.x1)), ()
        zs = ((1, b.z0), (-1, a.z1)), ((1, a.z0), (-1, b.z1)), ()
        return all_of(*(le(lin_sum((*dx, *dz)), limit) for dx in xs for dz in zs if dx or dz))
    cells = math.ceil((tol.far + 2 * state.shift_bound(s, t)) / FINE_GRID - EPS)
    return any_of(
        le(lin_sum(((1, a.x1), (1, cells))), b.x0),
        le(lin_sum(((1, b.x1), (1, cells))), a.x0),
        le(lin_sum(((1, a.z1), (1, cells))), b.z0),
        le(lin_sum(((1, b.z1), (1, cells))), a.z0),
    )


def _grown(value: Length, low: Length, high: Length, margin: float) -> Cond:
    return all_of(below(low, value, margin), below(value, high, margin))


def _above(s: ItemGeometry, t: ItemGeometry, tol: Tolerances) -> Cond:
    return all_of(
        below(t.top, s.bottom),
        _grown(s.cx, t.x_lo, t.x_hi, tol.above),
        _grown(s.cz, t.z_lo, t.z_hi, tol.above),
    )


def _beyond(
    s: ItemGeometry,
    t: ItemGeometry,
    direction: tuple[int, int],
    reach: float | None,
    least: float = 0.0,
) -> Cond:
    """``s`` lies wholly beyond ``t``'s side in ``direction``, at least ``least`` and at most
    ``reach`` from it."""
    dx, dz = direction
    if dx != 0:
        near, far = (t.x_hi, s.x_lo) if dx > 0 else (s.x_hi, t.x_lo)
    else:
        near, far = (t.z_hi, s.z_lo) if dz > 0 else (s.z_hi, t.z_lo)
    past = below(near, far) if least == 0.0 else below(near, far, -least)
    if reach is None:
        return past
    return all_of(past, below(far, near, reach))


def _across(s: ItemGeometry, t: ItemGeometry, direction: tuple[int, int], tol: Tolerances) -> Cond:
    """``s``'s centre lies within ``t``'s extent across ``direction`` (within ``tol.centred``
    of that extent of its centre, when given)."""
    across_x = direction[0] == 0
    if tol.centred is None:
        return within(s.cx, t.x_lo, t.x_hi) if across_x else within(s.cz, t.z_lo, t.z_hi)
    value, centre = (s.cx, t.cx) if across_x else (s.cz, t.cz)
    slack = tol.centred * (t.extent_x if across_x else t.extent_z)
    return all_of(below(value, centre, slack), below(centre, value, slack))


def _in_front_of(s: ItemGeometry, t: ItemGeometry, tol: Tolerances) -> Cond:
    assert t.front is not None
    least, most = tol.in_front
    return all_of(_beyond(s, t, t.front, most, least), _across(s, t, t.front, tol))


def _side_of(s: ItemGeometry, t: ItemGeometry, tol: Tolerances) -> Cond:
    assert t.front is not None
    fx, fz = t.front
    left, right = (fz, fx), (-fz, -fx)
    return all_of(
        any_of(_beyond(s, t, left, tol.side), _beyond(s, t, right, tol.side)),
        _across(s, t, left, tol),
    )


def _center_aligned(s: ItemGeometry, t: ItemGeometry, tol: Tolerances) -> Cond:
    assert t.front is not None
    if t.front[0] != 0:  # t faces along x: its axis is the line z = t.cz
        return all_of(below(s.cz, t.cz, tol.align), below(t.cz, s.cz, tol.align))
    return all_of(below(s.cx, t.cx, tol.align), below(t.cx, s.cx, tol.align))


def _face_to(s: ItemGeometry, t: ItemGeometry, tol: Tolerances) -> Cond:
    assert s.front is not None
    return all_of(_beyond(t, s, s.front, None), _across(s, t, s.front, tol))


_PAIRS: dict[str, Callable[[ItemGeometry, ItemGeometry, Tolerances], Cond]] = {
    "above": _above,
    "in_front_of": _in_front_of,
    "side_of": _side_of,
    "center_aligned": _center_aligned,
    "face_to": _face_to,
}
