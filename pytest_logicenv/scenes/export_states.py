"""What an exported house gives AI2-THOR of a scene's states, and what it cannot keep.

AI2-THOR gets a state from a house in three ways only: an object's ``openness``, ``isOn`` and
``isDirty`` (its ``HouseObject``), a door's or window's ``openness`` when it is ``openable``,
and the actions ``metadata.logicenv.stateActions`` lists, replayed after loading. Each works only
where the asset can show the state (a Dresser standing in for a wardrobe does not open; a
window asset does not open; a counter does not get dirty), and a part that AI2-THOR spawns
inside its whole's asset (a drawer) takes the asset's own state, never the house's.
:func:`house_states` reads back what a house gives, as AI2-THOR would have it;
:func:`lost_states` compares that with the scene, state by state: each state of the scene that
does not come back, with the reason, which the export lists as ``metadata.logicenv.lost``. A
state the house does not set is AI2-THOR's default, false (closed, off, clean, empty, whole).

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> house = {"objects": [{"id": "box", "assetId": "Dresser_220_1", "openness": 1.0}],
...          "doors": [], "windows": [], "metadata": {"logicenv": {}}}
>>> house_states(house, default_catalog())
{'box': {}}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pytest_logicenv.scenes.catalog import Catalog
from pytest_logicenv.scenes.export_objects import STATE_ACTIONS
from pytest_logicenv.scenes.scene_model import Door, Scene, SceneObject, Window
from pytest_logicenv.vocabulary import a_or_an

#: The ``HouseObject`` fields that carry a state, and the asset property each needs.
FIELDS: Mapping[str, tuple[str, str]] = {
    "openness": ("open", "openable"),
    "isOn": ("toggled", "toggleable"),
    "isDirty": ("dirty", "dirtyable"),
}
#: The asset property AI2-THOR needs to run each state action on an object.
ACTION_NEEDS: Mapping[str, str] = {
    "filled": "fillable",
    "sliced": "sliceable",
    "cooked": "cookable",
    "used_up": "can_be_used_up",
    "broken": "breakable",
}
_BY_ACTION = {spec["action"]: name for name, spec in STATE_ACTIONS.items()}

States = dict[str, dict[str, bool]]


def house_states(house: Mapping[str, Any], catalog: Catalog) -> States:
    """Every exported object's, door's and window's states as AI2-THOR would have them after
    loading ``house`` and replaying its state actions (only what the house sets)."""
    found: States = {}
    properties: dict[str, tuple[str, ...]] = {}
    for obj in _walk(house.get("objects", [])):
        asset = catalog.asset(str(obj.get("assetId", "")))
        properties[obj["id"]] = asset.properties if asset is not None else ()
        found[obj["id"]] = {
            state: bool(obj[key])
            for key, (state, needs) in FIELDS.items()
            if obj.get(key) is not None and needs in properties[obj["id"]]
        }
    for hole in (*house.get("doors", []), *house.get("windows", [])):
        opens = hole.get("openable") is True
        found[hole["id"]] = {"open": float(hole.get("openness", 0.0)) > 0} if opens else {}
    logicenv = house.get("metadata", {}).get("logicenv", {})
    for action in logicenv.get("stateActions", []):
        state = _BY_ACTION.get(action.get("action", ""))
        target = action.get("objectId", "")
        if state is not None and ACTION_NEEDS[state] in properties.get(target, ()):
            found[target][state] = True
    return found


def _walk(objects: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for obj in objects:
        yield obj
        yield from _walk(obj.get("children", []))


def lost_states(scene: Scene, house: Mapping[str, Any], catalog: Catalog) -> list[dict[str, Any]]:
    """Each state of ``scene`` that ``house`` does not give back (:func:`house_states`), with
    the reason, in the scene's order (objects, windows, doors)."""
    given = house_states(house, catalog)
    shown = {obj["id"]: str(obj.get("assetId", "")) for obj in _walk(house.get("objects", []))}
    return [
        {
            "id": entity.id,
            "type": entity.type,
            "state": state,
            "value": value,
            "reason": _why(entity, state, shown.get(entity.id), catalog),
        }
        for entity in scene.entities
        for state, value in entity.states.items()
        if given.get(entity.id, {}).get(state, False) != value
    ]


def _why(
    entity: SceneObject | Door | Window, state: str, asset_id: str | None, catalog: Catalog
) -> str:
    """Why the house cannot give ``entity`` its ``state`` (``asset_id``: what shows it)."""
    if isinstance(entity, Window):
        return "AI2-THOR's window assets do not open (the house's windows are not openable)"
    if isinstance(entity, Door):
        return f"the door asset {entity.asset_id!r} does not open in AI2-THOR"
    if asset_id is None:
        if entity.part_of is not None:
            return (
                f"a part of {entity.part_of}: AI2-THOR spawns it inside its whole's asset in "
                "the asset's own state, which a house cannot set"
            )
        return f"not exported: {entity.type} has no AI2-THOR asset"
    needs = _needs(state)
    if needs is None:
        return f"AI2-THOR has no {state!r} state"
    asset = catalog.asset(asset_id)
    shown_as = asset.source_type if asset is not None else asset_id
    return f"it exports as {a_or_an(shown_as)} ({asset_id}), which is not {needs} in AI2-THOR"


def _needs(state: str) -> str | None:
    """The AI2-THOR property an asset needs to show ``state`` (``None``: no asset can)."""
    by_field = {s: needs for s, needs in FIELDS.values()}
    return by_field.get(state) or ACTION_NEEDS.get(state)
