"""The floor plan: how big each room is, where it lies, and its floor and wall materials.

Rooms are rectangles on a grid of one row (up to three rooms) or two, side by side; each
column is as wide, and each row as deep, as its largest room. A room is sized for the
footprints of what stands on its floor and the width of what hangs on its walls, with a
proportion drawn from the seed. Doors and windows are ``doors_windows.py``'s.

>>> _grid_cells(2), _grid_cells(5)
([(0, 0), (1, 0)], [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)])
>>> grid(2.6), grid(3.0)
(3.0, 3.0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_logicenv.scenes.design.draft import Draft
from pytest_logicenv.scenes.scene_model import Room

GRID = 0.5  # room sides are multiples of this (metres)
MIN_SIDE = 2.5
MAX_SIDE = 10.0


@dataclass(frozen=True)
class FloorPlan:
    """The rooms, and where each lies on the grid: room id -> (column, row)."""

    rooms: tuple[Room, ...]
    cells: Mapping[str, tuple[int, int]]


def floor_plan(draft: Draft) -> FloorPlan:
    """Lay the draft's rooms out on the grid, with the requested materials or the seed's."""
    sizes = [room_size(draft, room_id, kind) for room_id, kind in draft.rooms]
    cells = _grid_cells(len(draft.rooms))
    widths, depths = _spans(sizes, cells, 0), _spans(sizes, cells, 1)
    rng = draft.rng("materials")
    floors = draft.catalog.floor_materials or ("",)
    walls = draft.catalog.wall_materials or ("",)
    rooms = []
    for (room_id, kind), (col, row) in zip(draft.rooms, cells, strict=True):
        x0, z0 = sum(widths[:col]), sum(depths[:row])
        x1, z1 = x0 + widths[col], z0 + depths[row]
        floor, wall = rng.choice(floors), rng.choice(walls)  # drawn even when asked for
        asked_floor, asked_wall = draft.materials.get(room_id, ("", ""))
        rooms.append(
            Room(
                room_id,
                kind,
                ((x0, z0), (x1, z0), (x1, z1), (x0, z1)),
                floor_material=asked_floor or floor,
                wall_material=asked_wall or wall,
            )
        )
    room_ids = (room_id for room_id, _ in draft.rooms)
    return FloorPlan(tuple(rooms), dict(zip(room_ids, cells, strict=True)))


def _grid_cells(count: int) -> list[tuple[int, int]]:
    """(column, row) of each of ``count`` rooms: one row of up to three, else two rows."""
    columns = count if count <= 3 else math.ceil(count / 2)
    return [(i % columns, i // columns) for i in range(count)]


def _spans(
    sizes: Sequence[tuple[float, float]], cells: Sequence[tuple[int, int]], axis: int
) -> list[float]:
    """Per column (``axis`` 0: widths) or row (1: depths), the largest room side along it."""
    count = max(cell[axis] for cell in cells) + 1
    return [
        max(size[axis] for size, cell in zip(sizes, cells, strict=True) if cell[axis] == i)
        for i in range(count)
    ]


def room_size(draft: Draft, room_id: str, kind: str) -> tuple[float, float]:
    """Width and depth (multiples of :data:`GRID`) for what the room holds; more than
    :data:`MAX_SIDE` is ``fitting.py``'s to resolve, before the floor plan is drawn."""
    floor = [
        o
        for o in draft.objects.values()
        if o.room == room_id and o.parent is None and o.relation == "on"
    ]
    wall = [o for o in draft.objects.values() if o.room == room_id and o.relation == "wall"]
    area = sum((o.size[0] + 0.4) * (o.size[2] + 0.4) for o in floor)
    area = max(area * 1.8 + 1.5, 6.0 if kind == "Bathroom" else 9.0)
    longest = max([max(o.size[0], o.size[2]) for o in floor] + [1.0])
    aspect = draft.rng("room", room_id).uniform(1.0, 1.5)
    width = max(math.sqrt(area * aspect), longest + 0.8, MIN_SIDE)
    depth = max(area / width, longest + 0.8, MIN_SIDE)
    wall_need = sum(o.size[0] for o in wall) + 3.0  # + a door and a window
    while 2 * (width + depth) - 2.0 < wall_need:
        width, depth = width + GRID, depth + GRID
    return grid(width), grid(depth)


def grid(value: float) -> float:
    """``value`` rounded up to a multiple of :data:`GRID`."""
    return math.ceil(value / GRID - 1e-9) * GRID
