"""Loading the catalog from AI2-THOR's and ProcTHOR's own data, which the ``procthor`` package
ships (``procthor/databases/``, located without importing ``procthor.databases``, which imports
pandas and ai2thor):

* AI2-THOR's object types as real iTHOR scenes report them (``ai2thor-object-metadata.json``,
  summarized in ``metadata.py``): 118 types with their properties and sizes, among them the
  parts and fixtures ProcTHOR has no asset for (Drawer, Cabinet, SinkBasin, StoveBurner,
  Mirror, ...);
* ``asset-database.json``: 1,653 assets of 109 types with bounding boxes and AI2-THOR's
  primary (``CanPickup``/``Moveable``/``Static``) and secondary properties (``Receptacle``,
  ``CanOpen``, ...);
* ``placement-annotations.json``: which room types hold which types (ProcTHOR's weights),
  whether they stand on the floor, hang on a wall, go in a corner, against a wall or in the
  middle, and whether a room may hold several;
* ``receptacles.json``: what usually goes on or in what;
* ``wall-holes.json``: the openings that door and window assets cut into walls;
* ``asset_groups/*.json``: the furniture ProcTHOR places together (chairs around a dining
  table, a faucet on a sink, a house plant standing in a corner) and where in a room.

A type's properties are those AI2-THOR gives most of its instances and most of its assets
(its primary property, which says whether it is carried, pushed or fixed, is the assets' when
it has any: they are what an exported house shows), plus our extensions
(:data:`~pytest_logicenv.scenes.catalog.properties.EXTRA_PROPERTIES`). The custom types
(``custom.py``) and the parts (``parts.py``) are added in the same form; :func:`extend_catalog`
adds a user's types (``user_types.py``).

>>> catalog = default_catalog()
>>> catalog is default_catalog(), catalog.type("Drawer").part_of[:2]
(True, ('CounterTop', 'Desk'))
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog.custom import CUSTOM_TYPES, CustomSpec
from pytest_logicenv.scenes.catalog.extensions import TypeExtension, with_extensions
from pytest_logicenv.scenes.catalog.household import HOUSEHOLD_TYPES
from pytest_logicenv.scenes.catalog.metadata import databases_dir, thor_types
from pytest_logicenv.scenes.catalog.parts import (
    PARTS,
    PartSpec,
    part_attrs,
    part_problems,
    part_types,
)
from pytest_logicenv.scenes.catalog.properties import (
    ACCEPTS,
    ANNOTATED_ROOMS,
    CONTAINER_TYPES,
    DOOR_ASSET_TYPES,
    DOOR_ATTRS,
    EXTRA_PROPERTIES,
    PRIMARY_PROPERTIES,
    THOR_PROPERTIES,
    UNANNOTATED_PLACEMENT,
)
from pytest_logicenv.scenes.catalog.type_model import Asset, Catalog, ObjectType, Placement
from pytest_logicenv.scenes.scene_model import PROPERTIES, Vector
from pytest_logicenv.vocabulary import SYNONYMS

#: A room counts among a type's usual rooms when ProcTHOR does not weight it but at least this
#: share of AI2-THOR's scenes of that room type hold one.
MIN_FREQUENCY = 0.2
#: A property is a type's when at least this share of its instances (or assets) have it.
MAJORITY = 0.5

Raw = Mapping[str, Any]


@dataclass(frozen=True)
class Databases:
    """The procthor databases the catalog reads, and AI2-THOR's type table."""

    assets: Mapping[str, list[Raw]]
    annotations: Mapping[str, Mapping[str, Any]]
    receptacles: Mapping[str, Mapping[str, Any]]
    wall_holes: Mapping[str, Mapping[str, Mapping[str, float]]]
    materials: Mapping[str, list[str]]
    metadata: Mapping[str, Raw]
    groups: tuple[Raw, ...] = ()


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise SceneError(f"{path}: cannot read the asset database ({error})") from None


def read_databases() -> Databases:
    folder = databases_dir()
    return Databases(
        assets=_read(folder / "asset-database.json"),
        annotations=_read(folder / "placement-annotations.json"),
        receptacles=_read(folder / "receptacles.json"),
        wall_holes=_read(folder / "wall-holes.json"),
        materials=_read(folder / "material-database.json"),
        metadata=thor_types(),
        groups=tuple(_read(path) for path in sorted((folder / "asset_groups").glob("*.json"))),
    )


@cache
def default_catalog() -> Catalog:
    """AI2-THOR's types, ours, the household pack and the parts, read once (cached)."""
    return build_catalog(read_databases(), (*CUSTOM_TYPES, *HOUSEHOLD_TYPES))


def build_catalog(db: Databases, custom: Iterable[CustomSpec]) -> Catalog:
    parents_of: dict[str, dict[str, float]] = {}
    for parent, children in db.receptacles.items():
        for child, stats in children.items():
            parents_of.setdefault(child, {})[parent] = float(stats.get("p", 0.0))
    names = sorted((set(db.assets) | set(db.metadata)) - {"Floor"})
    types: dict[str, ObjectType] = {}
    for name in names:
        if db.assets.get(name) or name in db.metadata:
            types[name] = _thor_type(name, db, parents_of.get(name, {}))
    for name, ours in DOOR_ASSET_TYPES.items():
        found = types.pop(name, None)
        if found is not None and ours is not None:
            types[ours] = dataclasses.replace(found, name=ours, attrs=DOOR_ATTRS)
    for name, (role, spots) in _floor_groups(db.groups).items():
        if name in types:
            types[name] = dataclasses.replace(types[name], floor_group=role, group_spots=spots)
    for name, supports in _group_supports(db.groups).items():
        if name in types:
            types[name] = dataclasses.replace(types[name], group_supports=supports)
    specs = list(custom)
    for spec in specs:
        types[spec.name] = _custom_type(spec, types)
    catalog = Catalog(
        types=types,
        wall_holes=db.wall_holes,
        floor_materials=tuple(db.materials.get("Wood", ())),
        wall_materials=tuple(db.materials.get("Wall", ())),
        # Our types' own words are reviewed too: they win over WordNet's.
        synonyms={**SYNONYMS, **{word: spec.name for spec in specs for word in spec.synonyms}},
    )
    return with_parts(catalog, PARTS)


def extend_catalog(
    catalog: Catalog,
    specs: Iterable[CustomSpec],
    synonyms: Mapping[str, str] | None = None,
    extensions: Iterable[TypeExtension] = (),
) -> Catalog:
    """``catalog`` with more custom types (a user's type file), their parts and synonyms,
    and what the file adds to types the catalog has (``extensions``)."""
    specs, extensions = list(specs), list(extensions)
    types = with_extensions(catalog.types, extensions)
    for spec in specs:
        types[spec.name] = _custom_type(spec, types)
    parts = dict(catalog.parts)
    parts.update({spec.name: spec.parts for spec in specs if spec.parts})
    words = {**catalog.synonyms, **(synonyms or {})}
    words.update({word: spec.name for spec in specs for word in spec.synonyms})
    words.update({word: ext.name for ext in extensions for word in ext.synonyms})
    extended = dataclasses.replace(catalog, types=types, synonyms=words)
    return with_parts(extended, parts)


def with_parts(catalog: Catalog, parts: Mapping[str, tuple[PartSpec, ...]]) -> Catalog:
    """Each type with the parts it is made of and the types it can be a part of; parts that
    lead back to their whole, or too many of them, are a :class:`SceneError` (completing
    such a design would never end)."""
    problems = part_problems(parts)
    if problems:
        name, why = next(iter(sorted(problems.items())))
        raise SceneError(f"the parts of {name}: {why}")
    always = part_types(parts)
    types = {
        name: dataclasses.replace(
            obj_type,
            parts=parts.get(name, ()),
            part_of=tuple(
                sorted(
                    parent for parent, specs in parts.items() if any(p.type == name for p in specs)
                )
            ),
            part_only=name in always,
            attrs={**part_attrs(name, parts), **obj_type.attrs},
            on_floor=obj_type.on_floor and name not in always,
        )
        for name, obj_type in catalog.types.items()
    }
    return dataclasses.replace(catalog, types=types, parts=dict(parts))


def _floor_groups(groups: Iterable[Raw]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Type -> (``anchor`` or ``member``, the spots of its groups) for what ProcTHOR's asset
    groups stand on the floor (not what they put on top: a TV on its stand, a faucet)."""
    found: dict[str, tuple[str, tuple[str, ...]]] = {}
    for group in groups:
        location = group.get("groupProperties", {}).get("location", {})
        spots = tuple(s for s in ("corner", "edge", "middle") if location.get(s))
        for member in group.get("assetMetadata", {}).values():
            if member.get("position", {}).get("verticalAlignment") == "above":
                continue
            role = "member" if member.get("parentInstanceId") is not None else "anchor"
            for name in member.get("assetIds", {}):
                before = found.get(name, (role, ()))
                merged = tuple(s for s in ("corner", "edge", "middle") if s in before[1] + spots)
                found[name] = ("anchor" if "anchor" in (role, before[0]) else "member", merged)
    return found


def _group_supports(groups: Iterable[Raw]) -> dict[str, tuple[str, ...]]:
    """Type -> the types ProcTHOR's asset groups put it on (``verticalAlignment`` above)."""
    found: dict[str, set[str]] = {}
    for group in groups:
        members = group.get("assetMetadata", {})
        for member in members.values():
            parent = members.get(str(member.get("parentInstanceId")))
            if parent is None or member.get("position", {}).get("verticalAlignment") != "above":
                continue
            for name in member.get("assetIds", {}):
                found.setdefault(name, set()).update(parent.get("assetIds", {}))
    return {name: tuple(sorted(supports)) for name, supports in found.items()}


# --------------------------------------------------------------------------- AI2-THOR types


def _thor_type(name: str, db: Databases, parents: Mapping[str, float]) -> ObjectType:
    meta = db.metadata.get(name, {})
    assets = _assets(name, db.assets.get(name, ()), meta)
    props, extensions = _thor_properties(name, assets, meta, name in db.receptacles)
    annotated = {column: values.get(name) for column, values in db.annotations.items()}
    placement, on_floor, on_wall = _placement(name, annotated)
    if on_wall:
        props.add("wall_mounted")
    weights = {
        room: int(annotated[column] or 0)
        for column, room in ANNOTATED_ROOMS.items()
        if annotated.get(column)
    }
    frequencies: Mapping[str, float] = meta.get("rooms", {})
    return ObjectType(
        name=name,
        properties=_ordered(props),
        assets=assets,
        rooms=_usual_rooms(weights, frequencies),
        on_floor=on_floor,
        on_wall=on_wall,
        kinematic=bool(annotated.get("isKinematic")),
        parents=parents,
        accepts=ACCEPTS.get(name, ()),
        extensions=_ordered(extensions),
        room_weights=weights,
        frequencies=dict(frequencies),
        placement=placement,
        holds_inside=name in CONTAINER_TYPES,
    )


def _assets(name: str, raw_assets: Iterable[Raw], meta: Raw) -> tuple[Asset, ...]:
    """The type's assets; a type ProcTHOR has none for gets one without an id, as big as
    AI2-THOR's instances of it are (the median)."""
    assets = tuple(
        Asset(
            id=str(raw["assetId"]),
            source_type=name,
            size=_vector(raw["boundingBox"]),
            properties=_asset_properties(raw),
            split=raw.get("split"),
            boxed=boxed(str(raw["assetId"])),
        )
        for raw in raw_assets
    )
    if assets:
        return assets
    size = tuple(float(v) for v in meta.get("size", (0.3, 0.3, 0.3)))
    return (Asset("", name, (size[0], size[1], size[2])),)


#: ProcTHOR names its counters by their shape (``Countertop_L_4x10``, ``Countertop_I_4x2``):
#: L- and C-shaped ones fill only part of their bounding box, the one geometry its database gives.
_UNBOXED = re.compile(r"^Countertop_[LC]_")


def boxed(asset_id: str) -> bool:
    """Whether an asset's footprint is its bounding box, as the layout and the checker take it.

    >>> boxed("Countertop_I_4x2"), boxed("Countertop_L_4x10")
    (True, False)
    """
    return _UNBOXED.match(asset_id) is None


def _vector(box: Raw) -> Vector:
    return float(box["x"]), float(box["y"]), float(box["z"])


def _asset_properties(raw: Raw) -> tuple[str, ...]:
    names = [raw.get("primaryProperty") or "", *(raw.get("secondaryProperties") or ())]
    return tuple(THOR_PROPERTIES[n] for n in names if n in THOR_PROPERTIES)


def _thor_properties(
    name: str, assets: tuple[Asset, ...], meta: Raw, is_parent: bool
) -> tuple[set[str], set[str]]:
    """(properties, those of them we add): what most instances and most assets have, with
    one primary property."""
    real = [a for a in assets if a.id]
    counts: dict[str, int] = {}
    for asset in real:
        for prop in asset.properties:
            counts[prop] = counts.get(prop, 0) + 1
    props = {p for p, n in counts.items() if n > MAJORITY * len(real)}
    shares: Mapping[str, float] = meta.get("properties", {})
    props |= {p for p, share in shares.items() if share >= MAJORITY}
    props.difference_update(PRIMARY_PROPERTIES)
    props.add(_primary(counts, shares))
    if is_parent:  # receptacles.json puts things on or in it: it is a receptacle
        props.add("receptacle")
    if name in ACCEPTS:
        props.add("object_specific_receptacle")
    extra = set(EXTRA_PROPERTIES.get(name, ()))
    if extra & set(PRIMARY_PROPERTIES):
        props.difference_update(PRIMARY_PROPERTIES)
    extensions = extra - props
    return props | extra, extensions


def _primary(asset_counts: Mapping[str, int], shares: Mapping[str, float]) -> str:
    """The assets' most common primary property; without assets, AI2-THOR's instances'."""
    primaries = [p for p in PRIMARY_PROPERTIES if asset_counts.get(p)]
    if primaries:
        return max(primaries, key=lambda p: asset_counts[p])
    for prop in ("pickupable", "moveable"):
        if shares.get(prop, 0.0) >= MAJORITY:
            return prop
    return "static"


def _placement(name: str, annotated: Mapping[str, Any]) -> tuple[Placement, bool, bool]:
    """(Placement, on the floor, on a wall) as ProcTHOR annotates the type, or as
    :data:`UNANNOTATED_PLACEMENT` says for those it does not."""
    if name in UNANNOTATED_PLACEMENT:
        spots = UNANNOTATED_PLACEMENT[name]
        placement = Placement(*(True if s in spots else None for s in ("corner", "edge", "middle")))
        return placement, "floor" in spots, "wall" in spots

    def flag(column: str) -> bool | None:
        value = annotated.get(column)
        return None if value is None else bool(value)

    placement = Placement(
        corner=flag("inCorner"),
        edge=flag("onEdge"),
        middle=flag("inMiddle"),
        multiple_per_room=flag("multiplePerRoom"),
    )
    return placement, bool(annotated.get("onFloor")), bool(annotated.get("onWall"))


def _usual_rooms(weights: Mapping[str, int], frequencies: Mapping[str, float]) -> tuple[str, ...]:
    """The rooms ProcTHOR weights; for a type it weights nowhere (it places sinks, TVs and
    paintings by other means), those where AI2-THOR's scenes often hold one."""
    order = list(ANNOTATED_ROOMS.values())
    if weights:
        return tuple(room for room in order if room in weights)
    return tuple(room for room in order if frequencies.get(room, 0.0) >= MIN_FREQUENCY)


def _ordered(props: Iterable[str]) -> tuple[str, ...]:
    wanted = set(props)
    return tuple(p for p in PROPERTIES if p in wanted)


# --------------------------------------------------------------------------- custom types


def _custom_type(spec: CustomSpec, types: Mapping[str, ObjectType]) -> ObjectType:
    stand_ins = [spec.stand_in] if spec.stand_in else []
    stand_ins += [t for by in spec.stand_in_by.values() for t in by.values()]
    assets: list[Asset] = []
    for stand_in in stand_ins:
        # The stand-in exports the object; our size keeps the scene's geometry.
        assets += [
            Asset(a.id, stand_in, spec.size, spec.properties, a.split)
            for a in types[stand_in].assets
            if a.id and (not spec.stand_in_assets or a.id in spec.stand_in_assets)
        ]
    if not assets:
        assets = [Asset("", spec.name, spec.size, spec.properties)]
    extra = set(EXTRA_PROPERTIES.get(spec.name, ()))
    props = set(spec.properties) | extra | ({"wall_mounted"} if spec.on_wall else set())
    spots = set(spec.placement)
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
        extensions=_ordered(extra - set(spec.properties)),
        placement=Placement(
            *(True if s in spots else None for s in ("corner", "edge", "middle")),
        ),
        holds_inside=spec.container or spec.name in CONTAINER_TYPES,
    )
