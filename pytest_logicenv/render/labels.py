"""Label placement: every label gets a box that overlaps no other label, as near its object
as the others allow.

Labels are placed one at a time, in the order given (the caller puts the important ones
first). Each tries positions in rings of growing distance from what it names: inside it when
it fits, then beside it, then further out in sixteen directions, with a leader line back to
the object once it has moved away. A position that overlaps a label already placed (or a
fixed obstacle) is never taken; among the free ones of the nearest rings, the one that
covers the fewest other shapes wins, so that labels hide as little of the plan as they can.
If every ring is full the label goes below everything, so placement always succeeds.

>>> sofa = LabelRequest("sofa", "sofa", 10, (0, 0, 100, 40))
>>> pillow = LabelRequest("pillow", "pillow", 10, (40, 15, 60, 25))
>>> first, second = place_labels([pillow, sofa])
>>> intersects(first.box, second.box)
False
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pytest_logicenv.render.measure import (
    Box,
    Pixel,
    centre,
    inflate,
    intersects,
    nearest,
    text_height,
    text_width,
    union,
)

#: Room kept free around every label (pixels), so that neighbours do not touch.
GAP = 1.5
#: Padding between a label's text and its box.
PAD_X, PAD_Y = 2.0, 1.0
#: Distances (pixels) of the rings beyond the object's edge.
RINGS = (4.0, 10.0, 18.0, 30.0, 46.0, 68.0, 96.0, 132.0, 180.0, 240.0, 320.0, 420.0)
#: Directions tried on each ring: sixteen, starting above and going clockwise.
DIRECTIONS = tuple(
    (math.sin(2 * math.pi * k / 16), -math.cos(2 * math.pi * k / 16)) for k in range(16)
)
#: How many rings beyond the first free one are searched for a position covering less.
LOOK_FURTHER = 2


@dataclass(frozen=True)
class LabelRequest:
    """A label to place: its ``text`` at font ``size`` naming ``anchor`` (a box in pixels).

    ``inside`` allows the label within its anchor (an object's footprint); ``top`` prefers
    the anchor's top edge to its centre (for what holds other objects, whose labels would
    cover it, and for rooms).
    """

    key: str
    text: str
    size: float
    anchor: Box
    bold: bool = False
    inside: bool = True
    top: bool = False

    @property
    def width(self) -> float:
        return text_width(self.text, self.size, bold=self.bold) + 2 * PAD_X

    @property
    def height(self) -> float:
        return text_height(self.size) + 2 * PAD_Y


@dataclass(frozen=True)
class Placed:
    """Where a label went: its ``box`` and, when it left its anchor, the ``leader`` line from
    the label's edge to the anchor's."""

    request: LabelRequest
    box: Box
    leader: tuple[Pixel, Pixel] | None = None


def place_labels(
    requests: Sequence[LabelRequest],
    *,
    obstacles: Sequence[Box] = (),
    shapes: Sequence[Box] = (),
) -> tuple[Placed, ...]:
    """Place every label, in order; no two placed boxes (nor a box and an obstacle)
    intersect. ``shapes`` are what a label had better not cover (object footprints)."""
    taken: list[Box] = [inflate(box, GAP) for box in obstacles]
    placed: list[Placed] = []
    for request in requests:
        box = _choose(request, taken, shapes)
        if box is None:
            box = _below_everything(request, taken, shapes)
        placed.append(Placed(request, box, _leader(request.anchor, box)))
        taken.append(inflate(box, GAP))
    return tuple(placed)


def _choose(request: LabelRequest, taken: Sequence[Box], shapes: Sequence[Box]) -> Box | None:
    """The free candidate with the lowest cost: its ring, plus half again per shape it
    covers; ``None`` when every ring is full."""
    best: tuple[float, Box] | None = None
    first_free: int | None = None
    for ring, candidates in enumerate(_rings(request)):
        if best is not None and (ring >= best[0] or ring > (first_free or 0) + LOOK_FURTHER):
            break  # nothing further out can beat what was found
        for box in candidates:
            if any(intersects(box, other) for other in taken):
                continue
            first_free = ring if first_free is None else first_free
            covered = _covered(request.anchor, box, shapes)
            cost = ring + 1.5 * covered
            if best is None or cost < best[0]:
                best = (cost, box)
                if covered == 0:
                    return box
    return None if best is None else best[1]


def _covered(anchor: Box, box: Box, shapes: Sequence[Box]) -> int:
    """How many shapes ``box`` covers, leaving out the anchor itself and what it stands on
    (every shape holding the anchor's centre)."""
    cx, cy = centre(anchor)
    return sum(
        1
        for shape in shapes
        if intersects(box, shape)
        and shape != anchor
        and not (shape[0] <= cx <= shape[2] and shape[1] <= cy <= shape[3])
    )


def _rings(request: LabelRequest) -> Iterator[list[Box]]:
    """Candidate boxes, ring by ring: inside, beside, then further out."""
    w, h = request.width, request.height
    x0, y0, x1, y1 = request.anchor
    cx, cy = centre(request.anchor)
    inside = []
    if request.inside and w <= x1 - x0 and h <= y1 - y0:
        middle, top = _at(cx, cy, w, h), _at(cx, y0 + h / 2, w, h)
        inside = [top, middle] if request.top else [middle, top]
        inside.append(_at(cx, y1 - h / 2, w, h))
    yield inside
    yield [
        _at(cx, y0 - GAP - h / 2, w, h),
        _at(cx, y1 + GAP + h / 2, w, h),
        _at(x1 + GAP + w / 2, cy, w, h),
        _at(x0 - GAP - w / 2, cy, w, h),
        _at(x0 + w / 2, y0 - GAP - h / 2, w, h),
        _at(x1 - w / 2, y0 - GAP - h / 2, w, h),
        _at(x0 + w / 2, y1 + GAP + h / 2, w, h),
        _at(x1 - w / 2, y1 + GAP + h / 2, w, h),
    ]
    for distance in RINGS:
        yield [
            _at(
                cx + ux * ((x1 - x0 + w) / 2 + distance),
                cy + uy * ((y1 - y0 + h) / 2 + distance),
                w,
                h,
            )
            for ux, uy in DIRECTIONS
        ]


def _at(cx: float, cy: float, w: float, h: float) -> Box:
    """The box of size ``w`` x ``h`` centred on ``(cx, cy)``."""
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def _below_everything(request: LabelRequest, taken: Sequence[Box], shapes: Sequence[Box]) -> Box:
    """A box under everything placed so far: always free."""
    around = union([*taken, *shapes, request.anchor])
    assert around is not None
    top = around[3] + 2 * GAP
    left = centre(request.anchor)[0] - request.width / 2
    return left, top, left + request.width, top + request.height


def _leader(anchor: Box, box: Box) -> tuple[Pixel, Pixel] | None:
    """A line from the label to its anchor, when they are apart by more than a few pixels."""
    to = nearest(anchor, centre(box))
    start = nearest(box, to)
    if math.dist(start, to) <= RINGS[0] + GAP:
        return None
    return start, to
