"""Table 1's floor-plan dimension: the rooms and the openings in their walls.

Room polygons are simple and do not overlap; each door lies on its wall, on the floor, where
that wall separates the two rooms it joins (or on an exterior wall of its room, for an outside
door); each window lies in an exterior wall of its room, above the floor and below the wall's
top; openings on one wall do not overlap.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene
>>> first = Room("a", "Kitchen", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> second = Room("b", "Bedroom", ((2, 0), (5, 0), (5, 3), (2, 3)))
>>> for violation in check_floor_plan(Scene("s", rooms=(first, second))).violations:
...     print(violation)
[floor_plan] rooms[a]: overlaps room 'b'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from pytest_logicenv.scenes.physics.check_results import Collector, DimensionCheck
from pytest_logicenv.scenes.physics.geometry import (
    TOLERANCE,
    Point,
    polygons_overlap,
    segment_on_boundary,
    segment_text,
    self_crossing,
    signed_area,
)
from pytest_logicenv.scenes.physics.objects import opening_span, wall_length
from pytest_logicenv.scenes.scene_model import Door, Room, Scene, Wall, Window

#: The openings on each wall, by wall id: ``(start, end, opening id)`` along the wall.
_Spans = dict[str, list[tuple[float, float, str]]]


def check_floor_plan(scene: Scene) -> DimensionCheck:
    """Check the rooms' polygons, then the doors and windows, then their spacing."""
    out = Collector("floor_plan")
    for room in scene.rooms:
        _check_polygon(out, room)
    _check_room_overlaps(out, scene.rooms)
    spans = _check_openings(out, scene)
    _check_spans(out, spans)
    return out.result()


def _check_polygon(out: Collector, room: Room) -> None:
    where = f"rooms[{room.id}]"
    if not out.expect(len(room.polygon) >= 3, where, "a room polygon needs 3 corners"):
        return
    out.expect(abs(signed_area(room.polygon)) > TOLERANCE, where, "the polygon has no area")
    out.expect(not self_crossing(room.polygon), where, "the polygon crosses itself")


def _check_room_overlaps(out: Collector, rooms: Sequence[Room]) -> None:
    for i, first in enumerate(rooms):
        for second in rooms[i + 1 :]:
            out.expect(
                not polygons_overlap(first.polygon, second.polygon),
                f"rooms[{first.id}]",
                f"overlaps room {second.id!r}",
            )


def _check_openings(out: Collector, scene: Scene) -> _Spans:
    """Check each door, then each window, on its wall; return where they lie on the walls."""
    rooms = {room.id: room for room in scene.rooms}
    walls = {wall.id: wall for wall in scene.walls}
    spans: _Spans = {}
    openings: tuple[Door | Window, ...] = (*scene.doors, *scene.windows)
    for opening in openings:
        wall = _opening_wall(out, opening, walls)
        if wall is None:
            continue
        if isinstance(opening, Door):
            _check_door(out, opening, wall, rooms)
        else:
            _check_window(out, opening, wall, rooms)
        end = opening.offset + opening.width
        spans.setdefault(wall.id, []).append((opening.offset, end, opening.id))
    return spans


def _where(opening: Door | Window) -> str:
    return f"{'doors' if isinstance(opening, Door) else 'windows'}[{opening.id}]"


def _opening_wall(out: Collector, opening: Door | Window, walls: dict[str, Wall]) -> Wall | None:
    """The opening's wall, if it is in the scene and the opening fits along it."""
    where = _where(opening)
    wall = walls.get(opening.wall)
    if not out.expect(wall is not None, where, f"its wall {opening.wall!r} is not in the scene"):
        return None
    assert wall is not None
    length = wall_length(wall)
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
    """The rooms whose boundary covers ``segment``."""
    return [rid for rid, room in rooms.items() if segment_on_boundary(*segment, room.polygon)]


def _check_door(out: Collector, door: Door, wall: Wall, rooms: dict[str, Room]) -> None:
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
    segment = opening_span(wall, door)
    holding = _rooms_holding(segment, rooms)
    lies = f"{segment_text(segment)} lies on the boundary of {holding or 'no room'}"
    if len(joined) == 2:
        out.expect(
            set(joined) <= set(holding),
            where,
            f"is not on the wall between {joined[0]!r} and {joined[1]!r}: its opening {lies}",
        )
    else:
        out.expect(
            holding == joined,
            where,
            f"an outside door of {joined[0]!r} must be on an exterior wall of it; its opening "
            f"{lies}",
        )


def _check_window(out: Collector, window: Window, wall: Wall, rooms: dict[str, Room]) -> None:
    where = f"windows[{window.id}]"
    segment = opening_span(wall, window)
    holding = _rooms_holding(segment, rooms)
    out.expect(
        holding == [window.room],
        where,
        f"must be in an exterior wall of {window.room!r}; its opening {segment_text(segment)} "
        f"lies on the boundary of {holding or 'no room'}",
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


def _check_spans(out: Collector, spans: _Spans) -> None:
    """Openings on one wall do not overlap."""
    for wall_id, wall_spans in spans.items():
        wall_spans.sort()
        for (_, end, earlier), (start, _, later) in itertools.pairwise(wall_spans):
            out.expect(
                start >= end - TOLERANCE,
                f"walls[{wall_id}]",
                f"openings {earlier} and {later} overlap on the wall",
            )
