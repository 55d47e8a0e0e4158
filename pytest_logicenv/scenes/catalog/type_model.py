"""The catalog's data: assets, object types, and the :class:`Catalog` that looks them up.

>>> asset = Asset("Apple_1", "Apple", (0.1, 0.1, 0.1), ("pickupable",))
>>> apple = ObjectType("Apple", ("pickupable", "sliceable"), (asset,), rooms=("Kitchen",))
>>> catalog = Catalog({"Apple": apple})
>>> catalog.type("Apple").has("sliceable"), catalog.asset("Apple_1") is asset
(True, True)
>>> catalog.resolve("two green apples").type
'Apple'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog.parts import PartSpec
from pytest_logicenv.scenes.catalog.properties import STRUCTURAL_TYPES
from pytest_logicenv.scenes.scene_model import Vector
from pytest_logicenv.vocabulary import NOT_OBJECT_TYPES, SYNONYMS, Vocabulary, camel


@dataclass(frozen=True)
class Asset:
    """One AI2-THOR asset: ``size`` is its bounding box ``(x, y, z)`` in metres;
    ``source_type`` the AI2-THOR type it belongs to (a stand-in's own type); ``boxed``
    whether its footprint is that box (an L-shaped counter's is not)."""

    id: str
    source_type: str
    size: Vector
    properties: tuple[str, ...] = ()
    split: str | None = None
    boxed: bool = True


@dataclass(frozen=True)
class Placement:
    """Where in a room a type stands, as ProcTHOR's ``placement-annotations.json`` says
    (``None``: not annotated): against a wall (``edge``), in a ``corner``, in the ``middle``,
    and whether a room may hold several."""

    corner: bool | None = None
    edge: bool | None = None
    middle: bool | None = None
    multiple_per_room: bool | None = None

    @property
    def spots(self) -> tuple[str, ...]:
        """The annotated spots, in the order ``corner``, ``edge``, ``middle``."""
        return tuple(
            name
            for name, flag in (
                ("corner", self.corner),
                ("edge", self.edge),
                ("middle", self.middle),
            )
            if flag
        )


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
    #: The properties we add to AI2-THOR's (listed in ``properties`` too).
    extensions: tuple[str, ...] = ()
    #: The properties a user's type file adds to it (``catalog.extensions``).
    added: tuple[str, ...] = ()
    #: ProcTHOR's room weights (``placement-annotations.json``: 1 sometimes, 2 often).
    room_weights: Mapping[str, int] = field(default_factory=dict)
    #: The share of AI2-THOR's iTHOR scenes of each room type that hold one.
    frequencies: Mapping[str, float] = field(default_factory=dict)
    placement: Placement = field(default_factory=Placement)
    #: What it is made of (``parts.py``), and the types it can be a part of.
    parts: tuple[PartSpec, ...] = ()
    part_of: tuple[str, ...] = ()
    #: Whether its objects are always parts of another (a drawer, a faucet).
    part_only: bool = False
    #: Whether things go *in* it (a fridge) rather than *on* it (a table).
    holds_inside: bool = False
    #: Where ProcTHOR's asset groups stand it on the floor: ``anchor`` (a dining table, a
    #: floor house plant: the spots of :attr:`group_spots`), ``member`` (a chair: next to its
    #: group's anchor), or "" (no group stands it on the floor).
    floor_group: str = ""
    group_spots: tuple[str, ...] = ()
    #: What ProcTHOR's asset groups stand it on (a TV on its stand, pillows on a bed).
    group_supports: tuple[str, ...] = ()

    def has(self, prop: str) -> bool:
        return prop in self.properties

    @property
    def container(self) -> bool:
        """Whether things go *in* it (a fridge) rather than *on* it (a table)."""
        return self.holds_inside

    @property
    def exportable(self) -> bool:
        """Whether an AI2-THOR asset shows it in an exported house (its own or a stand-in's)."""
        return any(asset.id for asset in self.assets)

    def assets_for(self, attrs: Mapping[str, str]) -> tuple[Asset, ...]:
        """The assets that can show an object with ``attrs`` (a stand-in may depend on them)."""
        for name, by_value in self.stand_in_by.items():
            stand_in = by_value.get(attrs.get(name, ""))
            if stand_in is not None:
                return tuple(a for a in self.laid_assets if a.source_type == stand_in)
        if self.stand_in_by:
            return tuple(a for a in self.laid_assets if a.source_type == self.stand_in)
        return self.laid_assets

    @cached_property
    def laid_assets(self) -> tuple[Asset, ...]:
        """The assets a design may pick: those whose footprint is their box, if any is. The
        layout and the checker take every object as its box, and an L-shaped counter taken so
        would have drawers 2.7 m deep and cups standing over its missing corner."""
        return tuple(a for a in self.assets if a.boxed) or self.assets


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
    #: Everyday words for types (the synonym table, plus a type file's).
    synonyms: Mapping[str, str] = field(default_factory=lambda: dict(SYNONYMS))
    #: What each type is made of (``parts.py``'s table, plus a type file's).
    parts: Mapping[str, tuple[PartSpec, ...]] = field(default_factory=dict)

    @cached_property
    def _assets_by_id(self) -> dict[str, Asset]:
        found: dict[str, Asset] = {}
        for obj_type in self.types.values():
            if obj_type.custom:
                continue
            for asset in obj_type.assets:
                if asset.id:  # a type AI2-THOR has no asset for (a drawer) has an empty id
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
        """Types close to ``name``: what it means first, then similar spellings."""
        return self.vocabulary.suggestions(name)

    def unknown_type_message(self, name: str) -> str:
        if name in NOT_OBJECT_TYPES:
            return NOT_OBJECT_TYPES[name]
        close = self.suggestions(name)
        hint = f"; did you mean {', '.join(close)}?" if close else "."
        return (
            f"unknown object type {name!r}{hint} Types are AI2-THOR's (list them with "
            "'logicenv types') plus ours: "
            + ", ".join(n for n, t in self.types.items() if t.custom)
        )

    def asset(self, asset_id: str) -> Asset | None:
        """The AI2-THOR asset with this id, or ``None``."""
        return self._assets_by_id.get(asset_id)

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """The catalog's types and the words for them (the one synonym table, and a type
        file's)."""
        return Vocabulary(frozenset(self.types), self.synonyms, STRUCTURAL_TYPES)

    def resolve_or_none(self, description: str) -> Match | None:
        """Lexical retrieval: the type whose name or synonym best matches ``description``."""
        found = self.vocabulary.scored_meaning(description)
        if found is None:
            return None
        name, score = found
        obj_type = self.types[name]
        asset_id = obj_type.assets[0].id if obj_type.assets else ""
        return Match(name, asset_id, score, "lexical")

    def resolve(self, description: str) -> Match:
        """Map a description (``"laundry basket"``) to a type and a suggested asset, by names
        and synonyms (``catalog.clip.clip_retriever`` matches by CLIP text embeddings instead,
        when ``open_clip`` and a local model file are there)."""
        match = self.resolve_or_none(description)
        if match is None:
            close = self.suggestions(camel(description))
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
