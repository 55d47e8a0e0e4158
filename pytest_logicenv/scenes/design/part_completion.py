"""Parts in the design: every object comes with the parts its type is made of, and a part
always belongs to an object.

The catalog says what a type is made of (``scenes/catalog/parts.py``). In the design:

* a fact may bind a part (``{"exists": "Drawer", "as": "drawer", "where": {"part_of":
  "tv_stand"}}``): :func:`make_part` checks that such a whole has such parts;
* a part the facts name without its whole (``{"exists": "Faucet"}``, an apple ``in`` a
  ``Drawer``) gets one (:func:`give_wholes`): an object of a type that has it, in its room, with a
  slot that agrees with the part still free, else a new one of the type usual there; noted;
  where the plan's ``absent`` facts forbid every whole, an error says to name one;
* a kitchen's sink is set into a counter (:func:`sinks_into_counters`), as AI2-THOR's are;
* once the enrichment is in, :func:`complete_parts` gives each part a slot of its whole
  (``slots.py``: a burner named without its ``position`` takes a free one) and adds the parts
  each object lacks (a dresser's three drawers, a shelving unit's shelves ``level`` top,
  middle and bottom), named after their whole (``dresser_1_drawer_2``); a part of a type with
  fixed slots that finds none left is an error;
* a part's size is its slot in its whole (``scenes/part_geometry.py``), set when the whole gets its
  asset (:func:`size_parts`); what rests in a part must fit there in a row
  (:func:`part_crowding`).

>>> from pytest_logicenv.logic.plan import Plan
>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> from pytest_logicenv.scenes.design.draft import Draft
>>> draft = Draft(Plan("p", ()), default_catalog(), seed=0, enrichment=None, facts=[])
>>> draft.rooms = [("bedroom", "Bedroom")]
>>> dresser = draft.new_object("Dresser", "dresser", task=True)
>>> dresser.room, dresser.relation = "bedroom", "on"
>>> complete_parts(draft)
>>> [(p.id, p.relation, p.part_of) for p in draft.parts_of(dresser)][:2]
[('dresser_drawer_1', 'part', 'dresser'), ('dresser_drawer_2', 'part', 'dresser')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog import ObjectType, PartSpec
from pytest_logicenv.scenes.catalog.parts import OWN_ASSET_PARTS, SLOT_ATTRS
from pytest_logicenv.scenes.catalog.rooms import PROCTHOR_ROOMS, occurrence
from pytest_logicenv.scenes.design.draft import Draft, DraftObject, snake
from pytest_logicenv.scenes.design.slots import assign_slots, has_slot
from pytest_logicenv.scenes.part_geometry import FIXED_SLOTS, part_boxes, row_fits
from pytest_logicenv.vocabulary import a_or_an

#: The room type whose sinks are set into a counter, and the counter's type.
KITCHEN, COUNTER = "Kitchen", "CounterTop"


def make_part(draft: Draft, part: DraftObject, whole: DraftObject, text: str) -> None:
    """Make ``part`` a part of ``whole`` as a fact (``text``) says, if its type has such."""
    if part is whole:
        raise SceneError(f"'{text}': an object cannot be a part of itself")
    if part.type.name not in [p.type for p in whole.type.parts]:
        holders = ", ".join(part.type.part_of) or "none"
        raise SceneError(
            f"'{text}': {a_or_an(whole.type.name)} has no {part.type.name} "
            f"(its parts: {', '.join(p.type for p in whole.type.parts) or 'none'}); types "
            f"with {a_or_an(part.type.name)}: {holders}"
        )
    if part.part_of not in (None, whole.id):
        raise SceneError(
            f"{part.id} is required a part of {part.part_of} ('{part.why['place']}') and of "
            f"{whole.id} ('{text}'): one part has one whole; use two roles"
        )
    if part.parent is not None:
        raise SceneError(
            f"{part.id} is a part of {whole.id} ('{text}') and rests {part.relation} "
            f"{part.parent} ('{part.why['place']}'): a part is where its whole is; drop the "
            "'on'/'in'"
        )
    part.part_of, part.relation = whole.id, "part"
    part.why["place"] = text


def give_wholes(draft: Draft) -> None:
    """Every object of a type that is always a part (a drawer, a faucet) belongs to one, and
    takes one of its slots."""
    for obj in list(draft.objects.values()):
        if obj.type.part_only and obj.part_of is None:
            if obj.parent is not None or obj.relation not in (None, "part"):
                raise SceneError(
                    f"{obj.id} ('{obj.why.get('place', obj.why.get('type', ''))}'): "
                    f"{a_or_an(obj.type.name)} is always a part of "
                    f"{a_or_an(' or '.join(obj.type.part_of))}; "
                    'say which with {"part_of": ...} instead of on, in or the floor'
                )
            whole = _free_whole(draft, obj) or _new_whole(draft, obj)
            obj.part_of, obj.relation = whole.id, "part"
            obj.why.setdefault("place", f"a part of {whole.id}")
            draft.notes.append(
                f"{obj.id} is a part of {whole.id}: {a_or_an(obj.type.name)} always is"
            )


def _free_whole(draft: Draft, part: DraftObject) -> DraftObject | None:
    """An object that can take ``part`` (its type has such parts, a slot that agrees with the
    part still free), in the part's room when it has one: task objects first, in the order
    they were added."""
    candidates = [
        o
        for o in draft.objects.values()
        if o.type.name in part.type.part_of
        and (part.room is None or o.room in (None, part.room))
        and _free(draft, o, part.type.name, part.attrs)
    ]
    candidates.sort(key=lambda o: not o.task)
    return candidates[0] if candidates else None


def _free(
    draft: Draft, whole: DraftObject, part_type: str, attrs: Mapping[str, str] | None = None
) -> bool:
    """Whether ``whole`` has a free slot for a ``part_type`` part with ``attrs``."""
    spec = next((p for p in whole.type.parts if p.type == part_type), None)
    if spec is None:
        return False
    taken = [p.attrs for p in draft.parts_of(whole) if p.type.name == part_type]
    return has_slot(spec, taken, attrs or {})


def _new_whole(draft: Draft, part: DraftObject) -> DraftObject:
    """A new task object of a type that has ``part``: of the types that occur in the part's
    room type, the most usual there (a bedroom's cabinet is a desk's or a dresser's, not a
    kitchen counter's); where none does (a faucet the facts put in a bedroom), the most usual
    anywhere, which ``placement.py`` records as a room exception. An error naming the part's
    fact when the plan's ``absent`` facts forbid every such whole."""
    room = part.room or draft.default_room(part.type)
    kind = next(k for r, k in draft.rooms if r == room)
    types = [
        draft.catalog.type(name)
        for name in part.type.part_of
        if _slot_in_new(draft.catalog.type(name), part)
    ]
    types.sort(key=lambda t: (occurrence(t, kind), _usual_anywhere(t)), reverse=True)
    for chosen in types:
        whole = DraftObject(
            "", chosen, None, task=True, room=room, relation="on", states=dict(chosen.states)
        )
        if draft.allowed(whole):
            whole = draft.new_object(chosen.name, None, task=True)
            whole.room = room
            whole.why["type"] = f"the whole of {part.id}"
            return whole
    raise SceneError(
        f"{part.id} ('{part.why.get('type', part.id)}'): {a_or_an(part.type.name)} is always "
        f"a part of {a_or_an(' or '.join(part.type.part_of))}, and no whole can hold it here: "
        f"none in {room} has a free {part.type.name} slot, and the plan's 'absent' facts forbid "
        'adding one; say which object it is a part of with {"part_of": ...}'
    )


def _slot_in_new(whole: ObjectType, part: DraftObject) -> bool:
    """Whether a new ``whole`` has a slot for ``part`` (an upper cabinet: a wall cabinet's)."""
    spec = next((p for p in whole.parts if p.type == part.type.name), None)
    return spec is not None and has_slot(spec, [], part.attrs)


def _usual_anywhere(obj_type: ObjectType) -> tuple[int, float]:
    return max(occurrence(obj_type, kind) for kind in PROCTHOR_ROOMS)


def sinks_into_counters(draft: Draft) -> None:
    """A kitchen's sink the facts leave free is set into a counter there, as AI2-THOR's
    kitchens have them; in other rooms a sink stands on the floor."""
    for sink in list(draft.objects.values()):
        kitchen = any(r == sink.room and k == KITCHEN for r, k in draft.rooms)
        free = sink.parent is None and sink.part_of is None and "place" not in sink.why
        if sink.type.name != "Sink" or not kitchen or not free:
            continue
        counters = [
            o for o in draft.objects.values() if o.type.name == COUNTER and o.room == sink.room
        ]
        counter = next((c for c in counters if _free(draft, c, "Sink")), None)
        if counter is None:
            counter = draft.new_object(COUNTER, None, task=sink.task)
            counter.room, counter.relation = sink.room, "on"
            counter.why["type"] = f"the counter {sink.id} is set into"
        sink.part_of, sink.relation = counter.id, "part"
        sink.why["place"] = f"set into {counter.id}"


def complete_parts(draft: Draft) -> None:
    """Add the parts each object lacks (not its optional ones), in the order they were
    added; parts of parts too (a sink's basin and faucet)."""
    done: set[str] = set()
    while True:
        todo = [o for o in draft.objects.values() if o.type.parts and o.id not in done]
        if not todo:
            return
        for whole in todo:
            done.add(whole.id)
            for spec in whole.type.parts:
                named = any(p.type.name == spec.type for p in draft.parts_of(whole))
                if not spec.optional or named:  # an optional part the facts name: its slot
                    _complete(draft, whole, spec, fill=not spec.optional)


def _complete(draft: Draft, whole: DraftObject, spec: PartSpec, *, fill: bool = True) -> None:
    """Give ``whole``'s parts of ``spec``'s type their slots, and (``fill``) add a part in
    each slot still free."""
    have = [p for p in draft.parts_of(whole) if p.type.name == spec.type]
    taken, free = assign_slots(spec, [p.attrs for p in have])
    crowded = [part for part, slot in zip(have, taken, strict=True) if slot is None]
    if crowded and spec.type in FIXED_SLOTS:
        raise SceneError(_no_slot(whole, spec, have, crowded))
    misnamed = [p for p in crowded if any(key in p.attrs for key in SLOT_ATTRS)]
    if misnamed:
        raise SceneError(_no_such_slot(whole, spec, misnamed[0]))
    if crowded:
        draft.notes.append(
            f"{whole.id} has {len(have)} {spec.type} parts: the facts ask for them (a "
            f"{whole.type.name} usually has {spec.count})"
        )
    for part, slot in zip(have, taken, strict=True):
        if slot is not None and slot != part.attrs:
            before = dict(part.attrs)
            part.attrs = slot
            if not draft.allowed(part):
                part.attrs = before
    for attrs in free if fill else ():
        _add_part(draft, whole, draft.catalog.type(spec.type), attrs)


def _no_slot(
    whole: DraftObject, spec: PartSpec, have: Sequence[DraftObject], crowded: Sequence[DraftObject]
) -> str:
    """The error for parts that find no slot of their type left in their whole."""
    facts = "; ".join(f"{p.id} ('{p.why.get('place', p.why.get('type', ''))}')" for p in have)
    slots = [dict(spec.attrs_of(i)) for i in range(spec.count)]
    named = ", ".join("=".join(next(iter(s.items()))) for s in slots if s)
    listed = f" ({named})" if named else ""
    many = spec.count > 1
    return (
        f"{whole.id} has room for {spec.count if many else 'one'} {spec.type}"
        f"{'s' if many else ''}{listed}{', one in each slot' if many else ''}; "
        f"{crowded[0].id} finds no slot left: {facts}. Give each its own slot's attributes, or "
        f'make it a part of another {whole.type.name} with {{"part_of": ...}}'
    )


def _no_such_slot(whole: DraftObject, spec: PartSpec, part: DraftObject) -> str:
    """The error for a part whose slot attributes (``position``, ``level``) its whole lacks
    or has taken."""
    asked = ", ".join(f"{k}={v}" for k, v in part.attrs.items() if k in SLOT_ATTRS)
    slots = "; ".join(
        ", ".join(f"{k}={v}" for k, v in spec.attrs_of(i).items()) or "no attributes"
        for i in range(spec.count)
    )
    return (
        f"{part.id} ('{part.why.get('place', part.why.get('type', ''))}') asks for {asked}, "
        f"and {whole.id} has no such {spec.type} free (a {whole.type.name}'s: {slots}); "
        'name a slot it has, or make it a part of another whole with {"part_of": ...}'
    )


def _add_part(draft: Draft, whole: DraftObject, kind: ObjectType, attrs: dict[str, str]) -> None:
    base = f"{whole.id}_{snake(kind.name)}"
    n = 1
    while f"{base}_{n}" in draft.objects:
        n += 1
    part = DraftObject(
        f"{base}_{n}",
        kind,
        None,
        task=False,
        room=whole.room,
        relation="part",
        part_of=whole.id,
        states=dict(kind.states),
        attrs=attrs,
    )
    if draft.allowed(part):
        draft.objects[part.id] = part
    else:
        draft.notes.append(
            f"{whole.id} lacks {a_or_an(kind.name)}: the plan's 'absent' facts forbid it"
        )


def size_parts(draft: Draft, whole: DraftObject) -> None:
    """Give ``whole``'s parts (and theirs) their slots' sizes, now that it has its own."""
    parts = draft.parts_of(whole)
    if not parts:
        return
    boxes = part_boxes(whole.type.name, whole.size, [(p.type.name, p.attrs) for p in parts])
    for part, (size, _) in zip(parts, boxes, strict=True):
        part.size = size
        if part.type.name in OWN_ASSET_PARTS and part.asset is None:  # exported on its own
            part.asset = draft.rng("asset", part.id).choice([a for a in part.type.assets if a.id])
        size_parts(draft, part)


def part_crowding(holder: DraftObject, kids: Sequence[DraftObject]) -> str | None:
    """Why what rests in or on a part does not fit there in a row (``None``: it does)."""
    inside = any(kid.relation == "in" for kid in kids)
    if row_fits(holder.size, [k.size for k in kids], inside):
        return None
    listed = ", ".join(
        f"{k.id} ({k.size[0]:.2f} x {k.size[1]:.2f} x {k.size[2]:.2f} m)" for k in kids
    )
    width, height, depth = holder.size
    return (
        f"{listed} do not fit side by side {kids[0].relation} {holder.id} ({width:.2f} wide, "
        f"{height:.2f} high, {depth:.2f} deep: a part of {holder.part_of}); put some "
        "elsewhere in the plan's facts"
    )
