"""The state of one layout run, and the real geometry of items on its partial solution.

A :class:`LayoutState` holds the design, its room plans and items, the obstacles the doors and
windows leave, the Z3 context, seed and time budget, and what the problems solved so far
fixed: the items' poses, the relations kept and dropped (with notes). Each problem's
:func:`~.solving.solve_problem` reads it and adds to it; :func:`placed_objects` turns the final
poses into real positions.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import z3

from pytest_logicenv.scenes.layout.budget import Clock
from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.leave_out import Ranking
from pytest_logicenv.scenes.layout.poses import (
    Cases,
    Pose,
    cell_box,
    item_geometry,
    rotation_cases,
)
from pytest_logicenv.scenes.layout.room_grid import RoomPlan, RoomSide
from pytest_logicenv.scenes.layout.smt import GRID, HEIGHT_UNIT, CellBox, all_of, eq
from pytest_logicenv.scenes.scene_model import AgentStart, SceneObject, SceneSpec, SpatialRelation

#: The poses of a problem's items, by item id (their terms unknown until it is solved).
Poses = dict[str, Pose]


@dataclass
class LayoutState:
    """The state of one layout run: the plans, items, poses solved so far and the budget."""

    spec: SceneSpec
    plans: dict[str, RoomPlan]
    items: dict[str, Item]
    obstacles: dict[str, list[CellBox]]
    ctx: z3.Context
    seed: int
    clock: Clock
    #: Decomposed: leave out the no-collision constraints the supports already imply.
    prune: bool
    #: Which items may be left out, and in what order.
    ranking: Ranking
    poses: Poses = field(default_factory=dict)
    #: Object id -> width (metres) its parts take at the right end of its top (a sink).
    taken_tops: dict[str, float] = field(default_factory=dict)
    kept: dict[int, SpatialRelation] = field(default_factory=dict)
    dropped: dict[int, SpatialRelation] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: The items left out (the room could not hold them), with the reason.
    left_out: dict[str, str] = field(default_factory=dict)

    def leave_out(self, item_id: str, why: str) -> None:
        """Record that the item (and so what rests on it) is left out of the scene."""
        self.left_out[item_id] = why
        priority = self.ranking.priority[item_id]
        self.notes.append(f"left out {item_id} (priority {priority}): {why}")

    def lost_support(self, item_id: str) -> str | None:
        """What the item rests on that was left out (None when all of it is placed)."""
        return next((i for i in self.items[item_id].chain[:-1] if i in self.left_out), None)

    def pose_of(self, item_id: str, fresh: Poses) -> Pose:
        """The item's pose: a fresh one of the problem being solved, or the solved one."""
        return fresh[item_id] if item_id in fresh else self.poses[item_id]

    def grid_box(self, item: Item, poses: Poses) -> CellBox:
        return cell_box(item, self.pose_of(item.id, poses))

    def shift_bound(self, *items: Item) -> float:
        """How far (metres) :meth:`wall_shift` may move any of these items' real boxes out of
        their grid boxes: under a grid cell plus a margin for wall-mounted chains, else 0."""
        return max(
            (
                GRID + self.items[i.root].max_margin
                for i in items
                if self.items[i.root].kind == "wall"
            ),
            default=0.0,
        )

    def support_extent(self, item: Item, poses: Poses) -> Cases:
        """The real geometry of what the item rests on, in each case of its rotation."""
        return self.cases(self.items[item.parent or ""], poses, False)

    def wall_shift(self, root: Item, side: RoomSide) -> tuple[float, float]:
        """How far (x, z) the real box of a wall-mounted object hung on ``side`` moves from the
        centre of its grid box so that its back lies on the real wall line (the grid box
        starts at the grid line nearest the wall, on the room's side)."""
        turned = side.axis == "z"
        along_x = side.axis == "z"  # the depth axis
        margin = root.margin(along_x, turned)
        grid_face = side.grid_line * GRID + (margin if side.inward > 0 else -margin)
        move = side.line - grid_face
        return (move, 0.0) if along_x else (0.0, move)

    def cases(self, item: Item, poses: Poses, facing: bool) -> Cases:
        """:func:`~.poses.rotation_cases` for the real positions: an object on a wall, and
        what rests on it, sit where :meth:`wall_shift` moves them for the wall it hangs on."""
        pose = self.pose_of(item.id, poses)
        root = self.items[item.root]
        if root.kind != "wall":
            return rotation_cases(item, pose, facing)
        root_pose = self.pose_of(root.id, poses)
        out: Cases = []
        for index, side in enumerate(self.plans[root.room].sides):
            on_side = eq(root_pose.side, index)
            if on_side is False:
                continue
            shift = self.wall_shift(root, side)
            if item is root:
                turned = side.rotation in (90, 270)
                out.append((on_side, item_geometry(item, pose, turned, side.rotation, shift)))
            else:
                cases = rotation_cases(item, pose, facing, shift)
                out += [(all_of(on_side, c), g) for c, g in cases]
        return out


def placed_objects(state: LayoutState) -> tuple[tuple[SceneObject, ...], AgentStart]:
    """Real positions from the solved grid poses. A wall-mounted object is moved back onto the
    real wall line (its grid box starts at the grid line nearest the wall), and what rests on it
    moves with it."""
    shift: dict[str, tuple[float, float]] = {}
    objects: list[SceneObject] = []
    agent = AgentStart(state.spec.agent_room or state.spec.rooms[0].id)
    for item in state.items.values():
        if item.id not in state.poses:
            continue  # left out
        pose = state.poses[item.id]
        x, z, turned, back, base, side = pose.known()
        geo = item_geometry(item, pose, turned, None)
        cx = x * item.unit + geo.cx.offset
        cz = z * item.unit + geo.cz.offset
        if item.kind == "wall":
            shift[item.id] = state.wall_shift(item, state.plans[item.room].sides[side])
        dx, dz = shift.get(item.root, (0.0, 0.0))
        if item.kind == "agent":
            agent = AgentStart(item.room, (round(cx + dx, 6), round(cz + dz, 6)))
            continue
        y = base * HEIGHT_UNIT + item.bottom + item.height / 2
        rotation = (90 if turned else 0) + (180 if back else 0)
        position = (round(cx + dx, 6), round(y, 6), round(cz + dz, 6))
        objects.append(replace(item.obj, position=position, rotation=rotation))
    order = {obj.id: n for n, obj in enumerate(state.spec.objects)}
    objects.sort(key=lambda obj: order[obj.id])
    return tuple(objects), agent
