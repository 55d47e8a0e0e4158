"""The types our tasks need that AI2-THOR lacks, in the catalog's own form, flagged custom.

Each says its properties, where it usually is, its size, and the AI2-THOR asset that shows it
in an exported house (its stand-in), if one makes sense; the export records each stand-in.

>>> [spec.name for spec in CUSTOM_TYPES][:3]
['Toy', 'ToyBox', 'WetWipes']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pytest_logicenv.scenes.model import Vector


@dataclass(frozen=True)
class CustomSpec:
    """A type our tasks need that AI2-THOR lacks, in the catalog's own form.

    ``size`` is its bounding box; ``stand_in`` an AI2-THOR type whose assets export it (none
    for things AI2-THOR cannot show, like a stain); ``stand_in_by`` picks another stand-in by
    attribute value (``{"kind": {"other": "BasketBall"}}``); ``attrs`` the attribute values a
    plan may use (empty: any); ``parents`` where it usually rests, with a weight.
    """

    name: str
    properties: tuple[str, ...]
    rooms: tuple[str, ...]
    size: Vector
    stand_in: str | None = None
    stand_in_by: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    attrs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    states: Mapping[str, bool] = field(default_factory=dict)
    parents: Mapping[str, float] = field(default_factory=dict)
    on_floor: bool = True
    on_wall: bool = False
    description: str = ""


#: The types the six tasks in ``shared/tasks`` need beyond AI2-THOR's.
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
        ("pickupable", "fillable", "breakable"),
        ("Kitchen",),
        (0.1, 0.25, 0.1),
        stand_in="Bottle",
        states={"filled": True},
        parents={"Fridge": 1.0, "CounterTop": 0.3, "DiningTable": 0.2},
        on_floor=False,
        description="a bottle of milk, a liquid container (filled)",
    ),
    CustomSpec(
        "Shelf",
        ("static", "receptacle"),
        ("LivingRoom", "Bedroom", "Kitchen", "Study"),
        (0.25, 0.02, 0.3),
        attrs={"level": ("top", "middle", "bottom")},
        parents={"ShelvingUnit": 1.0},
        on_floor=False,
        description="one level of a shelving unit; attrs level=top|middle|bottom",
    ),
)
