"""Which room types a type occurs in, as ProcTHOR and AI2-THOR's own scenes say.

ProcTHOR's ``placement-annotations.json`` weights each type per room type (``inKitchens``,
``inLivingRooms``, ``inBedrooms``, ``inBathrooms``: 0 never, 1 sometimes, 2 often); its house
generator puts a type only where its weight is above 0. Its word is final for every type it weights
somewhere (but see below): a CounterTop (``inBedrooms`` 0) does not occur in a bedroom, although one
of AI2-THOR's thirty bedrooms has one. Some types it weights nowhere (all four 0): it places
paintings, televisions and sinks by other means (wall decor, asset groups). For those, and for the
parts and fixtures it has no asset for (Cabinet, Mirror, Bathtub), the share of AI2-THOR's iTHOR
scenes of each room type that hold one decides: above 0, the type occurs there (often, at half the
scenes or more). Our own types and a user's say their rooms themselves; a type nobody places
anywhere occurs anywhere.

ProcTHOR's weight of 0 gives way where AI2-THOR's own scenes of that room type hold the type
at least half the time (:data:`OFTEN`): a CounterTop stands in 83% of AI2-THOR's bathrooms
(the vanity a bathroom sink is set into), so it occurs there sometimes.

ProcTHOR knows four room types; the others the designer knows (a study, a laundry room, a
dining room, a garage, a storage room) have a reviewed :data:`ROOM_KINDS` entry: what stands
in such a room (furniture, appliances, fixtures: nothing else that stands does; a laundry room
holds a washing machine and a dryer, not a toilet or a bathtub) and how often, and the
ProcTHOR rooms whose small, carried things it holds too (a study's desk holds what a bedroom's
and a living room's do), less the ones that are not found there. Parts follow their wholes.

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> catalog = default_catalog()
>>> [occurs_in(catalog.type(t), "Bedroom") for t in ("Dresser", "CounterTop", "FloorLamp")]
[True, False, False]
>>> occurrence(catalog.type("Painting"), "Bedroom"), occurs_in(catalog.type("Desk"), "Study")
((1, 0.433), True)
>>> [occurs_in(catalog.type(t), "LaundryRoom") for t in ("WashingMachine", "Toilet", "Cloth")]
[True, False, True]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pytest_logicenv.scenes.catalog.properties import ANNOTATED_ROOMS
from pytest_logicenv.scenes.catalog.type_model import ObjectType

#: The room types ProcTHOR annotates.
PROCTHOR_ROOMS = tuple(ANNOTATED_ROOMS.values())


@dataclass(frozen=True)
class RoomKind:
    """A room type ProcTHOR lacks: what stands there (type -> 2 often, 1 sometimes), the
    ProcTHOR rooms whose carried things it holds, and those of them it does not."""

    like: tuple[str, ...]
    stands: Mapping[str, int]
    never: frozenset[str] = frozenset()


#: What stands in every room: its switch, its openings, a stain on its floor.
_EVERY_ROOM = {"LightSwitch": 2, "Window": 1, "Doorway": 1, "Doorframe": 1, "Stain": 1}
#: Reviewed: the room types a user names that ProcTHOR and AI2-THOR lack.
ROOM_KINDS: Mapping[str, RoomKind] = {
    "Study": RoomKind(
        ("Bedroom", "LivingRoom"),
        {
            **_EVERY_ROOM,
            **{"Desk": 2, "Chair": 2, "ShelvingUnit": 2, "ArmChair": 1, "FloorLamp": 1},
            **{"GarbageCan": 1, "Painting": 1, "Poster": 1, "Blinds": 1, "Curtains": 1},
            **{"SideTable": 1, "Desktop": 1, "HousePlant": 1, "Safe": 1, "Sofa": 1},
            **{"Stool": 1, "Ottoman": 1, "Mirror": 1},
        },
        frozenset({"AlarmClock", "Pillow", "TeddyBear", "Blanket"}),
    ),
    "LaundryRoom": RoomKind(
        ("Bathroom",),
        {
            **_EVERY_ROOM,
            **{"WashingMachine": 2, "ClothesDryer": 2, "LaundryHamper": 2, "DryingRack": 1},
            **{"ShelvingUnit": 1, "GarbageCan": 1, "Sink": 1, "CounterTop": 1, "Mirror": 1},
            **{"TowelHolder": 1, "HandTowelHolder": 1},
        },
        frozenset({"ToiletPaper", "Plunger", "Candle", "SoapBar", "Toothbrush"}),
    ),
    "DiningRoom": RoomKind(
        ("Kitchen", "LivingRoom"),
        {
            **_EVERY_ROOM,
            **{"DiningTable": 2, "Chair": 2, "SideTable": 1, "ShelvingUnit": 1, "Painting": 1},
            **{"HousePlant": 1, "Blinds": 1, "Curtains": 1, "Cart": 1, "GarbageCan": 1},
            **{"Dresser": 1, "Stool": 1, "RoomDecor": 1},
        },
        frozenset({"Knife", "ButterKnife", "Spatula", "Ladle", "Pan", "Pot", "SoapBottle"}),
    ),
    "Garage": RoomKind(
        ("LivingRoom",),
        {
            **_EVERY_ROOM,
            **{"ShelvingUnit": 2, "GarbageCan": 2, "Cart": 1, "VacuumCleaner": 1},
            **{"Safe": 1, "Stool": 1, "WashingMachine": 1, "ClothesDryer": 1, "Fridge": 1},
        },
        frozenset({"Pillow", "RemoteControl", "Newspaper", "TissueBox", "Vase", "Statue"}),
    ),
    "StorageRoom": RoomKind(
        ("LivingRoom", "Bedroom"),
        {
            **_EVERY_ROOM,
            **{"ShelvingUnit": 2, "LaundryHamper": 1, "Cart": 1, "VacuumCleaner": 1},
            **{"Safe": 1, "Stool": 1, "Dresser": 1, "Wardrobe": 1, "GarbageCan": 1},
        },
        frozenset({"Pillow", "RemoteControl", "CellPhone", "Laptop"}),
    ),
}
#: Room types ProcTHOR does not know, and those of its own whose carried things they hold.
LIKE: Mapping[str, tuple[str, ...]] = {name: kind.like for name, kind in ROOM_KINDS.items()}
#: At least this share of AI2-THOR's scenes of a room type hold the type: it is there often.
OFTEN = 0.5
NEVER = (0, 0.0)


def occurrence(obj_type: ObjectType, kind: str) -> tuple[int, float]:
    """How usual ``obj_type`` is in a room of type ``kind``: (how often, 0 never, 1 sometimes,
    2 often; the share of AI2-THOR's scenes of that room type that hold one), best first when
    sorted in reverse; :data:`NEVER` where it does not occur. A room the type lists itself
    (ours, a user's, or what a type file adds to it) it occurs in."""
    named = ROOM_KINDS.get(kind)
    found = _procthor_room(obj_type, kind) if named is None else _named_room(obj_type, named)
    if found == NEVER and kind in obj_type.rooms:
        return 1, round(obj_type.frequencies.get(kind, 0.0), 3)
    return found


def _procthor_room(obj_type: ObjectType, kind: str) -> tuple[int, float]:
    frequency = round(obj_type.frequencies.get(kind, 0.0), 3)
    if obj_type.room_weights:  # ProcTHOR's word, unless AI2-THOR's scenes often say otherwise
        weight = obj_type.room_weights.get(kind, 0) or (1 if frequency >= OFTEN else 0)
        return (weight, frequency) if weight else NEVER
    if obj_type.frequencies:
        if frequency <= 0:
            return NEVER
        return (2 if frequency >= OFTEN else 1), frequency
    return NEVER if obj_type.rooms else (1, 0.0)


def _named_room(obj_type: ObjectType, room: RoomKind) -> tuple[int, float]:
    """A type's occurrence in a room ProcTHOR lacks (:class:`RoomKind`)."""
    alike = max(_procthor_room(obj_type, like) for like in room.like)
    if obj_type.name in room.stands:
        return room.stands[obj_type.name], alike[1]
    carried = obj_type.has("pickupable") or obj_type.part_only
    placed = bool(obj_type.room_weights or obj_type.frequencies or obj_type.rooms)
    if obj_type.name in room.never or (placed and not carried):
        return NEVER
    return alike


def named_rooms(obj_type: ObjectType) -> tuple[tuple[str, int], ...]:
    """The rooms ProcTHOR lacks that ``obj_type`` stands in, with how often (a washing
    machine: the laundry room, often)."""
    return tuple(
        (name, kind.stands[obj_type.name])
        for name, kind in ROOM_KINDS.items()
        if obj_type.name in kind.stands and name not in obj_type.rooms
    )


def occurs_in(obj_type: ObjectType, kind: str) -> bool:
    """Whether a room of type ``kind`` may hold a ``obj_type`` (:func:`occurrence`)."""
    return occurrence(obj_type, kind) != NEVER


def usual_rooms(obj_type: ObjectType, kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The room types of ``kinds`` that ``obj_type`` occurs in, in their order.

    >>> from pytest_logicenv.scenes.catalog import default_catalog
    >>> usual_rooms(default_catalog().type("Faucet"), ("Bedroom", "Bathroom", "Kitchen"))
    ('Bathroom', 'Kitchen')
    """
    return tuple(kind for kind in kinds if occurs_in(obj_type, kind))
