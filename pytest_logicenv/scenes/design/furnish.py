"""Enrichment from the room templates: the furniture a room usually holds, and small things.

Without a design request, each room is furnished from its template (``templates.py``): a task
object of a slot's type fills the slot, and the template's relations apply to it. After the
furniture has its assets, small pickupable things go on it as receptacles.json says they
usually are. Enrichment only adds types that occur in the room's type (``catalog/rooms.py``:
no floor lamp in a bedroom, where ProcTHOR puts none); it never adds an object an ``absent``
fact forbids, nor one of a type the task's conditions are about (it would blur which situation
a scene shows).
"""

from __future__ import annotations

import random

from pytest_logicenv.scenes.catalog import ObjectType, occurs_in
from pytest_logicenv.scenes.design.assets import MAX_SURFACE_HEIGHT
from pytest_logicenv.scenes.design.draft import Draft, DraftObject
from pytest_logicenv.scenes.design.packing import small_on
from pytest_logicenv.scenes.design.templates import TEMPLATES, Slot
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    WALL_HEIGHT,
    SpatialRelation,
)

#: Relations that are not task-critical but belong to task objects rank between the two.
PRIORITY_TASK_OBJECT = (PRIORITY_TASK + PRIORITY_ENRICHMENT) // 2
MAX_SMALL_PER_RECEPTACLE = 3
MAX_SMALL_PER_ROOM = 8
#: A small enrichment object goes where receptacles.json finds it at least this often.
MIN_USUAL = 0.05
#: Receptacles whose contents would only distract (what is in the bin is nobody's business).
NO_ENRICHMENT_INSIDE = frozenset({"GarbageCan", "Toilet", "Sink"})


# --------------------------------------------------------------------------- furniture


def furnish(draft: Draft, room_id: str, kind: str) -> None:
    """Fill the room from its template, slot by slot, with the template's relations."""
    rng = draft.rng("furnish", room_id)
    for slot in TEMPLATES.get(kind, ()):
        present = draft.in_room(room_id, slot.type)
        wanted = rng.randint(*slot.count) if rng.random() < slot.chance else 0
        if present:
            anchors = present  # a task object fills the slot; the template relates to it
        elif not _may_add(draft, slot.type, kind):
            continue
        else:
            anchors = _fill(draft, slot, room_id, wanted)
        for obj in anchors:
            for kind_name, target_type in slot.relations:
                _template_relation(draft, obj, kind_name, target_type, room_id)


def _may_add(draft: Draft, type_name: str, kind: str) -> bool:
    """Whether enrichment may add a ``type_name`` to a ``kind`` room: a type the catalog has,
    that occurs in such rooms, which the task's conditions are not about, and neither are its
    parts (a desk would bring a drawer)."""
    if type_name in draft.excluded or not draft.catalog.has(type_name):
        return False
    if not occurs_in(draft.catalog.type(type_name), kind):
        return False
    parts = draft.catalog.type(type_name).parts
    return not any(p.type in draft.excluded for p in parts if not p.optional)


def _fill(draft: Draft, slot: Slot, room_id: str, wanted: int) -> list[DraftObject]:
    """Up to ``wanted`` new objects for a slot (fewer when one is not allowed)."""
    added = []
    for _ in range(wanted):
        obj = _slot_object(draft, slot, room_id)
        if obj is None:
            break
        added.append(obj)
    return added


def _slot_object(draft: Draft, slot: Slot, room_id: str) -> DraftObject | None:
    """One object for a slot, resting where the slot says; ``None`` if it cannot be."""
    obj_type = draft.catalog.type(slot.type)
    obj = DraftObject("", obj_type, None, task=False, room=room_id, states=dict(obj_type.states))
    if slot.on == "wall" or (slot.on is None and obj_type.on_wall and not obj_type.on_floor):
        obj.relation = "wall"
    elif slot.on is None:
        obj.relation = "on"
    else:
        holders = draft.in_room(room_id, slot.on)
        if not holders:
            return None
        if slot.type in [p.type for p in holders[0].type.parts]:  # a kitchen's sink
            obj.part_of, obj.relation = holders[0].id, "part"
        else:
            obj.parent = holders[0].id
            obj.relation = "in" if holders[0].type.container else "on"
    if not draft.allowed(obj):
        return None
    return draft.add(obj)


def _template_relation(
    draft: Draft, obj: DraftObject, kind: str, target_type: str | None, room_id: str
) -> None:
    """A template relation for a floor or wall object (what rests on another object is
    placed by its contact relation alone)."""
    if obj.parent is not None or obj.relation is None or obj.part_of is not None:
        return
    priority = PRIORITY_TASK_OBJECT if obj.task else PRIORITY_ENRICHMENT
    if target_type is None:
        draft.relations.append(SpatialRelation(kind, obj.id, None, priority, "template"))
        return
    targets = [t for t in draft.in_room(room_id, target_type) if t is not obj and t.parent is None]
    if targets:
        draft.relations.append(SpatialRelation(kind, obj.id, targets[0].id, priority, "template"))


def keep_holdable_template_relations(draft: Draft) -> None:
    """Leave out a template relation the chosen assets cannot hold, with a note: a picture
    above a bed whose headboard leaves no wall above it (a template is what a room usually
    holds, not what a task asks; the layout would only drop it)."""
    kept = []
    for relation in draft.relations:
        why = _unholdable(draft, relation) if relation.reason == "template" else None
        if why is None:
            kept.append(relation)
        else:
            draft.notes.append(f"template relation {relation} not asked: {why}")
    draft.relations[:] = kept


def _unholdable(draft: Draft, relation: SpatialRelation) -> str | None:
    """Why ``relation`` cannot hold with its objects' sizes (``None``: it may)."""
    subject = draft.objects.get(relation.subject)
    target = draft.objects.get(relation.target or "")
    if relation.kind != "above" or subject is None or target is None or target.parent:
        return None
    if target.size[1] + subject.size[1] <= WALL_HEIGHT:
        return None
    return (
        f"{target.id} is {target.size[1]:.2f} m tall, leaving no {subject.size[1]:.2f} m of "
        f"wall above it for {subject.id}"
    )


# --------------------------------------------------------------------------- small things


def add_small_objects(draft: Draft, room_id: str, kind: str) -> None:
    """Small things on the room's furniture, as receptacles.json says they usually are."""
    rng = draft.rng("small", room_id)
    added = 0
    for holder in _small_holders(draft, room_id):
        choices = _small_choices(draft, holder, kind)
        if not choices:
            continue
        for _ in range(rng.randint(0, MAX_SMALL_PER_RECEPTACLE)):
            if added >= MAX_SMALL_PER_ROOM:
                return
            if _add_small(draft, holder, choices, rng):
                added += 1


def _small_holders(draft: Draft, room_id: str) -> list[DraftObject]:
    """The room's receptacles that small things may go on or in: within reach, and not
    those whose contents would distract or whose contents are a state."""
    return [
        o
        for o in draft.objects.values()
        if o.room == room_id
        and o.type.has("receptacle")
        and o.part_of is None  # what is in a drawer is not for show
        and not o.type.custom
        and o.type.name not in NO_ENRICHMENT_INSIDE
        and not o.type.has("object_specific_receptacle")  # what it holds is a state
        and (o.type.container or o.size[1] <= MAX_SURFACE_HEIGHT)  # a top within reach
    ]


def _small_choices(draft: Draft, holder: DraftObject, kind: str) -> list[tuple[float, ObjectType]]:
    """(How usual, type) of the small things that may rest on ``holder`` in a ``kind`` room."""
    return [
        (obj_type.parents[holder.type.name], obj_type)
        for obj_type in draft.catalog.types.values()
        if obj_type.parents.get(holder.type.name, 0.0) >= MIN_USUAL
        and obj_type.has("pickupable")
        and not obj_type.custom
        and obj_type.name not in draft.excluded
        and occurs_in(obj_type, kind)
        and small_on(obj_type.laid_assets, holder.size)
    ]


def _add_small(
    draft: Draft,
    holder: DraftObject,
    choices: list[tuple[float, ObjectType]],
    rng: random.Random,
) -> bool:
    """Add one small thing of a type drawn by how usual it is; whether it was allowed."""
    weights = [w for w, _ in choices]
    obj_type = rng.choices([t for _, t in choices], weights=weights)[0]
    obj = DraftObject(
        "",
        obj_type,
        None,
        task=False,
        room=holder.room,
        parent=holder.id,
        relation="in" if holder.type.container else "on",
        states=dict(obj_type.states),
    )
    if not draft.allowed(obj):
        return False
    draft.add(obj)
    return True
