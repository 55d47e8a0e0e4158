"""The ProcTHOR house export and ``logicenv export``."""

from __future__ import annotations

import importlib.util
import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sample_scenes import two_rooms

from pytest_logicenv.cli import main
from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.design import design_scene
from pytest_logicenv.scenes.export import HOUSE_SCHEMA, to_house
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.scene_json import scene_to_json
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject

CATALOG = default_catalog()


def _walk(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for obj in objects:
        found.append(obj)
        found += _walk(obj.get("children", []))
    return found


def _signed_area(points: list[dict[str, float]]) -> float:
    pairs = zip(points, points[1:] + points[:1], strict=True)
    return sum(a["x"] * b["z"] - b["x"] * a["z"] for a, b in pairs)


def test_house_has_the_schema_ai2thor_reads() -> None:
    house = to_house(two_rooms())
    assert house["metadata"]["schema"] == HOUSE_SCHEMA == "1.0.0"
    assert set(house) >= {"rooms", "walls", "doors", "windows", "objects", "proceduralParameters"}
    assert house["proceduralParameters"]["ceilingMaterial"] == {"name": "PureWhite"}
    assert house["metadata"]["agentPoses"]["default"]["position"] == {"x": 3.0, "y": 0.95, "z": 1.5}
    for room in house["rooms"]:
        assert set(room) >= {"id", "roomType", "floorMaterial", "floorPolygon"}
        assert room["floorMaterial"]["name"]
        assert _signed_area(room["floorPolygon"]) < 0  # clockwise, as ProcTHOR writes them


def test_walls_are_one_per_room_side_with_outside_faces_and_one_hole_each() -> None:
    house = to_house(two_rooms())
    walls = {wall["id"]: wall for wall in house["walls"]}
    assert len(walls) == len(house["walls"])  # ids are unique
    assert {w["roomId"] for w in walls.values()} == {"living_room", "kitchen", "exterior"}
    shared = [w for w in walls.values() if "|4.00|0.00|4.00|4.00" in w["id"]]
    assert sorted(w["roomId"] for w in shared) == ["kitchen", "living_room"]
    holes = house["doors"] + house["windows"]
    used = [hole[key] for hole in holes for key in ("wall0", "wall1")]
    assert len(used) == len(set(used))  # AI2-THOR keys holes by wall: one hole per wall
    for hole in holes:
        wall0 = walls[hole["wall0"]]
        assert hole["wall1"] in walls
        corners = wall0["polygon"]
        length = (
            (corners[0]["x"] - corners[1]["x"]) ** 2 + (corners[0]["z"] - corners[1]["z"]) ** 2
        ) ** 0.5
        low, high = hole["holePolygon"]
        assert 0 <= low["x"] < high["x"] <= length + 1e-6
        assert 0 <= low["y"] < high["y"] <= 2.5
        assert low["x"] <= hole["assetPosition"]["x"] <= high["x"]
        assert CATALOG.asset(hole["assetId"]) is not None
    # The living room's north wall holds a door and a window: it was cut in two.
    north = [
        w["id"]
        for w in walls.values()
        if w["roomId"] == "living_room" and {p["z"] for p in w["polygon"]} == {4}
    ]
    assert len(north) == 2


def test_doors_and_windows_keep_their_rooms_and_states() -> None:
    house = to_house(two_rooms())
    doors = {door["id"]: door for door in house["doors"]}
    assert (doors["door_1"]["room0"], doors["door_1"]["room1"]) == ("living_room", "kitchen")
    assert doors["door_1"]["openness"] == 1.0
    assert doors["door_1"]["openable"]
    assert doors["door_2"]["openness"] == 0.0
    assert doors["door_2"]["wall1"].startswith("wall|exterior|")
    windows = {w["id"]: w for w in house["windows"]}
    assert windows["window_1"]["holePolygon"][0]["y"] == 0.9  # the sill
    assert windows["window_1"]["openness"] == 1.0
    assert windows["window_2"]["room0"] == windows["window_2"]["room1"] == "kitchen"


def test_a_door_to_the_outside_opens_from_its_room_whichever_way_it_is_listed() -> None:
    # AI2-THOR has no room "exterior": room0 and wall0 are the room's, as ProcTHOR writes its
    # front doors; ProcTHOR's do not open, ours do (their state survives the export).
    scene = two_rooms()
    listed = {door.id: door for door in scene.doors}
    backwards = replace(listed["door_2"], rooms=("exterior", "living_room"))
    for door in (listed["door_2"], backwards):
        house = to_house(replace(scene, doors=(listed["door_1"], door)))
        exported = {d["id"]: d for d in house["doors"]}["door_2"]
        assert exported["room0"] == exported["room1"] == "living_room"
        assert exported["wall0"].startswith("wall|living_room|")
        assert exported["wall1"].startswith("wall|exterior|")
        assert exported["openable"] is True


def test_objects_use_real_assets_nest_on_receptacles_and_carry_states() -> None:
    house = to_house(two_rooms())
    objects = {obj["id"]: obj for obj in _walk(house["objects"])}
    for obj in objects.values():
        assert CATALOG.asset(obj["assetId"]) is not None
        assert set(obj["rotation"]) == {"x", "y", "z"}
    top = {obj["id"] for obj in house["objects"]}
    assert "wipes" not in top
    assert [c["id"] for c in objects["table"]["children"]] == ["wipes"]
    assert [c["id"] for c in objects["fridge"]["children"]] == ["milk"]
    # The shelf is a part: AI2-THOR spawns it inside the shelving unit's asset, so its book
    # rests on the shelving unit, and the shelf is listed with the asset that holds it.
    assert [c["id"] for c in objects["bookshelf"]["children"]] == ["book"]
    skipped = {item["id"] for item in house["metadata"]["logicenv"]["skipped"]}
    assert skipped == {"stain"}
    assert house["metadata"]["logicenv"]["parts"] == [
        {
            "id": "top_shelf",
            "type": "Shelf",
            "partOf": "bookshelf",
            "inAsset": "Shelving_Unit_313_1",
            "attrs": {"level": "top"},
            "states": {},
        }
    ]
    assert objects["toy"]["assetId"] == "Teddy_Bear_1"  # a custom type's stand-in
    assert objects["light"]["isOn"] is True
    assert objects["fridge"]["openness"] == 0.0
    assert objects["fridge"]["kinematic"] is True
    assert objects["milk"]["kinematic"] is False
    assert objects["fridge"]["rotation"]["y"] == 180
    # A stand-in keeps the object's bottom: the teddy bear stands on the floor.
    teddy = CATALOG.asset("Teddy_Bear_1")
    assert teddy is not None
    assert objects["toy"]["position"]["y"] == pytest.approx(teddy.size[1] / 2, abs=1e-3)


def test_states_the_format_cannot_carry_become_actions_and_stand_ins_are_recorded() -> None:
    house = to_house(two_rooms())
    logicenv = house["metadata"]["logicenv"]
    assert {"action": "FillObjectWithLiquid", "objectId": "milk", "fillLiquid": "water"} in (
        logicenv["stateActions"]
    )
    assert logicenv["states"]["milk"] == {"filled": True}
    assert logicenv["states"]["light"] == {"toggled": True}
    substituted = {s["id"]: s for s in logicenv["substitutions"]}
    assert substituted["toy"] == {
        "id": "toy",
        "type": "Toy",
        "exportedAs": "TeddyBear",
        "assetId": "Teddy_Bear_1",
        "reason": "AI2-THOR has no Toy; a TeddyBear stands in for it",
    }
    assert substituted["milk"]["exportedAs"] == "Bottle"
    assert "sofa" not in substituted  # AI2-THOR's own sofa


@pytest.mark.parametrize(
    ("state", "action"),
    [
        ("filled", "FillObjectWithLiquid"),
        ("sliced", "SliceObject"),
        ("cooked", "CookObject"),
        ("used_up", "UseUpObject"),
        ("broken", "BreakObject"),
    ],
)
def test_a_state_exports_differently_from_its_absence(state: str, action: str) -> None:
    scene = two_rooms()
    milk = next(o for o in scene.objects if o.id == "milk")
    changed = replace(milk, states={state: True})
    plain = replace(milk, states={})
    with_state = to_house(scene.with_objects([changed]))["metadata"]["logicenv"]
    without = to_house(scene.with_objects([plain]))["metadata"]["logicenv"]
    assert [a["action"] for a in with_state["stateActions"]] == [action]
    assert without["stateActions"] == []


def test_cli_export_writes_the_house(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "scene.json"
    source.write_text(json.dumps(scene_to_json(two_rooms())))
    assert main(["export", str(source)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {tmp_path / 'scene.house.json'}: 2 rooms, 2 doors, 2 windows, 9 objects" in out
    assert "not exported: stain (Stain has no AI2-THOR asset)" in out
    assert "stand-in: toy (Toy) exported as a TeddyBear" in out
    assert "after loading: FillObjectWithLiquid milk" in out
    house = json.loads((tmp_path / "scene.house.json").read_text())
    assert house == to_house(two_rooms())
    assert main(["export", str(source), "-o", str(tmp_path / "out" / "h.json")]) == 0
    assert (tmp_path / "out" / "h.json").is_file()
    assert not list((tmp_path / "out").glob(".*tmp"))  # no temporary file left behind


def test_cli_export_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(tmp_path / "missing.json")]) == 2
    assert "no such scene file" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert main(["export", str(broken)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    stale = tmp_path / "stale.json"
    stale.write_text(json.dumps({"format": "logicenv-scene/0", "id": "x"}))
    assert main(["export", str(stale)]) == 2
    assert "regenerate it" in capsys.readouterr().err
    assert not (tmp_path / "broken.house.json").exists()


def _thor_build() -> str | None:
    return os.environ.get("LOGICENV_THOR_BUILD")


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ai2thor") is None, reason="ai2thor is not installed")
@pytest.mark.skipif(
    not (_thor_build() and Path(_thor_build() or "").exists()),
    reason="no local AI2-THOR build (set LOGICENV_THOR_BUILD to its executable; never downloaded)",
)
def test_the_house_loads_in_ai2thor() -> None:  # pragma: no cover - needs a Unity build
    from ai2thor.controller import Controller

    house = to_house(two_rooms())
    controller = Controller(local_executable_path=_thor_build(), scene=house)
    try:
        event = controller.last_event
        assert event.metadata["lastActionSuccess"], event.metadata.get("errorMessage")
        ids = {obj["objectId"].split("|")[0] for obj in event.metadata["objects"]}
        assert {"sofa", "table", "fridge"} <= ids or len(event.metadata["objects"]) >= 9
    finally:
        controller.stop()


def _with(scene: Scene, changed: SceneObject) -> Scene:
    return scene.with_objects([changed if o.id == changed.id else o for o in scene.objects])


def _kitchen_with_sink_and_stove(tmp_path: Path) -> tuple[Scene, Path]:
    """A designed, laid-out kitchen with a sink in its counter and a stove, as a scene file;
    its faucet given a bathtub's asset, as the designer may pick."""
    plan = Plan(
        "export",
        (),
        setting=parse_facts(
            [{"exists": "Sink", "as": "sink"}, {"exists": "Stove", "as": "stove"}], "setting"
        ),
        rooms=("Kitchen",),
    )
    scene = solve_layout(design_scene(plan, None, seed=0), seed=0)
    faucet = next(o for o in scene.objects if o.type == "Faucet")
    scene = _with(scene, replace(faucet, asset_id="Bathtub_Faucet_1"))
    source = tmp_path / "kitchen.json"
    source.write_text(json.dumps(scene_to_json(scene)))
    return scene, source


def test_a_counters_sink_exports_as_a_sink_asset_set_into_it_and_nothing_is_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene, source = _kitchen_with_sink_and_stove(tmp_path)
    assert main(["export", str(source)]) == 0
    out = capsys.readouterr().out
    house = json.loads((tmp_path / "kitchen.house.json").read_text())
    objects = {obj["id"]: obj for obj in _walk(house["objects"])}
    logicenv = house["metadata"]["logicenv"]
    sink = scene.object("sink")
    counter = objects[sink.part_of or ""]
    # The sink is a basin sink (ProcTHOR's Sink assets), a child of its counter, its top the
    # counter's, as iTHOR's counters hold their sinks.
    assert "sink" in [child["id"] for child in counter["children"]]
    sink_asset = CATALOG.asset(objects["sink"]["assetId"])
    counter_asset = CATALOG.asset(counter["assetId"])
    assert sink_asset is not None
    assert counter_asset is not None
    assert sink_asset.source_type == "Sink"
    assert sink_asset.size[1] <= 0.3
    counter_top = counter["position"]["y"] + counter_asset.size[1] / 2
    assert objects["sink"]["position"]["y"] + sink_asset.size[1] / 2 == pytest.approx(
        counter_top, abs=1e-3
    )
    # Its faucet is a kitchen faucet on the sink; its basin is spawned by the sink's asset.
    faucet = next(o for o in scene.objects if o.type == "Faucet")
    assert objects[faucet.id]["assetId"].startswith("Kitchen_Faucet_")
    assert faucet.id in [child["id"] for child in objects["sink"]["children"]]
    basin = next(o for o in scene.objects if o.type == "SinkBasin")
    parts = {p["id"]: p for p in logicenv["parts"]}
    assert parts[basin.id]["inAsset"] == objects["sink"]["assetId"]
    # Each asset chosen over the scene's is recorded, and said.
    chosen = {item["id"]: item for item in logicenv["assets"]}
    assert chosen[faucet.id]["sceneAssetId"] == "Bathtub_Faucet_1"
    assert chosen["sink"]["assetId"] == objects["sink"]["assetId"]
    assert f"  asset: sink (Sink) exported as {sink_asset.id}\n" in out
    # The counter that stands in for the stove has no burners or knobs: each is listed.
    skipped = {item["id"]: item["reason"] for item in logicenv["skipped"]}
    stove_parts = [o for o in scene.objects if o.part_of == "stove"]
    assert {o.type for o in stove_parts} == {"StoveBurner", "StoveKnob"}
    stand_in = objects["stove"]["assetId"]
    for part in stove_parts:
        assert skipped[part.id] == (
            f"a part of stove: AI2-THOR's {stand_in}, the CounterTop that shows stove (Stove), "
            f"has no {part.type}; what rests on it rests on stove"
        )
        assert f"  not exported: {part.id} (a part of stove: AI2-THOR's {stand_in}" in out
    # Every object of the scene is in the house, inside an asset, or listed as skipped.
    accounted = set(objects) | set(parts) | set(skipped)
    assert accounted == {obj.id for obj in scene.objects}
    assert len(accounted) == len(objects) + len(parts) + len(skipped)


@pytest.mark.parametrize(
    ("room", "whole", "family"),
    [
        ("Kitchen", "Sink", "Kitchen_Faucet_"),
        ("Bathroom", "Sink", "Bathroom_Faucet_"),
        ("Bathroom", "Bathtub", "Bathtub_Faucet_"),
    ],
)
def test_a_faucet_exports_as_its_places_faucet(room: str, whole: str, family: str) -> None:
    wrong = "Bathroom_Faucet_18" if family != "Bathroom_Faucet_" else "Kitchen_Faucet_1"
    place = SceneObject("place", whole, "", room="r", size=(1.0, 0.9, 0.6))
    tap = SceneObject("tap", "Faucet", wrong, room="r", part_of="place", relation="part")
    scene = Scene(
        "s",
        rooms=(Room("r", room, ((0, 0), (3, 0), (3, 3), (0, 3))),),
        objects=(place, tap),
    )
    house = to_house(scene)
    exported = {obj["id"]: obj for obj in _walk(house["objects"])}
    asset = CATALOG.asset(exported["tap"]["assetId"])
    assert asset is not None
    assert asset.id.startswith(family)
    assert "toggleable" in asset.properties  # Bathroom_Faucet_18 does not turn on
    noted = house["metadata"]["logicenv"]["assets"]
    assert [(n["id"], n["sceneAssetId"], n["assetId"]) for n in noted] == [("tap", wrong, asset.id)]
    # The same faucet with a fitting asset keeps it, and nothing is noted.
    kept = to_house(_with(scene, replace(tap, asset_id=asset.id)))
    assert kept["metadata"]["logicenv"]["assets"] == []


def test_the_states_of_an_object_left_out_are_kept(tmp_path: Path) -> None:
    scene, _ = _kitchen_with_sink_and_stove(tmp_path)
    knob = next(o for o in scene.objects if o.type == "StoveKnob")
    house = to_house(_with(scene, replace(knob, states={"toggled": True})))
    assert house["metadata"]["logicenv"]["states"][knob.id] == {"toggled": True}
