"""Distractors: more objects of the task's (and the policy's) types, elsewhere in the scene.

The room templates never add an object of a type the task's conditions are about, so that
each generated scene shows its situation plainly. A scene *variation* (``scenes/variation.py``,
drawn by Hypothesis in ``pytest_logicenv.strategies``) asks for exactly such objects, to find
out whether a policy holds when it is not the only book in the house: another one on the floor
of another room, or on another surface. A distractor is an enrichment object (``task`` is
false, it has no role) and is only added where the plan's ``absent`` facts allow it, so the
situation's facts stay true.

A distractor stands where its type may stand: a pickable one on the floor or a surface that
can hold it, furniture on the floor (in its annotated spot, with the parts it is made of),
what hangs on walls on a wall, what rests on furniture on a surface; a window is one more
window in its room.

A request names its room and support by index (``0``: the first room, the floor), so that any
number drawn is valid and the smallest is the plainest: the index wraps around the rooms of a
type the object occurs in (``catalog/rooms.py``; all rooms when none is), and around the places
in the room where the object may stand.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.scenes.catalog import occurs_in
from pytest_logicenv.scenes.design.assets import MAX_SURFACE_HEIGHT
from pytest_logicenv.scenes.design.draft import DistractorRequest, Draft, DraftObject, WindowRequest
from pytest_logicenv.scenes.design.packing import fits
from pytest_logicenv.scenes.design.part_completion import complete_parts
from pytest_logicenv.scenes.design.placement import REASON, placement_kind
from pytest_logicenv.scenes.scene_model import PRIORITY_ENRICHMENT, SpatialRelation

#: The places a distractor may stand besides a holder: the floor, and a wall.
FLOOR, WALL = "the floor", "a wall"
Place = DraftObject | str


def add_distractors(draft: Draft, requests: Sequence[DistractorRequest]) -> None:
    """Add each requested distractor that the ``absent`` facts allow (the others are noted in
    the provenance and left out)."""
    added: list[DraftObject] = []
    for request in requests:
        if request.type == "Window":
            _add_window(draft, request)
            continue
        obj_type = draft.catalog.type(request.type)
        rooms = [r for r, kind in draft.rooms if occurs_in(obj_type, kind)] or [
            r for r, _ in draft.rooms
        ]
        room_id = rooms[request.room % len(rooms)]
        obj = DraftObject(
            "", obj_type, None, task=False, room=room_id, states=dict(obj_type.states)
        )
        places = _places(draft, obj, room_id)
        if not places:
            draft.notes.append(
                f"distractor {request.type} in {room_id} left out: nothing there can hold it"
            )
            continue
        place = places[request.support % len(places)]
        _stand(obj, place)
        if draft.allowed(obj):
            draft.add(obj)
            obj.why["place"] = "distractor"
            _annotate(draft, obj)
            added.append(obj)
        else:
            where = place if isinstance(place, str) else place.id
            draft.notes.append(
                f"distractor {request.type} on {where} in {room_id} left out: the situation's "
                "absent facts forbid it"
            )
    if any(obj.type.parts for obj in added):
        _complete_parts(draft)


def _places(draft: Draft, obj: DraftObject, room_id: str) -> list[Place]:
    """Where in the room an object of its type may stand, the floor first."""
    kind = obj.type
    if kind.on_wall and not kind.on_floor:
        return [WALL]
    surfaces: list[Place] = list(_surfaces(draft, obj, room_id))
    if kind.has("pickupable"):
        return [FLOOR, *surfaces]
    return [FLOOR] if kind.on_floor else surfaces


def _stand(obj: DraftObject, place: Place) -> None:
    if place == WALL:
        obj.relation = "wall"
    elif isinstance(place, str):
        obj.relation = "on"
    else:
        obj.relation = "in" if place.type.container else "on"
        obj.parent = place.id


def _annotate(draft: Draft, obj: DraftObject) -> None:
    """A distractor on the floor gets its annotated spot (against a wall, in the middle),
    as the designer gives every floor object (``placement.py``)."""
    kind = placement_kind(obj.type)
    if kind is not None and obj.relation == "on" and obj.parent is None:
        draft.relations.append(SpatialRelation(kind, obj.id, None, PRIORITY_ENRICHMENT, REASON))


def _complete_parts(draft: Draft) -> None:
    """The distractors' parts (a desk's drawers), noting nothing twice (the other objects
    are complete already, and their notes made)."""
    before = list(draft.notes)
    complete_parts(draft)
    draft.notes[len(before) :] = [n for n in draft.notes[len(before) :] if n not in before]


def _add_window(draft: Draft, request: DistractorRequest) -> None:
    """One more window in the room: a room with no window asked for has one anyway, so it
    gets two."""
    room_id = draft.rooms[request.room % len(draft.rooms)][0]
    first = draft.rooms[0][0]  # where a window the facts do not place goes
    have = sum((w.room or first) == room_id for w in draft.windows.values())
    why = f"distractor Window in {room_id}"
    for _ in range(max(have, 1) + 1 - have):
        draft.windows[f"{why} {len(draft.windows)}"] = WindowRequest(None, room_id, None, why)


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
            and fits(obj.type.laid_assets, holder.type.laid_assets)
        ),
        key=lambda holder: holder.id,
    )
