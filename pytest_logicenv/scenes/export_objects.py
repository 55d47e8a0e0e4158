"""The objects of an exported house: real AI2-THOR assets nested on what they rest on, with
every state AI2-THOR can be given, and a record of what stands in for what.

AI2-THOR's house format (``HouseObject`` in its ``ProceduralData.cs``) carries three states:
``openness``, ``isOn`` and ``isDirty``. The others AI2-THOR reaches by actions once the house is
loaded, so the house lists them under ``metadata.logicenv.stateActions``, in order, to replay
with ``controller.step(**action)`` (:data:`STATE_ACTIONS`): a full watering can and an empty
one no longer export alike. ``metadata.logicenv.states`` keeps every object's states as the
scene has them.

A type AI2-THOR lacks exports as its stand-in's asset (a mop as a plunger); each such
substitution is listed under ``metadata.logicenv.substitutions``. An object nothing can show (a
stain) is left out and listed under ``skipped``; what rested on it rests on its parent.

A part (a dresser's drawer) is no object of the house: AI2-THOR spawns it inside its whole's
asset, naming it after it (``<whole id>___<n>``). It is listed under ``metadata.logicenv.parts``
with its whole, the asset that holds it and its states; what rests in it is a child of the
whole. A part that is an asset of its own (a sink set into a counter, a faucet) is a child of
its whole; a part its whole's asset does not have (a burner of the counter that shows a stove)
is skipped, with the reason. Where the export chooses another asset than the scene's (a
counter's sink, a faucet by room: ``export_assets.py``) it is listed under ``assets``.

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> from pytest_logicenv.scenes.scene_model import SceneObject
>>> can = SceneObject("can", "WateringCan", "Watering_Can_1", states={"filled": True},
...                   properties=("pickupable", "fillable"))
>>> objects = house_objects([can], default_catalog())
>>> objects.state_actions
[{'action': 'FillObjectWithLiquid', 'objectId': 'can', 'fillLiquid': 'water'}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_logicenv.scenes.catalog import Asset, Catalog
from pytest_logicenv.scenes.export_assets import asset_note, export_asset, holder
from pytest_logicenv.scenes.scene_model import SceneObject
from pytest_logicenv.vocabulary import a_or_an

#: The action that puts an AI2-THOR object in a state its house format cannot carry.
STATE_ACTIONS: Mapping[str, Mapping[str, Any]] = {
    "filled": {"action": "FillObjectWithLiquid", "fillLiquid": "water"},
    "sliced": {"action": "SliceObject"},
    "cooked": {"action": "CookObject"},
    "used_up": {"action": "UseUpObject"},
    "broken": {"action": "BreakObject"},
}


@dataclass
class HouseObjects:
    """The house's ``objects`` and what ``metadata.logicenv`` says about them."""

    top: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    substitutions: list[dict[str, str]] = field(default_factory=list)
    parts: list[dict[str, Any]] = field(default_factory=list)
    state_actions: list[dict[str, Any]] = field(default_factory=list)
    states: dict[str, dict[str, bool]] = field(default_factory=dict)
    assets: list[dict[str, str]] = field(default_factory=list)


def house_objects(
    objects: Sequence[SceneObject], catalog: Catalog, room_types: Mapping[str, str] | None = None
) -> HouseObjects:
    """Objects nested as ``children`` of what they rest on; unexportable ones skipped.
    ``room_types`` gives each room id's type (a kitchen's faucet is a kitchen faucet)."""
    by_id = {obj.id: obj for obj in objects}
    rooms = room_types or {}
    result = HouseObjects()
    assets: dict[str, Asset] = {}
    for obj in objects:
        whole = by_id.get(obj.part_of or "")
        asset = export_asset(obj, whole, rooms.get(obj.room, ""), catalog)
        if asset is not None:
            assets[obj.id] = asset
            if asset.id != obj.asset_id:
                result.assets.append(asset_note(obj, asset, whole))
    exported: dict[str, dict[str, Any]] = {}
    for obj in objects:
        if obj.states:  # every object's, exported or not (a skipped stove knob that is on)
            result.states[obj.id] = dict(obj.states)
        asset = assets.get(obj.id)
        if asset is None:
            _not_an_object(obj, by_id, assets, catalog, result)
            continue
        set_in = obj.part_of is not None and not obj.asset_id  # a sink in its counter's top
        exported[obj.id] = _object(obj, asset, catalog, top_aligned=set_in)
        if asset.source_type != obj.type:
            result.substitutions.append(_substitution(obj, asset))
        result.state_actions += _state_actions(obj)
    for obj in objects:
        if obj.id not in exported:
            continue
        parent = obj.parent or obj.part_of
        while parent is not None and parent not in exported:  # a drawer's, a stain's contents
            parent = (by_id[parent].parent or by_id[parent].part_of) if parent in by_id else None
        if parent is None:
            result.top.append(exported[obj.id])
        else:
            exported[parent].setdefault("children", []).append(exported[obj.id])
    return result


def _not_an_object(
    obj: SceneObject,
    by_id: Mapping[str, SceneObject],
    assets: Mapping[str, Asset],
    catalog: Catalog,
    result: HouseObjects,
) -> None:
    """List ``obj``, which no asset of its own shows: as a part inside its whole's asset, or
    skipped with the reason."""
    if obj.part_of is None:
        result.skipped.append({"id": obj.id, "type": obj.type, "reason": _why_not(obj)})
        return
    inside, why = holder(obj, by_id, assets, catalog)
    if inside:
        result.parts.append(_part(obj, inside))
        return
    whole = by_id.get(obj.part_of)
    rests = f"; what rests on it rests on {whole.id}" if whole is not None else ""
    result.skipped.append(
        {"id": obj.id, "type": obj.type, "reason": f"a part of {obj.part_of}: {why}{rests}"}
    )


def _part(obj: SceneObject, inside: str) -> dict[str, Any]:
    """A part as ``metadata.logicenv.parts`` lists it: inside which asset AI2-THOR has it."""
    return {
        "id": obj.id,
        "type": obj.type,
        "partOf": obj.part_of,
        "inAsset": inside,
        "attrs": dict(obj.attrs),
        "states": dict(obj.states),
    }


def _why_not(obj: SceneObject) -> str:
    if obj.asset_id:
        return f"unknown asset {obj.asset_id!r}"
    return f"{obj.type} has no AI2-THOR asset"


def _substitution(obj: SceneObject, asset: Asset) -> dict[str, str]:
    shown_as = asset.source_type
    return {
        "id": obj.id,
        "type": obj.type,
        "exportedAs": shown_as,
        "assetId": asset.id,
        "reason": f"AI2-THOR has no {obj.type}; {a_or_an(shown_as)} stands in for it",
    }


def _state_actions(obj: SceneObject) -> list[dict[str, Any]]:
    """The actions that give ``obj`` the states the house format cannot carry."""
    return [
        {"action": STATE_ACTIONS[name]["action"], "objectId": obj.id}
        | {k: v for k, v in STATE_ACTIONS[name].items() if k != "action"}
        for name in STATE_ACTIONS
        if obj.states.get(name, False)
    ]


def _object(
    obj: SceneObject, asset: Asset, catalog: Catalog, *, top_aligned: bool = False
) -> dict[str, Any]:
    x, y, z = obj.position
    height = asset.size[1]
    # A stand-in may be taller or shorter than the object it shows: keep its bottom (a set-in
    # sink keeps its top, the counter's).
    centre = y + obj.size[1] / 2 - height / 2 if top_aligned else y - obj.size[1] / 2 + height / 2
    source = catalog.types.get(obj.type)
    kinematic = bool(source.kinematic) if source is not None else False
    data: dict[str, Any] = {
        "id": obj.id,
        "assetId": asset.id,
        "position": xyz(x, centre, z),
        "rotation": xyz(0, obj.rotation, 0),
        "kinematic": kinematic and not obj.has("pickupable"),
    }
    if obj.has("openable"):
        data["openness"] = 1.0 if obj.states.get("open", False) else 0.0
    elif "openable" in asset.properties:  # a stand-in that opens for one always open (a basket)
        data["openness"] = 1.0
    if obj.has("toggleable"):
        data["isOn"] = bool(obj.states.get("toggled", False))
    if obj.has("dirtyable"):
        data["isDirty"] = bool(obj.states.get("dirty", False))
    return data


def xyz(x: float, y: float, z: float) -> dict[str, float]:
    """A point as the house format writes it, to 0.1 mm, always as floats (a scene read back
    from JSON exports as the scene it was written from)."""
    return {"x": round(float(x), 4), "y": round(float(y), 4), "z": round(float(z), 4)}
