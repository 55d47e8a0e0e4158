"""What goes on top of the floor plan: the agent's route, its numbered step markers and every
label (objects, rooms, the start), placed so that no two overlap (see :mod:`.labels`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from html import escape

from pytest_logicenv.render.floor import (
    FAILED_STROKE,
    TOUCHED_STROKE,
    Projection,
    drawn,
    points_attr,
)
from pytest_logicenv.render.labels import PAD_X, PAD_Y, LabelRequest, Placed
from pytest_logicenv.render.measure import Box, inflate
from pytest_logicenv.render.route import Route, footprints
from pytest_logicenv.scenes.scene_model import Door, Scene, SceneObject, Window

#: Font sizes: step markers, task objects, rooms, other objects.
STEP_SIZE, TASK_SIZE, ROOM_SIZE, OBJECT_SIZE = 11.0, 11.0, 13.0, 9.0
#: Half the side of the box a step marker names (pixels around the stop point).
STOP_RADIUS = 4.0
ROUTE_COLOUR = TOUCHED_STROKE
#: How far a room's label keeps from its walls (pixels; walls are drawn 6 wide).
WALL_CLEARANCE = 5.0


def requests(scene: Scene, view: Projection, route: Route | None) -> list[LabelRequest]:
    """Every label, most important first: the run's steps, task objects, rooms, the rest
    (smallest first: they have the fewest good places)."""
    wanted: list[LabelRequest] = []
    if route is not None:
        x, y = view.at(*route.start)
        wanted.append(LabelRequest("start", "start", STEP_SIZE, _around(x, y), inside=False))
        for index, stop in enumerate(route.stops):
            x, y = view.at(*stop.point)
            key = f"step:{index}:{'failed' if stop.failed else 'ok'}"
            wanted.append(LabelRequest(key, stop.text, STEP_SIZE, _around(x, y), True, False))
    holders = {obj.parent or obj.part_of for obj in scene.objects}
    objects = sorted((o for o in scene.objects if drawn(o)), key=lambda o: (not o.task, _area(o)))
    wanted += [_object_label(obj, view, obj.id in holders) for obj in objects if obj.task]
    named = (route.touched | route.failed) if route is not None else frozenset()
    wanted += _opening_labels(scene, view, named)
    for room in scene.rooms:
        text = f"{room.id} ({room.type})"
        anchor = inflate(view.room_box(room.polygon), -WALL_CLEARANCE)
        wanted.append(LabelRequest(f"room:{room.id}", text, ROOM_SIZE, anchor, top=True))
    wanted += [_object_label(obj, view, obj.id in holders) for obj in objects if not obj.task]
    return wanted


def _opening_labels(scene: Scene, view: Projection, named: frozenset[str]) -> list[LabelRequest]:
    """Labels for the windows a plan names (they have a role) and the doors and windows a
    run acted on; other openings are plain wall marks."""
    found = footprints(scene)
    wanted = []
    openings: list[Door | Window] = [*scene.windows, *scene.doors]
    for opening in openings:
        role = opening.role if isinstance(opening, Window) else None
        if (role or opening.id in named) and opening.id in found:
            anchor = inflate(view.box(found[opening.id]), STOP_RADIUS)
            text = role or opening.id
            wanted.append(LabelRequest(f"opening:{opening.id}", text, TASK_SIZE, anchor, True))
    return wanted


def _around(x: float, y: float) -> Box:
    return x - STOP_RADIUS, y - STOP_RADIUS, x + STOP_RADIUS, y + STOP_RADIUS


def _area(obj: SceneObject) -> float:
    x0, z0, x1, z1 = obj.footprint
    return (x1 - x0) * (z1 - z0)


def _object_label(obj: SceneObject, view: Projection, holds: bool) -> LabelRequest:
    size = TASK_SIZE if obj.task else OBJECT_SIZE
    box = view.box(obj.footprint)
    return LabelRequest(f"object:{obj.id}", obj.role or obj.id, size, box, obj.task, top=holds)


def route_lines(route: Route, view: Projection, ident: str = "") -> Iterator[str]:
    """The route as one polyline with arrows between stops, and the start point; ``ident``
    prefixes the ids, for several pictures in one page."""
    points = [view.at(*point) for point in route.points]
    x, y = points[0]
    yield f'<circle class="start" cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{ROUTE_COLOUR}"/>'
    if len(points) > 1:
        arrow = f"url(#{ident}arrow)"
        yield (
            f'<polyline id="{ident}agent-path" class="route" points="{points_attr(points)}" '
            f'fill="none" stroke="{ROUTE_COLOUR}" stroke-width="3" stroke-opacity="0.75" '
            f'stroke-linejoin="round" marker-mid="{arrow}" marker-end="{arrow}"/>'
        )


def arrow(ident: str = "") -> str:
    """The arrowhead the route's polyline points with."""
    return (
        f'<defs><marker id="{ident}arrow" viewBox="0 0 10 10" refX="9" refY="5" '
        'markerWidth="5" markerHeight="5" orient="auto">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{ROUTE_COLOUR}"/></marker></defs>'
    )


def leaders(placed: Sequence[Placed]) -> Iterator[str]:
    """The lines from labels that moved away back to what they name."""
    for label in placed:
        if label.leader is None:
            continue
        (x0, y0), (x1, y1) = label.leader
        colour = _marker_colour(label.request.key) or "#868e96"
        yield (
            f'<line class="leader" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
            f'stroke="{colour}" stroke-width="1"/>'
        )


def labels(placed: Sequence[Placed]) -> Iterator[str]:
    """Every label: a step marker is a filled pill, anything else text on a pale ground."""
    for label in placed:
        request = label.request
        x0, y0, x1, y1 = label.box
        marker = _marker_colour(request.key)
        css = "label"
        if marker is not None:
            css += " step-label" + (" failed" if request.key.endswith(":failed") else "")
            ground = f'fill="{marker}" rx="{(y1 - y0) / 2:.1f}"'
            ink = ' fill="#ffffff"'
        else:
            css += " room-label" if request.key.startswith("room:") else ""
            ground = 'fill="#ffffff" fill-opacity="0.8"'
            ink = ' fill="#868e96"' if request.key.startswith("room:") else ""
        weight = ' font-weight="bold"' if request.bold else ""
        yield (
            f'<g class="label-group" data-for="{escape(request.key)}">'
            f'<rect class="label-ground" x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" '
            f'height="{y1 - y0:.1f}" {ground}/>'
            f'<text class="{css}" x="{(x0 + x1) / 2:.1f}" '
            f'y="{y0 + PAD_Y + 0.93 * request.size:.1f}" '
            f'font-size="{request.size:g}" text-anchor="middle"{weight}{ink} '
            f'textLength="{x1 - x0 - 2 * PAD_X:.1f}" lengthAdjust="spacingAndGlyphs">'
            f"{escape(request.text)}</text></g>"
        )


def _marker_colour(key: str) -> str | None:
    if key == "start":
        return ROUTE_COLOUR
    if key.startswith("step:"):
        return FAILED_STROKE if key.endswith(":failed") else ROUTE_COLOUR
    return None
