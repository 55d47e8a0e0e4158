"""The household type pack: everyday things AI2-THOR has no type for, which real tasks name.

Fruit and dairy kinds, tea things, racks, cleaning tools, clothes, linen and luggage, in the
catalog's own form (:class:`~pytest_logicenv.scenes.catalog.custom.CustomSpec`), each with the
AI2-THOR type whose assets show it in an exported house (its stand-in: a lemon shows as an
apple, a bed sheet as a cloth, a suitcase as a box); the export lists every stand-in it used.
Food has a temperature (heat and cold sources change it, ``sim/physics.py``). The words for
them come from WordNet (``wordnet_words.py``), with the reviewed ones given here.

>>> [spec.stand_in for spec in HOUSEHOLD_TYPES if spec.name in ("Lemon", "BedSheet")]
['Apple', 'Cloth']
"""

from __future__ import annotations

from pytest_logicenv.scenes.catalog.custom import CustomSpec

_FOOD = ("pickupable", "temperature")
_CLOTHES = ("pickupable", "dirtyable", "wettable")

#: The pack, by kind: food, tea, racks and buckets, cleaning and bathroom, clothes, luggage.
HOUSEHOLD_TYPES: tuple[CustomSpec, ...] = (
    CustomSpec(
        "Lemon",
        (*_FOOD, "sliceable"),
        ("Kitchen",),
        (0.07, 0.07, 0.09),
        stand_in="Apple",
        parents={"CounterTop": 1.0, "Bowl": 0.6, "Fridge": 0.5, "DiningTable": 0.4},
        on_floor=False,
        description="a lemon (fruit), sliced with a knife",
    ),
    CustomSpec(
        "Watermelon",
        (*_FOOD, "sliceable"),
        ("Kitchen",),
        (0.3, 0.25, 0.3),
        stand_in="Lettuce",
        parents={"CounterTop": 1.0, "Fridge": 0.5, "DiningTable": 0.4},
        on_floor=False,
        description="a watermelon (fruit), sliced with a knife",
    ),
    CustomSpec(
        "Yogurt",
        (*_FOOD, "openable", "can_be_used_up"),
        ("Kitchen",),
        (0.08, 0.09, 0.08),
        stand_in="Cup",
        parents={"Fridge": 1.0, "CounterTop": 0.3, "DiningTable": 0.3},
        on_floor=False,
        synonyms=("yoghurt", "yogurt pot", "yogurt tub", "pot of yogurt", "tub of yogurt"),
        description="a pot of yogurt (dairy), opened and eaten up; kept cold in the fridge",
    ),
    CustomSpec(
        "Chicken",
        (*_FOOD, "sliceable", "cookable"),
        ("Kitchen",),
        (0.2, 0.1, 0.15),
        stand_in="Bread",
        parents={"Fridge": 1.0, "Plate": 0.6, "Pan": 0.4, "CounterTop": 0.3},
        on_floor=False,
        description="a piece of chicken (meat): warmed in a microwave or on a burner (hot), "
        "kept in the fridge (cold), cooked, sliced",
    ),
    CustomSpec(
        "Can",
        (*_FOOD, "openable", "can_be_used_up"),
        ("Kitchen",),
        (0.08, 0.11, 0.08),
        stand_in="Cup",
        parents={"Cabinet": 1.0, "CounterTop": 0.5, "ShelvingUnit": 0.3},
        on_floor=False,
        synonyms=("tin", "tin can", "can of soup", "can of beans", "tin of soup"),
        description="a tin can of food (soup, beans), opened and used up",
    ),
    CustomSpec(
        "TeaBag",
        ("pickupable", "can_be_used_up"),
        ("Kitchen",),
        (0.05, 0.01, 0.06),
        stand_in="CreditCard",
        parents={"Jar": 1.0, "Box": 0.6, "Cabinet": 0.6, "CounterTop": 0.4, "Mug": 0.3},
        on_floor=False,
        description="a tea bag, put in a mug or teapot and used up",
    ),
    CustomSpec(
        "Teapot",
        ("pickupable", "fillable", "breakable", "openable", "temperature"),
        ("Kitchen", "DiningRoom"),
        (0.22, 0.18, 0.16),
        stand_in="Kettle",
        parents={"CounterTop": 1.0, "DiningTable": 0.6, "Cabinet": 0.4},
        on_floor=False,
        synonyms=("tea pot",),
        description="a teapot: filled, poured, hot once it stood on a heat source",
    ),
    CustomSpec(
        "MugRack",
        ("static", "receptacle"),
        ("Kitchen",),
        (0.5, 0.12, 0.12),
        stand_in="TowelHolder",
        on_floor=False,
        on_wall=True,
        synonyms=("cup rack", "mug hooks", "mug holder", "cup hooks"),
        description="a rack of hooks on the wall that mugs hang on (AI2-THOR's towel rail "
        "shows it)",
    ),
    CustomSpec(
        "Bucket",
        ("pickupable", "receptacle", "fillable"),
        ("Bathroom", "LaundryRoom", "Garage", "Kitchen"),
        (0.3, 0.3, 0.3),
        stand_in="GarbageCan",
        container=True,
        placement=("corner", "edge"),
        synonyms=("pail",),
        description="a bucket: carried, filled with water, things go in it",
    ),
    CustomSpec(
        "Broom",
        ("pickupable", "cleaning_tool"),
        ("Kitchen", "LivingRoom", "Garage", "StorageRoom", "LaundryRoom"),
        (0.3, 1.3, 0.1),
        stand_in="Plunger",
        placement=("corner", "edge"),
        description="a broom, a dry cleaning tool that stands on the floor",
    ),
    CustomSpec(
        "Toothbrush",
        ("pickupable", "dirtyable", "wettable"),
        ("Bathroom",),
        (0.02, 0.19, 0.02),
        stand_in="ScrubBrush",
        parents={"Cup": 1.0, "CounterTop": 0.6, "Sink": 0.3},
        on_floor=False,
        description="a toothbrush, wet once held under the faucet",
    ),
    # -- clothes, linen, luggage
    CustomSpec(
        "Sweater",
        _CLOTHES,
        ("Bedroom", "LaundryRoom", "LivingRoom"),
        (0.45, 0.06, 0.35),
        stand_in="Cloth",
        parents={"Wardrobe": 1.0, "Dresser": 0.6, "Bed": 0.5, "ArmChair": 0.3},
        on_floor=False,
        synonyms=("jumper", "pullover", "jersey"),
        description="a sweater (clothes), gets dirty and wet",
    ),
    CustomSpec(
        "Shoes",
        ("pickupable", "dirtyable"),
        ("Bedroom", "LivingRoom", "Garage"),
        (0.3, 0.12, 0.22),
        stand_in="Boots",
        placement=("edge", "corner"),
        synonyms=("shoe", "pair of shoes", "sneaker", "trainer"),
        description="a pair of shoes, get dirty and are cleaned",
    ),
    CustomSpec(
        "Jewelry",
        ("pickupable",),
        ("Bedroom", "Bathroom"),
        (0.06, 0.02, 0.06),
        stand_in="Watch",
        parents={"Dresser": 1.0, "SideTable": 0.6, "Box": 0.5, "Drawer": 0.5},
        on_floor=False,
        synonyms=("jewellery", "necklace", "ring", "bracelet", "earring"),
        description="a piece of jewelry (a ring, a necklace)",
    ),
    CustomSpec(
        "Suitcase",
        ("pickupable", "receptacle", "openable"),
        ("Bedroom", "StorageRoom", "Garage"),
        (0.7, 0.45, 0.25),
        stand_in="Box",
        container=True,
        placement=("edge", "corner"),
        synonyms=("luggage", "travel bag", "valise"),
        description="a suitcase: opens, packed and unpacked",
    ),
    CustomSpec(
        "BedSheet",
        _CLOTHES,
        ("Bedroom", "LaundryRoom"),
        (0.6, 0.05, 0.45),
        stand_in="Cloth",
        parents={"Bed": 1.0, "Wardrobe": 0.6, "LaundryBasket": 0.5, "ShelvingUnit": 0.3},
        on_floor=False,
        synonyms=("bed sheet", "bedsheet", "sheet", "fitted sheet", "bed linen"),
        description="a bed sheet (linen), gets dirty and wet",
    ),
    CustomSpec(
        "Tissue",
        ("pickupable", "dirtyable"),
        ("Bedroom", "Bathroom", "LivingRoom"),
        (0.15, 0.01, 0.15),
        stand_in="Cloth",
        parents={"SideTable": 1.0, "CoffeeTable": 0.8, "Bed": 0.3},
        on_floor=False,
        synonyms=("paper tissue", "facial tissue", "kleenex", "paper handkerchief"),
        description="one paper tissue (a TissueBox holds them)",
    ),
)
