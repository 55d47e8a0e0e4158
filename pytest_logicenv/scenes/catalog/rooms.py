"""Which room types a type occurs in, as ProcTHOR and AI2-THOR's own scenes say.

ProcTHOR's ``placement-annotations.json`` weights each type per room type (``inKitchens``,
``inLivingRooms``, ``inBedrooms``, ``inBathrooms``: 0 never, 1 sometimes, 2 often); its house
generator puts a type only where its weight is above 0. Its word is final for every type it
weights somewhere: a CounterTop (``inBedrooms`` 0) does not occur in a bedroom, although one of
AI2-THOR's thirty bedrooms has one. Some types it weights nowhere (all four 0): it places
paintings, televisions and sinks by other means (wall decor, asset groups). For those, and for
the parts and fixtures it has no asset for (Cabinet, Mirror, Bathtub), the share of AI2-THOR's
iTHOR scenes of each room type that hold one decides: above 0, the type occurs there (often, at
half the scenes or more). Our own types and a user's say their rooms themselves; a type nobody
places anywhere occurs anywhere.

ProcTHOR knows four room types; for the others the designer knows, a type occurs where it
occurs in the room types they are like (:data:`LIKE`): a study is furnished as ProcTHOR's
bedrooms and living rooms are (desks, shelves, armchairs), a laundry room as its bathrooms
(it puts washing machines and dryers there), a dining room as its kitchens and living rooms,
a garage and a storage room as its living rooms (and bedrooms) keep shelves, boxes and bins.

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> catalog = default_catalog()
>>> [occurs_in(catalog.type(t), "Bedroom") for t in ("Dresser", "CounterTop", "FloorLamp")]
[True, False, False]
>>> occurrence(catalog.type("Painting"), "Bedroom"), occurs_in(catalog.type("Desk"), "Study")
((1, 0.433), True)
"""

from __future__ import annotations

from collections.abc import Mapping

from pytest_logicenv.scenes.catalog.properties import ANNOTATED_ROOMS
from pytest_logicenv.scenes.catalog.type_model import ObjectType

#: The room types ProcTHOR annotates.
PROCTHOR_ROOMS = tuple(ANNOTATED_ROOMS.values())
#: Room types ProcTHOR does not know, and those of its own they are furnished like.
LIKE: Mapping[str, tuple[str, ...]] = {
    "Study": ("Bedroom", "LivingRoom"),
    "LaundryRoom": ("Bathroom",),
    "DiningRoom": ("Kitchen", "LivingRoom"),
    # Neither is in ProcTHOR or AI2-THOR: what its living rooms (and a storage room's, its
    # bedrooms) keep on shelves and in boxes, and its bins; no kitchen appliances.
    "Garage": ("LivingRoom",),
    "StorageRoom": ("LivingRoom", "Bedroom"),
}
#: At least this share of AI2-THOR's scenes of a room type hold the type: it is there often.
OFTEN = 0.5
NEVER = (0, 0.0)


def occurrence(obj_type: ObjectType, kind: str) -> tuple[int, float]:
    """How usual ``obj_type`` is in a room of type ``kind``: (how often, 0 never, 1 sometimes,
    2 often; the share of AI2-THOR's scenes of that room type that hold one), best first when
    sorted in reverse; :data:`NEVER` where it does not occur."""
    if kind not in PROCTHOR_ROOMS and kind not in obj_type.rooms and kind in LIKE:
        return max(occurrence(obj_type, like) for like in LIKE[kind])
    frequency = round(obj_type.frequencies.get(kind, 0.0), 3)
    if obj_type.room_weights:  # ProcTHOR's word
        weight = obj_type.room_weights.get(kind, 0)
        return (weight, frequency) if weight else NEVER
    if obj_type.frequencies:
        if frequency <= 0:
            return NEVER
        return (2 if frequency >= OFTEN else 1), frequency
    if obj_type.rooms:  # ours, or a user's
        return (1, 0.0) if kind in obj_type.rooms else NEVER
    return (1, 0.0)


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
