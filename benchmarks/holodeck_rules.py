"""Scoring a laid-out living room by the rules issue 14 compared Holodeck and us with.

Holodeck's DFS floor solver tests each constraint on the placed footprints (its
``floor_objects.py``, in centimetres, on a grid of ``max(width, depth) // 20`` cm: 30 cm in a
6 x 5 m room, 20 cm in a 4 x 4 m one). We re-implement those tests here, on our scene's
geometry (the issue's inputs are the buffered sizes, so the footprints are what Holodeck
tests):

- ``edge``: the centre of the object's back is at most one grid cell from the room's
  boundary, and nearer to it than the object's centre;
- ``middle``: Holodeck has no test (it rewards only edge); met when no side of the footprint
  is within one grid cell of a wall;
- ``near``: the footprints are less than 80 cm apart (Holodeck's near score is zero beyond);
- ``in_front_of``: the subject's centre lies beyond the target's footprint on the side the
  target faces, within one grid cell of the target's centre across;
- ``center_aligned``: the centres are less than 5 cm apart along x or along z;
- ``face_to``: the half-line from the subject's centre along the way it faces meets the
  target's footprint.

An object counts as placed when it is in the scene, inside the room, overlaps no other object
and keeps out of the door's clearance zone; a constraint on an object not placed is not met.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_logicenv.scenes.scene_model import Scene, SceneObject, SpatialRelation

Box = tuple[float, float, float, float]  # x0, z0, x1, z1 in metres
FRONT = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}
NEAR = 0.8
ALIGN = 0.05
EPS = 1e-6


@dataclass(frozen=True)
class Score:
    """What one layout achieved: objects validly placed, constraints met, violations."""

    placed: int
    met: int
    violations: int


def score(scene: Scene, door_zone: Box) -> Score:
    """Score ``scene``'s relations (placements, edge or middle, among them) by the rules."""
    room = scene.rooms[0].bounds
    cell = max(room[2] - room[0], room[3] - room[1]) / 20
    boxes = {obj.id: footprint(obj) for obj in scene.objects}
    bad = _violators(boxes, room, door_zone)
    placed = {obj.id: obj for obj in scene.objects if obj.id not in bad}
    met = sum(_met(c, placed, boxes, room, cell) for c in scene.relations)
    return Score(len(placed), met, len(bad))


def footprint(obj: SceneObject) -> Box:
    sx, _, sz = obj.size
    if obj.rotation % 180 == 90:
        sx, sz = sz, sx
    x, _, z = obj.position
    return x - sx / 2, z - sz / 2, x + sx / 2, z + sz / 2


def _overlap(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > EPS and min(a[3], b[3]) - max(a[1], b[1]) > EPS


def _violators(boxes: dict[str, Box], room: Box, door_zone: Box) -> set[str]:
    """Objects outside the room, in the door zone, or overlapping another."""
    bad = set()
    ids = sorted(boxes)
    for n, first in enumerate(ids):
        box = boxes[first]
        outside = box[0] < room[0] - EPS or box[1] < room[1] - EPS
        outside = outside or box[2] > room[2] + EPS or box[3] > room[3] + EPS
        if outside or _overlap(box, door_zone):
            bad.add(first)
        for second in ids[n + 1 :]:
            if _overlap(box, boxes[second]):
                bad.update((first, second))
    return bad


def _met(
    constraint: SpatialRelation,
    placed: dict[str, SceneObject],
    boxes: dict[str, Box],
    room: Box,
    cell: float,
) -> bool:
    subject = placed.get(constraint.subject)
    target = placed.get(constraint.target) if constraint.target else None
    if subject is None or (constraint.target is not None and target is None):
        return False
    box = boxes[subject.id]
    if constraint.kind == "edge":
        return _at_edge(subject, box, room, cell)
    if constraint.kind == "middle":
        return _wall_distance(box, room) > cell
    assert target is not None
    other = boxes[target.id]
    if constraint.kind == "near":
        return _gap(box, other) < NEAR
    if constraint.kind == "in_front_of":
        return _in_front(box, other, target.rotation, cell)
    if constraint.kind == "center_aligned":
        (ax, az), (bx, bz) = _centre(box), _centre(other)
        return abs(ax - bx) < ALIGN or abs(az - bz) < ALIGN
    if constraint.kind == "face_to":
        return _faces(box, subject.rotation, other)
    raise ValueError(f"no rule for {constraint.kind}")


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _boundary_distance(x: float, z: float, room: Box) -> float:
    return min(x - room[0], room[2] - x, z - room[1], room[3] - z)


def _wall_distance(box: Box, room: Box) -> float:
    return min(box[0] - room[0], room[2] - box[2], box[1] - room[1], room[3] - box[3])


def _at_edge(obj: SceneObject, box: Box, room: Box, cell: float) -> bool:
    cx, cz = _centre(box)
    fx, fz = FRONT[obj.rotation]
    half = (box[3] - box[1]) / 2 if fz else (box[2] - box[0]) / 2
    back = _boundary_distance(cx - fx * half, cz - fz * half, room)
    return back <= cell + EPS and back < _boundary_distance(cx, cz, room)


def _gap(a: Box, b: Box) -> float:
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dz = max(b[1] - a[3], a[1] - b[3], 0.0)
    return float((dx * dx + dz * dz) ** 0.5)


def _in_front(box: Box, target: Box, rotation: int, cell: float) -> bool:
    (cx, cz), (tx, tz) = _centre(box), _centre(target)
    fx, fz = FRONT[rotation]
    if fz:
        beyond = cz > target[3] if fz > 0 else cz < target[1]
        return beyond and abs(cx - tx) < cell
    beyond = cx > target[2] if fx > 0 else cx < target[0]
    return beyond and abs(cz - tz) < cell


def _faces(box: Box, rotation: int, target: Box) -> bool:
    cx, cz = _centre(box)
    fx, fz = FRONT[rotation]
    if fz:
        ahead = target[3] >= cz if fz > 0 else target[1] <= cz
        return ahead and target[0] <= cx <= target[2]
    ahead = target[2] >= cx if fx > 0 else target[0] <= cx
    return ahead and target[1] <= cz <= target[3]
