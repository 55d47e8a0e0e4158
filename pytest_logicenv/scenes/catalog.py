"""The object catalog: AI2-THOR's types and assets, plus the few types our tasks add.

One module is the single source of truth for what objects exist, how big they are, what they
can do and where they usually stand. It reads the databases that the ``procthor`` package
ships (``procthor/databases/``), located without importing ``procthor.databases`` (which
imports pandas and ai2thor):

* ``asset-database.json``: 109 object types, 1,653 assets with bounding boxes and AI2-THOR's
  primary (``CanPickup``/``Moveable``/``Static``) and secondary properties (``Receptacle``,
  ``CanOpen``, ...), mapped here to :data:`pytest_logicenv.scenes.model.PROPERTIES` names;
* ``placement-annotations.json``: which room types hold which types, and whether they stand
  on the floor or hang on a wall;
* ``receptacles.json``: what usually goes on or in what;
* ``wall-holes.json``: the openings that door and window assets cut into walls.

Types a task needs that AI2-THOR lacks (a toy box, wet wipes, a stain) are added in the same
form, flagged ``custom``, with a stand-in AI2-THOR asset for export where one makes sense.

>>> catalog = default_catalog()
>>> catalog.type("Sofa").has("receptacle"), catalog.type("Apple").has("pickupable")
(True, True)
>>> catalog.resolve("a wooden tea table").type
'CoffeeTable'
>>> catalog.type("ToyBox").custom
True
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.model import PROPERTIES, Vector

#: AI2-THOR property names, mapped to ours.
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
#: Properties our simulator gives AI2-THOR types beyond AI2-THOR's own (a towel gets dirty). A
#: primary one replaces AI2-THOR's: a desk lamp, only moveable there, can be carried, as the
#: paper's Appendix E case 1 asks.
EXTRA_PROPERTIES: Mapping[str, tuple[str, ...]] = {
    "DeskLamp": ("pickupable",),
    "Towel": ("dirtyable",),
    "HandTowel": ("dirtyable",),
    "Cloth": ("cleaning_tool",),
    "DishSponge": ("cleaning_tool",),
    "ScrubBrush": ("cleaning_tool",),
    "PaperTowelRoll": ("cleaning_tool",),
    "SprayBottle": ("cleaning_tool",),
}
#: Room types placement-annotations.json knows, by its column names.
ANNOTATED_ROOMS: Mapping[str, str] = {
    "inKitchens": "Kitchen",
    "inLivingRooms": "LivingRoom",
    "inBedrooms": "Bedroom",
    "inBathrooms": "Bathroom",
}
#: Types that make up walls and openings rather than furniture.
STRUCTURAL_TYPES = frozenset({"Doorway", "Doorframe", "Window"})
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
    }
)

# Words that name a type in everyday speech (lower case, singular) -> type. Lexical retrieval
# also matches every type's own name split into words ("coffee table").
SYNONYMS: Mapping[str, str] = {
    "tea table": "CoffeeTable",
    "coffee table": "CoffeeTable",
    "table": "DiningTable",
    "kitchen table": "DiningTable",
    "couch": "Sofa",
    "settee": "Sofa",
    "armchair": "ArmChair",
    "laundry basket": "LaundryHamper",
    "laundry bin": "LaundryHamper",
    "hamper": "LaundryHamper",
    "bookshelf": "ShelvingUnit",
    "bookcase": "ShelvingUnit",
    "shelves": "ShelvingUnit",
    "shelving": "ShelvingUnit",
    "clock": "AlarmClock",
    "alarm": "AlarmClock",
    "light": "LightSwitch",
    "light switch": "LightSwitch",
    "switch": "LightSwitch",
    "lamp": "FloorLamp",
    "reading lamp": "DeskLamp",
    "tv": "Television",
    "television": "Television",
    "tv stand": "TVStand",
    "trash can": "GarbageCan",
    "bin": "GarbageCan",
    "dustbin": "GarbageCan",
    "waste basket": "GarbageCan",
    "fridge": "Fridge",
    "refrigerator": "Fridge",
    "counter": "CounterTop",
    "worktop": "CounterTop",
    "nightstand": "SideTable",
    "bedside table": "SideTable",
    "end table": "SideTable",
    "cushion": "Pillow",
    "sofa pillow": "Pillow",
    "phone": "CellPhone",
    "mobile": "CellPhone",
    "remote": "RemoteControl",
    "cup of coffee": "Mug",
    "coffee mug": "Mug",
    "glass": "Cup",
    "frying pan": "Pan",
    "saucepan": "Pot",
    "plant": "HousePlant",
    "picture": "Painting",
    "towel rack": "TowelHolder",
    "towel rail": "TowelHolder",
    "bath towel": "Towel",
    "toilet roll": "ToiletPaper",
    "soap": "SoapBar",
    "computer": "Laptop",
    "notebook": "Laptop",
    "coffee maker": "CoffeeMachine",
    "washer": "WashingMachine",
    "dryer": "ClothesDryer",
    "rag": "Cloth",
    "sponge": "DishSponge",
    "teddy": "Toy",
    "teddy bear": "TeddyBear",
    "doll": "Toy",
    "toy": "Toy",
    "toy box": "ToyBox",
    "toybox": "ToyBox",
    "toy chest": "ToyBox",
    "wet wipe": "WetWipes",
    "wet wipes": "WetWipes",
    "wipes": "WetWipes",
    "wipe": "WetWipes",
    "mop": "Mop",
    "wet mop": "Mop",
    "stain": "Stain",
    "mark": "Stain",
    "dirty mark": "Stain",
    "spill": "Stain",
    "milk": "Milk",
    "carton of milk": "Milk",
    "shelf": "Shelf",
    "shelf level": "Shelf",
    "fruit bowl": "Bowl",
    "loaf": "Bread",
    "novel": "Book",
    "essay": "Book",
}


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


@dataclass(frozen=True)
class Asset:
    """One AI2-THOR asset: ``size`` is its bounding box ``(x, y, z)`` in metres;
    ``source_type`` the AI2-THOR type it belongs to (a stand-in's own type)."""

    id: str
    source_type: str
    size: Vector
    properties: tuple[str, ...] = ()
    split: str | None = None


@dataclass(frozen=True)
class ObjectType:
    """One object type with what the designer, the layout and the simulator need."""

    name: str
    properties: tuple[str, ...]
    assets: tuple[Asset, ...]
    rooms: tuple[str, ...] = ()
    on_floor: bool = True
    on_wall: bool = False
    kinematic: bool = False
    #: Parent types it usually rests on or in, with a weight (``receptacles.json``).
    parents: Mapping[str, float] = field(default_factory=dict)
    accepts: tuple[str, ...] = ()
    attrs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    states: Mapping[str, bool] = field(default_factory=dict)
    custom: bool = False
    stand_in: str | None = None
    stand_in_by: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    description: str = ""

    def has(self, prop: str) -> bool:
        return prop in self.properties

    @property
    def container(self) -> bool:
        """Whether things go *in* it (a fridge) rather than *on* it (a table)."""
        return self.name in CONTAINER_TYPES

    def assets_for(self, attrs: Mapping[str, str]) -> tuple[Asset, ...]:
        """The assets that can show an object with ``attrs`` (a stand-in may depend on them)."""
        for name, by_value in self.stand_in_by.items():
            stand_in = by_value.get(attrs.get(name, ""))
            if stand_in is not None:
                return tuple(a for a in self.assets if a.source_type == stand_in)
        if self.stand_in_by:
            return tuple(a for a in self.assets if a.source_type == self.stand_in)
        return self.assets


@dataclass(frozen=True)
class Match:
    """What a description resolved to: a type, a suggested asset, and how."""

    type: str
    asset_id: str
    score: float
    via: str


@dataclass(frozen=True)
class Catalog:
    """Every known object type by name; built by :func:`default_catalog`."""

    types: Mapping[str, ObjectType]
    wall_holes: Mapping[str, Mapping[str, Mapping[str, float]]] = field(default_factory=dict)
    #: AI2-THOR material names for floors and walls (``material-database.json``).
    floor_materials: tuple[str, ...] = ()
    wall_materials: tuple[str, ...] = ()

    @cached_property
    def _assets_by_id(self) -> dict[str, Asset]:
        found: dict[str, Asset] = {}
        for obj_type in self.types.values():
            if obj_type.custom:
                continue
            for asset in obj_type.assets:
                found.setdefault(asset.id, asset)
        return found

    def has(self, name: str) -> bool:
        return name in self.types

    def type(self, name: str) -> ObjectType:
        """The type called ``name``; a :class:`SceneError` names it and close matches."""
        try:
            return self.types[name]
        except KeyError:
            raise SceneError(self.unknown_type_message(name)) from None

    def suggestions(self, name: str) -> list[str]:
        """Types close to ``name``: its lexical reading first, then similar spellings."""
        close = difflib.get_close_matches(name, list(self.types), n=4, cutoff=0.5)
        guess = self.resolve_or_none(_words_of(name))
        if guess is not None:
            close = [guess.type, *(c for c in close if c != guess.type)]
        return close

    def unknown_type_message(self, name: str) -> str:
        close = self.suggestions(name)
        hint = f"; did you mean {', '.join(close)}?" if close else "."
        return (
            f"unknown object type {name!r}{hint} Types are AI2-THOR's (list them with "
            "'python -m pytest_logicenv.scenes.catalog') plus ours: "
            + ", ".join(spec.name for spec in CUSTOM_TYPES)
        )

    def asset(self, asset_id: str) -> Asset | None:
        """The AI2-THOR asset with this id, or ``None``."""
        return self._assets_by_id.get(asset_id)

    @cached_property
    def _phrases(self) -> dict[tuple[str, ...], str]:
        phrases: dict[tuple[str, ...], str] = {}
        for name in self.types:
            if name not in STRUCTURAL_TYPES:
                phrases[tuple(_words_of(name).split())] = name
        for phrase, name in SYNONYMS.items():
            if name in self.types:
                phrases[tuple(phrase.split())] = name
        return phrases

    def resolve_or_none(self, description: str) -> Match | None:
        """Lexical retrieval: the type whose name or synonym best matches ``description``."""
        words = [_singular(w) for w in re.findall(r"[a-z0-9]+", _words_of(description))]
        best: tuple[float, str] | None = None
        for phrase, name in self._phrases.items():
            n = len(phrase)
            for start in range(len(words) - n + 1):
                if tuple(words[start : start + n]) != phrase:
                    continue
                # Longer phrases win; among equals, the one nearer the end (the head noun:
                # "sofa pillow" is a pillow).
                score = n + (start + n) / (len(words) + 1) * 0.5
                if best is None or score > best[0]:
                    best = (score, name)
        if best is None:
            return None
        obj_type = self.types[best[1]]
        asset_id = obj_type.assets[0].id if obj_type.assets else ""
        return Match(best[1], asset_id, best[0], "lexical")

    def resolve(self, description: str, backend: str = "lexical") -> Match:
        """Map a description (``"laundry basket"``) to a type and a suggested asset.

        ``backend`` is ``"lexical"`` (names and synonyms; the default) or ``"clip"`` (CLIP
        text embeddings; needs ``open_clip`` and a local model file, see
        :func:`clip_unavailable_reason`).
        """
        if backend == "clip":
            return _clip_retriever(self).resolve(description)
        if backend != "lexical":
            raise SceneError(f"unknown retrieval backend {backend!r}; use 'lexical' or 'clip'")
        match = self.resolve_or_none(description)
        if match is None:
            close = self.suggestions(_camel(description))
            hint = f"; close types: {', '.join(close)}" if close else ""
            raise SceneError(
                f"no object type matches {description!r}{hint}. Name the object with an "
                "AI2-THOR type or a common synonym (logicenv types lists them)"
            )
        return match

    def wall_hole(self, asset_id: str) -> tuple[float, float, Vector]:
        """``(width, height, offset)`` of the opening a door or window asset cuts."""
        hole = self.wall_holes.get(asset_id.replace("Doorframe", "Doorway"))
        if hole is None:
            asset = self.asset(asset_id)
            if asset is None:
                raise SceneError(f"unknown door or window asset {asset_id!r}")
            return asset.size[0], asset.size[1], (0.0, 0.0, 0.0)
        top, offset = hole["max"], hole["offset"]
        return (
            float(top["x"]),
            float(top["y"]),
            (float(offset["x"]), float(offset["y"]), float(offset["z"])),
        )


# --------------------------------------------------------------------------- loading


def databases_dir() -> Path:
    """The ``procthor/databases`` folder, found without importing ``procthor``."""
    spec = importlib.util.find_spec("procthor")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = Path(location) / "databases"
        if (path / "asset-database.json").is_file():
            return path
    raise SceneError(
        "the procthor package's databases were not found; install it with "
        "'pip install procthor==0.0.1.dev2' (a dependency of pytest-logicenv)"
    )


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise SceneError(f"{path}: cannot read the asset database ({error})") from None


def _majority(counts: Mapping[str, int], total: int) -> tuple[str, ...]:
    return tuple(name for name, count in counts.items() if count * 2 > total)


def _asset_properties(raw: Mapping[str, Any]) -> tuple[str, ...]:
    names = [raw.get("primaryProperty") or "", *(raw.get("secondaryProperties") or ())]
    return tuple(THOR_PROPERTIES[n] for n in names if n in THOR_PROPERTIES)


def _ordered(props: Iterable[str]) -> tuple[str, ...]:
    wanted = set(props)
    return tuple(p for p in PROPERTIES if p in wanted)


def _thor_type(
    name: str,
    raw_assets: list[Mapping[str, Any]],
    annotations: Mapping[str, Mapping[str, Any]],
    parents: Mapping[str, float],
    is_parent: bool,
) -> ObjectType:
    assets = tuple(
        Asset(
            id=str(raw["assetId"]),
            source_type=name,
            size=(
                float(raw["boundingBox"]["x"]),
                float(raw["boundingBox"]["y"]),
                float(raw["boundingBox"]["z"]),
            ),
            properties=_asset_properties(raw),
            split=raw.get("split"),
        )
        for raw in raw_assets
    )
    counts: dict[str, int] = {}
    for asset in assets:
        for prop in asset.properties:
            counts[prop] = counts.get(prop, 0) + 1
    props = set(_majority(counts, len(assets)))
    primary = [p for p in PRIMARY_PROPERTIES if p in counts]
    if not props.intersection(PRIMARY_PROPERTIES) and primary:
        props.add(max(primary, key=lambda p: counts[p]))
    if is_parent:  # receptacles.json puts things on or in it: it is a receptacle
        props.add("receptacle")
    if name in ACCEPTS:
        props.add("object_specific_receptacle")
    extra = set(EXTRA_PROPERTIES.get(name, ()))
    if extra.intersection(PRIMARY_PROPERTIES):
        props.difference_update(PRIMARY_PROPERTIES)
    props.update(extra)

    def flag(column: str) -> bool:
        return bool(annotations.get(column, {}).get(name))

    if flag("onWall"):
        props.add("wall_mounted")
    rooms = tuple(room for column, room in ANNOTATED_ROOMS.items() if annotations[column].get(name))
    return ObjectType(
        name=name,
        properties=_ordered(props),
        assets=assets,
        rooms=rooms,
        on_floor=flag("onFloor"),
        on_wall=flag("onWall"),
        kinematic=flag("isKinematic"),
        parents=parents,
        accepts=ACCEPTS.get(name, ()),
    )


def _custom_type(spec: CustomSpec, types: Mapping[str, ObjectType]) -> ObjectType:
    stand_ins = [spec.stand_in] if spec.stand_in else []
    stand_ins += [t for by in spec.stand_in_by.values() for t in by.values()]
    assets: list[Asset] = []
    for stand_in in stand_ins:
        # The stand-in exports the object; our size keeps the scene's geometry.
        assets += [
            Asset(a.id, stand_in, spec.size, spec.properties, a.split)
            for a in types[stand_in].assets
        ]
    if not assets:
        assets = [Asset("", spec.name, spec.size, spec.properties)]
    props = set(spec.properties) | ({"wall_mounted"} if spec.on_wall else set())
    return ObjectType(
        name=spec.name,
        properties=_ordered(props),
        assets=tuple(assets),
        rooms=spec.rooms,
        on_floor=spec.on_floor,
        on_wall=spec.on_wall,
        kinematic=False,
        parents=spec.parents,
        attrs=spec.attrs,
        states=spec.states,
        custom=True,
        stand_in=spec.stand_in,
        stand_in_by=spec.stand_in_by,
        description=spec.description,
    )


@cache
def default_catalog() -> Catalog:
    """Read the procthor databases once (cached) and add :data:`CUSTOM_TYPES`."""
    folder = databases_dir()
    database = _read(folder / "asset-database.json")
    annotations = _read(folder / "placement-annotations.json")
    receptacles = _read(folder / "receptacles.json")
    wall_holes = _read(folder / "wall-holes.json")
    materials = _read(folder / "material-database.json")
    parents_of: dict[str, dict[str, float]] = {}
    for parent, children in receptacles.items():
        for child, stats in children.items():
            parents_of.setdefault(child, {})[parent] = float(stats.get("p", 0.0))
    types: dict[str, ObjectType] = {
        name: _thor_type(
            name, raw_assets, annotations, parents_of.get(name, {}), name in receptacles
        )
        for name, raw_assets in database.items()
        if raw_assets
    }
    for spec in CUSTOM_TYPES:
        types[spec.name] = _custom_type(spec, types)
    return Catalog(
        types=types,
        wall_holes=wall_holes,
        floor_materials=tuple(materials.get("Wood", ())),
        wall_materials=tuple(materials.get("Wall", ())),
    )


# --------------------------------------------------------------------------- words


def _words_of(name: str) -> str:
    """``"CoffeeTable"`` -> ``"coffee table"``; plain text is lower-cased."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return re.sub(r"[_\-]+", " ", spaced).lower().strip()


def _camel(text: str) -> str:
    return "".join(w.capitalize() for w in re.findall(r"[a-zA-Z0-9]+", text))


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


# --------------------------------------------------------------------------- CLIP


#: Environment variables that configure the optional CLIP backend.
CLIP_MODEL_ENV = "LOGICENV_CLIP_MODEL"
CLIP_ARCH_ENV = "LOGICENV_CLIP_ARCH"


def clip_unavailable_reason() -> str | None:
    """Why the CLIP backend cannot run here, or ``None`` when it can. It never downloads
    weights: ``$LOGICENV_CLIP_MODEL`` must name a local checkpoint file."""
    if importlib.util.find_spec("open_clip") is None:
        return "open_clip is not installed (pip install 'pytest-logicenv[clip]')"
    path = os.environ.get(CLIP_MODEL_ENV, "")
    if not path:
        return f"no local CLIP model configured (set ${CLIP_MODEL_ENV} to a checkpoint file)"
    if not Path(path).is_file():
        return f"${CLIP_MODEL_ENV}={path} is not a file"
    return None


class _ClipRetriever:
    """Matches descriptions to type names by CLIP text-embedding similarity."""

    def __init__(self, catalog: Catalog, model_path: str, arch: str) -> None:
        import open_clip
        import torch

        self._torch = torch
        model = open_clip.create_model(arch, pretrained=model_path)
        model.eval()
        self._model = model
        self._tokenizer = open_clip.get_tokenizer(arch)
        self._catalog = catalog
        self._names = [n for n in catalog.types if n not in STRUCTURAL_TYPES]
        self._types = self._embed([f"a photo of a {_words_of(n)}" for n in self._names])

    def _embed(self, texts: list[str]) -> Any:
        with self._torch.no_grad():
            features = self._model.encode_text(self._tokenizer(texts))
        return features / features.norm(dim=-1, keepdim=True)

    def resolve(self, description: str) -> Match:
        query = self._embed([f"a photo of {description}"])
        scores = (query @ self._types.T)[0]
        best = int(scores.argmax())
        name = self._names[best]
        assets = self._catalog.types[name].assets
        return Match(name, assets[0].id if assets else "", float(scores[best]), "clip")


_CLIP_RETRIEVERS: dict[tuple[int, str, str], _ClipRetriever] = {}


def _clip_retriever(catalog: Catalog) -> _ClipRetriever:
    reason = clip_unavailable_reason()
    if reason is not None:
        raise SceneError(f"the CLIP retrieval backend is unavailable: {reason}")
    key = (id(catalog), os.environ[CLIP_MODEL_ENV], os.environ.get(CLIP_ARCH_ENV, "ViT-B-32"))
    if key not in _CLIP_RETRIEVERS:
        _CLIP_RETRIEVERS[key] = _ClipRetriever(catalog, key[1], key[2])
    return _CLIP_RETRIEVERS[key]


def main() -> None:  # pragma: no cover - a listing for people
    """Print every type with its properties and rooms."""
    catalog = default_catalog()
    for name, obj_type in sorted(catalog.types.items()):
        flag = " (custom)" if obj_type.custom else ""
        print(f"{name}{flag}: {', '.join(obj_type.properties)}; rooms: {', '.join(obj_type.rooms)}")


if __name__ == "__main__":  # pragma: no cover
    main()
