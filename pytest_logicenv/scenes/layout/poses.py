"""Where an item is (its :class:`Pose`, in solver units) and the boxes a pose gives it.

Two boxes: the *cell box* (:func:`cell_box`, whole :data:`~.smt.FINE_GRID` cells holding the
real box, for collisions and rooms) and the *real geometry* (:func:`item_geometry`, the real
box centred in the cell box, as exact lengths, with the way it faces, for supports and
relations). Until the rotation is known, the real geometry comes as one case per rotation
(:func:`rotation_cases`).

>>> from pytest_logicenv.scenes.layout.items import Item
>>> from pytest_logicenv.scenes.scene_model import SceneObject
>>> chair = Item(SceneObject("chair", "Chair", size=(0.48, 0.9, 0.5)), "floor", 0.05, 10, 10,
...              ("chair",), 0.0, 0, 0.9)
>>> cell_box(chair, Pose(4, 6, False, False, 0))
CellBox(x0=20, x1=70, z0=30, z1=80, y0=0, y1=90)
>>> geo = item_geometry(chair, Pose(4, 6, False, False, 0), False, 0)
>>> geo.x_lo.units, round(geo.x_lo.offset, 6), geo.front  # 1 cm in from its cells, facing +z
(4, 0.01, (0, 1))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.smt import (
    HEIGHT_UNIT,
    CellBox,
    Cond,
    Length,
    Lin,
    all_of,
    flag_is,
    ite,
    lin_sum,
    plus,
)
from pytest_logicenv.scenes.scene_model import FINE_GRID

#: The way (x, z) an object faces at each rotation.
FRONTS = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}


@dataclass(frozen=True)
class Pose:
    """Where an item is, in solver units: min grid corner, rotation bits, root bottom height."""

    x: Lin
    z: Lin
    turned: Cond  # rotation 90 or 270
    back: Cond  # rotation 180 or 270
    base: Lin  # height units of the chain root's bottom
    side: Lin = -1  # index into the room's sides, for wall-mounted objects

    def known(self) -> tuple[int, int, bool, bool, int, int]:
        """The values of a solved pose."""
        values = (self.x, self.z, self.turned, self.back, self.base, self.side)
        flags, numbers = values[2:4], (*values[:2], *values[4:])
        if not all(isinstance(v, bool) for v in flags) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in numbers
        ):
            raise TypeError(f"pose {values} is not solved yet")
        return cast("tuple[int, int, bool, bool, int, int]", values)


def rotation_cond(pose: Pose, rotation: int) -> Cond:
    """The pose has this rotation."""
    return all_of(flag_is(pose.turned, rotation in (90, 270)), flag_is(pose.back, rotation >= 180))


@dataclass(frozen=True)
class ItemGeometry:
    """An item's real footprint, heights and front for one case of its rotation."""

    x_lo: Length
    x_hi: Length
    z_lo: Length
    z_hi: Length
    cx: Length
    cz: Length
    bottom: Length
    top: Length
    extent_x: float
    extent_z: float
    front: tuple[int, int] | None  # None when the case fixes only the axis, not the sense


#: The cases of an item's rotation: the condition of each, and the geometry it gives.
Cases = list[tuple[Cond, ItemGeometry]]


def item_geometry(
    item: Item,
    pose: Pose,
    turned: bool,
    rotation: int | None,
    shift: tuple[float, float] = (0.0, 0.0),
) -> ItemGeometry:
    """The real box centred in the grid box, moved by ``shift`` (metres; see
    :meth:`~pytest_logicenv.scenes.layout.state.LayoutState.wall_shift`)."""
    ex = item.d if turned else item.w
    ez = item.w if turned else item.d
    mx = item.margin(True, turned)
    mz = item.margin(False, turned)
    unit = item.unit
    real_x = ex * unit - 2 * mx
    real_z = ez * unit - 2 * mz
    bottom = Length(pose.base, item.bottom, HEIGHT_UNIT)
    sx, sz = shift
    return ItemGeometry(
        x_lo=Length(pose.x, mx + sx, unit),
        x_hi=Length(pose.x, ex * unit - mx + sx, unit),
        z_lo=Length(pose.z, mz + sz, unit),
        z_hi=Length(pose.z, ez * unit - mz + sz, unit),
        cx=Length(pose.x, ex * unit / 2 + sx, unit),
        cz=Length(pose.z, ez * unit / 2 + sz, unit),
        bottom=bottom,
        top=Length(pose.base, item.bottom + item.height, HEIGHT_UNIT),
        extent_x=real_x,
        extent_z=real_z,
        front=None if rotation is None else FRONTS[rotation],
    )


def rotation_cases(
    item: Item, pose: Pose, facing: bool, shift: tuple[float, float] = (0.0, 0.0)
) -> Cases:
    """The item's geometry under each rotation it may take: four cases when the front matters,
    two (turned or not) otherwise; one once the pose is known."""
    if facing:
        out: Cases = []
        for rotation in (0, 90, 180, 270):
            cond = rotation_cond(pose, rotation)
            if cond is not False:
                geo = item_geometry(item, pose, rotation in (90, 270), rotation, shift)
                out.append((cond, geo))
        return out
    if item.square:
        return [(True, item_geometry(item, pose, False, None, shift))]
    return [
        (flag_is(pose.turned, turned), item_geometry(item, pose, turned, None, shift))
        for turned in (False, True)
        if flag_is(pose.turned, turned) is not False
    ]


def cell_box(item: Item, pose: Pose, crowned: bool = False) -> CellBox:
    """The item's cells (which hold its real box), in :data:`FINE_GRID` cells; ``crowned``,
    up to the top of what rests on it too (which stays within its footprint)."""
    scale = round(item.unit / FINE_GRID)
    ex = ite(pose.turned, item.d, item.w)
    ez = ite(pose.turned, item.w, item.d)
    y0 = math.floor(item.bottom / HEIGHT_UNIT + 1e-6)
    top = item.crown if crowned else item.bottom + item.height
    y1 = math.ceil(top / HEIGHT_UNIT - 1e-6)
    return CellBox(
        lin_sum(((scale, pose.x),)),
        lin_sum(((scale, pose.x), (scale, ex))),
        lin_sum(((scale, pose.z),)),
        lin_sum(((scale, pose.z), (scale, ez))),
        plus(pose.base, y0),
        plus(pose.base, y1),
    )
