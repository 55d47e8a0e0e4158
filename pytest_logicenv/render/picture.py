"""The whole picture: a header (what the scene is, and how a run ended), the floor plan with
its labels and the run's route, and the run's steps as a numbered list under the plan.

The picture is drawn at full size (100 pixels per metre) with a ``viewBox``, so a browser can
zoom it without blur.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from html import escape
from typing import TYPE_CHECKING

from pytest_logicenv.render import floor, marks
from pytest_logicenv.render.labels import place_labels
from pytest_logicenv.render.measure import FONT, Box, text_height, text_width, union, wrap
from pytest_logicenv.render.route import Route, route_of
from pytest_logicenv.scenes.scene_model import Scene

if TYPE_CHECKING:
    from pytest_logicenv.sim.outcome import Outcome, Step

MARGIN = 24.0
#: The narrowest picture: room enough for the header.
MIN_WIDTH = 560.0
#: How many lines the list of steps shows at most (the first few and the last ones).
MAX_STEP_LINES = 60
#: How many of the objects the layout left out the header names (it counts them all).
MAX_LEFT_OUT_NAMED = 5
FAIL_COLOUR, PASS_COLOUR, NOTE_COLOUR = "#c92a2a", "#2b8a3e", "#495057"

#: A line of text: (text, font size, bold, colour, css class).
Line = tuple[str, float, bool, str, str]


def render_svg(scene: Scene, outcome: Outcome | None = None, *, ident: str = "") -> str:
    """The SVG document (text) for ``scene``; with ``outcome``, the run's route, steps and
    verdict drawn on it. ``ident`` prefixes the document's ids, so that several pictures can
    be inlined in one HTML page."""
    view = floor.Projection.of(scene)
    route = route_of(scene, outcome.trace) if outcome is not None else None
    plan, plan_box = _plan(scene, view, route, ident)
    width = max(plan_box[2] - plan_box[0] + 2 * MARGIN, MIN_WIDTH)
    text_width_limit = width - 2 * MARGIN
    header = _header(scene, outcome, text_width_limit)
    footer = _steps(outcome.trace, text_width_limit) if outcome is not None else []
    header_height = _lines_height(header) + 34.0  # + the key's row
    plan_top = MARGIN + header_height
    footer_top = plan_top + plan_box[3] - plan_box[1] + MARGIN
    key, key_width = _key(MARGIN, MARGIN + _lines_height(header) + 8, route is not None)
    width = max([width, key_width + 2 * MARGIN, *(_width(line) + 2 * MARGIN for line in footer)])
    height = footer_top + _lines_height(footer) + MARGIN
    shift_x, shift_y = MARGIN - plan_box[0], plan_top - plan_box[1]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}" font-family="{FONT}">',
        marks.arrow(ident),
        f'<rect width="{width:.1f}" height="{height:.1f}" fill="#ffffff"/>',
        *_text_block(header, MARGIN, MARGIN, "header"),
        *key,
        f'<g class="plan" transform="translate({shift_x:.1f},{shift_y:.1f})">',
        *plan,
        "</g>",
        *_text_block(footer, MARGIN, footer_top, "steps"),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _plan(
    scene: Scene, view: floor.Projection, route: Route | None, ident: str
) -> tuple[list[str], Box]:
    """The plan's elements (in plan pixels) and the box they fill."""
    touched = route.touched if route is not None else frozenset()
    failed = route.failed if route is not None else frozenset()
    shapes = [view.box(obj.footprint) for obj in scene.objects]
    placed = place_labels(marks.requests(scene, view, route), shapes=shapes)
    parts = [*floor.rooms(scene, view), *floor.walls(scene, view)]
    parts += [
        floor.footprint(obj, view, touched=obj.id in touched, failed=obj.id in failed)
        for obj in floor.drawing_order(scene)
    ]
    if route is not None:
        parts += marks.route_lines(route, view, ident)
    parts += [*marks.leaders(placed), *marks.labels(placed)]
    boxes = [view.room_box(room.polygon) for room in scene.rooms if room.polygon]
    boxes += [*shapes, *(label.box for label in placed)]
    if route is not None:
        boxes += [(x, y, x, y) for x, y in (view.at(*p) for p in route.points)]
    return parts, union(boxes) or (0.0, 0.0, 1.0, 1.0)


def _header(scene: Scene, outcome: Outcome | None, limit: float) -> list[Line]:
    """The title, how the run ended (when one is drawn) and a note on the scene."""
    title = scene.id
    if scene.provenance.conditions:
        title += ": " + ", ".join(f"{f}={v}" for f, v in scene.provenance.conditions)
    lines = _wrapped(title, 15, True, "#212529", "title", limit)
    if outcome is not None:
        colour = PASS_COLOUR if outcome.ok else FAIL_COLOUR
        lines += _wrapped(outcome.headline(), 13, True, colour, "verdict", limit)
        for detail in _details(outcome):
            lines += _wrapped(detail, 12, False, colour, "verdict-detail", limit)
    return [*lines, *_wrapped(_note(scene), 12, False, NOTE_COLOUR, "note", limit)]


def _note(scene: Scene) -> str:
    """How many objects and rooms, how many relations the layout relaxed, and which objects
    it left out (the room was full): a picture never hides that something is missing."""
    note = f"{_count(len(scene.objects), 'object')}, {_count(len(scene.rooms), 'room')}"
    provenance = scene.provenance
    if provenance.dropped:
        note += f", {_count(len(provenance.dropped), 'relation')} relaxed"
    left_out = [dropped.id for dropped in provenance.dropped_objects]
    if left_out:
        shown = ", ".join(left_out[:MAX_LEFT_OUT_NAMED])
        more = len(left_out) - MAX_LEFT_OUT_NAMED
        shown += f" and {more} more" if more > 0 else ""
        note += f", {_count(len(left_out), 'object')} left out (no room for them): {shown}"
    return note


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _details(outcome: Outcome) -> list[str]:
    """The broken precondition or the false goal facts, in words."""
    details = []
    if outcome.violation is not None:
        details.append(outcome.broken_precondition())
    if outcome.false_goals:
        details.append(outcome.unmet_goal())
    return details


def _wrapped(text: str, size: float, bold: bool, colour: str, css: str, limit: float) -> list[Line]:
    return [(line, size, bold, colour, css) for line in wrap(text, size, limit, bold=bold)]


def _steps(trace: Sequence[Step], limit: float) -> list[Line]:
    """The run's steps as lines: actions numbered as on the plan, conditions indented, runs
    of the same step folded into one line, the middle of a very long trace left out."""
    lines: list[Line] = []
    number = 0
    for step, repeats in _folded(trace):
        times = f"  (x{repeats})" if repeats > 1 else ""
        if step.kind == "action":
            number += repeats
            first = number - repeats + 1
            label = f"{first}-{number}" if repeats > 1 else f"{number}"
            mark = "" if step.ok else "  FAILED"
            colour, css = (NOTE_COLOUR, "step") if step.ok else (FAIL_COLOUR, "step failed")
            lines += _wrapped(f"{label}. {step}{mark}", 12, not step.ok, colour, css, limit)
        else:
            lines += _wrapped(f"      {step}{times}", 11, False, "#868e96", "condition", limit)
    if not lines:
        return [("The policy did nothing.", 12, False, NOTE_COLOUR, "step")]
    if len(lines) > MAX_STEP_LINES:
        head, tail = MAX_STEP_LINES // 3, MAX_STEP_LINES - MAX_STEP_LINES // 3 - 1
        gap = f"... {len(lines) - head - tail} more lines ..."
        lines = [*lines[:head], (gap, 11, False, "#868e96", "gap"), *lines[-tail:]]
    return [("Steps (numbers as on the plan)", 13, True, "#212529", "steps-title"), *lines]


def _folded(trace: Sequence[Step]) -> Iterator[tuple[Step, int]]:
    """Consecutive steps that read the same, once each with their count."""
    previous: Step | None = None
    count = 0
    for step in trace:
        if previous is not None and str(step) == str(previous) and step.kind == previous.kind:
            count += 1
            continue
        if previous is not None:
            yield previous, count
        previous, count = step, 1
    if previous is not None:
        yield previous, count


def _lines_height(lines: Sequence[Line]) -> float:
    return sum(text_height(size) + 2 for _, size, _, _, _ in lines)


def _text_block(lines: Sequence[Line], x: float, top: float, group: str) -> Iterator[str]:
    if not lines:
        return
    yield f'<g class="{group}">'
    y = top
    for text, size, bold, colour, css in lines:
        y += text_height(size) + 2
        weight = ' font-weight="bold"' if bold else ""
        yield (
            f'<text class="{css}" x="{x:.1f}" y="{y - 0.3 * size:.1f}" font-size="{size:g}" '
            f'fill="{colour}"{weight} xml:space="preserve">{escape(text)}</text>'
        )
    yield "</g>"


def _width(line: Line) -> float:
    text, size, bold, _, _ = line
    return text_width(text, size, bold=bold)


def _key(left: float, y: float, with_run: bool) -> tuple[list[str], float]:
    """What the colours and marks mean, as one row; and the row's width."""
    entries = [
        ("task object", "box", floor.TASK_FILL, floor.TASK_STROKE),
        ("other object", "box", floor.OBJECT_FILL, floor.OBJECT_STROKE),
    ]
    if with_run:
        entries += [
            ("acted on", "box", floor.OBJECT_FILL, floor.TOUCHED_STROKE),
            ("failing action's object", "box", floor.OBJECT_FILL, floor.FAILED_STROKE),
        ]
    entries += [
        ("door", "line", "", floor.DOOR_COLOUR),
        ("window", "line", "", floor.WINDOW_COLOUR),
    ]
    if with_run:
        entries.append(("agent's path", "line", "", marks.ROUTE_COLOUR))
    parts = ['<g class="key" font-size="11">']
    x = left
    for label, shape, fill, stroke in entries:
        if shape == "box":
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="14" height="10" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="2"/>'
            )
        else:
            parts.append(
                f'<line x1="{x:.1f}" y1="{y + 5:.1f}" x2="{x + 14:.1f}" y2="{y + 5:.1f}" '
                f'stroke="{stroke}" stroke-width="5"/>'
            )
        parts.append(f'<text x="{x + 18:.1f}" y="{y + 9:.1f}">{label}</text>')
        x += 28 + text_width(label, 11)
    parts.append("</g>")
    return parts, x - left
