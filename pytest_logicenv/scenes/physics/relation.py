"""Table 1's relation dimension: the spatial relations the layout kept hold in the scene.

Every relation the layout kept (and every requested relation it did not record as dropped)
is tested against its definition: the thresholds in :mod:`pytest_logicenv.scenes.scene_model`, the
relations as :mod:`pytest_logicenv.scenes.layout`'s docstring defines them. Each kind has a
function here saying why it does not hold (None when it does).

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject, SpatialRelation
>>> room = Room("r", "LivingRoom", ((0, 0), (5, 0), (5, 3), (0, 3)))
>>> sofa = SceneObject("sofa", "Sofa", room="r", size=(1, 1, 1), position=(0.5, 0.5, 1.5))
>>> lamp = SceneObject("lamp", "Lamp", room="r", size=(1, 1, 1), position=(4.5, 0.5, 1.5))
>>> near = SpatialRelation("near", "lamp", "sofa")
>>> scene = Scene("s", rooms=(room,), objects=(sofa, lamp), relations=(near,))
>>> for violation in check_relations(scene).violations:
...     print(violation)
[relation] relations[near(lamp, sofa)]: does not hold:
    they are 3.000 m apart (near means <= 1.0 m)
"""

from __future__ import annotations

from collections.abc import Callable

from pytest_logicenv.scenes.physics.check_results import Collector, DimensionCheck
from pytest_logicenv.scenes.physics.geometry import (
    TOLERANCE,
    Point,
    Rect,
    across,
    dot,
    rect_in_polygon,
)
from pytest_logicenv.scenes.physics.objects import (
    Side,
    against_wall,
    bottom,
    convex_corners,
    footprint,
    front,
    inside_problem,
    rest_level,
    side_gap,
    top,
    wall_gaps,
)
from pytest_logicenv.scenes.scene_model import (
    ABOVE_MARGIN,
    ADJACENT_DISTANCE,
    ALIGN_TOLERANCE,
    CENTER_FRACTION,
    EDGE_DISTANCE,
    FAR_DISTANCE,
    MIDDLE_DISTANCE,
    NEAR_DISTANCE,
    Room,
    Scene,
    SceneObject,
    SpatialRelation,
)

_Unary = Callable[[SceneObject, dict[str, Room], dict[str, SceneObject]], str | None]
_Binary = Callable[[SceneObject, SceneObject], str | None]


def check_relations(scene: Scene) -> DimensionCheck:
    """Check each relation to check (see :func:`relations_to_check`) once."""
    out = Collector("relation")
    by_id = {obj.id: obj for obj in scene.objects}
    rooms = {room.id: room for room in scene.rooms}
    for relation in relations_to_check(scene):
        problem = relation_problem(relation, rooms, by_id)
        out.expect(problem is None, f"relations[{relation}]", problem or "")
    return out.result()


def relations_to_check(scene: Scene) -> list[SpatialRelation]:
    """The kept relations, and requested ones not recorded as dropped, each once."""
    dropped = {(r.kind, r.subject, r.target) for r in scene.provenance.dropped}
    out: dict[tuple[str, str, str | None], SpatialRelation] = {}
    for relation in (*scene.provenance.kept, *scene.relations):
        key = (relation.kind, relation.subject, relation.target)
        if key not in dropped and key not in out:
            out[key] = relation
    return list(out.values())


def relation_problem(
    relation: SpatialRelation, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    """Why the relation does not hold (None when it does)."""
    s = by_id.get(relation.subject)
    t = by_id.get(relation.target) if relation.target is not None else None
    if s is None or (relation.target is not None and t is None):
        return "names an object that is not in the scene"
    if relation.kind in _UNARY and t is None:
        reason = _UNARY[relation.kind](s, rooms, by_id)
    elif relation.kind in _BINARY and t is not None:
        if relation.kind == "far" and s.room != t.room:
            return None  # different rooms are far apart
        if s.room != t.room:
            reason = f"{s.id!r} is in {s.room!r}, {t.id!r} in {t.room!r}"
        else:
            reason = (
                _on_top_holds(s, t, by_id)
                if relation.kind == "on_top_of"
                else _BINARY[relation.kind](s, t)
            )
    else:
        return f"unknown relation kind {relation.kind!r} for {'two objects' if t else 'one object'}"
    return None if reason is None else f"does not hold: {reason}"


# --------------------------------------------------------------------------- unary relations


def _edge_holds(
    s: SceneObject, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    if s.relation == "wall":
        return "edge applies to objects on the floor or on a surface, not on a wall"
    if s.parent is None:
        return _edge_of_room(s, rooms[s.room])
    rect, parent = footprint(s), footprint(by_id[s.parent])
    gaps = (rect.x0 - parent.x0, parent.x1 - rect.x1, rect.z0 - parent.z0, parent.z1 - rect.z1)
    if min(abs(g) for g in gaps) <= EDGE_DISTANCE + TOLERANCE:
        return None
    return f"it is {min(abs(g) for g in gaps):.3f} m from the rim of {s.parent!r}"


def _edge_of_room(s: SceneObject, room: Room) -> str | None:
    """A floor object is at the edge with a wall at most ``EDGE_DISTANCE`` behind its back."""
    rect, facing = footprint(s), front(s)
    if any(-TOLERANCE <= gap <= EDGE_DISTANCE + TOLERANCE for gap in wall_gaps(rect, facing, room)):
        return None
    return (
        f"no wall of {s.room!r} is within {EDGE_DISTANCE} m behind it, along its whole "
        f"back (footprint {rect}, facing {facing})"
    )


def _corner_holds(
    s: SceneObject, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    if s.relation == "wall":
        return "corner applies to objects on the floor or on a surface, not on a wall"
    rect = footprint(s)
    if s.parent is None:
        if any(_in_corner(rect, front(s), c) for c in convex_corners(rooms[s.room])):
            return None
        return f"it does not stand in a corner of {s.room!r} with its back to one of its walls"
    parent = footprint(by_id[s.parent])
    gaps_x = (abs(rect.x0 - parent.x0), abs(parent.x1 - rect.x1))
    gaps_z = (abs(rect.z0 - parent.z0), abs(parent.z1 - rect.z1))
    if min(gaps_x) <= EDGE_DISTANCE + TOLERANCE and min(gaps_z) <= EDGE_DISTANCE + TOLERANCE:
        return None
    return f"it is not within {EDGE_DISTANCE} m of two sides of {s.parent!r}'s rim"


def _in_corner(rect: Rect, facing: Point, corner: tuple[Side, Side]) -> bool:
    """The rectangle lies by both sides of the corner, its back (``facing`` away) to one."""
    first, second = corner
    if facing not in (first.normal, second.normal):
        return False
    return all(
        gap is not None and -TOLERANCE <= gap <= EDGE_DISTANCE + TOLERANCE
        for gap in (side_gap(rect, first), side_gap(rect, second))
    )


def _center_holds(
    s: SceneObject, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    if s.relation == "wall":
        return "center applies to objects on the floor or on a surface, not on a wall"
    support = _support(s, rooms, by_id)
    (cx, cz), (sx, sz) = footprint(s).centre, support.centre
    limit_x = CENTER_FRACTION * (support.x1 - support.x0) + TOLERANCE
    limit_z = CENTER_FRACTION * (support.z1 - support.z0) + TOLERANCE
    if abs(cx - sx) <= limit_x and abs(cz - sz) <= limit_z:
        return None
    return f"its centre ({cx:.3f}, {cz:.3f}) is off the support's centre ({sx:.3f}, {sz:.3f})"


def _middle_holds(
    s: SceneObject, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    if s.relation == "wall":
        return "middle applies to objects on the floor or on a surface, not on a wall"
    if s.parent is not None:
        return _center_holds(s, rooms, by_id)
    rect, margin = footprint(s), MIDDLE_DISTANCE - TOLERANCE
    grown = Rect(rect.x0 - margin, rect.z0 - margin, rect.x1 + margin, rect.z1 + margin)
    if rect_in_polygon(grown, rooms[s.room].polygon):
        return None
    return f"it is within {MIDDLE_DISTANCE} m of a wall of {s.room!r} (footprint {rect})"


def _support(s: SceneObject, rooms: dict[str, Room], by_id: dict[str, SceneObject]) -> Rect:
    """What the object stands on, seen from above: its room's bounds, or its parent."""
    if s.parent is None:
        return Rect.around(rooms[s.room].polygon)
    return footprint(by_id[s.parent])


def _mounted_holds(
    s: SceneObject, rooms: dict[str, Room], by_id: dict[str, SceneObject]
) -> str | None:
    if s.relation == "wall" and s.parent is None and against_wall(s, rooms[s.room]):
        return None
    return "it is not hung with its back on a wall of its room"


# --------------------------------------------------------------------------- support relations


def _in_holds(s: SceneObject, t: SceneObject) -> str | None:
    if s.parent != t.id or s.relation != "in":
        return f"{s.id!r} rests {s.relation} {s.parent or 'the floor'}"
    return inside_problem(s, t)


def _on_top_holds(
    s: SceneObject, t: SceneObject, by_id: dict[str, SceneObject] | None = None
) -> str | None:
    """On ``t``'s top, or on the parts that stand on it (a pot on a stove's burners)."""
    if s.parent != t.id or s.relation != "on":
        return f"{s.id!r} rests {s.relation} {s.parent or 'the floor'}"
    inner, outer = footprint(s), footprint(t)
    if not inner.inside(outer):
        return f"its footprint {inner} leaves {outer}"
    level = rest_level(s, t, by_id or {})
    if abs(bottom(s) - level) > TOLERANCE:
        return f"its bottom {bottom(s):.3f} m is not {t.id!r}'s top {level:.3f} m"
    return None


def _above_holds(s: SceneObject, t: SceneObject) -> str | None:
    if bottom(s) < top(t) - TOLERANCE:
        return f"its bottom {bottom(s):.3f} m is below {t.id!r}'s top {top(t):.3f} m"
    (cx, cz), area = footprint(s).centre, footprint(t)
    margin = ABOVE_MARGIN + TOLERANCE
    if area.x0 - margin <= cx <= area.x1 + margin and area.z0 - margin <= cz <= area.z1 + margin:
        return None
    return f"its centre ({cx:.3f}, {cz:.3f}) is not over {t.id!r} ({area})"


# --------------------------------------------------------------------------- distances


def _near_holds(s: SceneObject, t: SceneObject) -> str | None:
    gap = footprint(s).gap(footprint(t))
    if gap <= NEAR_DISTANCE + TOLERANCE:
        return None
    return f"they are {gap:.3f} m apart (near means <= {NEAR_DISTANCE} m)"


def _far_holds(s: SceneObject, t: SceneObject) -> str | None:
    gap = footprint(s).gap(footprint(t))
    if gap >= FAR_DISTANCE - TOLERANCE:
        return None
    return f"they are {gap:.3f} m apart (far means >= {FAR_DISTANCE} m)"


# --------------------------------------------------------------------------- directions


def _beyond(first: Rect, second: Rect, direction: Point, reach: float | None) -> float | None:
    """How far ``first`` lies beyond ``second``'s side in ``direction`` (None if not wholly)."""
    gap = first.span(direction)[0] - second.span(direction)[1]
    if gap < -TOLERANCE or (reach is not None and gap > reach + TOLERANCE):
        return None
    return gap


def _centred_across(s: Rect, t: Rect, direction: Point) -> bool:
    """Whether ``s``'s centre lies within ``t``'s extent across ``direction``."""
    side = across(direction)
    low, high = t.span(side)
    value = dot(s.centre, side)
    return low - TOLERANCE <= value <= high + TOLERANCE


def _in_front_holds(s: SceneObject, t: SceneObject) -> str | None:
    a, b, facing = footprint(s), footprint(t), front(t)
    if _beyond(a, b, facing, ADJACENT_DISTANCE) is None:
        return f"it is not within {ADJACENT_DISTANCE} m beyond {t.id!r}'s front (facing {facing})"
    if not _centred_across(a, b, facing):
        return f"its centre is not within {t.id!r}'s width"
    return None


def _side_holds(s: SceneObject, t: SceneObject) -> str | None:
    a, b = footprint(s), footprint(t)
    left = across(front(t))
    right = (-left[0], -left[1])
    if all(_beyond(a, b, side, ADJACENT_DISTANCE) is None for side in (left, right)):
        return f"it is not within {ADJACENT_DISTANCE} m to the left or right of {t.id!r}"
    if not _centred_across(a, b, left):
        return f"its centre is not within {t.id!r}'s depth"
    return None


def _aligned_holds(s: SceneObject, t: SceneObject) -> str | None:
    side = across(front(t))
    offset = abs(dot(footprint(s).centre, side) - dot(footprint(t).centre, side))
    if offset <= ALIGN_TOLERANCE + TOLERANCE:
        return None
    return f"its centre is {offset:.3f} m off {t.id!r}'s facing axis"


def _face_holds(s: SceneObject, t: SceneObject) -> str | None:
    a, b, facing = footprint(s), footprint(t), front(s)
    if _beyond(b, a, facing, None) is None:
        return f"{t.id!r} is not wholly in front of it (it faces {facing})"
    if not _centred_across(a, b, facing):
        return f"it does not look straight at {t.id!r}"
    return None


_UNARY: dict[str, _Unary] = {
    "edge": _edge_holds,
    "center": _center_holds,
    "corner": _corner_holds,
    "middle": _middle_holds,
    "mounted_on_wall": _mounted_holds,
}
_BINARY: dict[str, _Binary] = {
    "in": _in_holds,
    "on_top_of": _on_top_holds,
    "near": _near_holds,
    "far": _far_holds,
    "above": _above_holds,
    "in_front_of": _in_front_holds,
    "side_of": _side_holds,
    "center_aligned": _aligned_holds,
    "face_to": _face_holds,
}
