"""Whether the agent can walk to what the task names, part of Table 1's entity dimension.

The agent, a disc of ``AGENT_RADIUS``, walks the floor between the walls (from room to room
through their doors) and around what stands there. It must fit where it starts, and from there
get within ``REACH_DISTANCE`` of every task object (of what it rests on) and of every window
with a role: the agent acts on what the task names.

The floor is sampled on a grid of :data:`REACH_STEP`: a grid point is free when the agent's
disc there meets no wall and no obstacle, and the agent reaches the free points connected to
its start.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pytest_logicenv.scenes.physics.check_results import Collector
from pytest_logicenv.scenes.physics.geometry import (
    TOLERANCE,
    Point,
    Rect,
    crossings,
    edges,
    lerp,
    on_segment,
    segment_distance,
)
from pytest_logicenv.scenes.physics.objects import ancestors, footprint, opening_span, top
from pytest_logicenv.scenes.scene_model import (
    AGENT_RADIUS,
    DOOR_UNDERCUT,
    REACH_DISTANCE,
    Door,
    Room,
    Scene,
)

#: Spacing (metres) of the points where the checker tries the agent's body on the floor.
REACH_STEP = 0.05

#: A grid point ``(i, j)``: the floor point ``(i * REACH_STEP, j * REACH_STEP)``.
Cell = tuple[int, int]
Segment = tuple[Point, Point]

_OUT_OF_REACH = (
    f"is out of the agent's reach: no floor it can walk to from its start lies within "
    f"{REACH_DISTANCE} m of it"
)


def check_reach(out: Collector, scene: Scene, start: Point) -> None:
    """The agent fits at ``start`` and reaches every task object and window with a role."""
    walls = wall_pieces(scene)
    obstacles = obstacles_of(scene)
    if _body_fits(out, start, walls, obstacles):
        _check_targets(out, scene, _Walkable.explore(scene, start, walls, obstacles))


def _body_fits(
    out: Collector, start: Point, walls: list[Segment], obstacles: list[tuple[str, Rect]]
) -> bool:
    """No wall or obstacle comes within ``AGENT_RADIUS`` of the start."""
    clash = [("a wall", segment_distance(start, a, b)) for a, b in walls] + [
        (name, rect.distance(start)) for name, rect in obstacles
    ]
    near = [(gap, name) for name, gap in clash if gap < AGENT_RADIUS - TOLERANCE]
    return out.expect(
        not near,
        "agent",
        f"no room for its body ({AGENT_RADIUS} m around {start})"
        + (f": {min(near)[1]} is {min(near)[0]:.3f} m away" if near else ""),
    )


def _check_targets(out: Collector, scene: Scene, walkable: _Walkable) -> None:
    """Each task object (judged by what holds it up from the floor), then each window with a
    role, is within reach."""
    by_id = {obj.id: obj for obj in scene.objects}
    judged: dict[str, bool] = {}
    for obj in scene.objects:
        if not obj.task:
            continue
        chain = ancestors(obj, by_id)
        ground = by_id[chain[-1]] if chain else obj
        if ground.id not in judged:
            judged[ground.id] = walkable.within_reach(footprint(ground), ground.room)
        out.expect(judged[ground.id], f"objects[{obj.id}]", _OUT_OF_REACH)
    walls_by_id = {wall.id: wall for wall in scene.walls}
    for window in scene.windows:
        wall = walls_by_id.get(window.wall)
        if window.role is None or wall is None:
            continue
        span = Rect.around(opening_span(wall, window))
        out.expect(walkable.within_reach(span, window.room), f"windows[{window.id}]", _OUT_OF_REACH)


# --------------------------------------------------------------------------- what blocks


def wall_pieces(scene: Scene) -> list[Segment]:
    """Every side of every room, less the openings of the doors between two rooms (the agent
    does not leave the house by a door to the outside)."""
    walls = {wall.id: wall for wall in scene.walls}
    openings = [
        opening_span(wall, door)
        for door in scene.doors
        if (wall := walls.get(door.wall)) is not None and _inner(door)
    ]
    return [
        piece
        for room in scene.rooms
        for a, b in edges(room.polygon)
        for piece in _side_pieces(a, b, openings)
    ]


def _inner(door: Door) -> bool:
    """The door joins two rooms (not a room and the outside)."""
    return len([r for r in door.rooms if r != "exterior"]) == 2


def _side_pieces(a: Point, b: Point, openings: list[Segment]) -> list[Segment]:
    """Side ab of a room, less the openings that lie on it."""
    length = ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2) ** 0.5
    if length <= TOLERANCE:
        return []
    cut = []  # the openings on this side, as fractions of it
    for p, q in openings:
        if on_segment(p, a, b) and on_segment(q, a, b):
            tp, tq = _fraction(p, a, b, length), _fraction(q, a, b, length)
            cut.append((min(tp, tq), max(tp, tq)))
    pieces = []
    start = 0.0
    for low, high in [*sorted(cut), (1.0, 1.0)]:
        if low > start:
            pieces.append((lerp(a, b, start), lerp(a, b, low)))
        start = max(start, high)
    return pieces


def _fraction(p: Point, a: Point, b: Point, length: float) -> float:
    """How far along ab the projection of ``p`` falls, as a fraction of ab."""
    return ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length**2


def obstacles_of(scene: Scene) -> list[tuple[str, Rect]]:
    """What the agent walks around: everything standing on the floor or hanging on a wall,
    but flat marks (it walks over a stain)."""
    return [
        (obj.id, footprint(obj))
        for obj in scene.objects
        if obj.parent is None and top(obj) > DOOR_UNDERCUT + TOLERANCE
    ]


# --------------------------------------------------------------------------- the walkable grid


def _cells(low_x: float, low_z: float, high_x: float, high_z: float) -> Iterator[Cell]:
    """The grid points in the closed box."""
    step = REACH_STEP
    for i in range(math.ceil(low_x / step), math.floor(high_x / step) + 1):
        for j in range(math.ceil(low_z / step), math.floor(high_z / step) + 1):
            yield i, j


def _point(cell: Cell) -> Point:
    return cell[0] * REACH_STEP, cell[1] * REACH_STEP


def _room_cells(room: Room) -> set[Cell]:
    """The grid points inside the room, column by column."""
    step = REACH_STEP
    xs = [p[0] for p in room.polygon]
    inside: set[Cell] = set()
    for i in range(math.ceil(min(xs) / step), math.floor(max(xs) / step) + 1):
        # Where the column crosses the room's sides (a side through a point of the column
        # counts on one side only, as in ray casting; points on walls are blocked anyway).
        column = crossings(room.polygon, i * step)
        for low, high in zip(column[::2], column[1::2], strict=False):
            inside.update((i, j) for j in range(math.ceil(low / step), math.floor(high / step) + 1))
    return inside


def _blocked(
    floor: set[Cell], walls: list[Segment], obstacles: list[tuple[str, Rect]]
) -> set[Cell]:
    """The floor points where the agent's disc meets a wall (a segment) or an obstacle (a
    rectangle)."""
    grow = AGENT_RADIUS - TOLERANCE
    shapes: list[tuple[Rect, Callable[[Point], float]]] = [
        (Rect.around((a, b)), functools.partial(segment_distance, a=a, b=b)) for a, b in walls
    ]
    shapes += [(rect, rect.distance) for _, rect in obstacles]
    blocked: set[Cell] = set()
    for box, distance in shapes:
        for cell in _cells(box.x0 - grow, box.z0 - grow, box.x1 + grow, box.z1 + grow):
            if cell in floor and distance(_point(cell)) < grow:
                blocked.add(cell)
    return blocked


def _flood(free: set[Cell], start: Point) -> set[Cell]:
    """The free points connected (in four directions) to those next to ``start``."""
    step = REACH_STEP
    seeds = [
        cell
        for cell in _cells(start[0] - step, start[1] - step, start[0] + step, start[1] + step)
        if cell in free
    ]
    reached = set(seeds)
    frontier = list(seeds)
    while frontier:
        i, j = frontier.pop()
        for neighbour in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if neighbour in free and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    return reached


@dataclass(frozen=True)
class _Walkable:
    """The floor points of each room, and those the agent reaches from its start."""

    rooms: dict[str, set[Cell]]
    reached: set[Cell]

    @classmethod
    def explore(
        cls, scene: Scene, start: Point, walls: list[Segment], obstacles: list[tuple[str, Rect]]
    ) -> _Walkable:
        rooms = {room.id: _room_cells(room) for room in scene.rooms}
        floor = set().union(*rooms.values())
        free = floor - _blocked(floor, walls, obstacles)
        return cls(rooms, _flood(free, start))

    def within_reach(self, rect: Rect, room: str) -> bool:
        """Whether the agent gets within reach of ``rect`` in its room (not through a wall)."""
        reach = REACH_DISTANCE + TOLERANCE
        here = self.rooms.get(room, set())
        return any(
            cell in self.reached and cell in here and rect.distance(_point(cell)) <= reach
            for cell in _cells(rect.x0 - reach, rect.z0 - reach, rect.x1 + reach, rect.z1 + reach)
        )


@dataclass(frozen=True)
class FloorGrid:
    """The floor the agent can walk to from its start (its disc clear of walls and of what
    stands there), sampled every :data:`REACH_STEP`: what a picture routes the agent along."""

    cells: frozenset[Cell]

    @staticmethod
    def point(cell: Cell) -> Point:
        return _point(cell)

    def nearest(self, point: Point) -> Cell | None:
        """The walkable cell nearest ``point`` (``None``: the agent can walk nowhere)."""
        i, j = round(point[0] / REACH_STEP), round(point[1] / REACH_STEP)
        if (i, j) in self.cells:
            return i, j
        for ring in range(1, 41):  # two metres around it, nearest first
            found = [c for c in _ring((i, j), ring) if c in self.cells]
            if found:
                return min(found, key=lambda c: (c[0] - i) ** 2 + (c[1] - j) ** 2)
        return min(self.cells, key=lambda c: (c[0] - i) ** 2 + (c[1] - j) ** 2, default=None)


def _ring(centre: Cell, radius: int) -> Iterator[Cell]:
    i, j = centre
    for k in range(-radius, radius + 1):
        yield from ((i + k, j - radius), (i + k, j + radius))
    for k in range(-radius + 1, radius):
        yield from ((i - radius, j + k), (i + radius, j + k))


def walkable_floor(scene: Scene, start: Point) -> FloorGrid:
    """The floor the agent reaches from ``start``, as the reach check walks it."""
    walkable = _Walkable.explore(scene, start, wall_pieces(scene), obstacles_of(scene))
    return FloorGrid(frozenset(walkable.reached))
