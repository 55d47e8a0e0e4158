"""The world model in a prompt: what the types a task names can be, hold and where they are.

A model that does not know a Painting cannot be dirty asks for a dirty one. The planner and
the scene designer therefore show the model, for the types that matter (those the task text
names, found through the synonym table, and their parts), one compact line each: the states
the type can have, whether it is carried, what it holds and how (things go *in* a fridge,
*on* a shelving unit), its parts or the wholes it is a part of, its attributes, where it
usually rests and the rooms it is usual in. A line costs about 100 characters; the whole
catalog would cost 15,000.

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> catalog = default_catalog()
>>> [t.name for t in relevant_types("Clean the mirror and the sink.", catalog)]
['Mirror', 'Sink', 'SinkBasin', 'Faucet', 'Cabinet']
>>> print(type_note(catalog.type("Mirror"), catalog))  # doctest: +ELLIPSIS
Mirror: can be dirty, broken; hangs on a wall; rooms LivingRoom, Kitchen, Bedroom, ...
>>> print(type_note(catalog.type("Fridge"), catalog))
Fridge: can be open; holds things in it; rooms Kitchen, Garage
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.scenes.catalog import STATE_PROPERTY, Catalog, ObjectType, usual_rooms
from pytest_logicenv.scenes.design.templates import ROOM_TYPES
from pytest_logicenv.vocabulary import GLOSSES

#: At most this many types are described: a task names a handful.
MAX_TYPES = 16
#: Usual supports shown per type, and the least weight (ProcTHOR's receptacle frequencies).
MAX_SUPPORTS = 3
MIN_SUPPORT_WEIGHT = 0.1


def relevant_types(text: str, catalog: Catalog, limit: int = MAX_TYPES) -> list[ObjectType]:
    """The types ``text`` names (the synonym table's reading: "fridge", "nightstand"), each
    followed by the types of its parts (a sink's basin and faucet), at most ``limit``."""
    found: list[str] = []
    for name in catalog.vocabulary.mentioned(text):
        for candidate in (name, *(part.type for part in catalog.type(name).parts)):
            if candidate not in found and catalog.has(candidate):
                found.append(candidate)
    return [catalog.type(name) for name in found[:limit]]


def states_of(obj_type: ObjectType) -> list[str]:
    """The states (the facts language's names) an object of this type can be in."""
    return [state for state, needed in STATE_PROPERTY.items() if obj_type.has(needed)]


def usual_supports(obj_type: ObjectType, catalog: Catalog) -> list[str]:
    """Where objects of the type usually rest, as ``in Drawer`` or ``on Desk``, most usual
    first."""
    ranked = sorted(obj_type.parents.items(), key=lambda item: (-item[1], item[0]))
    supports = []
    for name, weight in ranked:
        if weight < MIN_SUPPORT_WEIGHT or not catalog.has(name):
            continue
        supports.append(f"{'in' if catalog.type(name).container else 'on'} {name}")
        if len(supports) == MAX_SUPPORTS:
            break
    return supports


def type_note(obj_type: ObjectType, catalog: Catalog) -> str:
    """One line: ``Name: what it can be; what it holds; parts; where it rests; rooms``."""
    bits = []
    if obj_type.has("pickupable"):
        bits.append("carried")
    states = states_of(obj_type)
    if states:
        bits.append("can be " + ", ".join(states))
    if obj_type.has("receptacle"):
        bits.append("holds things " + ("in it" if obj_type.container else "on it"))
    if obj_type.parts:
        bits.append("parts " + ", ".join(_part_text(p.type, p.count) for p in obj_type.parts))
    if obj_type.part_of:
        bits.append("a part of " + " or ".join(obj_type.part_of))
    bits += [f"attrs {name}={'|'.join(values)}" for name, values in obj_type.attrs.items()]
    if obj_type.on_wall and not obj_type.on_floor:
        bits.append("hangs on a wall")
    supports = usual_supports(obj_type, catalog)
    if supports and not obj_type.part_only:
        bits.append("usually " + ", ".join(supports))
    bits.append(rooms_text(obj_type))
    gloss = type_gloss(obj_type)
    return f"{obj_type.name}{f' ({gloss})' if gloss else ''}: " + "; ".join(bits or ["no states"])


def rooms_text(obj_type: ObjectType) -> str:
    """The room types the designer would put one in (``catalog/rooms.py``'s rule over every
    room type it knows, a dining room's chairs included), as the prompt says them."""
    rooms = usual_rooms(obj_type, ROOM_TYPES)
    if rooms == ROOM_TYPES:
        return "any room"
    return "rooms " + ", ".join(rooms) if rooms else "no room of its own"


def _part_text(name: str, count: int) -> str:
    return name if count == 1 else f"{name} x{count}"


def type_notes(types: Sequence[ObjectType], catalog: Catalog) -> str:
    """One ``- note`` line per type."""
    return "\n".join(f"- {type_note(obj_type, catalog)}" for obj_type in types)


# --------------------------------------------------------------------------- the whole catalog


def type_gloss(obj_type: ObjectType) -> str:
    """What a type is, where its name does not say: ours describe themselves, and a few of
    AI2-THOR's have a gloss (:data:`~pytest_logicenv.vocabulary.GLOSSES`)."""
    return obj_type.description if obj_type.custom else GLOSSES.get(obj_type.name, "")


def catalog_listing(catalog: Catalog) -> str:
    """Every type, with the states it can have and what it is where the name misleads:
    ``Cabinet (open)``, ``SoapBottle (used_up; a soap dispenser by a sink)``."""
    entries = []
    for name, obj_type in sorted(catalog.types.items()):
        bits = [", ".join(states_of(obj_type)), type_gloss(obj_type)]
        shown = "; ".join(bit for bit in bits if bit)
        entries.append(f"{name} ({shown})" if shown else name)
    return ", ".join(entries)


def readings_text(catalog: Catalog) -> str:
    """The words whose type is not the one they spell, and those with several readings:
    ``"soap bottle" -> SoapRefill (or SoapBottle)``."""
    return "; ".join(
        f'"{words}" -> {name}' + (f" (or {' or '.join(others)})" if others else "")
        for words, name, others in catalog.vocabulary.readings()
    )
