"""The physics checker: Table 1 of the paper, recomputed from a :class:`Scene` alone.

It shares no geometry code with the layout solver (``layout.py``): it works on the scene's real
coordinates in floating point, with its own polygon and rectangle routines, so a mistake in the
solver's integer encoding shows up here instead of being repeated. What the two share are the
definitions (the relation thresholds in :mod:`pytest_logicenv.scenes.model`, the relations as
``layout.py``'s docstring defines them).

Three dimensions, as in the paper's Table 1:

- **floor plan**: room polygons are simple and do not overlap; each door lies on its wall, on
  the floor, where that wall separates the two rooms it joins (or on an exterior wall of its
  room, for an outside door); each window lies in an exterior wall of its room, above the floor
  and below the wall's top; openings on one wall do not overlap.
- **entity**: every object is supported (on the floor, on its parent's top within its footprint,
  inside its parent, or hung with its back on a wall of its room), and a parent is a receptacle
  that takes it; no two objects collide (an object and what holds it excepted); each object
  lies inside its designated room, below the ceiling; nothing but a flat mark lies in a door's
  swing area (as deep as the door is wide), nothing stands or hangs in front of a window's
  opening; the agent starts inside its room, on free floor.
- **relation**: every relation the layout kept (and every requested relation it did not record
  as dropped) holds.

PhyPR per dimension is the share of scenes passing that dimension (the paper's metric), and
``overall`` the share passing all three.

>>> from dataclasses import replace
>>> from pytest_logicenv.scenes.model import Room, SceneObject
>>> room = Room("r", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> box = SceneObject("box", "Box", room="r", size=(1, 1, 1), position=(1, 0.5, 1))
>>> check_scene(Scene("ok", rooms=(room,), objects=(box,))).passed
True
>>> floating = replace(box, id="ball", position=(2.5, 2.0, 2.5), size=(0.4, 0.4, 0.4))
>>> report = check_scene(Scene("bad", rooms=(room,), objects=(box, floating)))
>>> for violation in report.violations:
...     print(violation)
[entity] objects[ball]: floats: its bottom is at 1.800 m, not on the floor (y = 0)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from pytest_logicenv.errors import Violation
from pytest_logicenv.scenes.model import (
    ABOVE_MARGIN,
    ADJACENT_DISTANCE,
    AGENT_RADIUS,
    ALIGN_TOLERANCE,
    CENTER_FRACTION,
    DOOR_UNDERCUT,
    EDGE_DISTANCE,
    FAR_DISTANCE,
    NEAR_DISTANCE,
    REACH_DISTANCE,
    WALL_HEIGHT,
    WINDOW_REVEAL,
    Door,
    Room,
    Scene,
    SceneObject,
    SpatialRelation,
    Wall,
    Window,
    door_clearance,
)

#: Slack (metres) for equalities and touching surfaces: positions are stored to 1e-6 m.
TOLERANCE = 1e-4

Point = tuple[float, float]


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class DimensionCheck:
    """One dimension of one scene: how many checks ran and which failed."""

    name: str
    checks: int
    violations: tuple[Violation, ...]

    @property
    def passed(self) -> bool:
        return not self.violations


@dataclass(frozen=True)
class SceneCheck:
    """The three dimensions of one scene."""

    scene: str
    floor_plan: DimensionCheck
    entity: DimensionCheck
    relation: DimensionCheck

    @property
    def dimensions(self) -> tuple[DimensionCheck, DimensionCheck, DimensionCheck]:
        return self.floor_plan, self.entity, self.relation

    @property
    def passed(self) -> bool:
        return all(d.passed for d in self.dimensions)

    @property
    def violations(self) -> tuple[Violation, ...]:
        return tuple(v for d in self.dimensions for v in d.violations)


@dataclass(frozen=True)
class PhyPR:
    """Physics pass rates (percent) over a set of scenes."""

    scenes: int
    floor_plan: float
    entity: float
    relation: float
    overall: float

    @property
    def average(self) -> float:
        """The mean of the three dimensions (the paper's "Avg" column)."""
        return (self.floor_plan + self.entity + self.relation) / 3

    def __str__(self) -> str:
        return (
            f"PhyPR over {self.scenes} scene{'s' if self.scenes != 1 else ''}: "
            f"floor plan {self.floor_plan:.1f}%, entity {self.entity:.1f}%, "
            f"relation {self.relation:.1f}%, all three {self.overall:.1f}%"
        )


def phypr(checks: Sequence[SceneCheck]) -> PhyPR:
    """The share of scenes passing each dimension, and all three.

    >>> phypr([])
    PhyPR(scenes=0, floor_plan=0.0, entity=0.0, relation=0.0, overall=0.0)
    """
    count = len(checks)

    def rate(passed: Iterable[bool]) -> float:
        return 100.0 * sum(passed) / count if count else 0.0

    return PhyPR(
        scenes=count,
        floor_plan=rate(c.floor_plan.passed for c in checks),
        entity=rate(c.entity.passed for c in checks),
        relation=rate(c.relation.passed for c in checks),
        overall=rate(c.passed for c in checks),
    )


class _Collector:
    def __init__(self, name: str) -> None:
        self.name = name
        self.checks = 0
        self.violations: list[Violation] = []

    def expect(self, ok: bool, location: str, message: str) -> bool:
        self.checks += 1
        if not ok:
            self.violations.append(Violation(self.name, location, message))
        return ok

    def result(self) -> DimensionCheck:
        return DimensionCheck(self.name, self.checks, tuple(self.violations))


# --------------------------------------------------------------------------- plane geometry


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _edges(polygon: Sequence[Point]) -> list[tuple[Point, Point]]:
    return [(polygon[i], polygon[(i + 1) % len(polygon)]) for i in range(len(polygon))]


def _signed_area(polygon: Sequence[Point]) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in _edges(polygon)) / 2


def _proper_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Segments ab and cd cross at a single point interior to both."""
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    eps = 1e-12
    return ((d1 > eps and d2 < -eps) or (d1 < -eps and d2 > eps)) and (
        (d3 > eps and d4 < -eps) or (d3 < -eps and d4 > eps)
    )


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
    if length == 0:
        return abs(p[0] - a[0]) <= TOLERANCE and abs(p[1] - a[1]) <= TOLERANCE
    if abs(_cross(a, b, p)) / length > TOLERANCE:
        return False
    t = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length**2
    return bool(-TOLERANCE / length <= t <= 1 + TOLERANCE / length)


def _contains(polygon: Sequence[Point], p: Point) -> bool:
    """Point in the closed polygon (the boundary counts)."""
    if any(_on_segment(p, a, b) for a, b in _edges(polygon)):
        return True
    inside = False
    for a, b in _edges(polygon):
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if p[0] < x:
                inside = not inside
    return inside


def _strictly_inside(polygon: Sequence[Point], p: Point) -> bool:
    return _contains(polygon, p) and not any(_on_segment(p, a, b) for a, b in _edges(polygon))


def _crossings(polygon: Sequence[Point], x: float) -> list[float]:
    """Sorted z where the vertical line at ``x`` crosses the polygon (no vertex at ``x``)."""
    out = []
    for a, b in _edges(polygon):
        if (a[0] < x) != (b[0] < x):
            out.append(a[1] + (x - a[0]) * (b[1] - a[1]) / (b[0] - a[0]))
    return sorted(out)


def _polygons_overlap(first: Sequence[Point], second: Sequence[Point]) -> bool:
    """Whether two simple polygons share area (touching along edges does not count).

    A proper crossing of two edges means overlap. Without one, the order of the edges along any
    vertical line is the same throughout each slab between consecutive vertex x coordinates, so
    comparing the inside intervals on each slab's middle line decides it.
    """
    for a, b in _edges(first):
        for c, d in _edges(second):
            if _proper_cross(a, b, c, d):
                return True
    xs = sorted({p[0] for p in (*first, *second)})
    for left, right in itertools.pairwise(xs):
        if right - left <= TOLERANCE:
            continue
        mid = (left + right) / 2
        za, zb = _crossings(first, mid), _crossings(second, mid)
        for i in range(0, len(za) - 1, 2):
            for j in range(0, len(zb) - 1, 2):
                if min(za[i + 1], zb[j + 1]) - max(za[i], zb[j]) > TOLERANCE:
                    return True
    return False


def _segment_on_boundary(p: Point, q: Point, polygon: Sequence[Point]) -> bool:
    """Whether segment pq is covered by the polygon's boundary."""
    length = ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
    if length <= TOLERANCE:
        return any(_on_segment(p, a, b) for a, b in _edges(polygon))
    ux, uz = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    pieces = []
    for a, b in _edges(polygon):
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


@dataclass(frozen=True)
class _Rect:
    x0: float
    z0: float
    x1: float
    z1: float

    @property
    def centre(self) -> Point:
        return (self.x0 + self.x1) / 2, (self.z0 + self.z1) / 2

    def inside(self, other: _Rect) -> bool:
        return (
            self.x0 >= other.x0 - TOLERANCE
            and self.z0 >= other.z0 - TOLERANCE
            and self.x1 <= other.x1 + TOLERANCE
            and self.z1 <= other.z1 + TOLERANCE
        )

    def overlaps(self, other: _Rect) -> bool:
        return (
            min(self.x1, other.x1) - max(self.x0, other.x0) > TOLERANCE
            and min(self.z1, other.z1) - max(self.z0, other.z0) > TOLERANCE
        )

    def gap(self, other: _Rect) -> float:
        dx = max(other.x0 - self.x1, self.x0 - other.x1, 0.0)
        dz = max(other.z0 - self.z1, self.z0 - other.z1, 0.0)
        return float((dx * dx + dz * dz) ** 0.5)

    def span(self, direction: Point) -> tuple[float, float]:
        """The range of ``p . direction`` over the rectangle (direction is axis-aligned)."""
        dx, dz = direction
        values = [x * dx + z * dz for x in (self.x0, self.x1) for z in (self.z0, self.z1)]
        return min(values), max(values)


def _rect_in_polygon(rect: _Rect, polygon: Sequence[Point]) -> bool:
    """Whether the rectangle lies in the closed polygon: its corners do, and no polygon edge
    passes through its open interior."""
    corners = [(rect.x0, rect.z0), (rect.x1, rect.z0), (rect.x1, rect.z1), (rect.x0, rect.z1)]
    if not all(_contains(polygon, c) for c in corners):
        return False
    shrunk = _Rect(
        rect.x0 + TOLERANCE, rect.z0 + TOLERANCE, rect.x1 - TOLERANCE, rect.z1 - TOLERANCE
    )
    return not any(_edge_enters(a, b, shrunk) for a, b in _edges(polygon))


def _edge_enters(a: Point, b: Point, rect: _Rect) -> bool:
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


# --------------------------------------------------------------------------- objects


_FRONT = {0: (0.0, 1.0), 90: (1.0, 0.0), 180: (0.0, -1.0), 270: (-1.0, 0.0)}


def _footprint(obj: SceneObject) -> _Rect:
    sx, _, sz = obj.size
    if obj.rotation in (90, 270):
        sx, sz = sz, sx
    x, _, z = obj.position
    return _Rect(x - sx / 2, z - sz / 2, x + sx / 2, z + sz / 2)


def _bottom(obj: SceneObject) -> float:
    return obj.position[1] - obj.size[1] / 2


def _top(obj: SceneObject) -> float:
    return obj.position[1] + obj.size[1] / 2


def _front(obj: SceneObject) -> Point:
    return _FRONT[obj.rotation]


def _across(direction: Point) -> Point:
    return -direction[1], direction[0]


def _dot(p: Point, direction: Point) -> float:
    return p[0] * direction[0] + p[1] * direction[1]


def _inward(room: Room, a: Point, b: Point) -> Point | None:
    """The unit normal of side ab that points into the room, for an axis-aligned side."""
    if abs(a[1] - b[1]) <= TOLERANCE:
        normals: list[Point] = [(0.0, 1.0), (0.0, -1.0)]
    elif abs(a[0] - b[0]) <= TOLERANCE:
        normals = [(1.0, 0.0), (-1.0, 0.0)]
    else:
        return None
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    for n in normals:
        if _strictly_inside(room.polygon, (mid[0] + n[0] * 1e-3, mid[1] + n[1] * 1e-3)):
            return n
    return None


def _against_wall(obj: SceneObject, room: Room) -> bool:
    """The object's back lies on an axis-aligned side of the room, within the side, and the
    object faces into the room."""
    rect = _footprint(obj)
    front = _front(obj)
    back = rect.span(front)[0]  # the footprint's coordinate on its back face
    across = _across(front)
    low, high = rect.span(across)
    for a, b in _edges(room.polygon):
        if _inward(room, a, b) != front:
            continue
        if abs(_dot(a, front) - back) > TOLERANCE:
            continue
        ends = sorted((_dot(a, across), _dot(b, across)))
        if low >= ends[0] - TOLERANCE and high <= ends[1] + TOLERANCE:
            return True
    return False


def _ancestors(obj: SceneObject, by_id: dict[str, SceneObject]) -> list[str]:
    chain: list[str] = []
    current = obj
    while current.parent is not None and current.parent in by_id and current.parent not in chain:
        chain.append(current.parent)
        current = by_id[current.parent]
    return chain


# --------------------------------------------------------------------------- floor plan


def _wall_point(wall: Wall, distance: float) -> Point:
    (x0, z0), (x1, z1) = wall.start, wall.end
    length = ((x1 - x0) ** 2 + (z1 - z0) ** 2) ** 0.5
    t = distance / length if length else 0.0
    return x0 + t * (x1 - x0), z0 + t * (z1 - z0)


def _wall_length(wall: Wall) -> float:
    return float(((wall.end[0] - wall.start[0]) ** 2 + (wall.end[1] - wall.start[1]) ** 2) ** 0.5)


def _check_floor_plan(scene: Scene) -> DimensionCheck:
    out = _Collector("floor_plan")
    rooms = {room.id: room for room in scene.rooms}
    for room in scene.rooms:
        where = f"rooms[{room.id}]"
        if not out.expect(len(room.polygon) >= 3, where, "a room polygon needs 3 corners"):
            continue
        out.expect(abs(_signed_area(room.polygon)) > TOLERANCE, where, "the polygon has no area")
        edges = _edges(room.polygon)
        crossing = any(
            _proper_cross(*edges[i], *edges[j])
            for i in range(len(edges))
            for j in range(i + 2, len(edges))
            if not (i == 0 and j == len(edges) - 1)
        )
        out.expect(not crossing, where, "the polygon crosses itself")
    for i, first in enumerate(scene.rooms):
        for second in scene.rooms[i + 1 :]:
            out.expect(
                not _polygons_overlap(first.polygon, second.polygon),
                f"rooms[{first.id}]",
                f"overlaps room {second.id!r}",
            )
    walls = {wall.id: wall for wall in scene.walls}
    spans: dict[str, list[tuple[float, float, str]]] = {}
    for door in scene.doors:
        wall = _opening_wall(out, f"doors[{door.id}]", door, walls)
        if wall is not None:
            _check_door(out, door, wall, rooms)
            spans.setdefault(wall.id, []).append((door.offset, door.offset + door.width, door.id))
    for window in scene.windows:
        wall = _opening_wall(out, f"windows[{window.id}]", window, walls)
        if wall is not None:
            _check_window(out, window, wall, rooms)
            spans.setdefault(wall.id, []).append(
                (window.offset, window.offset + window.width, window.id)
            )
    for wall_id, wall_spans in spans.items():
        wall_spans.sort()
        for (_, end, earlier), (start, _, later) in itertools.pairwise(wall_spans):
            out.expect(
                start >= end - TOLERANCE,
                f"walls[{wall_id}]",
                f"openings {earlier} and {later} overlap on the wall",
            )
    return out.result()


def _opening_wall(
    out: _Collector, where: str, opening: Door | Window, walls: dict[str, Wall]
) -> Wall | None:
    wall = walls.get(opening.wall)
    if not out.expect(wall is not None, where, f"its wall {opening.wall!r} is not in the scene"):
        return None
    assert wall is not None
    length = _wall_length(wall)
    ok = out.expect(
        opening.offset >= -TOLERANCE
        and opening.width > 0
        and opening.offset + opening.width <= length + TOLERANCE,
        where,
        f"spans {opening.offset:.3f}..{opening.offset + opening.width:.3f} m along a wall "
        f"{length:.3f} m long",
    )
    return wall if ok else None


def _rooms_holding(segment: tuple[Point, Point], rooms: dict[str, Room]) -> list[str]:
    return [rid for rid, room in rooms.items() if _segment_on_boundary(*segment, room.polygon)]


def _check_door(out: _Collector, door: Door, wall: Wall, rooms: dict[str, Room]) -> None:
    where = f"doors[{door.id}]"
    out.expect(
        0 < door.height <= wall.height + TOLERANCE,
        where,
        f"a door {door.height:.2f} m tall does not stand on the floor within the "
        f"{wall.height:.2f} m wall",
    )
    joined = [r for r in door.rooms if r != "exterior"]
    if not out.expect(
        1 <= len(door.rooms) <= 2 and bool(joined) and all(r in rooms for r in joined),
        where,
        f"joins {list(door.rooms)}; a door joins two rooms of the scene (or one and 'exterior')",
    ):
        return
    segment = _wall_point(wall, door.offset), _wall_point(wall, door.offset + door.width)
    holding = _rooms_holding(segment, rooms)
    if len(joined) == 2:
        out.expect(
            set(joined) <= set(holding),
            where,
            f"is not on the wall between {joined[0]!r} and {joined[1]!r}: its opening "
            f"{_fmt(segment)} lies on the boundary of {holding or 'no room'}",
        )
    else:
        out.expect(
            holding == joined,
            where,
            f"an outside door of {joined[0]!r} must be on an exterior wall of it; its opening "
            f"{_fmt(segment)} lies on the boundary of {holding or 'no room'}",
        )


def _check_window(out: _Collector, window: Window, wall: Wall, rooms: dict[str, Room]) -> None:
    where = f"windows[{window.id}]"
    segment = _wall_point(wall, window.offset), _wall_point(wall, window.offset + window.width)
    holding = _rooms_holding(segment, rooms)
    out.expect(
        holding == [window.room],
        where,
        f"must be in an exterior wall of {window.room!r}; its opening {_fmt(segment)} lies on "
        f"the boundary of {holding or 'no room'}",
    )
    out.expect(
        window.sill > TOLERANCE,
        where,
        f"its sill at {window.sill:.2f} m is not above the floor",
    )
    out.expect(
        window.height > 0 and window.sill + window.height <= wall.height + TOLERANCE,
        where,
        f"its top at {window.sill + window.height:.2f} m is above the {wall.height:.2f} m wall",
    )


def _fmt(segment: tuple[Point, Point]) -> str:
    (x0, z0), (x1, z1) = segment
    return f"({x0:.2f}, {z0:.2f})-({x1:.2f}, {z1:.2f})"


# --------------------------------------------------------------------------- entity


def _check_entity(scene: Scene) -> DimensionCheck:
    out = _Collector("entity")
    rooms = {room.id: room for room in scene.rooms}
    by_id = {obj.id: obj for obj in scene.objects}
    wall_height = max((wall.height for wall in scene.walls), default=WALL_HEIGHT)
    for obj in scene.objects:
        where = f"objects[{obj.id}]"
        room = rooms.get(obj.room)
        if not out.expect(room is not None, where, f"its room {obj.room!r} is not in the scene"):
            continue
        assert room is not None
        _check_support(out, obj, room, by_id, wall_height)
        if obj.relation != "wall":  # (a wall-mounted object's height is checked with its wall)
            out.expect(
                _top(obj) <= wall_height + TOLERANCE,
                where,
                f"reaches {_top(obj):.3f} m, above the {wall_height:.2f} m ceiling",
            )
        out.expect(
            _rect_in_polygon(_footprint(obj), room.polygon),
            where,
            f"its footprint {_rect_text(_footprint(obj))} is not inside room {room.id!r}",
        )
    objects = scene.objects
    for i, first in enumerate(objects):
        chain_first = _ancestors(first, by_id)
        for second in objects[i + 1 :]:
            if second.id in chain_first or first.id in _ancestors(second, by_id):
                continue
            overlap = _overlap(first, second)
            out.expect(
                overlap is None,
                f"objects[{first.id}]",
                f"collides with {second.id!r} (they share {overlap} m)",
            )
    for door in scene.doors:
        for rect, room_id in _swing_areas(scene, door):
            for obj in objects:
                if obj.room != room_id:
                    continue
                out.expect(
                    not (
                        _footprint(obj).overlaps(rect)
                        and _bottom(obj) < door.height
                        and _top(obj) > DOOR_UNDERCUT + TOLERANCE
                    ),
                    f"objects[{obj.id}]",
                    f"stands in the swing area of door {door.id!r} ({_rect_text(rect)})",
                )
    for window in scene.windows:
        reveal = _reveal(scene, window)
        if reveal is None:
            continue
        top = window.sill + window.height
        for obj in objects:
            out.expect(
                not (
                    obj.room == window.room
                    and _footprint(obj).overlaps(reveal)
                    and _bottom(obj) < top - TOLERANCE
                    and _top(obj) > window.sill + TOLERANCE
                ),
                f"objects[{obj.id}]",
                f"covers window {window.id!r} ({_rect_text(reveal)}, from {window.sill:.2f} m)",
            )
    if scene.agent is not None:
        start_room = rooms.get(scene.agent.room)
        if out.expect(
            start_room is not None, "agent", f"room {scene.agent.room!r} is not in the scene"
        ):
            assert start_room is not None
            spot = scene.agent.position
            inside = out.expect(
                _strictly_inside(start_room.polygon, spot),
                "agent",
                f"starts at {spot}, outside room {start_room.id!r}",
            )
            blocking = [
                o.id
                for o in objects
                if o.room == start_room.id
                and o.parent is None
                and o.relation == "on"
                and _inside_rect(spot, _footprint(o))
            ]
            free = out.expect(not blocking, "agent", f"starts inside {', '.join(blocking)}")
            if inside and free:
                _check_reach(out, scene, spot)
    return out.result()


def _inside_rect(p: Point, rect: _Rect) -> bool:
    return rect.x0 < p[0] < rect.x1 and rect.z0 < p[1] < rect.z1


def _rect_text(rect: _Rect) -> str:
    return f"x {rect.x0:.3f}..{rect.x1:.3f}, z {rect.z0:.3f}..{rect.z1:.3f}"


def _check_support(
    out: _Collector,
    obj: SceneObject,
    room: Room,
    by_id: dict[str, SceneObject],
    wall_height: float,
) -> None:
    where = f"objects[{obj.id}]"
    if obj.relation == "wall":
        out.expect(
            obj.parent is None and _against_wall(obj, room),
            where,
            f"is wall-mounted but its back is not flush against a wall of {room.id!r} "
            "facing into the room",
        )
        out.expect(
            _bottom(obj) >= -TOLERANCE and _top(obj) <= wall_height + TOLERANCE,
            where,
            f"hangs from {_bottom(obj):.3f} to {_top(obj):.3f} m, outside the wall's height",
        )
        return
    if obj.parent is None:
        out.expect(
            obj.relation == "on" and abs(_bottom(obj)) <= TOLERANCE,
            where,
            f"floats: its bottom is at {_bottom(obj):.3f} m, not on the floor (y = 0)"
            if obj.relation == "on"
            else f"relation {obj.relation!r} without a parent",
        )
        return
    parent = by_id.get(obj.parent)
    if not out.expect(
        parent is not None and obj.parent not in (obj.id, *(_ancestors(parent, by_id))),
        where,
        f"its parent {obj.parent!r} is not an object of the scene (or holds it in a cycle)",
    ):
        return
    assert parent is not None
    out.expect(
        parent.room == obj.room,
        where,
        f"is in room {obj.room!r} but its parent {parent.id!r} is in {parent.room!r}",
    )
    if out.expect(
        parent.has("receptacle") or parent.has("object_specific_receptacle"),
        where,
        f"rests {obj.relation} {parent.id!r} ({parent.type}), which is not a receptacle",
    ):
        out.expect(
            not parent.accepts or obj.type in parent.accepts,
            where,
            f"{parent.id!r} takes only {', '.join(parent.accepts)}, not {obj.type}",
        )
    inner, outer = _footprint(obj), _footprint(parent)
    if obj.relation == "on":
        out.expect(
            abs(_bottom(obj) - _top(parent)) <= TOLERANCE and inner.inside(outer),
            where,
            f"is not on top of {parent.id!r}: bottom {_bottom(obj):.3f} m vs its top "
            f"{_top(parent):.3f} m, footprint {_rect_text(inner)} vs {_rect_text(outer)}",
        )
    elif obj.relation == "in":
        problem = _inside_problem(obj, parent)
        out.expect(problem is None, where, f"is not inside {parent.id!r}: {problem}")
    else:
        out.expect(False, where, f"relation {obj.relation!r} to a parent must be 'on' or 'in'")


def _inside_problem(obj: SceneObject, parent: SceneObject) -> str | None:
    """Why ``obj`` is not in ``parent``: it must rest within the parent's footprint, its
    bottom within the parent's height, its top below the parent's if the parent opens (so it
    closes; an apple may rise above a bowl's rim)."""
    inner, outer = _footprint(obj), _footprint(parent)
    if not inner.inside(outer):
        return f"its footprint {_rect_text(inner)} leaves {_rect_text(outer)}"
    if not _bottom(parent) - TOLERANCE <= _bottom(obj) <= _top(parent) + TOLERANCE:
        return (
            f"its bottom {_bottom(obj):.3f} m is not within {_bottom(parent):.3f}.."
            f"{_top(parent):.3f} m"
        )
    if parent.has("openable") and _top(obj) > _top(parent) + TOLERANCE:
        return (
            f"its top {_top(obj):.3f} m is above the top {_top(parent):.3f} m of what closes on it"
        )
    return None


def _overlap(first: SceneObject, second: SceneObject) -> str | None:
    a, b = _footprint(first), _footprint(second)
    sizes = (
        min(a.x1, b.x1) - max(a.x0, b.x0),
        min(_top(first), _top(second)) - max(_bottom(first), _bottom(second)),
        min(a.z1, b.z1) - max(a.z0, b.z0),
    )
    if all(s > TOLERANCE for s in sizes):
        return " x ".join(f"{s:.3f}" for s in sizes)
    return None


def _swing_areas(scene: Scene, door: Door) -> Iterator[tuple[_Rect, str]]:
    """The floor area in front of the door on each side (as deep as :func:`door_clearance`),
    with the room it lies in."""
    wall = next((w for w in scene.walls if w.id == door.wall), None)
    if wall is None:
        return
    a = _wall_point(wall, door.offset)
    b = _wall_point(wall, door.offset + door.width)
    if abs(a[1] - b[1]) <= TOLERANCE:
        normals: list[Point] = [(0.0, 1.0), (0.0, -1.0)]
    elif abs(a[0] - b[0]) <= TOLERANCE:
        normals = [(1.0, 0.0), (-1.0, 0.0)]
    else:
        return
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    for nx, nz in normals:
        probe = mid[0] + nx * 1e-3, mid[1] + nz * 1e-3
        for room in scene.rooms:
            if room.id in door.rooms and _strictly_inside(room.polygon, probe):
                depth = door_clearance(door.width)
                far = [(p[0] + nx * depth, p[1] + nz * depth) for p in (a, b)]
                xs = [p[0] for p in (a, b, *far)]
                zs = [p[1] for p in (a, b, *far)]
                yield _Rect(min(xs), min(zs), max(xs), max(zs)), room.id


def _reveal(scene: Scene, window: Window) -> _Rect | None:
    """The slab of floor plane ``WINDOW_REVEAL`` deep in front of a window's opening, on its
    room's side."""
    wall = next((w for w in scene.walls if w.id == window.wall), None)
    room = next((r for r in scene.rooms if r.id == window.room), None)
    if wall is None or room is None:
        return None
    a = _wall_point(wall, window.offset)
    b = _wall_point(wall, window.offset + window.width)
    inward = _inward(room, a, b)
    if inward is None:
        return None
    deep = [(p[0] + inward[0] * WINDOW_REVEAL, p[1] + inward[1] * WINDOW_REVEAL) for p in (a, b)]
    xs = [p[0] for p in (a, b, *deep)]
    zs = [p[1] for p in (a, b, *deep)]
    return _Rect(min(xs), min(zs), max(xs), max(zs))


# --------------------------------------------------------------------------- reach

#: Spacing (metres) of the points where the checker tries the agent's body on the floor.
REACH_STEP = 0.05


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    length2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2
    t = 0.0
    if length2 > 0:
        t = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length2
        t = min(1.0, max(0.0, t))
    x, z = a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])
    return float(((p[0] - x) ** 2 + (p[1] - z) ** 2) ** 0.5)


def _point_gap(p: Point, rect: _Rect) -> float:
    dx = max(rect.x0 - p[0], 0.0, p[0] - rect.x1)
    dz = max(rect.z0 - p[1], 0.0, p[1] - rect.z1)
    return float((dx * dx + dz * dz) ** 0.5)


def _wall_pieces(scene: Scene) -> list[tuple[Point, Point]]:
    """Every side of every room, less the openings of the doors between two rooms (the agent
    does not leave the house by a door to the outside)."""
    walls = {wall.id: wall for wall in scene.walls}
    openings = []
    for door in scene.doors:
        wall = walls.get(door.wall)
        if wall is not None and len([r for r in door.rooms if r != "exterior"]) == 2:
            openings.append(
                (_wall_point(wall, door.offset), _wall_point(wall, door.offset + door.width))
            )
    pieces = []
    for room in scene.rooms:
        for a, b in _edges(room.polygon):
            length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
            if length <= TOLERANCE:
                continue
            cut = []  # the openings on this side, as fractions of it
            for p, q in openings:
                if _on_segment(p, a, b) and _on_segment(q, a, b):
                    tp = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length**2
                    tq = ((q[0] - a[0]) * (b[0] - a[0]) + (q[1] - a[1]) * (b[1] - a[1])) / length**2
                    cut.append((min(tp, tq), max(tp, tq)))
            start = 0.0
            for low, high in [*sorted(cut), (1.0, 1.0)]:
                if low > start:
                    pieces.append(
                        (
                            (a[0] + start * (b[0] - a[0]), a[1] + start * (b[1] - a[1])),
                            (a[0] + low * (b[0] - a[0]), a[1] + low * (b[1] - a[1])),
                        )
                    )
                start = max(start, high)
    return pieces


def _obstacles(scene: Scene) -> list[tuple[str, _Rect]]:
    """What the agent walks around: everything standing on the floor or hanging on a wall,
    but flat marks (it walks over a stain)."""
    return [
        (obj.id, _footprint(obj))
        for obj in scene.objects
        if obj.parent is None and _top(obj) > DOOR_UNDERCUT + TOLERANCE
    ]


def _check_reach(out: _Collector, scene: Scene, start: Point) -> None:
    """The agent, a disc of ``AGENT_RADIUS``, walks the floor between the walls (from room to
    room through their doors) and around what stands there. It must fit where it starts, and
    from there get within ``REACH_DISTANCE`` of every task object (of what it rests on) and
    of every window with a role: the agent acts on what the task names."""
    walls = _wall_pieces(scene)
    obstacles = _obstacles(scene)
    clash = [("a wall", _segment_distance(start, a, b)) for a, b in walls] + [
        (name, _point_gap(start, rect)) for name, rect in obstacles
    ]
    near = [(gap, name) for name, gap in clash if gap < AGENT_RADIUS - TOLERANCE]
    if not out.expect(
        not near,
        "agent",
        f"no room for its body ({AGENT_RADIUS} m around {start})"
        + (f": {min(near)[1]} is {min(near)[0]:.3f} m away" if near else ""),
    ):
        return
    step = REACH_STEP

    def points(
        low_x: float, low_z: float, high_x: float, high_z: float
    ) -> Iterator[tuple[int, int]]:
        for i in range(math.ceil(low_x / step), math.floor(high_x / step) + 1):
            for j in range(math.ceil(low_z / step), math.floor(high_z / step) + 1):
                yield i, j

    rooms: dict[str, set[tuple[int, int]]] = {}
    for room in scene.rooms:
        xs = [p[0] for p in room.polygon]
        inside: set[tuple[int, int]] = set()
        for i in range(math.ceil(min(xs) / step), math.floor(max(xs) / step) + 1):
            # Where the column crosses the room's sides (a side through a point of the column
            # counts on one side only, as in ray casting; points on walls are blocked anyway).
            crossings = _crossings(room.polygon, i * step)
            for low, high in zip(crossings[::2], crossings[1::2], strict=False):
                inside.update(
                    (i, j) for j in range(math.ceil(low / step), math.floor(high / step) + 1)
                )
        rooms[room.id] = inside
    floor = set().union(*rooms.values())
    blocked: set[tuple[int, int]] = set()
    grow = AGENT_RADIUS - TOLERANCE
    # Walls are segments, obstacles rectangles: a point is blocked when the agent's disc there
    # meets one.
    shapes: list[tuple[_Rect, Callable[[Point], float]]] = [
        (
            _Rect(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])),
            functools.partial(_segment_distance, a=a, b=b),
        )
        for a, b in walls
    ]
    shapes += [(rect, functools.partial(_point_gap, rect=rect)) for _, rect in obstacles]
    for box, distance in shapes:
        for i, j in points(box.x0 - grow, box.z0 - grow, box.x1 + grow, box.z1 + grow):
            if (i, j) in floor and distance((i * step, j * step)) < grow:
                blocked.add((i, j))
    free = floor - blocked
    seeds = [
        (i, j)
        for i, j in points(start[0] - step, start[1] - step, start[0] + step, start[1] + step)
        if (i, j) in free
    ]
    reached = set(seeds)
    frontier = list(seeds)
    while frontier:
        i, j = frontier.pop()
        for neighbour in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if neighbour in free and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)

    def within_reach(rect: _Rect, room: str) -> bool:
        """Whether the agent gets within reach of ``rect`` in its room (not through a wall)."""
        reach = REACH_DISTANCE + TOLERANCE
        here = rooms.get(room, set())
        return any(
            (i, j) in reached and (i, j) in here and _point_gap((i * step, j * step), rect) <= reach
            for i, j in points(rect.x0 - reach, rect.z0 - reach, rect.x1 + reach, rect.z1 + reach)
        )

    by_id = {obj.id: obj for obj in scene.objects}
    judged: dict[str, bool] = {}
    message = (
        f"is out of the agent's reach: no floor it can walk to from its start lies within "
        f"{REACH_DISTANCE} m of it"
    )
    for obj in scene.objects:
        if not obj.task:
            continue
        chain = _ancestors(obj, by_id)
        ground = by_id[chain[-1]] if chain else obj
        if ground.id not in judged:
            judged[ground.id] = within_reach(_footprint(ground), ground.room)
        out.expect(judged[ground.id], f"objects[{obj.id}]", message)
    walls_by_id = {wall.id: wall for wall in scene.walls}
    for window in scene.windows:
        wall = walls_by_id.get(window.wall)
        if window.role is None or wall is None:
            continue
        a = _wall_point(wall, window.offset)
        b = _wall_point(wall, window.offset + window.width)
        span = _Rect(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
        out.expect(within_reach(span, window.room), f"windows[{window.id}]", message)


# --------------------------------------------------------------------------- relations


def _relations_to_check(scene: Scene) -> list[SpatialRelation]:
    """The kept relations, and requested ones not recorded as dropped, each once."""
    dropped = {(r.kind, r.subject, r.target) for r in scene.provenance.dropped}
    out: dict[tuple[str, str, str | None], SpatialRelation] = {}
    for relation in (*scene.provenance.kept, *scene.relations):
        key = (relation.kind, relation.subject, relation.target)
        if key not in dropped and key not in out:
            out[key] = relation
    return list(out.values())


def _check_relations(scene: Scene) -> DimensionCheck:
    out = _Collector("relation")
    by_id = {obj.id: obj for obj in scene.objects}
    rooms = {room.id: room for room in scene.rooms}
    for relation in _relations_to_check(scene):
        problem = _relation_problem(relation, rooms, by_id)
        out.expect(problem is None, f"relations[{relation}]", problem or "")
    return out.result()


def _relation_problem(
    relation: SpatialRelation, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    """Why the relation does not hold (None when it does)."""
    s = by_id.get(relation.subject)
    t = by_id.get(relation.target) if relation.target is not None else None
    if s is None or (relation.target is not None and t is None):
        return "names an object that is not in the scene"
    if relation.kind in _UNARY and t is None:
        reason = _UNARY[relation.kind](s, rooms, by_id)
    elif relation.kind in _BINARY and t is not None:
        if relation.kind == "far" and s.room != t.room:
            return None  # different rooms are far apart
        if s.room != t.room:
            reason = f"{s.id!r} is in {s.room!r}, {t.id!r} in {t.room!r}"
        else:
            reason = _BINARY[relation.kind](s, t)
    else:
        return f"unknown relation kind {relation.kind!r} for {'two objects' if t else 'one object'}"
    return None if reason is None else f"does not hold: {reason}"


def _edge_holds(
    s: SceneObject, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    rect = _footprint(s)
    if s.relation == "wall":
        return "edge applies to objects on the floor or on a surface, not on a wall"
    if s.parent is None:
        room = rooms[s.room]
        front = _front(s)
        back = rect.span(front)[0]
        across = _across(front)
        low, high = rect.span(across)
        for a, b in _edges(room.polygon):
            if _inward(room, a, b) != front:
                continue
            gap = back - _dot(a, front)
            ends = sorted((_dot(a, across), _dot(b, across)))
            if (
                -TOLERANCE <= gap <= EDGE_DISTANCE + TOLERANCE
                and low >= ends[0] - TOLERANCE
                and high <= ends[1] + TOLERANCE
            ):
                return None
        return (
            f"no wall of {s.room!r} is within {EDGE_DISTANCE} m behind it, along its whole "
            f"back (footprint {_rect_text(rect)}, facing {front})"
        )
    parent = _footprint(by_id[s.parent])
    gaps = (rect.x0 - parent.x0, parent.x1 - rect.x1, rect.z0 - parent.z0, parent.z1 - rect.z1)
    if min(abs(g) for g in gaps) <= EDGE_DISTANCE + TOLERANCE:
        return None
    return f"it is {min(abs(g) for g in gaps):.3f} m from the rim of {s.parent!r}"


def _center_holds(
    s: SceneObject, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    if s.relation == "wall":
        return "center applies to objects on the floor or on a surface, not on a wall"
    if s.parent is None:
        xs = [p[0] for p in rooms[s.room].polygon]
        zs = [p[1] for p in rooms[s.room].polygon]
        support = _Rect(min(xs), min(zs), max(xs), max(zs))
    else:
        support = _footprint(by_id[s.parent])
    (cx, cz), (sx, sz) = _footprint(s).centre, support.centre
    limit_x = CENTER_FRACTION * (support.x1 - support.x0) + TOLERANCE
    limit_z = CENTER_FRACTION * (support.z1 - support.z0) + TOLERANCE
    if abs(cx - sx) <= limit_x and abs(cz - sz) <= limit_z:
        return None
    return f"its centre ({cx:.3f}, {cz:.3f}) is off the support's centre ({sx:.3f}, {sz:.3f})"


def _mounted_holds(
    s: SceneObject, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    if s.relation == "wall" and s.parent is None and _against_wall(s, rooms[s.room]):
        return None
    return "it is not hung with its back on a wall of its room"


def _in_holds(s: SceneObject, t: SceneObject) -> str | None:
    if s.parent != t.id or s.relation != "in":
        return f"{s.id!r} rests {s.relation} {s.parent or 'the floor'}"
    return _inside_problem(s, t)


def _on_top_holds(s: SceneObject, t: SceneObject) -> str | None:
    if s.parent != t.id or s.relation != "on":
        return f"{s.id!r} rests {s.relation} {s.parent or 'the floor'}"
    inner, outer = _footprint(s), _footprint(t)
    if not inner.inside(outer):
        return f"its footprint {_rect_text(inner)} leaves {_rect_text(outer)}"
    if abs(_bottom(s) - _top(t)) > TOLERANCE:
        return f"its bottom {_bottom(s):.3f} m is not {t.id!r}'s top {_top(t):.3f} m"
    return None


def _near_holds(s: SceneObject, t: SceneObject) -> str | None:
    gap = _footprint(s).gap(_footprint(t))
    if gap <= NEAR_DISTANCE + TOLERANCE:
        return None
    return f"they are {gap:.3f} m apart (near means <= {NEAR_DISTANCE} m)"


def _far_holds(s: SceneObject, t: SceneObject) -> str | None:
    gap = _footprint(s).gap(_footprint(t))
    if gap >= FAR_DISTANCE - TOLERANCE:
        return None
    return f"they are {gap:.3f} m apart (far means >= {FAR_DISTANCE} m)"


def _above_holds(s: SceneObject, t: SceneObject) -> str | None:
    if _bottom(s) < _top(t) - TOLERANCE:
        return f"its bottom {_bottom(s):.3f} m is below {t.id!r}'s top {_top(t):.3f} m"
    (cx, cz), area = _footprint(s).centre, _footprint(t)
    margin = ABOVE_MARGIN + TOLERANCE
    if area.x0 - margin <= cx <= area.x1 + margin and area.z0 - margin <= cz <= area.z1 + margin:
        return None
    return f"its centre ({cx:.3f}, {cz:.3f}) is not over {t.id!r} ({_rect_text(area)})"


def _beyond(first: _Rect, second: _Rect, direction: Point, reach: float | None) -> float | None:
    """How far ``first`` lies beyond ``second``'s side in ``direction`` (None if not wholly)."""
    gap = first.span(direction)[0] - second.span(direction)[1]
    if gap < -TOLERANCE or (reach is not None and gap > reach + TOLERANCE):
        return None
    return gap


def _centred_across(s: _Rect, t: _Rect, direction: Point) -> bool:
    across = _across(direction)
    low, high = t.span(across)
    value = _dot(s.centre, across)
    return low - TOLERANCE <= value <= high + TOLERANCE


def _in_front_holds(s: SceneObject, t: SceneObject) -> str | None:
    a, b, front = _footprint(s), _footprint(t), _front(t)
    if _beyond(a, b, front, ADJACENT_DISTANCE) is None:
        return f"it is not within {ADJACENT_DISTANCE} m beyond {t.id!r}'s front (facing {front})"
    if not _centred_across(a, b, front):
        return f"its centre is not within {t.id!r}'s width"
    return None


def _side_holds(s: SceneObject, t: SceneObject) -> str | None:
    a, b, front = _footprint(s), _footprint(t), _front(t)
    left = _across(front)
    right = (-left[0], -left[1])
    if all(_beyond(a, b, side, ADJACENT_DISTANCE) is None for side in (left, right)):
        return f"it is not within {ADJACENT_DISTANCE} m to the left or right of {t.id!r}"
    if not _centred_across(a, b, left):
        return f"its centre is not within {t.id!r}'s depth"
    return None


def _aligned_holds(s: SceneObject, t: SceneObject) -> str | None:
    across = _across(_front(t))
    offset = abs(_dot(_footprint(s).centre, across) - _dot(_footprint(t).centre, across))
    if offset <= ALIGN_TOLERANCE + TOLERANCE:
        return None
    return f"its centre is {offset:.3f} m off {t.id!r}'s facing axis"


def _face_holds(s: SceneObject, t: SceneObject) -> str | None:
    a, b, front = _footprint(s), _footprint(t), _front(s)
    if _beyond(b, a, front, None) is None:
        return f"{t.id!r} is not wholly in front of it (it faces {front})"
    if not _centred_across(a, b, front):
        return f"it does not look straight at {t.id!r}"
    return None


_UNARY: dict[str, Callable[[SceneObject, dict[str, Room], dict[str, SceneObject]], str | None]]
_UNARY = {"edge": _edge_holds, "center": _center_holds, "mounted_on_wall": _mounted_holds}
_BINARY: dict[str, Callable[[SceneObject, SceneObject], str | None]] = {
    "in": _in_holds,
    "on_top_of": _on_top_holds,
    "near": _near_holds,
    "far": _far_holds,
    "above": _above_holds,
    "in_front_of": _in_front_holds,
    "side_of": _side_holds,
    "center_aligned": _aligned_holds,
    "face_to": _face_holds,
}


# --------------------------------------------------------------------------- entry points


def check_scene(scene: Scene) -> SceneCheck:
    """Check one scene on Table 1's three dimensions."""
    return SceneCheck(
        scene=scene.id,
        floor_plan=_check_floor_plan(scene),
        entity=_check_entity(scene),
        relation=_check_relations(scene),
    )
