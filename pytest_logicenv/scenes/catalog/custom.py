"""The types our tasks need that AI2-THOR lacks, in the catalog's own form, flagged custom.

Each says its properties, where it usually is, its size, and the AI2-THOR asset that shows it
in an exported house (its stand-in), if one makes sense; the export records each stand-in.

>>> [spec.name for spec in CUSTOM_TYPES][:3]
['Toy', 'ToyBox', 'WetWipes']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pytest_logicenv.scenes.catalog.parts import PartSpec
from pytest_logicenv.scenes.scene_model import Vector


@dataclass(frozen=True)
class CustomSpec:
    """A type AI2-THOR lacks, in the catalog's own form (ours here, or a user's type file).

    ``size`` is its bounding box; ``stand_in`` an AI2-THOR type whose assets export it (none
    for things AI2-THOR cannot show, like a stain); ``stand_in_by`` picks another stand-in by
    attribute value (``{"kind": {"other": "BasketBall"}}``); ``attrs`` the attribute values a
    plan may use (empty: any); ``parents`` where it usually rests, with a weight; ``container``
    whether things go in it rather than on it; ``placement`` where in a room it stands
    (``corner``, ``edge``, ``middle``, as ProcTHOR annotates its types); ``parts`` what it is
    made of; ``synonyms`` everyday words for it.
    """

    name: str
    properties: tuple[str, ...]
    rooms: tuple[str, ...]
    size: Vector
    stand_in: str | None = None
    stand_in_by: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: The stand-in's assets that fit best (all when empty): a stove shows as a short counter.
    stand_in_assets: tuple[str, ...] = ()
    attrs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    states: Mapping[str, bool] = field(default_factory=dict)
    parents: Mapping[str, float] = field(default_factory=dict)
    on_floor: bool = True
    on_wall: bool = False
    description: str = ""
    container: bool = False
    placement: tuple[str, ...] = ()
    parts: tuple[PartSpec, ...] = ()
    synonyms: tuple[str, ...] = ()


#: The household types AI2-THOR lacks, and the ones our example tasks need.
CUSTOM_TYPES: tuple[CustomSpec, ...] = (
    CustomSpec(
        "Toy",
        ("pickupable",),
        ("LivingRoom", "Bedroom"),
        (0.3, 0.3, 0.25),
        stand_in="TeddyBear",
        stand_in_by={"kind": {"other": "BasketBall"}},
        attrs={"kind": ("doll", "other")},
        parents={"ToyBox": 1.0, "Bed": 0.3, "Sofa": 0.2, "ShelvingUnit": 0.2},
        description="a child's toy; kind=doll or kind=other",
    ),
    CustomSpec(
        "ToyBox",
        ("moveable", "receptacle"),
        ("LivingRoom", "Bedroom"),
        (0.6, 0.4, 0.45),
        stand_in="Box",
        container=True,
        description="an open box for toys; attrs colour (red, white, blue, ...)",
    ),
    CustomSpec(
        "WetWipes",
        ("pickupable", "cleaning_tool", "can_be_used_up"),
        ("LivingRoom", "Kitchen", "Bathroom", "Bedroom"),
        (0.2, 0.07, 0.12),
        stand_in="TissueBox",
        parents={"CoffeeTable": 1.0, "SideTable": 0.8, "CounterTop": 0.6, "DiningTable": 0.5},
        on_floor=False,
        description="a pack of wet wipes, a cleaning tool",
    ),
    CustomSpec(
        "Mop",
        ("pickupable", "cleaning_tool"),
        ("LivingRoom", "Kitchen", "Bathroom", "LaundryRoom"),
        (0.3, 1.3, 0.3),
        stand_in="Plunger",
        description="a wet mop, a cleaning tool that stands on the floor",
    ),
    CustomSpec(
        "Stain",
        ("static", "dirtyable"),
        ("LivingRoom", "Kitchen", "Bathroom", "Bedroom"),
        (0.5, 0.005, 0.4),
        states={"dirty": True},
        description="a dirty mark on the floor, clean once wiped (no AI2-THOR asset)",
    ),
    CustomSpec(
        "Milk",
        ("pickupable", "fillable", "breakable", "temperature"),
        ("Kitchen",),
        (0.1, 0.25, 0.1),
        stand_in="Bottle",
        states={"filled": True},
        parents={"Fridge": 1.0, "CounterTop": 0.3, "DiningTable": 0.2},
        on_floor=False,
        description="a bottle of milk, a liquid container (filled)",
    ),
    # -- appliances and furniture
    CustomSpec(
        "Dishwasher",
        ("static", "receptacle", "openable", "toggleable"),
        ("Kitchen",),
        (0.6, 0.85, 0.6),
        stand_in="WashingMachine",
        container=True,
        placement=("edge", "corner"),
        description="a dishwasher: opens, holds dishes, runs when toggled on",
    ),
    CustomSpec(
        "Stove",
        ("static", "receptacle"),
        ("Kitchen",),
        (0.76, 0.92, 0.65),
        stand_in="CounterTop",
        stand_in_assets=("Countertop_I_2x2",),
        placement=("edge", "corner"),
        description="a stove with four burners and their knobs (AI2-THOR's stoves are part of "
        "its kitchens' counters; a counter asset stands in)",
    ),
    CustomSpec(
        "Wardrobe",
        ("static", "receptacle", "openable"),
        ("Bedroom",),
        (1.0, 1.9, 0.6),
        stand_in="Dresser",
        stand_in_assets=("Dresser_220_1", "RoboTHOR_dresser_hemnes"),
        container=True,
        placement=("edge", "corner"),
        description="a wardrobe that opens; clothes go in it",
    ),
    # -- storage hung on a wall (issue 23): AI2-THOR's upper cabinets belong to its kitchens'
    # walls, with no asset of their own, so these export as nothing (and are listed)
    CustomSpec(
        "WallCabinet",
        ("static",),
        ("Kitchen", "Bathroom", "LaundryRoom"),
        (1.2, 0.7, 0.35),
        on_floor=False,
        on_wall=True,
        description="upper cabinets hung on a wall, two doors side by side (parts: Cabinet)",
    ),
    CustomSpec(
        "WallShelf",
        ("static", "receptacle"),
        ("Kitchen", "LivingRoom", "Bedroom", "Bathroom"),
        (0.9, 0.04, 0.25),
        on_floor=False,
        on_wall=True,
        description="a shelf board hung on a wall; things stand on it",
    ),
    CustomSpec(
        "DryingRack",
        ("moveable", "receptacle"),
        ("LaundryRoom", "Bathroom"),
        (0.9, 1.0, 0.5),
        stand_in="ShelvingUnit",
        placement=("edge", "corner", "middle"),
        description="a rack that wet clothes dry on",
    ),
    CustomSpec(
        "LaundryBasket",
        ("pickupable", "receptacle"),
        ("Bathroom", "Bedroom", "LaundryRoom"),
        (0.5, 0.35, 0.4),
        stand_in="LaundryHamper",
        container=True,
        placement=("edge", "corner", "middle"),
        description="an open basket one carries laundry in (AI2-THOR's LaundryHamper stands)",
    ),
    # -- clothes and linen
    CustomSpec(
        "Shirt",
        ("pickupable", "dirtyable", "wettable"),
        ("Bedroom", "Bathroom", "LaundryRoom"),
        (0.4, 0.04, 0.3),
        stand_in="Cloth",
        parents={"Bed": 0.6, "Wardrobe": 1.0, "LaundryBasket": 0.5, "Dresser": 0.4},
        on_floor=False,
        description="a shirt (clothes), gets dirty and wet",
    ),
    CustomSpec(
        "Trousers",
        ("pickupable", "dirtyable", "wettable"),
        ("Bedroom", "Bathroom", "LaundryRoom"),
        (0.4, 0.05, 0.35),
        stand_in="Cloth",
        parents={"Bed": 0.5, "Wardrobe": 1.0, "LaundryBasket": 0.5, "Dresser": 0.4},
        on_floor=False,
        description="a pair of trousers (clothes), gets dirty and wet",
    ),
    CustomSpec(
        "Sock",
        ("pickupable", "dirtyable", "wettable"),
        ("Bedroom", "Bathroom", "LaundryRoom"),
        (0.1, 0.03, 0.22),
        stand_in="Cloth",
        parents={"LaundryBasket": 0.6, "Dresser": 0.5, "Bed": 0.3},
        on_floor=False,
        description="a sock (clothes), gets dirty and wet",
    ),
    CustomSpec(
        "Blanket",
        ("pickupable", "dirtyable", "wettable"),
        ("Bedroom", "LivingRoom"),
        (0.9, 0.06, 0.6),
        stand_in="Cloth",
        parents={"Bed": 1.0, "Sofa": 0.6, "ArmChair": 0.3},
        on_floor=False,
        description="a folded blanket, gets dirty and wet",
    ),
    # -- food AI2-THOR lacks
    CustomSpec(
        "Banana",
        ("pickupable", "sliceable", "temperature"),
        ("Kitchen",),
        (0.2, 0.05, 0.08),
        stand_in="Potato",
        parents={"CounterTop": 1.0, "DiningTable": 0.6, "Bowl": 0.5, "Plate": 0.3},
        on_floor=False,
        description="a banana (fruit)",
    ),
    CustomSpec(
        "Orange",
        ("pickupable", "sliceable", "temperature"),
        ("Kitchen",),
        (0.08, 0.08, 0.08),
        stand_in="Apple",
        parents={"CounterTop": 1.0, "DiningTable": 0.6, "Bowl": 0.6, "Fridge": 0.4},
        on_floor=False,
        description="an orange (fruit)",
    ),
    CustomSpec(
        "Carrot",
        ("pickupable", "sliceable", "cookable", "temperature"),
        ("Kitchen",),
        (0.18, 0.04, 0.04),
        stand_in="Potato",
        parents={"CounterTop": 1.0, "Fridge": 0.8, "Plate": 0.3},
        on_floor=False,
        description="a carrot (vegetable), sliced and cooked",
    ),
    CustomSpec(
        "Onion",
        ("pickupable", "sliceable", "cookable", "temperature"),
        ("Kitchen",),
        (0.08, 0.08, 0.08),
        stand_in="Potato",
        parents={"CounterTop": 1.0, "Fridge": 0.3},
        on_floor=False,
        description="an onion (vegetable), sliced and cooked",
    ),
    CustomSpec(
        "Cheese",
        ("pickupable", "sliceable", "temperature"),
        ("Kitchen",),
        (0.12, 0.06, 0.08),
        stand_in="Bread",
        parents={"Fridge": 1.0, "CounterTop": 0.4, "Plate": 0.3},
        on_floor=False,
        description="a block of cheese, sliced",
    ),
    CustomSpec(
        "Cereal",
        ("pickupable", "openable", "can_be_used_up"),
        ("Kitchen",),
        (0.2, 0.3, 0.07),
        stand_in="Box",
        parents={"CounterTop": 1.0, "DiningTable": 0.5, "Cabinet": 0.8},
        on_floor=False,
        description="a box of cereal, opens, used up when eaten",
    ),
    CustomSpec(
        "Juice",
        ("pickupable", "fillable", "breakable", "temperature"),
        ("Kitchen",),
        (0.09, 0.25, 0.09),
        stand_in="Bottle",
        states={"filled": True},
        parents={"Fridge": 1.0, "CounterTop": 0.3, "DiningTable": 0.3},
        on_floor=False,
        description="a bottle of juice, a liquid container (filled)",
    ),
    # -- containers AI2-THOR lacks
    CustomSpec(
        "Jar",
        ("pickupable", "receptacle", "openable", "fillable", "breakable"),
        ("Kitchen",),
        (0.1, 0.15, 0.1),
        stand_in="Cup",
        container=True,
        parents={"CounterTop": 1.0, "Cabinet": 0.8, "Fridge": 0.3},
        on_floor=False,
        description="a jar with a lid",
    ),
    CustomSpec(
        "FoodContainer",
        ("pickupable", "receptacle", "openable"),
        ("Kitchen",),
        (0.2, 0.08, 0.15),
        stand_in="Bowl",
        container=True,
        parents={"Fridge": 1.0, "CounterTop": 0.6, "Cabinet": 0.5},
        on_floor=False,
        description="a lidded box for food",
    ),
    CustomSpec(
        "Basket",
        ("pickupable", "receptacle"),
        ("Kitchen", "LivingRoom", "Bedroom", "LaundryRoom"),
        (0.35, 0.2, 0.25),
        stand_in="Bowl",
        container=True,
        parents={"CounterTop": 0.6, "DiningTable": 0.6, "ShelvingUnit": 0.5, "CoffeeTable": 0.3},
        on_floor=False,
        description="an open basket",
    ),
    CustomSpec(
        "Tray",
        ("pickupable", "receptacle"),
        ("Kitchen", "LivingRoom"),
        (0.45, 0.03, 0.32),
        stand_in="Plate",
        parents={"CounterTop": 1.0, "DiningTable": 0.6, "CoffeeTable": 0.4},
        on_floor=False,
        description="a flat tray things are carried on",
    ),
    CustomSpec(
        "CatFood",
        ("pickupable", "fillable", "openable"),
        ("Kitchen",),
        (0.15, 0.25, 0.08),
        stand_in="Box",
        states={"filled": True},
        parents={"Cabinet": 1.0, "CounterTop": 0.6, "ShelvingUnit": 0.3},
        on_floor=False,
        synonyms=("cat food", "pet food", "dry food"),
        description="a box of dry cat food, poured into a bowl (filled: it holds food)",
    ),
    # -- cleaning tools
    CustomSpec(
        "Duster",
        ("pickupable", "cleaning_tool"),
        ("LivingRoom", "Bedroom"),
        (0.4, 0.08, 0.1),  # lying down: it is kept in a drawer
        stand_in="Cloth",
        parents={"ShelvingUnit": 0.5, "Cabinet": 0.5, "Drawer": 0.3},
        on_floor=False,
        synonyms=("feather duster", "dust cloth"),
        description="a dry duster: dusts furniture without being wet (not wettable)",
    ),
    # -- refills: what restores a used-up dispenser
    CustomSpec(
        "SoapRefill",
        ("pickupable", "can_be_used_up", "refill_source"),
        ("Bathroom", "Kitchen"),
        (0.1, 0.22, 0.07),
        stand_in="SoapBottle",
        parents={"Cabinet": 1.0, "CounterTop": 0.5, "ShelvingUnit": 0.4},
        on_floor=False,
        description="a refill container of liquid soap, refills a soap bottle",
    ),
    CustomSpec(
        "Detergent",
        ("pickupable", "can_be_used_up"),
        ("LaundryRoom", "Kitchen", "Bathroom"),
        (0.15, 0.28, 0.1),
        stand_in="SoapBottle",
        parents={"ShelvingUnit": 1.0, "Cabinet": 0.8, "WashingMachine": 0.5, "CounterTop": 0.3},
        on_floor=False,
        description="a bottle of detergent, used up and refilled",
    ),
)
