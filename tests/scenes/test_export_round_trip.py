"""The export keeps every state it can and lists the rest (issue 23 item 7), and every house
it writes is valid against the house format's schema (``data/procthor-house.schema.json``,
written from AI2-THOR's ``ProceduralData.cs``)."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import ROOT

from pytest_logicenv.cli import main
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.export import HOUSE_SCHEMA_FILE, to_house
from pytest_logicenv.scenes.export_states import house_states
from pytest_logicenv.scenes.scene_json import load_scene, scene_to_json
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject, Wall, Window

CATALOG = default_catalog()
SCHEMA = json.loads(HOUSE_SCHEMA_FILE.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SCENES = sorted(
    path
    for path in (ROOT / "cache").glob("*/scenes/*.json")
    if not path.name.endswith((".witness.json", ".house.json"))
)


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def _errors(house: dict[str, Any]) -> list[str]:
    return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in VALIDATOR.iter_errors(house)]


@pytest.mark.parametrize("path", SCENES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_example_scene_exports_valid_and_keeps_or_lists_each_state(path: Path) -> None:
    scene = load_scene(path)
    house = to_house(scene, CATALOG)
    assert _errors(house) == []
    back = house_states(house, CATALOG)
    lost = {(item["id"], item["state"]) for item in house["metadata"]["logicenv"]["lost"]}
    for entity in (*scene.objects, *scene.doors, *scene.windows):
        for state, value in entity.states.items():
            kept = back.get(entity.id, {}).get(state, False) == value
            assert kept != ((entity.id, state) in lost), (entity.id, state, value)
    committed = json.loads(path.with_suffix(".house.json").read_text(encoding="utf-8"))
    assert committed == house  # the committed house is this export (regenerated with it)


def test_the_schema_refuses_what_ai2thor_would_not_read() -> None:
    house = to_house(load_scene(SCENES[0]), CATALOG)
    wrong = copy.deepcopy(house)
    wrong["objects"][0]["isOpen"] = True  # AI2-THOR's field is openness
    wrong["doors"] = [{**house["doors"][0], "openness": "open"}] if house["doors"] else []
    wrong["metadata"]["schema"] = "0.0.1"
    errors = _errors(wrong)
    assert any("'isOpen' was unexpected" in e for e in errors), errors
    assert any(e.startswith("metadata/schema") for e in errors), errors


def _room_scene(*objects: SceneObject, window_open: bool = False) -> Scene:
    room = Room("bedroom", "Bedroom", ((0, 0), (4, 0), (4, 4), (0, 4)))
    walls = (
        Wall("w0", ("bedroom",), (0, 0), (4, 0)),
        Wall("w1", ("bedroom",), (4, 0), (4, 4)),
        Wall("w2", ("bedroom",), (4, 4), (0, 4)),
        Wall("w3", ("bedroom",), (0, 4), (0, 0)),
    )
    window = Window(
        "window_1", "w0", "bedroom", 1.0, open=window_open, asset_id="Window_Hung_48x44"
    )
    return Scene("s", rooms=(room,), walls=walls, windows=(window,), objects=objects)


def _lost(scene: Scene) -> dict[tuple[str, str], str]:
    house = to_house(scene, CATALOG)
    assert _errors(house) == []
    return {(i["id"], i["state"]): i["reason"] for i in house["metadata"]["logicenv"]["lost"]}


def test_what_ai2thor_cannot_show_is_listed_with_the_reason() -> None:
    wardrobe = SceneObject(
        "wardrobe",
        "Wardrobe",
        "Dresser_220_1",
        room="bedroom",
        size=(1.0, 1.9, 0.6),
        position=(2, 0.95, 0.5),
        states={"open": True},
        properties=("static", "receptacle", "openable"),
        custom_type=True,
    )
    shirt = SceneObject(
        "shirt",
        "Shirt",
        "Cloth_1",
        room="bedroom",
        parent="wardrobe",
        relation="in",
        states={"wet": True, "dirty": False},
        properties=("pickupable", "dirtyable", "wettable"),
        custom_type=True,
    )
    lost = _lost(_room_scene(wardrobe, shirt, window_open=True))
    assert lost[("wardrobe", "open")].startswith("it exports as a Dresser (Dresser_220_1), which")
    assert "not openable in AI2-THOR" in lost[("wardrobe", "open")]
    assert lost[("shirt", "wet")] == "AI2-THOR has no 'wet' state"
    assert lost[("window_1", "open")].startswith("AI2-THOR's window assets do not open")
    assert ("shirt", "dirty") not in lost  # clean is AI2-THOR's default
    closed = _lost(_room_scene(replace(wardrobe, states={"open": False})))
    assert closed == {}


def test_an_open_basket_exports_as_an_open_hamper() -> None:
    basket = SceneObject(
        "basket",
        "LaundryBasket",
        "Laundry_Hamper_1_1",
        room="bedroom",
        size=(0.5, 0.35, 0.4),
        position=(2, 0.175, 2),
        properties=("pickupable", "receptacle"),
        custom_type=True,
    )
    house = to_house(_room_scene(basket), CATALOG)
    exported = next(o for o in house["objects"] if o["id"] == "basket")
    assert exported["openness"] == 1.0  # a basket is open: what is in it shows


def test_logicenv_export_lists_the_lost_states_and_writes_a_valid_house(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene = _room_scene(window_open=True)
    source = tmp_path / "scene.json"
    source.write_text(json.dumps(scene_to_json(scene)), encoding="utf-8")
    out = tmp_path / "house.json"
    assert main(["export", str(source), "--output", str(out)]) == 0
    house = json.loads(out.read_text(encoding="utf-8"))
    assert _errors(house) == []
    assert [i["id"] for i in house["metadata"]["logicenv"]["lost"]] == ["window_1"]
    out_text = capsys.readouterr().out
    assert "  state not kept: window_1 open=true (AI2-THOR's window assets do not open" in out_text
