"""Placement as ProcTHOR annotates it: where in its room each object stands.

ProcTHOR's ``placement-annotations.json`` says, per type, whether it stands on the floor or hangs
on a wall, and where on the floor: in a ``corner``, on an ``edge`` (against a wall), in the
``middle``. The designer follows it:

* an object on the floor that nothing else places gets ``edge`` when its type stands in corners
  or against walls only (a sink, a fridge, a house plant: a corner is against a wall too), and
  ``center`` when in the middle only (a cart); one placed relative to another piece of
  furniture (a chair at the table, an armchair by the coffee table) follows it, as ProcTHOR's
  asset groups place them;
* a fact may force another place (a pillow on the floor, a painting on a table): the design
  does as the fact says and notes the exception in its provenance (:data:`EXCEPTION`);
* each object stands in a room of a type it occurs in (``catalog/rooms.py``: the enrichment
  only adds such, and a part's new whole is such where one can be); where a fact forces
  another (a faucet in a bedroom, whose whole is then a sink), the provenance notes the room
  exception and the fact that forces it (:data:`ROOM_EXCEPTION`).

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> catalog = default_catalog()
>>> placement_kind(catalog.type("HousePlant")), placement_kind(catalog.type("Cart"))
('edge', 'center')
"""

from __future__ import annotations

from pytest_logicenv.logic.facts import FLOOR
from pytest_logicenv.scenes.catalog import ObjectType, occurs_in
from pytest_logicenv.scenes.design.draft import Draft, DraftObject
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    UNARY_RELATION_KINDS,
    SpatialRelation,
)
from pytest_logicenv.vocabulary import a_or_an

#: How the provenance notes begin that record a place a fact forces against the annotation.
EXCEPTION = "placement exception"
#: How the provenance notes begin that record a room a fact forces a type into, where it does
#: not occur.
ROOM_EXCEPTION = "room exception"
#: Relations that place an object relative to other furniture (its group's anchor).
GROUPING = frozenset({"near", "side_of", "in_front_of", "face_to", "center_aligned"})
#: The reason given to the relations this module adds.
REASON = "placement annotation"


def placement_kind(obj_type: ObjectType) -> str | None:
    """The relation that puts a type where ProcTHOR annotates it on the floor, if any."""
    spots = set(obj_type.placement.spots) | set(obj_type.group_spots)
    if not spots:
        return None
    if "middle" not in spots:
        return "edge"
    return "center" if spots == {"middle"} else None


def place_as_annotated(draft: Draft) -> None:
    """Give each floor object its annotated spot, and note the places facts force."""
    placed = {r.subject for r in draft.relations if r.kind in UNARY_RELATION_KINDS}
    grouped = {
        r.subject
        for r in draft.relations
        if r.kind in GROUPING and r.target in draft.objects and _on_floor(draft.objects[r.target])
    }
    for obj in draft.objects.values():
        _note_exception(draft, obj)
        _note_room_exception(draft, obj)
        kind = placement_kind(obj.type)
        if kind is None or not _on_floor(obj) or obj.id in placed | grouped:
            continue
        priority = (PRIORITY_TASK + PRIORITY_ENRICHMENT) // 2 if obj.task else PRIORITY_ENRICHMENT
        draft.relations.append(SpatialRelation(kind, obj.id, None, priority, REASON))


def _on_floor(obj: DraftObject) -> bool:
    return obj.parent is None and obj.part_of is None and obj.relation == "on"


def _note_exception(draft: Draft, obj: DraftObject) -> None:
    """A fact that puts an object where its type is not annotated to be is noted."""
    why = obj.why.get("place", "")
    if not why or obj.part_of is not None:
        return
    kind = obj.type
    if _on_floor(obj) and not kind.on_floor and FLOOR in why:
        where = "hangs on a wall" if kind.on_wall else "rests on furniture"
        draft.notes.append(
            f"{EXCEPTION}: {obj.id} on the floor, as '{why}' says ({a_or_an(kind.name)} {where})"
        )
    elif obj.relation != "wall" and kind.on_wall and not kind.on_floor:
        draft.notes.append(
            f"{EXCEPTION}: {obj.id} not on a wall, as '{why}' says "
            f"({a_or_an(kind.name)} hangs on one)"
        )


def _note_room_exception(draft: Draft, obj: DraftObject) -> None:
    """A task object in a room of a type it does not occur in is noted, with the fact that
    puts it there (the designer puts no other object in such a room)."""
    kind = next((k for r, k in draft.rooms if r == obj.room), None)
    if kind is None or obj.part_of is not None or not obj.task or occurs_in(obj.type, kind):
        return
    draft.notes.append(
        f"{ROOM_EXCEPTION}: {obj.id} in {obj.room} (a {kind}, where "
        f"{a_or_an(obj.type.name)} does not occur), as {_room_reason(draft, obj, kind)}"
    )


def _room_reason(draft: Draft, obj: DraftObject, kind: str) -> str:
    """Which fact puts ``obj`` in its room: its own, one of what rests on it or is a part of
    it, or the one that requires it when no room of the scene is one it occurs in."""
    for other in (obj, *draft.objects.values()):
        if "room" in other.why and obj in draft.chain(other):
            which = "" if other is obj else f" of {other.id}, which rests on it or is its part"
            return f"'{other.why['room']}'{which} says"
    part = next((p for p in draft.parts_of(obj) if p.task), None)
    if part is not None:
        return (
            f"'{part.why.get('type', part.id)}' says: {part.id} is always a part of "
            f"{a_or_an(' or '.join(part.type.part_of))}, and none of them occurs in a {kind}"
        )
    kinds = ", ".join(k for _, k in draft.rooms)
    return (
        f"'{obj.why.get('type', obj.id)}' requires one and no room of the scene ({kinds}) is of "
        "a type it occurs in"
    )
