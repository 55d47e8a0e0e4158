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
  does as the fact says and notes the exception in its provenance (:data:`EXCEPTION`).

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> catalog = default_catalog()
>>> placement_kind(catalog.type("HousePlant")), placement_kind(catalog.type("Cart"))
('edge', 'center')
"""

from __future__ import annotations

from pytest_logicenv.logic.facts import FLOOR
from pytest_logicenv.scenes.catalog import ObjectType
from pytest_logicenv.scenes.design.draft import Draft, DraftObject
from pytest_logicenv.scenes.model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    UNARY_RELATION_KINDS,
    SpatialRelation,
)

#: How the provenance notes begin that record a place a fact forces against the annotation.
EXCEPTION = "placement exception"
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
            f"{EXCEPTION}: {obj.id} on the floor, as '{why}' says (a {kind.name} {where})"
        )
    elif obj.relation != "wall" and kind.on_wall and not kind.on_floor:
        draft.notes.append(
            f"{EXCEPTION}: {obj.id} not on a wall, as '{why}' says (a {kind.name} hangs on one)"
        )
