"""Which slot of its whole each part takes: a stove has four burners, one per ``position``; a
shelving unit three shelves, one per ``level``; a dresser three drawers, alike.

A part the facts name may leave its slot's attributes open (``{"exists": "StoveBurner"}``):
it takes a free slot that agrees with what the facts do say, and gets that slot's attributes,
so that it is one of its whole's parts rather than one more on top of them. A part of a type
whose slots are fixed (:data:`~pytest_logicenv.scenes.part_geometry.FIXED_SLOTS`: a burner's quarter
of the top, a sink's one faucet) that finds no slot left has no room in its whole; drawers and
cabinets share their whole's front, so there may be more of them than usual.

>>> from pytest_logicenv.scenes.catalog import PartSpec
>>> burners = PartSpec("StoveBurner", 2, ({"position": "front_left"}, {"position": "back_left"}))
>>> assign_slots(burners, [{"position": "back_left"}, {}])
([{'position': 'back_left'}, {'position': 'front_left'}], [])
>>> assign_slots(burners, [{"position": "back_left"}, {"position": "back_left"}])
([{'position': 'back_left'}, None], [{'position': 'front_left'}])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pytest_logicenv.scenes.catalog import PartSpec
from pytest_logicenv.scenes.catalog.parts import SLOT_ATTRS

Attrs = Mapping[str, str]


def assign_slots(
    spec: PartSpec, parts: Sequence[Attrs]
) -> tuple[list[dict[str, str] | None], list[dict[str, str]]]:
    """The attributes each part has once it takes a slot of ``spec`` (``None``: no slot is
    left that agrees with it), in the parts' order; and the slots still free. Parts whose
    attributes name a slot take it first; the others take the first free slot they agree with.
    """
    free = [dict(spec.attrs_of(i)) for i in range(spec.count)]
    taken: list[dict[str, str] | None] = [None] * len(parts)
    for index, attrs in enumerate(parts):  # a part that names its slot has it
        slot = next((s for s in free if s.items() <= attrs.items() and _named(s, attrs)), None)
        if slot is not None:
            free.remove(slot)
            taken[index] = {**attrs, **slot}
    for index, attrs in enumerate(parts):
        if taken[index] is not None:
            continue
        slot = next((s for s in free if _agrees(s, attrs)), None)
        if slot is not None:
            free.remove(slot)
            taken[index] = {**attrs, **slot}
    return taken, free


def has_slot(spec: PartSpec, parts: Sequence[Attrs], attrs: Attrs) -> bool:
    """Whether a whole whose parts of ``spec``'s type are ``parts`` can take one more with
    ``attrs``."""
    taken, _ = assign_slots(spec, [*parts, attrs])
    return all(slot is not None for slot in taken)


def _agrees(slot: Attrs, attrs: Attrs) -> bool:
    return _named(slot, attrs) and all(attrs.get(k, v) == v for k, v in slot.items())


def _named(slot: Attrs, attrs: Attrs) -> bool:
    """Whether every slot attribute the part names (a ``level``) is one its slot has: an
    upper cabinet takes no slot of a counter's, whose cabinets are lower."""
    return all(key in slot for key in attrs if key in SLOT_ATTRS)
