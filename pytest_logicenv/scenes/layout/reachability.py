"""Reach: where the agent starts, and whether it can walk to what its task needs.

Before solving, :func:`require_door_paths` checks that doors lead from the agent's room to
every room it must reach. After a layout, :func:`walkable` lays a grid of standing points
(:data:`WALK_STEP` apart) over the rooms, keeps those where a square of half side
:data:`WALK_HALF` meets no wall and nothing standing or hanging, joins them into stretches of
floor, and moves the agent's start to the stretch that reaches the most targets (each task
object, through what it rests on, and each window with a role).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from pytest_logicenv.errors import LayoutError
from pytest_logicenv.scenes.layout.room_grid import RoomPlan, WallRun
from pytest_logicenv.scenes.layout.smt import CellBox
from pytest_logicenv.scenes.scene_model import (
    AGENT_RADIUS,
    DOOR_UNDERCUT,
    FINE_GRID,
    REACH_DISTANCE,
    AgentStart,
    Scene,
    SceneObject,
    SceneSpec,
)

#: Half the side (metres) of the square the layout keeps free around the agent where it lets
#: it stand or walk: its radius and a margin, so that the checker, which moves a disc of
#: AGENT_RADIUS between points of a finer grid that holds these, finds every way found here.
WALK_HALF = AGENT_RADIUS + 0.05
#: Spacing (metres) of the points where the layout lets the agent stand.
WALK_STEP = 0.1

Point = tuple[int, int]
#: A box on the floor plane, closed, in FINE_GRID cells: x0, x1, z0, z1.
FloorBox = tuple[int, int, int, int]
Plans = Mapping[str, RoomPlan]


# --------------------------------------------------------------------------- door paths


def require_door_paths(spec: SceneSpec) -> None:
    """Every room holding a task object (or a window with a role) must lead to the agent's
    room through doors: no layout could let the agent reach it otherwise."""
    start = spec.agent_room or spec.rooms[0].id
    reached = _rooms_through_doors(spec, start)
    objects = {obj.id: obj for obj in spec.objects}
    wanted = [(_root_room(obj, objects), obj.id) for obj in spec.objects if obj.task]
    wanted += [(window.room, window.id) for window in spec.windows if window.role is not None]
    cut_off = sorted({room for room, _ in wanted if room not in reached})
    if cut_off:
        names = ", ".join(name for room, name in wanted if room in cut_off)
        raise LayoutError(
            f"scene design {spec.id!r}: no doors lead from the agent's room {start!r} to "
            f"{', '.join(map(repr, cut_off))}, where the agent must reach {names}; add doors "
            "between the rooms"
        )


def _rooms_through_doors(spec: SceneSpec, start: str) -> set[str]:
    """The rooms doors between rooms lead to from ``start``."""
    links: dict[str, set[str]] = {}
    for door in spec.doors:
        rooms = [r for r in door.rooms if r != "exterior"]
        if len(rooms) == 2:
            links.setdefault(rooms[0], set()).add(rooms[1])
            links.setdefault(rooms[1], set()).add(rooms[0])
    reached, frontier = {start}, [start]
    while frontier:
        for other in sorted(links.get(frontier.pop(), ())):
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    return reached


def _root_room(obj: SceneObject, objects: dict[str, SceneObject]) -> str:
    seen = {obj.id}
    while obj.parent is not None and obj.parent in objects and obj.parent not in seen:
        obj = objects[obj.parent]
        seen.add(obj.id)
    return obj.room


# --------------------------------------------------------------------------- the agent's start


def walkable(scene: Scene, plans: Plans, runs: Sequence[WallRun]) -> tuple[list[str], AgentStart]:
    """What stays out of the agent's reach in a laid-out scene (task objects, through what
    they rest on, and windows with a role) from the stretch of floor in the agent's room that
    reaches the most of them, and the agent's start there, nearest to where the solver put it.
    """
    label, inside = _walk_stretches(scene, plans, runs)
    reaches = {
        name: _stretches_near(footprint, inside[room_id], label)
        for name, room_id, footprint in reach_targets(scene, runs)
    }
    assert scene.agent is not None
    start_room = scene.agent.room
    candidates = inside[start_room]
    if not candidates:  # nowhere to walk: nothing can be reached (the solver's start stays)
        return list(reaches), scene.agent
    sizes: dict[int, int] = {}
    for point in candidates:
        sizes[label[point]] = sizes.get(label[point], 0) + 1

    def score(stretch: int) -> tuple[int, int, int]:
        reached = sum(stretch in found for found in reaches.values())
        return reached, sizes[stretch], -stretch

    best = max(sizes, key=score)
    i, j = _nearest(scene.agent.position, (p for p in candidates if label[p] == best))
    agent = AgentStart(start_room, (round(i * WALK_STEP, 6), round(j * WALK_STEP, 6)))
    return [name for name, found in reaches.items() if best not in found], agent


def _stretches_near(
    footprint: tuple[float, float, float, float], points: Iterable[Point], label: dict[Point, int]
) -> set[int]:
    """The stretches with a point within :data:`REACH_DISTANCE` of the footprint."""
    fx0, fz0, fx1, fz1 = footprint
    metres = WALK_STEP
    return {
        label[(i, j)]
        for i, j in points
        if math.hypot(
            max(fx0 - i * metres, 0.0, i * metres - fx1),
            max(fz0 - j * metres, 0.0, j * metres - fz1),
        )
        <= REACH_DISTANCE + 1e-9
    }


def _nearest(position: tuple[float, float], points: Iterable[Point]) -> Point:
    """The point nearest to ``position`` (metres), the least one among equals."""
    sx, sz = position
    metres = WALK_STEP
    return min(points, key=lambda p: ((p[0] * metres - sx) ** 2 + (p[1] * metres - sz) ** 2, p))


def reach_targets(
    scene: Scene, runs: Sequence[WallRun]
) -> list[tuple[str, str, tuple[float, float, float, float]]]:
    """What the agent must reach, with the room and the footprint (metres) to get near: each
    task object's ground (what it rests on, down to the floor or wall), each window with a
    role (its stretch of wall)."""
    by_id = {obj.id: obj for obj in scene.objects}
    targets = []
    for obj in scene.objects:
        if obj.task:
            ground = obj
            while ground.parent is not None:
                ground = by_id[ground.parent]
            targets.append((obj.id, ground.room, ground.footprint))
    walls = {run.wall.id: run for run in runs}
    for window in scene.windows:
        if window.role is not None:
            run = walls[window.wall]
            a, b = run.lo + window.offset, run.lo + window.offset + window.width
            span = (a, run.line, b, run.line) if run.axis == "x" else (run.line, a, run.line, b)
            targets.append((window.id, window.room, span))
    return targets


# --------------------------------------------------------------------------- stretches of floor


def _walk_stretches(
    scene: Scene, plans: Plans, runs: Sequence[WallRun]
) -> tuple[dict[Point, int], dict[str, set[Point]]]:
    """Where the agent can stand: the points ``(i, j)`` (at ``i * WALK_STEP``, ``j *
    WALK_STEP``) where a square of half side :data:`WALK_HALF` meets no wall (but in the
    openings of doors between rooms) and nothing standing or hanging there (but flat marks).
    Returns the stretch of floor (a number) each lies in, connected through 4-neighbours, and
    per room the points strictly inside it (not on its walls or in its doorways)."""
    step = round(WALK_STEP / FINE_GRID)
    boxes = _standing_boxes(scene) + _wall_boxes(scene, runs)
    room_points = {room_id: _room_points(plan, step) for room_id, plan in plans.items()}
    free = set().union(*room_points.values()) - _blocked(boxes, step)
    inside = {}
    for room_id, points in room_points.items():
        x0, z0, x1, z1 = plans[room_id].bbox
        inside[room_id] = {
            (i, j) for i, j in points & free if x0 < i * step < x1 and z0 < j * step < z1
        }
    return _label_stretches(free), inside


def _cells_out(low: float, high: float) -> tuple[int, int]:
    """``[low, high]`` metres as FINE_GRID cell boundaries, rounded outwards."""
    return math.floor(low / FINE_GRID + 1e-6), math.ceil(high / FINE_GRID - 1e-6)


def _standing_boxes(scene: Scene) -> list[FloorBox]:
    """The footprints of what stands on the floor or hangs on a wall, but flat marks."""
    boxes: list[FloorBox] = []
    for obj in scene.objects:
        if obj.parent is None and obj.position[1] + obj.size[1] / 2 > DOOR_UNDERCUT + 1e-6:
            fx0, fz0, fx1, fz1 = obj.footprint
            boxes.append((*_cells_out(fx0, fx1), *_cells_out(fz0, fz1)))
    return boxes


def _wall_boxes(scene: Scene, runs: Sequence[WallRun]) -> list[FloorBox]:
    """The walls, but the openings of doors between rooms."""
    passages: dict[str, list[tuple[float, float]]] = {}
    for door in scene.doors:
        if len([r for r in door.rooms if r != "exterior"]) == 2:
            passages.setdefault(door.wall, []).append((door.offset, door.offset + door.width))
    boxes: list[FloorBox] = []
    for run in runs:
        lo = run.lo
        for start, end in sorted(passages.get(run.wall.id, ())):
            if run.lo + start > lo:
                boxes.append(_wall_box(run, lo, run.lo + start))
            lo = max(lo, run.lo + end)
        if run.hi > lo:
            boxes.append(_wall_box(run, lo, run.hi))
    return boxes


def _wall_box(run: WallRun, low: float, high: float) -> FloorBox:
    """A stretch ``[low, high]`` of a wall, as a (thin) box in cells."""
    along, across = _cells_out(low, high), _cells_out(run.line, run.line)
    return (*along, *across) if run.axis == "x" else (*across, *along)


def _room_points(plan: RoomPlan, step: int) -> set[Point]:
    """The standing points in the room's bounding box, but those strictly inside its holes."""
    x0, z0, x1, z1 = plan.bbox
    return {
        (i, j)
        for i in range(math.ceil(x0 / step), math.floor(x1 / step) + 1)
        for j in range(math.ceil(z0 / step), math.floor(z1 / step) + 1)
        if not any(_inside_hole(hole, i * step, j * step) for hole in plan.holes)
    }


def _inside_hole(box: CellBox, x: int, z: int) -> bool:
    """Whether the point ``(x, z)`` (cells) lies strictly inside a known box."""
    return (
        isinstance(box.x0, int)
        and isinstance(box.x1, int)
        and isinstance(box.z0, int)
        and isinstance(box.z1, int)
        and box.x0 < x < box.x1
        and box.z0 < z < box.z1
    )


def _blocked(boxes: Sequence[FloorBox], step: int) -> set[Point]:
    """The points whose open square of half side :data:`WALK_HALF` meets one of the (closed)
    boxes: ``bx0 - half < x < bx1 + half``, and so along z."""
    half = round(WALK_HALF / FINE_GRID)
    blocked: set[Point] = set()
    for bx0, bx1, bz0, bz1 in boxes:
        for i in range((bx0 - half) // step + 1, -((-bx1 - half) // step)):
            for j in range((bz0 - half) // step + 1, -((-bz1 - half) // step)):
                blocked.add((i, j))
    return blocked


def _label_stretches(free: set[Point]) -> dict[Point, int]:
    """The stretch (a number, in the order of its least point) of each free point, connected
    through 4-neighbours."""
    label: dict[Point, int] = {}
    stretches = 0
    for point in sorted(free):
        if point in label:
            continue
        label[point] = stretch = stretches
        stretches += 1
        frontier = [point]
        while frontier:
            i, j = frontier.pop()
            for near in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if near in free and near not in label:
                    label[near] = stretch
                    frontier.append(near)
    return label
