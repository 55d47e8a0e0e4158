"""Rooms that would outgrow the floor plan: the furniture the designer added is left out first.

A room is sized for what stands on its floor and hangs on its walls (``house_plan.py``), at
most :data:`~pytest_logicenv.scenes.design.house_plan.MAX_SIDE` a side. When what it holds
needs more, the designer does as the layout does with a full room (``scenes/layout/
selection.py``): it leaves out what it added itself, least important first (the lowest
priority, then the latest added), with what rests on it and its parts, and records each in the
scene's ``provenance.dropped_objects`` and notes, and the relations naming it among the
dropped ones. The task objects, and what they rest on or are parts of, are never left out: a
room too small for them alone is an error that names them and the space they need.

>>> from pytest_logicenv.logic.plan import Plan
>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> draft = Draft(Plan("p", ()), default_catalog(), seed=0, enrichment=None, facts=[])
>>> draft.rooms = [("den", "LivingRoom")]
>>> for i in range(30):
...     sofa = draft.new_object("Sofa", None, task=False)
...     sofa.room, sofa.relation, sofa.size = "den", "on", (2.0, 0.8, 0.9)
>>> fit_rooms(draft)
>>> len(draft.objects), draft.dropped[-1].id, draft.dropped[-1].reason
(12, 'sofa_13', 'room den would need more than 10 m a side with it')
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.design.draft import Draft, DraftObject
from pytest_logicenv.scenes.design.house_plan import MAX_SIDE, room_size


def fit_rooms(draft: Draft) -> None:
    """Leave out added furniture, least important first, until every room fits the plan's
    limit; an error naming the task's objects when even they alone do not fit."""
    for room_id, kind in draft.rooms:
        candidates = _droppable(draft, room_id)
        while max(room_size(draft, room_id, kind)) > MAX_SIDE:
            if not candidates:
                raise _too_big(draft, room_id, kind)
            why = f"room {room_id} would need more than {MAX_SIDE:.0f} m a side with it"
            draft.leave_out(candidates.pop(0), why)


def _droppable(draft: Draft, room_id: str) -> list[DraftObject]:
    """The room's floor and wall objects the designer added, in the order to leave them out:
    floor objects first (they take the room's area), each kind least important first (the
    lowest priority, then the latest added); never a task object or what one rests on."""
    essential = {link.id for obj in draft.objects.values() if obj.task for link in draft.chain(obj)}
    order = {object_id: n for n, object_id in enumerate(draft.objects)}
    standing = [
        o
        for o in draft.objects.values()
        if o.room == room_id
        and o.parent is None
        and o.part_of is None
        and o.relation in ("on", "wall")
        and o.id not in essential
    ]
    return sorted(standing, key=lambda o: (o.relation == "wall", draft.priority(o), -order[o.id]))


def _too_big(draft: Draft, room_id: str, kind: str) -> SceneError:
    width, depth = room_size(draft, room_id, kind)
    floor = [
        o
        for o in draft.objects.values()
        if o.room == room_id and o.parent is None and o.relation == "on"
    ]
    return SceneError(
        f"room {room_id} would need {width:.1f} x {depth:.1f} m for the {len(floor)} floor "
        f"objects the task's facts require (largest: {_largest(floor)}), with everything the "
        f"designer added left out; the limit is {MAX_SIDE:.0f} m a side: put fewer of them in "
        "this room, or spread them over more rooms"
    )


def _largest(objects: Sequence[DraftObject]) -> str:
    biggest = sorted(objects, key=lambda o: -o.size[0] * o.size[2])[:3]
    return ", ".join(
        f"{o.id} ({o.size[0]:.1f} x {o.size[2]:.1f} m)" + ("" if o.task else " under a task object")
        for o in biggest
    )
