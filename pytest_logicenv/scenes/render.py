"""A top-down picture of a Scene, as SVG: rooms, walls, doors, windows and labelled object
footprints, with the task objects highlighted.

North (+z) is up and east (+x) to the right. Furniture is drawn first, what rests on it on
top; wall-mounted objects hug their wall. Every piece of text (ids, roles, types, the
trajectory's conditions) is XML-escaped, since it may come from a plan or an LLM.

>>> from pytest_logicenv.scenes.model import Room, Scene, SceneObject
>>> scene = Scene("demo", rooms=(Room("r", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3))),),
...               objects=(SceneObject("toy", "Toy", role="<toy>", room="r", task=True,
...                                    position=(1.5, 0.15, 1.5)),))
>>> svg = render_svg(scene)
>>> svg.startswith("<svg") and "&lt;toy&gt;" in svg and "<toy>" not in svg
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from html import escape
from pathlib import Path

from pytest_logicenv.cache import write_atomic
from pytest_logicenv.scenes.model import Door, Point, Scene, SceneObject, Wall, Window

SCALE = 100.0  # pixels per metre
MARGIN = 60.0
LEGEND_HEIGHT = 70.0
ROOM_COLOURS = {
    "LivingRoom": "#f4efe6",
    "Kitchen": "#eef4ea",
    "Bedroom": "#eceff7",
    "Bathroom": "#e8f4f6",
    "Study": "#f6efe9",
    "LaundryRoom": "#f1eef5",
    "DiningRoom": "#f5f1e4",
}
TASK_FILL, TASK_STROKE = "#ffd27f", "#d9480f"
OBJECT_FILL, OBJECT_STROKE = "#ffffff", "#5c5f66"
WALL_COLOUR, DOOR_COLOUR, WINDOW_COLOUR = "#343a40", "#b08968", "#4dabf7"
#: Maps scene coordinates ``(x, z)`` in metres to picture coordinates in pixels.
Projector = Callable[[float, float], tuple[float, float]]


def render_svg(scene: Scene) -> str:
    """The SVG document (text) for ``scene``."""
    points = [p for room in scene.rooms for p in room.polygon]
    points += [corner for obj in scene.objects for corner in _corners(obj)]
    if not points:
        points = [(0.0, 0.0), (1.0, 1.0)]
    min_x, max_x = min(p[0] for p in points), max(p[0] for p in points)
    min_z, max_z = min(p[1] for p in points), max(p[1] for p in points)
    width = (max_x - min_x) * SCALE + 2 * MARGIN
    height = (max_z - min_z) * SCALE + 2 * MARGIN + LEGEND_HEIGHT

    def at(x: float, z: float) -> tuple[float, float]:
        # SVG's y grows downwards; put north (+z) at the top.
        return (x - min_x) * SCALE + MARGIN, (max_z - z) * SCALE + MARGIN + LEGEND_HEIGHT

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="sans-serif">',
        f'<rect width="{width:.1f}" height="{height:.1f}" fill="#ffffff"/>',
        *_legend(scene, width),
    ]
    for room in scene.rooms:
        corners = " ".join("{:.1f},{:.1f}".format(*at(x, z)) for x, z in room.polygon)
        fill = ROOM_COLOURS.get(room.type, "#f1f3f5")
        parts.append(f'<polygon points="{corners}" fill="{fill}" stroke="none"/>')
        cx = sum(p[0] for p in room.polygon) / max(len(room.polygon), 1)
        top = max(p[1] for p in room.polygon)
        x, y = at(cx, top)
        parts.append(
            f'<text x="{x:.1f}" y="{y + 16:.1f}" font-size="13" text-anchor="middle" '
            f'fill="#868e96">{escape(room.id)} ({escape(room.type)})</text>'
        )
    walls = {wall.id: wall for wall in scene.walls}
    for wall in scene.walls:
        (x0, y0), (x1, y1) = at(*wall.start), at(*wall.end)
        parts.append(
            f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
            f'stroke="{WALL_COLOUR}" stroke-width="6" stroke-linecap="square"/>'
        )
    if not scene.walls:  # a scene without walls yet (a design): outline the rooms
        for room in scene.rooms:
            corners = " ".join("{:.1f},{:.1f}".format(*at(x, z)) for x, z in room.polygon)
            parts.append(
                f'<polygon points="{corners}" fill="none" stroke="{WALL_COLOUR}" stroke-width="3"/>'
            )
    openings: list[Door | Window] = [*scene.doors, *scene.windows]
    for opening in openings:
        found = walls.get(opening.wall)
        if found is not None:
            parts.extend(_opening(opening, found, at))
    holders = {obj.parent for obj in scene.objects if obj.parent is not None}
    for obj in sorted(scene.objects, key=lambda o: _depth(scene, o)):
        parts.extend(_object(obj, at, obj.id in holders))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_svg(scene: Scene, path: str | Path) -> Path:
    """Write the picture atomically; returns the path."""
    path = Path(path)
    write_atomic(path, render_svg(scene))
    return path


def _legend(scene: Scene, width: float) -> Iterator[str]:
    title = scene.id
    if scene.provenance.conditions:
        title += ": " + ", ".join(f"{f}={v}" for f, v in scene.provenance.conditions)
    yield (
        f'<text x="{MARGIN:.1f}" y="24" font-size="15" font-weight="bold">{escape(title)}</text>'
    )
    dropped = len(scene.provenance.dropped)
    note = f"{len(scene.objects)} objects, {len(scene.rooms)} rooms"
    if dropped:
        note += f", {dropped} relation(s) relaxed"
    yield f'<text x="{MARGIN:.1f}" y="44" font-size="12" fill="#495057">{escape(note)}</text>'
    x = MARGIN
    for label, fill, stroke in (
        ("task object", TASK_FILL, TASK_STROKE),
        ("other object", OBJECT_FILL, OBJECT_STROKE),
    ):
        yield (f'<rect x="{x:.1f}" y="52" width="14" height="10" fill="{fill}" stroke="{stroke}"/>')
        yield f'<text x="{x + 18:.1f}" y="61" font-size="11">{label}</text>'
        x += 110
    for label, colour in (("door", DOOR_COLOUR), ("window", WINDOW_COLOUR)):
        yield (
            f'<line x1="{x:.1f}" y1="57" x2="{x + 14:.1f}" y2="57" stroke="{colour}" '
            'stroke-width="5"/>'
        )
        yield f'<text x="{x + 18:.1f}" y="61" font-size="11">{label}</text>'
        x += 80


def _opening(opening: Door | Window, wall: Wall, at: Projector) -> Iterator[str]:
    length = ((wall.end[0] - wall.start[0]) ** 2 + (wall.end[1] - wall.start[1]) ** 2) ** 0.5
    if length <= 0:
        return
    dx, dz = (wall.end[0] - wall.start[0]) / length, (wall.end[1] - wall.start[1]) / length
    a = (wall.start[0] + dx * opening.offset, wall.start[1] + dz * opening.offset)
    end = opening.offset + opening.width
    b = (wall.start[0] + dx * end, wall.start[1] + dz * end)
    (x0, y0), (x1, y1) = at(*a), at(*b)
    is_door = isinstance(opening, Door)
    colour = DOOR_COLOUR if is_door else WINDOW_COLOUR
    state = "open" if opening.open else "closed"
    label = f"{opening.id} ({state})"
    yield f"<g><title>{escape(label)}</title>"
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


def _corners(obj: SceneObject) -> list[Point]:
    x0, z0, x1, z1 = obj.footprint
    return [(x0, z0), (x1, z1)]


def _depth(scene: Scene, obj: SceneObject) -> int:
    depth, parent = 0, obj.parent
    by_id = {o.id: o for o in scene.objects}
    while parent is not None and parent in by_id and depth < len(by_id):
        depth, parent = depth + 1, by_id[parent].parent
    return depth


def _object(obj: SceneObject, at: Projector, holds: bool) -> Iterator[str]:
    """A footprint with its label: centred, or along the top edge for an object that holds
    others (so that their labels do not cover it)."""
    x0, z0, x1, z1 = obj.footprint
    (left, top), (right, bottom) = at(x0, z1), at(x1, z0)
    fill, stroke = (TASK_FILL, TASK_STROKE) if obj.task else (OBJECT_FILL, OBJECT_STROKE)
    width, height = max(right - left, 2.0), max(bottom - top, 2.0)
    label = obj.role or obj.id
    details = [obj.type]
    details += [f"{k}={v}" for k, v in obj.attrs.items()]
    details += [k if v else f"not {k}" for k, v in obj.states.items()]
    where = (
        "on the floor"
        if obj.parent is None and obj.relation == "on"
        else ("on a wall" if obj.relation == "wall" else f"{obj.relation} {obj.parent}")
    )
    tooltip = f"{obj.id}: {', '.join(details)}, {where}"
    yield f"<g><title>{escape(tooltip)}</title>"
    yield (
        f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" '
        f'fill="{fill}" fill-opacity="0.85" stroke="{stroke}" '
        f'stroke-width="{2.5 if obj.task else 1}"/>'
    )
    size = 11 if obj.task else 9
    weight = ' font-weight="bold"' if obj.task else ""
    y = top + size + 1 if holds else (top + bottom) / 2 + size / 3
    yield (
        f'<text x="{(left + right) / 2:.1f}" y="{y:.1f}" '
        f'font-size="{size}" text-anchor="middle"{weight}>{escape(label)}</text>'
    )
    yield "</g>"
