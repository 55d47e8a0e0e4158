"""The hard constraints of a problem: inside the room, supported, clear of openings, apart.

Each item of the problem stays in its room (outside the cells of the room's bounding box that
are not the room), or within the footprint of what it rests on; a wall-mounted one hangs with
its back flush on a side of its room, below the wall's top. Nothing (with what will rest on it)
meets a door's clearance or a window's reveal, and no two items share volume unless one holds
the other. Pairs that cannot meet are left out: boxes that cannot overlap wherever the problem
puts them, and, decomposed, pairs that their supports already keep apart.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.poses import Pose, cell_box, rotation_cases, rotation_cond
from pytest_logicenv.scenes.layout.room_grid import RoomSide
from pytest_logicenv.scenes.layout.smt import (
    GRID,
    HEIGHT_UNIT,
    CellBox,
    Cond,
    all_of,
    any_of,
    below,
    eq,
    implies,
    le,
    plus,
)
from pytest_logicenv.scenes.layout.state import LayoutState, Poses
from pytest_logicenv.scenes.scene_model import WALL_HEIGHT


def hard_constraints(
    state: LayoutState, ids: Sequence[str], poses: Poses, present: Mapping[str, str]
) -> list[Cond]:
    """The hard constraints on the items ``ids`` of a problem, whose fresh poses are ``poses``
    (the other items are fixed). An item with a literal in ``present`` may be left out: its
    constraints hold when the literal does."""
    out: list[Cond] = []
    for item_id in ids:
        item = state.items[item_id]
        here = present.get(item_id, True)
        out += [implies(here, c) for c in _region(state, item, poses[item_id], poses)]
        out += [implies(here, c) for c in _clear_of_openings(state, item, poses)]
    return out + _collisions(state, ids, poses, present)


def _clear_of_openings(state: LayoutState, item: Item, poses: Poses) -> list[Cond]:
    """The item, with what will rest on it, keeps out of the doors' clearances and the
    windows' reveals of its room: a watch on an armchair under a window must stay below the
    sill too. What a floor object holds stays within it, so it is clear already."""
    if state.items[item.root].kind == "floor" and item.kind != "floor":
        return []
    box = cell_box(item, poses[item.id], crowned=True)
    reach = _reach(state, item, poses)
    return [
        box.apart(obstacle)
        for obstacle in state.obstacles.get(item.room, ())
        if reach.meets(obstacle)
    ]


def _collisions(
    state: LayoutState, ids: Sequence[str], poses: Poses, present: Mapping[str, str]
) -> list[Cond]:
    """No two items share volume: each new item against the later new ones and the fixed."""
    out: list[Cond] = []
    fresh = [state.items[i] for i in ids]
    others = [state.items[i] for i in state.poses]
    for n, a in enumerate(fresh):
        reach_a = _reach(state, a, poses)
        for b in fresh[n + 1 :] + others:
            if not _needs_apart(a, b, state.items, state.prune):
                continue
            if not reach_a.meets(_reach(state, b, poses)):
                continue
            # Decomposed, with what rests on each: a picture hung in the same problem as
            # the sofa below it keeps clear of the books that will lie on the sofa later.
            crowned = state.prune
            box_a = cell_box(a, poses[a.id], crowned)
            both = all_of(present.get(a.id, True), present.get(b.id, True))
            out.append(implies(both, box_a.apart(cell_box(b, state.pose_of(b.id, poses), crowned))))
    return out


# --------------------------------------------------------------------------- where it may be


def _region(state: LayoutState, item: Item, pose: Pose, poses: Poses) -> list[Cond]:
    """Where the item may be: inside the room (floor, agent, wall) or on its parent."""
    if item.kind in ("on", "in"):
        return [_on_parent(state, item, pose, poses)]
    plan = state.plans[item.room]
    box = cell_box(item, pose)
    x0, z0, x1, z1 = plan.bbox
    out = [le(x0, box.x0), le(box.x1, x1), le(z0, box.z0), le(box.z1, z1)]
    out += [box.apart(hole) for hole in plan.holes]
    if item.kind == "wall":
        out += _on_a_wall(state, item, pose)
    return out


def _on_parent(state: LayoutState, item: Item, pose: Pose, poses: Poses) -> Cond:
    """The real footprint within the parent's real footprint, exactly; on its top, off the
    end its parts take (a counter's sink: which end depends on the way the parent faces)."""
    parent_item = state.items[item.parent or ""]
    parent_pose = state.pose_of(item.parent or "", poses)
    taken = state.taken_tops.get(parent_item.id, 0.0) if item.kind == "on" else 0.0
    return any_of(
        *(
            all_of(
                cond,
                parent_cond,
                below(parent.x_lo, geo.x_lo, -cut[0]),
                below(geo.x_hi, parent.x_hi, -cut[1]),
                below(parent.z_lo, geo.z_lo, -cut[2]),
                below(geo.z_hi, parent.z_hi, -cut[3]),
            )
            for cond, geo in rotation_cases(item, pose, False)
            for parent_cond, parent in rotation_cases(parent_item, parent_pose, taken > 0)
            for cut in [_taken_end(parent.front, taken)]
        )
    )


#: The side of a footprint (x_lo, x_hi, z_lo, z_hi) its right end (its own +x) lies on, by the
#: way it faces: as :func:`~pytest_logicenv.scenes.part_geometry.turned` turns a part's offset.
_RIGHT_END = {(0, 1): 1, (1, 0): 2, (0, -1): 0, (-1, 0): 3}


def _taken_end(front: tuple[int, int] | None, taken: float) -> tuple[float, ...]:
    """How far each side of a parent's footprint moves in: ``taken`` at its right end."""
    cut = [0.0, 0.0, 0.0, 0.0]
    if taken > 0 and front is not None:
        cut[_RIGHT_END[front]] = taken
    return tuple(cut)


def _on_a_wall(state: LayoutState, item: Item, pose: Pose) -> list[Cond]:
    """Against one of its room's sides, between the floor and the wall's top with what rests
    on it."""
    sides = state.plans[item.room].sides
    top = math.ceil(item.crown / HEIGHT_UNIT - 1e-6)
    out = [
        le(0, pose.side),
        le(pose.side, len(sides) - 1),
        le(0, pose.base),
        le(plus(pose.base, top), round(WALL_HEIGHT / HEIGHT_UNIT)),
    ]
    for index, side in enumerate(sides):
        out.append(implies(eq(pose.side, index), _against(item, pose, side)))
    return out


def _against(item: Item, pose: Pose, side: RoomSide) -> Cond:
    """The item hangs with its back on ``side``, facing into the room, within its extent
    (its width runs along the wall, its depth away from it; in :data:`GRID` cells)."""
    along, away = (pose.x, pose.z) if side.axis == "x" else (pose.z, pose.x)
    line = side.grid_line
    back = eq(away, line) if side.inward > 0 else eq(plus(away, item.d), line)
    within = all_of(
        le(math.ceil(side.lo / GRID - 1e-6), along),
        le(plus(along, item.w), math.floor(side.hi / GRID + 1e-6)),
    )
    return all_of(rotation_cond(pose, side.rotation), back, within)


def _reach(state: LayoutState, item: Item, poses: Poses) -> CellBox:
    """A known box that holds the item and what rests on it wherever the problem may put
    them."""
    if item.id not in poses:
        return cell_box(item, state.poses[item.id], crowned=True)
    root = state.items[item.root]
    own = cell_box(item, Pose(0, 0, False, False, 0), crowned=True)  # heights above the root
    if root.id not in poses:
        root_box = cell_box(root, state.poses[root.id])
        return replace(root_box, y0=plus(root_box.y0, own.y0), y1=plus(root_box.y0, own.y1))
    x0, z0, x1, z1 = state.plans[item.room].bbox
    if root.kind == "wall":
        return CellBox(x0, x1, z0, z1, 0, round(WALL_HEIGHT / HEIGHT_UNIT))
    return CellBox(x0, x1, z0, z1, own.y0, own.y1)


# --------------------------------------------------------------------------- which pairs


def _common_split(a: Item, b: Item) -> tuple[str | None, str, str]:
    """The deepest common support of two items and their ancestors just below it."""
    common = None
    depth = 0
    while depth < min(len(a.chain), len(b.chain)) and a.chain[depth] == b.chain[depth]:
        common = a.chain[depth]
        depth += 1
    below_a = a.chain[depth] if depth < len(a.chain) else a.id
    below_b = b.chain[depth] if depth < len(b.chain) else b.id
    return common, below_a, below_b


def _needs_apart(a: Item, b: Item, items: dict[str, Item], prune: bool) -> bool:
    """Whether the pair needs its own no-collision constraint, or is kept apart already by
    its supports (or is an object and what holds it). Without ``prune``, every pair in a room
    but an object and what holds it."""
    if a.room != b.room:
        return False  # rooms do not overlap
    common, below_a, below_b = _common_split(a, b)
    if common in (a.id, b.id):
        return False  # one holds the other
    if not prune:
        return True
    if common is not None:
        if items[below_a].kind != items[below_b].kind:
            # One on the common parent's top, one inside it: apart unless what is inside
            # rises above the top (an apple in a shallow bowl).
            inside = items[below_a] if items[below_a].kind == "in" else items[below_b]
            holder = items[common]
            return inside.crown > holder.bottom + holder.height + 1e-9
        return (below_a, below_b) == (a.id, b.id)
    grounded = ("floor", "agent")
    if items[below_a].kind in grounded and items[below_b].kind in grounded:
        # Both stand on the floor: their supports are apart on the floor plane, and each
        # object lies within its support's footprint.
        return (below_a, below_b) == (a.id, b.id)
    return True
