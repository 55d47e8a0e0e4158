"""The floor plan in solver terms: each room's sides, cells and area, and the walls between rooms.

Rooms are rectilinear polygons. A room becomes a :class:`RoomPlan` (its bounding box in
:data:`~pytest_logicenv.scenes.layout.smt.FINE_GRID` cells and the cells of that box outside the
room, which objects must keep out of), and the rooms' sides are cut into walls: a stretch two
rooms share is one wall between them, the rest are exterior walls.

>>> plan = make_plan(Room("hall", "Hall", ((0, 0), (2, 0), (2, 1), (0, 1))), 0)
>>> plan.bbox, plan.area
((0, 0, 200, 100), 2)
>>> [run.wall.id for run in derive_walls([plan])]
['wall|hall|0', 'wall|hall|1', 'wall|hall|2', 'wall|hall|3']
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_logicenv.scenes.layout.smt import GRID, CellBox
from pytest_logicenv.scenes.scene_model import FINE_GRID, WALL_HEIGHT, Room, Wall

#: A room side counts as the same line as another when they are this close (metres).
LINE_TOLERANCE = 1e-6
#: Where a window may be asked for: the axis its wall runs along, and the sign of the way out.
SIDES = {"north": ("x", 1), "south": ("x", -1), "east": ("z", 1), "west": ("z", -1)}
#: Height units of a box no object reaches over or under.
TALL = 10**6

Corners = Sequence[tuple[float, float]]


@dataclass(frozen=True)
class RoomSide:
    """A straight side of a room polygon; ``axis`` is the axis it runs along."""

    room: str
    axis: str
    line: float
    lo: float
    hi: float
    inward: int  # +1 when the room lies on the side of greater coordinate

    @property
    def rotation(self) -> int:
        """Rotation of an object whose back is against this side (it faces into the room)."""
        if self.axis == "x":
            return 0 if self.inward > 0 else 180
        return 90 if self.inward > 0 else 270

    @property
    def grid_line(self) -> int:
        """The :data:`GRID` line nearest to the side on the room's side of it."""
        scaled = self.line / GRID
        return math.ceil(scaled - 1e-6) if self.inward > 0 else math.floor(scaled + 1e-6)


@dataclass(frozen=True)
class RoomPlan:
    """A room in :data:`FINE_GRID` cells: its bounding box rounded inwards, the cells of that
    box outside the room (rounded outwards), its sides and its floor area."""

    room: Room
    index: int
    bbox: tuple[int, int, int, int]
    real_bbox: tuple[float, float, float, float]
    holes: tuple[CellBox, ...]
    sides: tuple[RoomSide, ...]
    area: float
    #: The convex corners: the indices of the two sides (one along each axis) meeting there.
    corners: tuple[tuple[int, int], ...] = ()
    #: The holes in metres: (min x, min z, max x, max z) of each.
    real_holes: tuple[tuple[float, float, float, float], ...] = ()


def _corners_in_turn(
    polygon: Corners,
) -> Iterator[tuple[tuple[float, float], tuple[float, float]]]:
    """Each side of the polygon as (start corner, end corner)."""
    return zip(polygon, (*polygon[1:], polygon[0]), strict=True)


def _point_inside(polygon: Corners, x: float, z: float) -> bool:
    """Even-odd ray casting; ``(x, z)`` must not lie on the boundary."""
    inside = False
    for (x1, z1), (x2, z2) in _corners_in_turn(polygon):
        if (z1 > z) != (z2 > z) and x < x1 + (z - z1) * (x2 - x1) / (z2 - z1):
            inside = not inside
    return inside


def _room_cells(room: Room) -> tuple[list[tuple[float, float, float, float]], list[Any]]:
    """The polygon's bounding box cut along every vertex coordinate: (inside, outside) cells."""
    xs = sorted({p[0] for p in room.polygon})
    zs = sorted({p[1] for p in room.polygon})
    inside, outside = [], []
    for xa, xb in itertools.pairwise(xs):
        for za, zb in itertools.pairwise(zs):
            cell = (xa, za, xb, zb)
            if _point_inside(room.polygon, (xa + xb) / 2, (za + zb) / 2):
                inside.append(cell)
            else:
                outside.append(cell)
    return inside, outside


def polygon_problems(room: Room) -> list[str]:
    """What is wrong with the room's polygon (too few corners, a slanted side, too small,
    crossing itself), the first kind found."""
    polygon = room.polygon
    if len(polygon) < 4:
        return ["needs at least 4 corners"]
    problems = []
    for i, (a, b) in enumerate(_corners_in_turn(polygon)):
        if a == b:
            problems.append(f"corners {i} and {i + 1} coincide")
        elif abs(a[0] - b[0]) > LINE_TOLERANCE and abs(a[1] - b[1]) > LINE_TOLERANCE:
            problems.append(
                f"side {i} from {a} to {b} is not axis-aligned (rooms are rectilinear polygons)"
            )
    if problems:
        return problems
    area = abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in _corners_in_turn(polygon)))
    if area / 2 < 0.25:
        return [f"has area {area / 2:.2f} m²; a room needs at least 0.25 m²"]
    inside, _ = _room_cells(room)
    cell_area = sum((c[2] - c[0]) * (c[3] - c[1]) for c in inside)
    if abs(cell_area - area / 2) > 1e-6:
        return ["crosses itself; list the corners in order around the room"]
    return []


def _room_sides(room: Room) -> tuple[RoomSide, ...]:
    sides = []
    polygon = room.polygon
    for a, b in _corners_in_turn(polygon):
        if abs(a[1] - b[1]) <= LINE_TOLERANCE:  # runs along x
            axis, line, lo, hi = "x", a[1], min(a[0], b[0]), max(a[0], b[0])
            probe = (lo + hi) / 2, line + 1e-4
        else:
            axis, line, lo, hi = "z", a[0], min(a[1], b[1]), max(a[1], b[1])
            probe = line + 1e-4, (lo + hi) / 2
        inward = 1 if _point_inside(polygon, *probe) else -1
        sides.append(RoomSide(room.id, axis, line, lo, hi, inward))
    return tuple(sides)


def make_plan(room: Room, index: int) -> RoomPlan:
    """The room (the ``index``-th of the design) in solver cells."""
    min_x, min_z, max_x, max_z = room.bounds
    bbox = (
        math.ceil(min_x / FINE_GRID - 1e-6),
        math.ceil(min_z / FINE_GRID - 1e-6),
        math.floor(max_x / FINE_GRID + 1e-6),
        math.floor(max_z / FINE_GRID + 1e-6),
    )
    inside, outside = _room_cells(room)
    holes = tuple(
        CellBox(
            math.floor(c[0] / FINE_GRID + 1e-6),
            math.ceil(c[2] / FINE_GRID - 1e-6),
            math.floor(c[1] / FINE_GRID + 1e-6),
            math.ceil(c[3] / FINE_GRID - 1e-6),
            -TALL,
            TALL,
        )
        for c in outside
    )
    area = sum((c[2] - c[0]) * (c[3] - c[1]) for c in inside)
    sides = _room_sides(room)
    corners = _convex_corners(room, sides)
    return RoomPlan(room, index, bbox, room.bounds, holes, sides, area, corners, tuple(outside))


def _convex_corners(room: Room, sides: Sequence[RoomSide]) -> tuple[tuple[int, int], ...]:
    """The pairs of consecutive sides that meet at a corner the room lies inside of (where a
    piece of furniture can stand with a wall behind it and one beside it).

    >>> ell = Room("l", "Hall", ((0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)))
    >>> _convex_corners(ell, _room_sides(ell))  # (2, 3) meet at (1, 1), inside the L
    ((0, 1), (1, 2), (3, 4), (4, 5), (5, 0))
    """
    corners = []
    for i, first in enumerate(sides):
        j = (i + 1) % len(sides)
        second = sides[j]
        if first.axis == second.axis:
            continue
        x = (second if second.axis == "z" else first).line
        z = (first if first.axis == "x" else second).line
        # Convex: of the four quadrants around the corner, the room fills one.
        quadrants = [(dx, dz) for dx in (-1e-4, 1e-4) for dz in (-1e-4, 1e-4)]
        if sum(_point_inside(room.polygon, x + dx, z + dz) for dx, dz in quadrants) == 1:
            corners.append((i, j))
    return tuple(corners)


def rooms_overlap(first: Room, second: Room) -> bool:
    """Whether two rooms share floor (sharing a wall is fine)."""
    inside_a, _ = _room_cells(first)
    inside_b, _ = _room_cells(second)
    return any(
        min(a[2], b[2]) - max(a[0], b[0]) > LINE_TOLERANCE
        and min(a[3], b[3]) - max(a[1], b[1]) > LINE_TOLERANCE
        for a in inside_a
        for b in inside_b
    )


# --------------------------------------------------------------------------- walls


@dataclass(frozen=True)
class WallRun:
    """A derived wall with the geometry the layout needs."""

    wall: Wall
    axis: str
    line: float
    lo: float
    hi: float
    inward: tuple[tuple[str, int], ...]  # (room, inward sign) for each room it bounds

    @property
    def exterior(self) -> bool:
        return len(self.inward) == 1


#: A stretch of a line, and the (room, inward sign) of each room side covering it.
_Piece = tuple[float, float, tuple[tuple[str, int], ...]]


def derive_walls(plans: Sequence[RoomPlan]) -> tuple[WallRun, ...]:
    """Cut the room sides into walls: a stretch shared by two rooms is one wall between them,
    the rest are exterior walls of one room. Ids are ``wall|<room>[|<room>]|<n>``."""
    lines: dict[tuple[str, float], list[tuple[int, RoomSide]]] = {}
    for plan in plans:
        for side in plan.sides:
            lines.setdefault((side.axis, round(side.line, 6)), []).append((plan.index, side))
    runs: list[WallRun] = []
    counters: dict[tuple[str, ...], int] = {}
    for (axis, _), sides in sorted(lines.items()):
        line = sides[0][1].line
        for lo, hi, cover in _pieces(sides):
            rooms = tuple(room for room, _ in cover)
            number = counters.get(rooms, 0)
            counters[rooms] = number + 1
            start, end = ((lo, line), (hi, line)) if axis == "x" else ((line, lo), (line, hi))
            wall = Wall(f"wall|{'|'.join(rooms)}|{number}", rooms, start, end, WALL_HEIGHT)
            runs.append(WallRun(wall, axis, line, lo, hi, cover))
    return tuple(runs)


def _pieces(sides: Sequence[tuple[int, RoomSide]]) -> list[_Piece]:
    """The stretches between consecutive ends of the sides on one line, with the (room,
    inward) of every side covering them; neighbouring stretches with the same cover merge into
    one wall."""
    cuts = sorted({v for _, side in sides for v in (side.lo, side.hi)})
    pieces: list[_Piece] = []
    for lo, hi in itertools.pairwise(cuts):
        cover = tuple(
            (side.room, side.inward)
            for _, side in sorted(sides, key=lambda pair: pair[0])
            if side.lo <= lo + LINE_TOLERANCE and side.hi >= hi - LINE_TOLERANCE
        )
        if hi - lo <= LINE_TOLERANCE or not cover:
            continue
        if pieces and pieces[-1][2] == cover and abs(pieces[-1][1] - lo) <= LINE_TOLERANCE:
            pieces[-1] = (pieces[-1][0], hi, cover)
        else:
            pieces.append((lo, hi, cover))
    return pieces
