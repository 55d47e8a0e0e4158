"""The floor the openings need clear, part of Table 1's entity dimension.

Nothing but a flat mark lies in a door's swing area (as deep as :func:`door_clearance` on each
side it opens to), and nothing stands or hangs in front of a window's opening (a slab
``WINDOW_REVEAL`` deep on its room's side, between its sill and its top).
"""

from __future__ import annotations

from collections.abc import Iterator

from pytest_logicenv.scenes.physics.check_results import Collector
from pytest_logicenv.scenes.physics.geometry import (
    TOLERANCE,
    Rect,
    axis_normals,
    strictly_inside,
)
from pytest_logicenv.scenes.physics.objects import bottom, footprint, inward, opening_span, top
from pytest_logicenv.scenes.scene_model import (
    DOOR_UNDERCUT,
    WINDOW_REVEAL,
    Door,
    Scene,
    SceneObject,
    Window,
    door_clearance,
)


def check_door_swings(out: Collector, scene: Scene) -> None:
    """No object of a door's room stands in its swing area, a flat mark excepted."""
    for door in scene.doors:
        for rect, room_id in swing_areas(scene, door):
            for obj in scene.objects:
                if obj.room != room_id:
                    continue
                out.expect(
                    not _in_swing(obj, rect, door),
                    f"objects[{obj.id}]",
                    f"stands in the swing area of door {door.id!r} ({rect})",
                )


def _in_swing(obj: SceneObject, rect: Rect, door: Door) -> bool:
    """The object is in the area, lower than the door's top and taller than its undercut."""
    return (
        footprint(obj).overlaps(rect)
        and bottom(obj) < door.height
        and top(obj) > DOOR_UNDERCUT + TOLERANCE
    )


def check_window_reveals(out: Collector, scene: Scene) -> None:
    """No object of a window's room covers its opening."""
    for window in scene.windows:
        area = reveal(scene, window)
        if area is None:
            continue
        for obj in scene.objects:
            out.expect(
                not _covers(obj, area, window),
                f"objects[{obj.id}]",
                f"covers window {window.id!r} ({area}, from {window.sill:.2f} m)",
            )


def _covers(obj: SceneObject, area: Rect, window: Window) -> bool:
    """The object is in the window's room, in front of it, between its sill and its top."""
    return (
        obj.room == window.room
        and footprint(obj).overlaps(area)
        and bottom(obj) < window.sill + window.height - TOLERANCE
        and top(obj) > window.sill + TOLERANCE
    )


def swing_areas(scene: Scene, door: Door) -> Iterator[tuple[Rect, str]]:
    """The floor area in front of the door on each side (as deep as :func:`door_clearance`),
    with the room it lies in."""
    wall = next((w for w in scene.walls if w.id == door.wall), None)
    if wall is None:
        return
    a, b = opening_span(wall, door)
    normals = axis_normals(a, b)
    if normals is None:
        return
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    for nx, nz in normals:
        probe = mid[0] + nx * 1e-3, mid[1] + nz * 1e-3
        for room in scene.rooms:
            if room.id in door.rooms and strictly_inside(room.polygon, probe):
                depth = door_clearance(door.width)
                far = [(p[0] + nx * depth, p[1] + nz * depth) for p in (a, b)]
                yield Rect.around((a, b, *far)), room.id


def reveal(scene: Scene, window: Window) -> Rect | None:
    """The slab of floor plane ``WINDOW_REVEAL`` deep in front of a window's opening, on its
    room's side."""
    wall = next((w for w in scene.walls if w.id == window.wall), None)
    room = next((r for r in scene.rooms if r.id == window.room), None)
    if wall is None or room is None:
        return None
    a, b = opening_span(wall, window)
    facing = inward(room, a, b)
    if facing is None:
        return None
    deep = [(p[0] + facing[0] * WINDOW_REVEAL, p[1] + facing[1] * WINDOW_REVEAL) for p in (a, b)]
    return Rect.around((a, b, *deep))
