"""The catalog's tables of names: AI2-THOR's property names mapped to ours, the state each
property allows, and the few properties our simulator adds to AI2-THOR's types.

>>> THOR_PROPERTIES["CanBeFilled"], METADATA_PROPERTIES["canFillWithLiquid"]
('fillable', 'fillable')
>>> STATE_PROPERTY["open"]
'openable'
"""

from __future__ import annotations

from collections.abc import Mapping

#: AI2-THOR's asset-database property names (``primaryProperty``/``secondaryProperties``),
#: mapped to ours.
THOR_PROPERTIES: Mapping[str, str] = {
    "CanPickup": "pickupable",
    "Moveable": "moveable",
    "Static": "static",
    "Receptacle": "receptacle",
    "ObjectSpecificReceptacle": "object_specific_receptacle",
    "CanOpen": "openable",
    "CanToggleOnOff": "toggleable",
    "CanBreak": "breakable",
    "CanBeDirty": "dirtyable",
    "CanBeSliced": "sliceable",
    "CanBeFilled": "fillable",
    "CanBeCooked": "cookable",
    "CanBeUsedUp": "can_be_used_up",
    "isHeatSource": "heat_source",
    "isColdSource": "cold_source",
    "CanSeeThrough": "see_through",
}
#: AI2-THOR's object-metadata property names (the ``ai2thor-object-metadata.json`` fields an
#: iTHOR scene reports for each object), mapped to ours.
METADATA_PROPERTIES: Mapping[str, str] = {
    "pickupable": "pickupable",
    "moveable": "moveable",
    "receptacle": "receptacle",
    "openable": "openable",
    "toggleable": "toggleable",
    "breakable": "breakable",
    "dirtyable": "dirtyable",
    "sliceable": "sliceable",
    "canFillWithLiquid": "fillable",
    "cookable": "cookable",
    "canBeUsedUp": "can_be_used_up",
    "isHeatSource": "heat_source",
    "isColdSource": "cold_source",
}
#: Our property name -> AI2-THOR's metadata name, for people who know AI2-THOR's.
THOR_NAME: Mapping[str, str] = {
    **{ours: thor for thor, ours in METADATA_PROPERTIES.items()},
    "static": "static",
    "object_specific_receptacle": "ObjectSpecificReceptacle",
    "see_through": "CanSeeThrough",
}
#: The property an object needs before it can be in a state (facts.STATES names).
STATE_PROPERTY: Mapping[str, str] = {
    "open": "openable",
    "toggled": "toggleable",
    "dirty": "dirtyable",
    "filled": "fillable",
    "sliced": "sliceable",
    "cooked": "cookable",
    "used_up": "can_be_used_up",
    "broken": "breakable",
    "wet": "wettable",
    "hot": "temperature",
    "cold": "temperature",
}
#: What AI2-THOR's object-specific receptacles take (its documentation's table, for the types
#: the asset database holds; a toaster takes bread, which AI2-THOR slices first).
ACCEPTS: Mapping[str, tuple[str, ...]] = {
    "CoffeeMachine": ("Mug",),
    "Toaster": ("Bread",),
    "TowelHolder": ("Towel",),
    "HandTowelHolder": ("HandTowel",),
    "ToiletPaperHanger": ("ToiletPaper",),
}
#: AI2-THOR's primary properties: every type has exactly one (ties go to the first).
PRIMARY_PROPERTIES: tuple[str, ...] = ("pickupable", "moveable", "static")
#: Properties our simulator gives AI2-THOR types beyond AI2-THOR's own (a towel gets dirty).
#: A primary one replaces AI2-THOR's: a desk lamp, only moveable there, can be carried, as the
#: paper's Appendix E case 1 asks. ``logicenv types`` lists them as extensions.
_EXTRA: Mapping[str, tuple[str, ...]] = {
    "DeskLamp": ("pickupable",),
    "Towel": ("dirtyable", "wettable"),
    "HandTowel": ("dirtyable", "wettable"),
    "Cloth": ("cleaning_tool", "wettable"),
    "DishSponge": ("cleaning_tool", "wettable"),
    "ScrubBrush": ("cleaning_tool",),
    "PaperTowelRoll": ("cleaning_tool",),
    "SprayBottle": ("cleaning_tool",),
    # A counter that gets dirty, to be wiped: AI2-THOR's counters never do.
    "CounterTop": ("dirtyable",),
    # Our windows open (ProcTHOR's house format gives a window an openness).
    "Window": ("openable",),
}
#: The reviewed household extensions (issue 23): what real tasks ask of AI2-THOR's types. No
#: asset shows them, so the designer's choice of asset ignores them (assets.py), and a scene
#: designed before them keeps its assets.
HOUSEHOLD_PROPERTIES: Mapping[str, tuple[str, ...]] = {
    # Furniture gathers dust, to be wiped (a dry duster does: custom.py's Duster).
    **{
        name: ("dirtyable",)
        for name in (
            "CoffeeTable",
            "DiningTable",
            "SideTable",
            "Desk",
            "Dresser",
            "ShelvingUnit",
            "TVStand",
            "Bathtub",
        )
    },
    # Knives cut (AI2-THOR slices with any held knife; our Slice names the tool).
    "Knife": ("cutting_tool",),
    "ButterKnife": ("cutting_tool",),
    # A burner switches on, in step with the knob that controls it (parts.py's CONTROLS).
    "StoveBurner": ("toggleable",),
    # Things go on a folded towel; AI2-THOR's towels hold nothing.
    "Towel": ("receptacle",),
    # A basin's drain takes what is emptied into it (EmptyInto).
    "SinkBasin": ("drain",),
    "BathtubBasin": ("drain",),
    "Toilet": ("drain",),
    # Food has a temperature that heat and cold sources change (AI2-THOR's ObjectTemperature:
    # its scenes report the food in their fridges Cold); our food types say so themselves.
    **{name: ("temperature",) for name in ("Apple", "Bread", "Egg", "Lettuce", "Potato", "Tomato")},
}
EXTRA_PROPERTIES: Mapping[str, tuple[str, ...]] = {
    name: (*_EXTRA.get(name, ()), *HOUSEHOLD_PROPERTIES.get(name, ()))
    for name in (*_EXTRA, *(n for n in HOUSEHOLD_PROPERTIES if n not in _EXTRA))
}
#: Room types placement-annotations.json knows, by its column names.
ANNOTATED_ROOMS: Mapping[str, str] = {
    "inKitchens": "Kitchen",
    "inLivingRooms": "LivingRoom",
    "inBedrooms": "Bedroom",
    "inBathrooms": "Bathroom",
}
#: Where the AI2-THOR types ProcTHOR does not annotate usually are (ours to say): on the
#: ``floor`` or a ``wall``, and in which spots of a room (``corner``, ``edge``, ``middle``).
UNANNOTATED_PLACEMENT: Mapping[str, tuple[str, ...]] = {
    "Mirror": ("wall",),
    "Poster": ("wall",),
    "Curtains": ("wall",),
    "Bathtub": ("floor", "corner", "edge"),
    "ShowerDoor": ("floor", "edge"),
    "ShowerGlass": ("floor", "edge"),
}
#: Types that make up walls and openings rather than furniture.
STRUCTURAL_TYPES = frozenset({"Door", "Window", "Floor"})
#: ProcTHOR's asset types for door openings, and ours: its ``Doorway`` assets are doors
#: (a leaf that opens, in a hole of the wall), so they are our ``Door`` type; its
#: ``Doorframe`` assets (a frame with no leaf) are not used.
DOOR_ASSET_TYPES: Mapping[str, str | None] = {"Doorway": "Door", "Doorframe": None}
#: A door's attribute: the door to the outside (``front``) or one between rooms.
DOOR_ATTRS: Mapping[str, tuple[str, ...]] = {"kind": ("front", "interior")}
#: Receptacles things go *in* rather than *on*.
CONTAINER_TYPES = frozenset(
    {
        "Box",
        "Bowl",
        "Cup",
        "Mug",
        "Pot",
        "Pan",
        "Fridge",
        "Microwave",
        "Safe",
        "Sink",
        "GarbageCan",
        "LaundryHamper",
        "Toaster",
        "CoffeeMachine",
        "WashingMachine",
        "ClothesDryer",
        "ToyBox",
        "Cart",
        "SinkBasin",
        "BathtubBasin",
        "Bathtub",
        "Drawer",
        "Cabinet",
    }
)
