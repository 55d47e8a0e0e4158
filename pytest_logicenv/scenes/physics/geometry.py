"""Plane geometry for the physics checker: points, segments, polygons and rectangles.

Floating point on the scene's real coordinates, with :data:`TOLERANCE` as the slack for
equalities and touching surfaces. Nothing here knows a scene; nothing here comes from the
layout solver, so an error in its integer encoding cannot hide behind a shared routine.

>>> square = ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))
>>> contains(square, (2.0, 1.0)), strictly_inside(square, (2.0, 1.0))
(True, False)
>>> Rect(0, 0, 1, 1).gap(Rect(4, 5, 6, 7))
5.0
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Slack (metres) for equalities and touching surfaces: positions are stored to 1e-6 m.
TOLERANCE = 1e-4

Point = tuple[float, float]


# --------------------------------------------------------------------------- points and segments


def cross(o: Point, a: Point, b: Point) -> float:
    """The z component of ``(a - o) x (b - o)``: positive when ``o, a, b`` turn left."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def dot(p: Point, direction: Point) -> float:
    return p[0] * direction[0] + p[1] * direction[1]


def across(direction: Point) -> Point:
    """``direction`` turned a quarter to the left."""
    return -direction[1], direction[0]


def lerp(a: Point, b: Point, t: float) -> Point:
    """The point a fraction ``t`` of the way from ``a`` to ``b``."""
    return a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])


def proper_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Segments ab and cd cross at a single point interior to both."""
    d1, d2 = cross(c, d, a), cross(c, d, b)
    d3, d4 = cross(a, b, c), cross(a, b, d)
    eps = 1e-12
    return ((d1 > eps and d2 < -eps) or (d1 < -eps and d2 > eps)) and (
        (d3 > eps and d4 < -eps) or (d3 < -eps and d4 > eps)
    )


def on_segment(p: Point, a: Point, b: Point) -> bool:
    """Whether ``p`` lies on segment ab, within :data:`TOLERANCE`."""
    length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
    if length == 0:
        return abs(p[0] - a[0]) <= TOLERANCE and abs(p[1] - a[1]) <= TOLERANCE
    if abs(cross(a, b, p)) / length > TOLERANCE:
        return False
    t = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length**2
    return bool(-TOLERANCE / length <= t <= 1 + TOLERANCE / length)


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """The distance from ``p`` to the nearest point of segment ab."""
    length2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2
    t = 0.0
    if length2 > 0:
        t = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length2
        t = min(1.0, max(0.0, t))
    x, z = lerp(a, b, t)
    return float(((p[0] - x) ** 2 + (p[1] - z) ** 2) ** 0.5)


def segment_text(segment: tuple[Point, Point]) -> str:
    (x0, z0), (x1, z1) = segment
    return f"({x0:.2f}, {z0:.2f})-({x1:.2f}, {z1:.2f})"


# --------------------------------------------------------------------------- polygons


def edges(polygon: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The polygon's sides, the last closing it."""
    return [(polygon[i], polygon[(i + 1) % len(polygon)]) for i in range(len(polygon))]


def signed_area(polygon: Sequence[Point]) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in edges(polygon)) / 2


def contains(polygon: Sequence[Point], p: Point) -> bool:
    """Point in the closed polygon (the boundary counts)."""
    if any(on_segment(p, a, b) for a, b in edges(polygon)):
        return True
    inside = False
    for a, b in edges(polygon):
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if p[0] < x:
                inside = not inside
    return inside


def strictly_inside(polygon: Sequence[Point], p: Point) -> bool:
    """Point in the open polygon (the boundary does not count)."""
    return contains(polygon, p) and not any(on_segment(p, a, b) for a, b in edges(polygon))


def crossings(polygon: Sequence[Point], x: float) -> list[float]:
    """Sorted z where the vertical line at ``x`` crosses the polygon (no vertex at ``x``)."""
    out = []
    for a, b in edges(polygon):
        if (a[0] < x) != (b[0] < x):
            out.append(a[1] + (x - a[0]) * (b[1] - a[1]) / (b[0] - a[0]))
    return sorted(out)


def self_crossing(polygon: Sequence[Point]) -> bool:
    """Whether two sides that do not share a corner cross."""
    sides = edges(polygon)
    return any(
        proper_cross(*sides[i], *sides[j])
        for i in range(len(sides))
        for j in range(i + 2, len(sides))
        if not (i == 0 and j == len(sides) - 1)
    )


def polygons_overlap(first: Sequence[Point], second: Sequence[Point]) -> bool:
    """Whether two simple polygons share area (touching along edges does not count).

    A proper crossing of two edges means overlap. Without one, the order of the edges along any
    vertical line is the same throughout each slab between consecutive vertex x coordinates, so
    comparing the inside intervals on each slab's middle line decides it.
    """
    for a, b in edges(first):
        for c, d in edges(second):
            if proper_cross(a, b, c, d):
                return True
    xs = sorted({p[0] for p in (*first, *second)})
    for left, right in itertools.pairwise(xs):
        if right - left <= TOLERANCE:
            continue
        mid = (left + right) / 2
        za, zb = crossings(first, mid), crossings(second, mid)
        for i in range(0, len(za) - 1, 2):
            for j in range(0, len(zb) - 1, 2):
                if min(za[i + 1], zb[j + 1]) - max(za[i], zb[j]) > TOLERANCE:
                    return True
    return False


def segment_on_boundary(p: Point, q: Point, polygon: Sequence[Point]) -> bool:
    """Whether segment pq is covered by the polygon's boundary."""
    length = ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
    if length <= TOLERANCE:
        return any(on_segment(p, a, b) for a, b in edges(polygon))
    ux, uz = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    pieces = []
    for a, b in edges(polygon):
        if not (_on_line(a, p, ux, uz) and _on_line(b, p, ux, uz)):
            continue
        ta = (a[0] - p[0]) * ux + (a[1] - p[1]) * uz
        tb = (b[0] - p[0]) * ux + (b[1] - p[1]) * uz
        pieces.append((min(ta, tb), max(ta, tb)))
    reached = 0.0
    for low, high in sorted(pieces):
        if low > reached + TOLERANCE:
            break
        reached = max(reached, high)
    return bool(reached >= length - TOLERANCE)


def _on_line(point: Point, origin: Point, ux: float, uz: float) -> bool:
    return abs((point[0] - origin[0]) * uz - (point[1] - origin[1]) * ux) <= TOLERANCE


def axis_normals(a: Point, b: Point) -> list[Point] | None:
    """The two unit normals of side ab, for an axis-aligned side (None for a slanted one)."""
    if abs(a[1] - b[1]) <= TOLERANCE:
        return [(0.0, 1.0), (0.0, -1.0)]
    if abs(a[0] - b[0]) <= TOLERANCE:
        return [(1.0, 0.0), (-1.0, 0.0)]
    return None


# --------------------------------------------------------------------------- rectangles


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle of the floor plane: x from ``x0`` to ``x1``, z likewise."""

    x0: float
    z0: float
    x1: float
    z1: float

    @classmethod
    def around(cls, points: Iterable[Point]) -> Rect:
        """The smallest rectangle holding ``points``."""
        listed = list(points)
        xs = [p[0] for p in listed]
        zs = [p[1] for p in listed]
        return cls(min(xs), min(zs), max(xs), max(zs))

    @property
    def centre(self) -> Point:
        return (self.x0 + self.x1) / 2, (self.z0 + self.z1) / 2

    def inside(self, other: Rect) -> bool:
        return (
            self.x0 >= other.x0 - TOLERANCE
            and self.z0 >= other.z0 - TOLERANCE
            and self.x1 <= other.x1 + TOLERANCE
            and self.z1 <= other.z1 + TOLERANCE
        )

    def overlaps(self, other: Rect) -> bool:
        return (
            min(self.x1, other.x1) - max(self.x0, other.x0) > TOLERANCE
            and min(self.z1, other.z1) - max(self.z0, other.z0) > TOLERANCE
        )

    def gap(self, other: Rect) -> float:
        dx = max(other.x0 - self.x1, self.x0 - other.x1, 0.0)
        dz = max(other.z0 - self.z1, self.z0 - other.z1, 0.0)
        return float((dx * dx + dz * dz) ** 0.5)

    def span(self, direction: Point) -> tuple[float, float]:
        """The range of ``p . direction`` over the rectangle (direction is axis-aligned)."""
        dx, dz = direction
        values = [x * dx + z * dz for x in (self.x0, self.x1) for z in (self.z0, self.z1)]
        return min(values), max(values)

    def holds(self, p: Point) -> bool:
        """Whether ``p`` lies in the open rectangle."""
        return self.x0 < p[0] < self.x1 and self.z0 < p[1] < self.z1

    def distance(self, p: Point) -> float:
        """How far ``p`` is from the closed rectangle (0 inside)."""
        dx = max(self.x0 - p[0], 0.0, p[0] - self.x1)
        dz = max(self.z0 - p[1], 0.0, p[1] - self.z1)
        return float((dx * dx + dz * dz) ** 0.5)

    def __str__(self) -> str:
        return f"x {self.x0:.3f}..{self.x1:.3f}, z {self.z0:.3f}..{self.z1:.3f}"


def rect_in_polygon(rect: Rect, polygon: Sequence[Point]) -> bool:
    """Whether the rectangle lies in the closed polygon: its corners do, and no polygon edge
    passes through its open interior."""
    corners = [(rect.x0, rect.z0), (rect.x1, rect.z0), (rect.x1, rect.z1), (rect.x0, rect.z1)]
    if not all(contains(polygon, c) for c in corners):
        return False
    shrunk = Rect(
        rect.x0 + TOLERANCE, rect.z0 + TOLERANCE, rect.x1 - TOLERANCE, rect.z1 - TOLERANCE
    )
    return not any(_edge_enters(a, b, shrunk) for a, b in edges(polygon))


def _edge_enters(a: Point, b: Point, rect: Rect) -> bool:
    """Whether segment ab meets the open rectangle (Liang-Barsky clipping)."""
    if rect.x0 >= rect.x1 or rect.z0 >= rect.z1:
        return False
    t0, t1 = 0.0, 1.0
    dx, dz = b[0] - a[0], b[1] - a[1]
    for p, q in (
        (-dx, a[0] - rect.x0),
        (dx, rect.x1 - a[0]),
        (-dz, a[1] - rect.z0),
        (dz, rect.z1 - a[1]),
    ):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    if t0 >= t1:
        return False
    mid = (t0 + t1) / 2
    x, z = a[0] + mid * dx, a[1] + mid * dz
    return rect.x0 < x < rect.x1 and rect.z0 < z < rect.z1
