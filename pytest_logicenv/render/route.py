"""The agent's route through a scene, from a run's trace: where it went and what it did there.

Each action step records where the agent stood afterwards (its room, and the floor-standing
object it was next to). The route starts at the scene's start point, passes through a door
when the agent changes room, and stops beside each object it stood at; the actions taken at
one stop share it, numbered in the order they happened. Conditions are looked at, not walked
to, so they add no stops.

>>> from pytest_logicenv.scenes.scene_model import AgentStart, Room, Scene, SceneObject
>>> from pytest_logicenv.sim.outcome import Step
>>> room = Room("r", "LivingRoom", ((0, 0), (4, 0), (4, 4), (0, 4)))
>>> toy = SceneObject("toy_1", "Toy", room="r", position=(3.0, 0.1, 3.0), size=(0.2, 0.2, 0.2))
>>> scene = Scene("s", rooms=(room,), objects=(toy,), agent=AgentStart("r", (1.0, 1.0)))
>>> steps = [Step(1, "action", "GoTo", ("toy",), True, objects=("toy_1",), room="r",
...               spot="toy_1"),
...          Step(1, "action", "PickUp", ("toy",), True, objects=("toy_1",), room="r",
...               spot="toy_1")]
>>> route = route_of(scene, steps)
>>> [stop.numbers for stop in route.stops], sorted(route.touched)
([(1, 2)], ['toy_1'])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_logicenv.render.floor import opening_segment
from pytest_logicenv.scenes.physics.reach import Cell, FloorGrid, walkable_floor
from pytest_logicenv.scenes.scene_model import Door, Point, Scene, Window

if TYPE_CHECKING:
    from pytest_logicenv.sim.outcome import Step

#: ``(min_x, min_z, max_x, max_z)`` on the floor plane, in metres.
Footprint = tuple[float, float, float, float]
#: How far from an object's footprint the agent stands (metres).
STAND_OFF = 0.25


@dataclass(frozen=True)
class Stop:
    """A place the agent acted at: the numbers of the actions it took there, and whether the
    last of them failed."""

    point: Point
    numbers: tuple[int, ...]
    failed: bool = False

    @property
    def text(self) -> str:
        """The marker's text: ``3``, ``3,4`` or ``3-6``."""
        first, last = self.numbers[0], self.numbers[-1]
        if len(self.numbers) > 2 and last - first == len(self.numbers) - 1:
            return f"{first}-{last}"
        return ",".join(str(n) for n in self.numbers)


@dataclass(frozen=True)
class Route:
    """The route of one run: its polyline (start first), its stops, the objects the actions
    acted on (``touched``), those of the failing action (``failed``), and each action step
    with its number."""

    start: Point
    points: tuple[Point, ...]
    stops: tuple[Stop, ...]
    touched: frozenset[str]
    failed: frozenset[str]
    actions: tuple[tuple[int, Step], ...]


def footprints(scene: Scene) -> dict[str, Footprint]:
    """Where everything the agent can stand at is on the floor plane: objects by their
    footprints, doors and windows by the stretch of wall they fill."""
    found: dict[str, Footprint] = {obj.id: obj.footprint for obj in scene.objects}
    walls = {wall.id: wall for wall in scene.walls}
    openings: list[Door | Window] = [*scene.doors, *scene.windows]
    for opening in openings:
        wall = walls.get(opening.wall)
        segment = opening_segment(opening, wall) if wall is not None else None
        if segment is not None:
            (x0, z0), (x1, z1) = segment
            found[opening.id] = (min(x0, x1), min(z0, z1), max(x0, x1), max(z0, z1))
    return found


def route_of(scene: Scene, trace: Sequence[Step]) -> Route:
    """The route a trace took through ``scene``: from stand point to stand point along the
    floor the agent can walk (:func:`~pytest_logicenv.scenes.physics.reach.walkable_floor`),
    around the furniture and through the doors, each stand point on free floor."""
    objects = footprints(scene)
    start, room = _start(scene)
    floor = walkable_floor(scene, start) if scene.rooms else FloorGrid(frozenset())
    points: list[Point] = [start]
    stops: list[Stop] = []
    actions = tuple(
        (number, step)
        for number, step in enumerate((s for s in trace if s.kind == "action"), start=1)
    )
    where: tuple[str, str | None] = (room, None)
    for number, step in actions:
        moved = bool(step.room) and (step.room, step.spot) != where
        if moved:
            target = _stand_point(scene, objects, step, points[-1])
            walked = walk(floor, points[-1], target)
            if walked is None:  # no floor joins them: straight, through the doors
                if step.room != where[0]:
                    points.extend(_doors_between(scene, where[0], step.room))
                points.append(target)
            else:
                points.extend(walked)
            where = (step.room, step.spot)
        if stops and not moved:
            last = stops[-1]
            stops[-1] = Stop(last.point, (*last.numbers, number), not step.ok)
        else:
            stops.append(Stop(points[-1], (number,), not step.ok))
    touched = frozenset(obj for _, step in actions if step.ok for obj in step.objects)
    failed = frozenset(obj for _, step in actions if not step.ok for obj in step.objects)
    return Route(start, tuple(points), tuple(stops), touched, failed, actions)


def walk(floor: FloorGrid, here: Point, there: Point) -> list[Point] | None:
    """The way from ``here`` to beside ``there`` over walkable floor (eight directions), as
    its corners, ending on free floor; ``None`` when no walkable floor joins them."""
    start, goal = floor.nearest(here), floor.nearest(there)
    if start is None or goal is None:
        return None
    came: dict[Cell, Cell | None] = {start: None}
    frontier = deque([start])
    while frontier and goal not in came:
        i, j = frontier.popleft()
        for di, dj in _MOVES:
            cell = (i + di, j + dj)
            if cell in floor.cells and cell not in came:
                came[cell] = (i, j)
                frontier.append(cell)
    if goal not in came:
        return None
    cells: list[Cell] = []
    at: Cell | None = goal
    while at is not None:
        cells.append(at)
        at = came[at]
    return [floor.point(cell) for cell in _corners(cells[::-1])][1:] or [floor.point(goal)]


_MOVES = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _corners(cells: list[Cell]) -> list[Cell]:
    """The cells where a grid path turns (and its ends)."""
    kept = cells[:1]
    for before, here, after in zip(cells, cells[1:], cells[2:], strict=False):
        if (here[0] - before[0], here[1] - before[1]) != (after[0] - here[0], after[1] - here[1]):
            kept.append(here)
    return [*kept, cells[-1]] if len(cells) > 1 else kept


def _start(scene: Scene) -> tuple[Point, str]:
    """The agent's start point and room (a room's centre when the scene gives no point)."""
    if scene.agent is not None:
        return scene.agent.position, scene.agent.room
    if scene.rooms:
        return _room_centre(scene, scene.rooms[0].id), scene.rooms[0].id
    return (0.0, 0.0), ""


def _stand_point(scene: Scene, objects: dict[str, Footprint], step: Step, previous: Point) -> Point:
    """Where the agent stood after moving for ``step``: beside its spot, on the side it came
    from; in the middle of its room when it stands at no object."""
    spot = objects.get(step.spot) if step.spot is not None else None
    if spot is not None:
        return _beside(spot, previous)
    return _room_centre(scene, step.room)


def _beside(footprint: Footprint, previous: Point) -> Point:
    """The point ``STAND_OFF`` away from a footprint nearest to ``previous`` (on the nearest
    edge when ``previous`` is closer than that already)."""
    x0, z0, x1, z1 = footprint
    x0, z0, x1, z1 = x0 - STAND_OFF, z0 - STAND_OFF, x1 + STAND_OFF, z1 + STAND_OFF
    x, z = previous
    if x0 < x < x1 and z0 < z < z1:
        edges = ((x - x0, (x0, z)), (x1 - x, (x1, z)), (z - z0, (x, z0)), (z1 - z, (x, z1)))
        return min(edges)[1]
    return min(max(x, x0), x1), min(max(z, z0), z1)


def _room_centre(scene: Scene, room_id: str) -> Point:
    for room in scene.rooms:
        if room.id == room_id and room.polygon:
            xs, zs = [p[0] for p in room.polygon], [p[1] for p in room.polygon]
            return (min(xs) + max(xs)) / 2, (min(zs) + max(zs)) / 2
    return 0.0, 0.0


def _doors_between(scene: Scene, here: str, there: str) -> list[Point]:
    """The middles of the doors on the shortest way (fewest doors) from room ``here`` to
    room ``there``; none when no way of doors joins them."""
    walls = {wall.id: wall for wall in scene.walls}
    doors = [d for d in scene.doors if d.wall in walls and "exterior" not in d.rooms]
    came_from: dict[str, tuple[str, Door] | None] = {here: None}
    frontier = [here]
    while frontier and there not in came_from:
        room = frontier.pop(0)
        for door in doors:
            if room in door.rooms:
                for other in door.rooms:
                    if other not in came_from:
                        came_from[other] = (room, door)
                        frontier.append(other)
    way: list[Point] = []
    step = came_from.get(there)
    while step is not None:
        room, door = step
        segment = opening_segment(door, walls[door.wall])
        if segment is not None:
            (x0, z0), (x1, z1) = segment
            way.insert(0, ((x0 + x1) / 2, (z0 + z1) / 2))
        step = came_from[room]
    return way
