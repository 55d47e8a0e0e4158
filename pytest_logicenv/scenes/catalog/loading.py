"""Loading the catalog from the databases the ``procthor`` package ships
(``procthor/databases/``), located without importing ``procthor.databases`` (which imports
pandas and ai2thor):

* ``asset-database.json``: 109 object types, 1,653 assets with bounding boxes and AI2-THOR's
  primary (``CanPickup``/``Moveable``/``Static``) and secondary properties (``Receptacle``,
  ``CanOpen``, ...), mapped to :data:`pytest_logicenv.scenes.model.PROPERTIES` names;
* ``placement-annotations.json``: which room types hold which types, and whether they stand
  on the floor or hang on a wall;
* ``receptacles.json``: what usually goes on or in what;
* ``wall-holes.json``: the openings that door and window assets cut into walls.

The custom types (``custom.py``) are added in the same form.

>>> default_catalog() is default_catalog()
True
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog.custom import CUSTOM_TYPES, CustomSpec
from pytest_logicenv.scenes.catalog.model import Asset, Catalog, ObjectType
from pytest_logicenv.scenes.catalog.properties import (
    ACCEPTS,
    ANNOTATED_ROOMS,
    EXTRA_PROPERTIES,
    PRIMARY_PROPERTIES,
    THOR_PROPERTIES,
)
from pytest_logicenv.scenes.model import PROPERTIES


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
