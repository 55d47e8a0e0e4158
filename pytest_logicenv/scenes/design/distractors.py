"""Distractors: more objects of the task's own types, elsewhere in the scene.

The room templates never add an object of a type the task's conditions are about, so that
each generated scene shows its situation plainly. A scene *variation* (``scenes/variation.py``,
drawn by Hypothesis in ``pytest_logicenv.strategies``) asks for exactly such objects, to find
out whether a policy holds when it is not the only book in the house: another one on the floor
of another room, or on another surface. A distractor is an enrichment object (``task`` is
false, it has no role) and is only added where the plan's ``absent`` facts allow it, so the
situation's facts stay true.

A request names its room and support by index (``0``: the first room, the floor), so that any
number drawn is valid and the smallest is the plainest: the index wraps around the rooms of a
type the object occurs in (``catalog/rooms.py``; all rooms when none is), and around the floor
and the room's surfaces that can hold the object.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pytest_logicenv.scenes.catalog import occurs_in
from pytest_logicenv.scenes.design.assets import MAX_SURFACE_HEIGHT
from pytest_logicenv.scenes.design.draft import Draft, DraftObject
from pytest_logicenv.scenes.design.packing import fits


@dataclass(frozen=True)
class DistractorRequest:
    """One more object of type ``type``: in the ``room``-th room of the design of a type it
    occurs in, on its ``support``-th place (``0``: the floor; then the room's surfaces that can
    hold it, by id)."""

    type: str
    room: int = 0
    support: int = 0


def add_distractors(draft: Draft, requests: Sequence[DistractorRequest]) -> None:
    """Add each requested distractor that the ``absent`` facts allow (the others are noted in
    the provenance and left out)."""
    for request in requests:
        obj_type = draft.catalog.type(request.type)
        rooms = [r for r, kind in draft.rooms if occurs_in(obj_type, kind)] or [
            r for r, _ in draft.rooms
        ]
        room_id = rooms[request.room % len(rooms)]
        obj = DraftObject(
            "", obj_type, None, task=False, room=room_id, states=dict(obj_type.states)
        )
        places = [None, *_surfaces(draft, obj, room_id)]
        holder = places[request.support % len(places)]
        obj.relation = "on" if holder is None or not holder.type.container else "in"
        obj.parent = None if holder is None else holder.id
        if draft.allowed(obj):
            draft.add(obj)
            obj.why["place"] = "distractor"
        else:
            where = "the floor" if holder is None else holder.id
            draft.notes.append(
                f"distractor {request.type} on {where} in {room_id} left out: the situation's "
                "absent facts forbid it"
            )


def _surfaces(draft: Draft, obj: DraftObject, room_id: str) -> list[DraftObject]:
    """The room's surfaces and containers that can hold ``obj``, by id: receptacles within
    reach that are not parts (what is in a drawer is not in sight), that take any object and
    that some asset of ``obj``'s type fits on."""
    return sorted(
        (
            holder
            for holder in draft.objects.values()
            if holder.room == room_id
            and holder.type.has("receptacle")
            and holder.part_of is None
            and not holder.type.has("object_specific_receptacle")
            and (holder.type.container or holder.size[1] <= MAX_SURFACE_HEIGHT)
            and fits(obj.type.assets, holder.type.assets)
        ),
        key=lambda holder: holder.id,
    )
