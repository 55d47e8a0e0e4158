"""Where the scene's objects and openings are, as the physics checker measures them.

An object is a box: its :func:`footprint` on the floor plane (turned by its rotation), its
:func:`bottom` and :func:`top`, the way it faces (:func:`front`). An opening is a span of its
wall (:func:`opening_span`). The checks of every dimension read objects through these.

>>> from pytest_logicenv.scenes.scene_model import SceneObject
>>> box = SceneObject("box", "Box", size=(1, 0.5, 2), position=(1, 0.25, 1), rotation=90)
>>> str(footprint(box)), top(box), front(box)
('x 0.000..2.000, z 0.500..1.500', 0.5, (1.0, 0.0))
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

from pytest_logicenv.scenes.physics.geometry import (
    TOLERANCE,
    Point,
    Rect,
    across,
    axis_normals,
    dot,
    edges,
    strictly_inside,
)
from pytest_logicenv.scenes.scene_model import Door, Room, SceneObject, Wall, Window

_FRONT = {0: (0.0, 1.0), 90: (1.0, 0.0), 180: (0.0, -1.0), 270: (-1.0, 0.0)}


def footprint(obj: SceneObject) -> Rect:
    """The object's box seen from above."""
    sx, _, sz = obj.size
    if obj.rotation in (90, 270):
        sx, sz = sz, sx
    x, _, z = obj.position
    return Rect(x - sx / 2, z - sz / 2, x + sx / 2, z + sz / 2)


def bottom(obj: SceneObject) -> float:
    return obj.position[1] - obj.size[1] / 2


def top(obj: SceneObject) -> float:
    return obj.position[1] + obj.size[1] / 2


def front(obj: SceneObject) -> Point:
    """The unit direction the object faces."""
    return _FRONT[obj.rotation]


def ancestors(obj: SceneObject, by_id: dict[str, SceneObject]) -> list[str]:
    """What holds the object, nearest first: its parent, the object a part belongs to, and
    theirs (stopping at a missing one or a cycle)."""
    chain: list[str] = []
    current = obj
    while (up := current.parent or current.part_of) is not None and up in by_id and up not in chain:
        chain.append(up)
        current = by_id[up]
    return chain


def rest_level(obj: SceneObject, parent: SceneObject, by_id: dict[str, SceneObject]) -> float:
    """Where ``obj``, on ``parent``, must rest: the parent's top, or the top of a part of the
    parent that stands on that top under the object (a pot on a stove stands on its burners),
    whichever is nearest its bottom."""
    inner, surface = footprint(obj), top(parent)
    levels = [surface]
    for part in by_id.values():
        standing = part.part_of == parent.id and abs(bottom(part) - surface) <= TOLERANCE
        if standing and inner.overlaps(footprint(part)):
            levels.append(top(part))
    return min(levels, key=lambda level: abs(bottom(obj) - level))


def inside_problem(obj: SceneObject, parent: SceneObject) -> str | None:
    """Why ``obj`` is not in ``parent``: it must rest within the parent's footprint, its
    bottom within the parent's height, its top below the parent's if the parent opens (so it
    closes; an apple may rise above a bowl's rim)."""
    inner, outer = footprint(obj), footprint(parent)
    if not inner.inside(outer):
        return f"its footprint {inner} leaves {outer}"
    if not bottom(parent) - TOLERANCE <= bottom(obj) <= top(parent) + TOLERANCE:
        return (
            f"its bottom {bottom(obj):.3f} m is not within {bottom(parent):.3f}.."
            f"{top(parent):.3f} m"
        )
    if parent.has("openable") and top(obj) > top(parent) + TOLERANCE:
        return f"its top {top(obj):.3f} m is above the top {top(parent):.3f} m of what closes on it"
    return None


# --------------------------------------------------------------------------- rooms and walls


def inward(room: Room, a: Point, b: Point) -> Point | None:
    """The unit normal of side ab that points into the room, for an axis-aligned side."""
    normals = axis_normals(a, b)
    if normals is None:
        return None
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    for n in normals:
        if strictly_inside(room.polygon, (mid[0] + n[0] * 1e-3, mid[1] + n[1] * 1e-3)):
            return n
    return None


def wall_gaps(rect: Rect, facing: Point, room: Room) -> Iterator[float]:
    """How far the rectangle's back lies in front of each side of the room that faces along
    ``facing`` (into the room) and runs the whole width of that back."""
    back = rect.span(facing)[0]  # the rectangle's coordinate on its back face
    side = across(facing)
    low, high = rect.span(side)
    for a, b in edges(room.polygon):
        if inward(room, a, b) != facing:
            continue
        ends = sorted((dot(a, side), dot(b, side)))
        if low >= ends[0] - TOLERANCE and high <= ends[1] + TOLERANCE:
            yield back - dot(a, facing)


def against_wall(obj: SceneObject, room: Room) -> bool:
    """The object's back lies on an axis-aligned side of the room, within the side, and the
    object faces into the room."""
    return any(abs(gap) <= TOLERANCE for gap in wall_gaps(footprint(obj), front(obj), room))


@dataclass(frozen=True)
class Side:
    """A side of a room from ``a`` to ``b``, with its unit ``normal`` into the room."""

    a: Point
    b: Point
    normal: Point


def convex_corners(room: Room) -> list[tuple[Side, Side]]:
    """The pairs of consecutive axis-aligned sides that meet at a corner the room lies inside
    of: of the four quadrants around the corner, the room fills exactly one."""
    sides = [
        Side(a, b, normal)
        for a, b in edges(room.polygon)
        if (normal := inward(room, a, b)) is not None
    ]
    out = []
    for first, second in itertools.pairwise([*sides, sides[0]] if sides else []):
        if first.b != second.a or dot(first.normal, second.normal) != 0:
            continue
        x, z = first.b
        around = [(x + dx, z + dz) for dx in (-1e-3, 1e-3) for dz in (-1e-3, 1e-3)]
        if sum(strictly_inside(room.polygon, p) for p in around) == 1:
            out.append((first, second))
    return out


def side_gap(rect: Rect, side: Side) -> float | None:
    """How far the rectangle lies in from ``side`` (None unless its extent along the side lies
    within the side)."""
    along = across(side.normal)
    low, high = rect.span(along)
    ends = sorted((dot(side.a, along), dot(side.b, along)))
    if low < ends[0] - TOLERANCE or high > ends[1] + TOLERANCE:
        return None
    return rect.span(side.normal)[0] - dot(side.a, side.normal)


def wall_point(wall: Wall, distance: float) -> Point:
    """The point ``distance`` metres along the wall from its start."""
    (x0, z0), (x1, z1) = wall.start, wall.end
    length = ((x1 - x0) ** 2 + (z1 - z0) ** 2) ** 0.5
    t = distance / length if length else 0.0
    return x0 + t * (x1 - x0), z0 + t * (z1 - z0)


def wall_length(wall: Wall) -> float:
    return float(((wall.end[0] - wall.start[0]) ** 2 + (wall.end[1] - wall.start[1]) ** 2) ** 0.5)


def opening_span(wall: Wall, opening: Door | Window) -> tuple[Point, Point]:
    """The ends of a door's or window's opening on its wall."""
    return wall_point(wall, opening.offset), wall_point(wall, opening.offset + opening.width)
