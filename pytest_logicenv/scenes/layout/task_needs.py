"""The relations the task needs: never relaxed, an error when they cannot hold.

A relation of priority :data:`~pytest_logicenv.scenes.scene_model.PRIORITY_TASK` or more between
objects never left out (task objects, what holds them: :meth:`~.selection.Ranking.needs`) is
one the task's facts require (``near`` and ``far`` from its facts, as the designer writes
them), like a task object. Decoration relations stay best effort (see :mod:`~.relaxation`);
one the task needs that cannot hold is an error naming it:

- before solving, when the room's size alone rules it out (:func:`need_problems`: ``far``
  between two objects of one room, ``middle`` of an object on its floor), with the size the
  room needs;
- while solving, when the relaxation drops it: the problem is solved again with it enforced
  and the other objects left out around it as needed, and when even that fails
  (:func:`relation_error`), with what it conflicts with;
- after the layout, for any the layout dropped still (between objects of two problems, or
  out of time: :func:`unmet_error`).

>>> from pytest_logicenv.scenes.layout.room_grid import make_plan
>>> from pytest_logicenv.scenes.layout.items import build_items
>>> from pytest_logicenv.scenes.layout.leave_out import rank_items
>>> from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec, SpatialRelation
>>> den = Room("den", "LivingRoom", ((0, 0), (2.5, 0), (2.5, 2.5), (0, 2.5)))
>>> spec = SceneSpec("demo", rooms=(den,), objects=(
...     SceneObject("table", "Box", room="den", size=(1.0, 0.7, 1.0), task=True),
...     SceneObject("chair", "Box", room="den", size=(0.5, 0.9, 0.5), task=True)),
...     relations=(SpatialRelation("far", "chair", "table", PRIORITY_TASK),))
>>> items = build_items(spec)
>>> [problem] = need_problems(spec, items, {"den": make_plan(den, 0)}, rank_items(items))
>>> problem.location
'relations[0] far(chair, table)'
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence

from pytest_logicenv.errors import LayoutError, LayoutTimeout, Violation
from pytest_logicenv.scenes.layout.budget import GRACE_MS
from pytest_logicenv.scenes.layout.decomposition import Problem
from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.leave_out import Ranking
from pytest_logicenv.scenes.layout.relaxation import OUT_OF_TIME
from pytest_logicenv.scenes.layout.room_grid import RoomPlan
from pytest_logicenv.scenes.layout.smt import EPS
from pytest_logicenv.scenes.layout.state import LayoutState
from pytest_logicenv.scenes.scene_model import (
    FAR_DISTANCE,
    FINE_GRID,
    MIDDLE_DISTANCE,
    PRIORITY_TASK,
    SceneSpec,
    SpatialRelation,
)

Indexed = Sequence[tuple[int, SpatialRelation]]

#: What else to do about a task-critical relation that cannot hold (the end of each message).
_ADVICE = (
    f"or, should the task not need it, give it a priority below {PRIORITY_TASK} and the layout "
    "meets it where it can"
)


# --------------------------------------------------------------------------- before solving


def need_problems(
    spec: SceneSpec, items: Mapping[str, Item], plans: Mapping[str, RoomPlan], ranking: Ranking
) -> list[Violation]:
    """Relations the task needs that their room's size rules out, whatever the layout."""
    problems = []
    for index, relation in enumerate(spec.relations):
        if not ranking.needs(relation):
            continue
        where = f"relations[{index}] {relation}"
        subject = items[relation.subject]
        if relation.kind == "far" and relation.target is not None:
            message = _far_problem(subject, items[relation.target], plans[subject.room])
        elif relation.kind == "middle" and subject.kind == "floor":
            message = _middle_problem(subject, plans[subject.room])
        else:
            message = None
        if message:
            problems.append(Violation("fit", where, message))
    return problems


def _extent(plan: RoomPlan) -> tuple[float, float]:
    x0, z0, x1, z1 = plan.real_bbox
    return x1 - x0, z1 - z0


def _far_problem(subject: Item, target: Item, plan: RoomPlan) -> str | None:
    """Two objects of one room can stand :data:`FAR_DISTANCE` apart along its length or its
    width (as the layout keeps them), each turned to its narrow side, in whole solver cells."""
    if subject.room != target.room or "wall" in (subject.kind, target.kind):
        return None  # far across rooms always holds; a wall decides how hangings turn
    gap = math.ceil(FAR_DISTANCE / FINE_GRID - EPS) * FINE_GRID
    narrow = sum(min(i.w, i.d) * i.unit for i in (subject, target))
    needed = narrow + gap
    width, depth = _extent(plan)
    if max(width, depth) >= needed - EPS:
        return None
    return (
        f"{_sized(subject)} and {_sized(target)} cannot stand {FAR_DISTANCE:g} m apart in "
        f"room {plan.room.id!r} ({width:.2f} x {depth:.2f} m): the layout keeps far objects "
        f"that far apart along the room's length or width, which takes {needed:.2f} m; "
        f"make the room at least {needed:.2f} m long or put them in different rooms; {_ADVICE}"
    )


def _middle_problem(subject: Item, plan: RoomPlan) -> str | None:
    """An object in the middle keeps :data:`MIDDLE_DISTANCE` from the walls on every side."""
    width, depth = _extent(plan)
    sides = sorted(n * subject.unit + 2 * MIDDLE_DISTANCE for n in (subject.w, subject.d))
    if sides[0] <= min(width, depth) + EPS and sides[1] <= max(width, depth) + EPS:
        return None
    return (
        f"{_sized(subject)} cannot stand in the middle of room {plan.room.id!r} ({width:.2f} "
        f"x {depth:.2f} m) with {MIDDLE_DISTANCE:g} m to every wall: that takes a room of at "
        f"least {sides[1]:.2f} x {sides[0]:.2f} m; enlarge the room or use a smaller object; "
        f"{_ADVICE}"
    )


def _sized(item: Item) -> str:
    return f"{item.id} ({item.obj.size[0]:.2f} x {item.obj.size[2]:.2f} m)"


# --------------------------------------------------------------------------- while solving


def lost_relations(
    state: LayoutState, wanted: Indexed, ids: Collection[str]
) -> list[tuple[int, SpatialRelation]]:
    """The relations the task needs that a problem's last attempt dropped, between objects
    it places (so that it can enforce them)."""
    return [
        (index, relation)
        for index, relation in wanted
        if state.ranking.needs(relation)
        and index in state.dropped
        and all(name in ids for name in (relation.subject, relation.target) if name is not None)
    ]


def relation_error(
    state: LayoutState, problem: Problem, ids: Sequence[str], lost: Indexed
) -> LayoutError:
    """The error for relations the task needs that cannot hold on ``problem`` with the rest
    of what it needs, even with everything else left out."""
    needed = [i for i in ids if not state.ranking.droppable(i) and state.items[i].kind != "agent"]
    reasons = "; ".join(
        f"{relation} on {problem.label}: {_reason(state, index, problem, needed)}"
        for index, relation in lost
    )
    error = LayoutTimeout if OUT_OF_TIME in reasons else LayoutError
    return error(
        f"scene design {state.spec.id!r}: {reasons}. The task needs "
        f"{'it' if len(lost) == 1 else 'them'}: enlarge the room or move other objects "
        f"elsewhere; {_ADVICE}"
    )


def _reason(state: LayoutState, index: int, problem: Problem, needed: Sequence[str]) -> str:
    dropped = state.dropped.get(index)
    if dropped is None:
        listed = ", ".join([*needed, "the agent's start"])
        return f"cannot hold with {listed} even with everything else left out"
    why = dropped.reason.removeprefix("dropped: ").split("; was: ")[0]
    return why.removesuffix(f" ({problem.label})")


# --------------------------------------------------------------------------- after solving


def unmet_error(state: LayoutState) -> LayoutError | None:
    """The error for relations the task needs that the finished layout dropped, if any."""
    unmet = [(i, r) for i, r in sorted(state.dropped.items()) if state.ranking.needs(r)]
    if not unmet:
        return None
    listed = "; ".join(f"{r}: {r.reason.removeprefix('dropped: ')}" for _, r in unmet)
    if any(OUT_OF_TIME in r.reason for _, r in unmet):
        return LayoutTimeout(
            f"scene design {state.spec.id!r}: the layout gave up after "
            f"{state.clock.elapsed_s():.1f} s: its budget (timeout_ms={state.clock.timeout_ms}, "
            f"and {GRACE_MS} ms of grace for what the task needs) ran out before it met what "
            f"the task needs: {listed}; give the room more space, or a larger timeout_ms"
        )
    return LayoutError(
        f"scene design {state.spec.id!r}: the layout could not meet what the task needs: "
        f"{listed}. Enlarge the room or move other objects elsewhere; {_ADVICE}"
    )
