"""The floor plan as SVG: the projection from metres to pixels, rooms, walls, doors, windows
and object footprints (their labels are placed separately, see :mod:`.labels`).

North (+z) is up and east (+x) to the right. Furniture is drawn first, what rests on it on
top. Every piece of text is XML-escaped, since ids and roles may come from a plan or an LLM.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from html import escape

from pytest_logicenv.render.measure import Box, Pixel
from pytest_logicenv.scenes.scene_model import Door, Point, Scene, SceneObject, Wall, Window

SCALE = 100.0  # pixels per metre
ROOM_COLOURS = {
    "LivingRoom": "#f4efe6",
    "Kitchen": "#eef4ea",
    "Bedroom": "#eceff7",
    "Bathroom": "#e8f4f6",
    "Study": "#f6efe9",
    "LaundryRoom": "#f1eef5",
    "DiningRoom": "#f5f1e4",
}
#: Outlines tell objects apart at a glance: a task object's purple, the one a failing action
#: named red, one the run acted on blue, any other grey (every two differ by CIE76 Delta E
#: over 40, where the task object's orange of before was 19 from the failure's red).
TASK_FILL, TASK_STROKE = "#ffd27f", "#862e9c"
OBJECT_FILL, OBJECT_STROKE = "#ffffff", "#5c5f66"
TOUCHED_STROKE, FAILED_STROKE = "#1971c2", "#e03131"
WALL_COLOUR, DOOR_COLOUR, WINDOW_COLOUR = "#343a40", "#b08968", "#4dabf7"


@dataclass(frozen=True)
class Projection:
    """Scene coordinates ``(x, z)`` in metres to plan pixels, north up."""

    min_x: float
    max_z: float

    @classmethod
    def of(cls, scene: Scene) -> Projection:
        points = [p for room in scene.rooms for p in room.polygon]
        points += [(o.footprint[0], o.footprint[3]) for o in scene.objects]
        if not points:
            return cls(0.0, 0.0)
        return cls(min(p[0] for p in points), max(p[1] for p in points))

    def at(self, x: float, z: float) -> Pixel:
        return (x - self.min_x) * SCALE, (self.max_z - z) * SCALE

    def box(self, footprint: tuple[float, float, float, float]) -> Box:
        """The pixel box of a footprint ``(min_x, min_z, max_x, max_z)``."""
        (left, top), (right, bottom) = (
            self.at(footprint[0], footprint[3]),
            self.at(footprint[2], footprint[1]),
        )
        # Something too thin to see (a painting on a wall) still gets a couple of pixels.
        return left, top, max(right, left + 2.0), max(bottom, top + 2.0)

    def room_box(self, polygon: tuple[Point, ...]) -> Box:
        xs, zs = [p[0] for p in polygon], [p[1] for p in polygon]
        return self.box((min(xs), min(zs), max(xs), max(zs)))


def points_attr(points: list[Pixel]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def rooms(scene: Scene, view: Projection) -> Iterator[str]:
    for room in scene.rooms:
        fill = ROOM_COLOURS.get(room.type, "#f1f3f5")
        corners = points_attr([view.at(x, z) for x, z in room.polygon])
        yield f'<polygon points="{corners}" fill="{fill}" stroke="none"/>'


def walls(scene: Scene, view: Projection) -> Iterator[str]:
    for wall in scene.walls:
        (x0, y0), (x1, y1) = view.at(*wall.start), view.at(*wall.end)
        yield (
            f'<line class="wall" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
            f'stroke="{WALL_COLOUR}" stroke-width="6" stroke-linecap="square"/>'
        )
    if not scene.walls:  # a scene without walls yet (a design): outline the rooms
        for room in scene.rooms:
            corners = points_attr([view.at(x, z) for x, z in room.polygon])
            yield (
                f'<polygon points="{corners}" fill="none" stroke="{WALL_COLOUR}" stroke-width="3"/>'
            )
    by_id = {wall.id: wall for wall in scene.walls}
    openings: list[Door | Window] = [*scene.doors, *scene.windows]
    for opening in openings:
        found = by_id.get(opening.wall)
        if found is not None:
            yield from _opening(opening, found, view)


def opening_segment(opening: Door | Window, wall: Wall) -> tuple[Point, Point] | None:
    """Where a door or window is: its two ends on its wall (``None`` for a wall of no length)."""
    length = ((wall.end[0] - wall.start[0]) ** 2 + (wall.end[1] - wall.start[1]) ** 2) ** 0.5
    if length <= 0:
        return None
    dx, dz = (wall.end[0] - wall.start[0]) / length, (wall.end[1] - wall.start[1]) / length
    end = opening.offset + opening.width
    return (
        (wall.start[0] + dx * opening.offset, wall.start[1] + dz * opening.offset),
        (wall.start[0] + dx * end, wall.start[1] + dz * end),
    )


def _opening(opening: Door | Window, wall: Wall, view: Projection) -> Iterator[str]:
    segment = opening_segment(opening, wall)
    if segment is None:
        return
    (x0, y0), (x1, y1) = view.at(*segment[0]), view.at(*segment[1])
    is_door = isinstance(opening, Door)
    colour = DOOR_COLOUR if is_door else WINDOW_COLOUR
    state = "open" if opening.open else "closed"
    yield f"<g><title>{escape(f'{opening.id} ({state})')}</title>"
    if is_door:  # a gap in the wall, coloured
        yield (
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="#ffffff" '
            'stroke-width="7"/>'
        )
    dash = "" if opening.open else ' stroke-dasharray="6 3"'
    yield (
        f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="{colour}" '
        f'stroke-width="5"{dash}/>'
    )
    yield "</g>"


def drawn(obj: SceneObject) -> bool:
    """Whether the picture shows ``obj``: every object but the parts no plan names (a
    dresser's drawers are inside it; the drawer a plan names is drawn)."""
    return obj.part_of is None or obj.role is not None


def drawing_order(scene: Scene) -> list[SceneObject]:
    """The objects drawn, what stands on the floor first and what rests on (or is a part of)
    it after."""
    by_id = {o.id: o for o in scene.objects}

    def depth(obj: SceneObject) -> int:
        level, parent = 0, obj.parent or obj.part_of
        while parent is not None and parent in by_id and level < len(by_id):
            level, parent = level + 1, by_id[parent].parent or by_id[parent].part_of
        return level

    return sorted((o for o in scene.objects if drawn(o)), key=depth)


def footprint(obj: SceneObject, view: Projection, *, touched: bool, failed: bool) -> str:
    """An object's footprint with its description as a tooltip; a task object is coloured,
    one the run acted on is outlined blue, the one its failing action named red."""
    x0, y0, x1, y1 = view.box(obj.footprint)
    fill, stroke = (TASK_FILL, TASK_STROKE) if obj.task else (OBJECT_FILL, OBJECT_STROKE)
    width = 2.5 if obj.task else 1.0
    css = "object"
    if failed:
        stroke, width, css = FAILED_STROKE, 3.5, "object failed"
    elif touched:
        stroke, width, css = TOUCHED_STROKE, 3.0, "object touched"
    return (
        f'<g class="{css}" data-id="{escape(obj.id)}"><title>{escape(describe(obj))}</title>'
        f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
        f'fill="{fill}" fill-opacity="0.85" stroke="{stroke}" stroke-width="{width}"/></g>'
    )


def describe(obj: SceneObject) -> str:
    """The tooltip of an object: id, type, attributes, states and where it is."""
    details = [obj.type]
    details += [f"{k}={v}" for k, v in obj.attrs.items()]
    details += [k if v else f"not {k}" for k, v in obj.states.items()]
    if obj.part_of is not None:
        where = f"a part of {obj.part_of}"
    elif obj.parent is None and obj.relation == "on":
        where = "on the floor"
    elif obj.relation == "wall":
        where = "on a wall"
    else:
        where = f"{obj.relation} {obj.parent}"
    return f"{obj.id}: {', '.join(details)}, {where}"
