"""The catalog read from procthor's databases, our custom types, and retrieval."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog import (
    CUSTOM_TYPES,
    clip_unavailable_reason,
    databases_dir,
    default_catalog,
)
from pytest_logicenv.scenes.catalog.clip import clip_retriever
from pytest_logicenv.scenes.catalog.metadata import SUMMARY_FILE, summary_text
from pytest_logicenv.scenes.scene_model import PROPERTIES

CATALOG = default_catalog()


def test_reads_every_ai2thor_type_and_asset() -> None:
    raw = json.loads((databases_dir() / "asset-database.json").read_text())
    metadata = json.loads(SUMMARY_FILE.read_text())
    thor = {name: t for name, t in CATALOG.types.items() if not t.custom}
    # ProcTHOR's Doorway assets are our Door type; its Doorframes (no leaf) are not used.
    assert set(thor) == (set(raw) | set(metadata)) - {"Floor", "Doorway", "Doorframe"} | {"Door"}
    assert len(metadata) == 118
    assert len(thor) == 121  # 108 with ProcTHOR assets, 13 only in iTHOR scenes
    frames = len(raw["Doorframe"])
    assert sum(len(t.assets) for t in thor.values() if t.exportable) == 1653 - frames
    assert [a.id for a in CATALOG.type("Door").assets] == [a["assetId"] for a in raw["Doorway"]]
    assert CATALOG.asset("Fridge_1") is not None
    assert CATALOG.asset("Fridge_1").size[1] > 1.0  # type: ignore[union-attr]
    assert CATALOG.asset("") is None


@pytest.mark.slow
def test_the_committed_type_table_is_the_installed_metadata_summarized() -> None:
    installed = summary_text(databases_dir() / "ai2thor-object-metadata.json")
    assert SUMMARY_FILE.read_text() == installed, (
        "write it again: python -m pytest_logicenv.scenes.catalog.metadata"
    )


@pytest.mark.parametrize(
    ("name", "has", "size"),
    [
        ("Drawer", {"static", "openable", "receptacle"}, (0.49, 0.19, 0.37)),
        ("Cabinet", {"static", "openable", "receptacle"}, None),
        ("SinkBasin", {"static", "receptacle"}, None),
        ("StoveBurner", {"static", "receptacle", "heat_source"}, None),
        ("StoveKnob", {"static", "toggleable"}, None),
        ("Mirror", {"static", "dirtyable", "breakable", "wall_mounted"}, (0.54, 0.85, 0.07)),
        ("ShowerDoor", {"static", "openable", "breakable"}, None),
    ],
)
def test_types_only_in_ithor_scenes_have_their_real_properties(
    name: str, has: set[str], size: tuple[float, float, float] | None
) -> None:
    obj_type = CATALOG.type(name)
    assert has <= set(obj_type.properties)
    assert not obj_type.custom
    assert not obj_type.exportable
    if size is not None:
        assert tuple(round(v, 2) for v in obj_type.assets[0].size) == size


def test_parts_come_with_their_parents() -> None:
    assert [(p.type, p.count, p.optional) for p in CATALOG.type("Dresser").parts] == [
        ("Drawer", 3, False),
        ("Cabinet", 2, True),  # a bedroom's cabinets: ProcTHOR's bedrooms have no counters
    ]
    assert CATALOG.type("Drawer").part_of == (
        "CounterTop",
        "Desk",
        "Dresser",
        "SideTable",
        "TVStand",
    )
    assert CATALOG.type("Drawer").part_only
    assert not CATALOG.type("Drawer").on_floor
    assert CATALOG.type("Faucet").part_of == ("Bathtub", "Sink")
    assert CATALOG.type("Sink").part_of == ("CounterTop",)
    assert not CATALOG.type("Sink").part_only
    assert CATALOG.type("Shelf").attrs["level"] == ("top", "middle", "bottom")
    assert [p.type for p in CATALOG.type("Stove").parts] == ["StoveBurner", "StoveKnob"]
    knob = next(p for p in CATALOG.type("Stove").parts if p.type == "StoveKnob")
    assert knob.attrs_of(0) == {"position": "front_left"}


def test_rooms_and_placement_as_procthor_annotates_them() -> None:
    plant = CATALOG.type("HousePlant")
    assert plant.room_weights == {"Kitchen": 1, "LivingRoom": 1, "Bedroom": 1, "Bathroom": 1}
    assert plant.placement.spots == ("corner", "edge")
    assert CATALOG.type("Fridge").room_weights == {"Kitchen": 2}
    # ProcTHOR places sinks and paintings by other means: AI2-THOR's scenes say where.
    assert CATALOG.type("Sink").rooms == ("Kitchen", "Bathroom")
    assert CATALOG.type("Sink").frequencies["Kitchen"] == 1.0
    assert CATALOG.type("Painting").on_wall
    assert not CATALOG.type("Painting").on_floor
    assert CATALOG.type("Bed").placement.multiple_per_room


def test_loads_once_and_without_procthor_databases_pandas_or_ai2thor() -> None:
    assert default_catalog() is CATALOG
    code = (
        "import sys, pytest_logicenv.scenes.catalog as c; c.default_catalog(); "
        "print([m for m in ('procthor.databases', 'pandas', 'ai2thor') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("name", "has", "lacks"),
    [
        ("Apple", {"pickupable", "sliceable"}, {"receptacle"}),
        ("Fridge", {"static", "receptacle", "openable", "cold_source"}, {"pickupable"}),
        ("LightSwitch", {"toggleable", "wall_mounted"}, {"pickupable"}),
        ("Toaster", {"receptacle", "object_specific_receptacle", "toggleable"}, set()),
        ("Mug", {"pickupable", "fillable", "dirtyable", "receptacle"}, set()),
        ("Towel", {"pickupable", "dirtyable"}, set()),  # dirtyable is our extension
        ("DeskLamp", {"pickupable", "toggleable"}, {"moveable"}),  # pickupable is ours
        ("ShelvingUnit", {"receptacle"}, {"pickupable"}),  # receptacles.json says so
    ],
)
def test_ai2thor_properties_map_to_ours(name: str, has: set[str], lacks: set[str]) -> None:
    obj_type = CATALOG.type(name)
    assert has <= set(obj_type.properties)
    assert not lacks & set(obj_type.properties)
    assert set(obj_type.properties) <= set(PROPERTIES)
    assert len({"pickupable", "moveable", "static"} & set(obj_type.properties)) == 1


def test_placement_and_receptacle_data() -> None:
    assert "Kitchen" in CATALOG.type("Fridge").rooms
    assert "Bathroom" in CATALOG.type("Toilet").rooms
    assert CATALOG.type("Painting").on_wall
    assert CATALOG.type("Pillow").parents["Bed"] > 0.5
    assert CATALOG.type("Toaster").accepts == ("Bread",)
    assert CATALOG.type("CoffeeMachine").accepts == ("Mug",)
    assert CATALOG.type("TowelHolder").accepts == ("Towel",)
    width, height, _ = CATALOG.wall_hole("Doorway_1")
    assert 0.9 < width < 1.2
    assert 2.0 < height < 2.2


def test_custom_types_are_flagged_and_export_through_real_assets() -> None:
    names = {spec.name for spec in CUSTOM_TYPES}
    assert {"Toy", "ToyBox", "WetWipes", "Mop", "Stain", "Milk"} <= names
    household = {"Dishwasher", "Wardrobe", "Shirt", "Sock", "Blanket", "LaundryBasket"}
    assert household | {"DryingRack", "Stove", "SoapRefill", "Detergent", "Jar"} <= names
    for name in names:
        obj_type = CATALOG.type(name)
        assert obj_type.custom
        for asset in obj_type.assets:
            if obj_type.stand_in is None and not obj_type.stand_in_by:
                assert asset.id == ""  # AI2-THOR cannot show it: no stand-in
            else:
                assert CATALOG.asset(asset.id) is not None, asset.id
    assert CATALOG.type("WetWipes").has("cleaning_tool")
    assert CATALOG.type("Mop").has("cleaning_tool")
    assert CATALOG.type("Stain").states == {"dirty": True}
    assert CATALOG.type("Milk").states == {"filled": True}
    assert CATALOG.type("Toy").attrs["kind"] == ("doll", "other")
    assert CATALOG.type("Dishwasher").container
    assert {a.id for a in CATALOG.type("Stove").assets} == {"Countertop_I_2x2"}


def test_extensions_are_marked_as_ours() -> None:
    assert CATALOG.type("CounterTop").extensions == ("dirtyable",)
    assert CATALOG.type("CounterTop").has("dirtyable")
    assert CATALOG.type("Window").extensions == ("openable",)
    assert CATALOG.type("Apple").extensions == ("temperature",)  # food heats and cools
    assert CATALOG.type("Sofa").extensions == ()


def test_a_stand_in_can_depend_on_attributes() -> None:
    toy = CATALOG.type("Toy")
    assert {a.source_type for a in toy.assets_for({"kind": "doll"})} == {"TeddyBear"}
    assert {a.source_type for a in toy.assets_for({"kind": "other"})} == {"BasketBall"}


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("tea table", "CoffeeTable"),
        ("a wooden coffee table", "CoffeeTable"),
        ("laundry basket", "LaundryBasket"),
        ("laundry hamper", "LaundryHamper"),
        ("the top drawer", "Drawer"),
        ("a nightstand", "SideTable"),
        ("a drinking glass", "Cup"),
        ("kitchen cupboards", "Cabinet"),
        ("the tap", "Faucet"),
        ("a pair of trousers", "Trousers"),
        ("bookshelf", "ShelvingUnit"),
        ("clock", "AlarmClock"),
        ("light", "LightSwitch"),
        ("sofa pillow", "Pillow"),
        ("the red toy boxes", "ToyBox"),
        ("a pack of wet wipes", "WetWipes"),
        ("the wet mop by the wall", "Mop"),
        ("a dirty mark", "Stain"),
        ("towel holder", "TowelHolder"),
        ("DeskLamp", "DeskLamp"),
        ("fruit bowl", "Bowl"),
    ],
)
def test_lexical_retrieval_with_synonyms(description: str, expected: str) -> None:
    match = CATALOG.resolve(description)
    assert match.type == expected
    assert match.via == "lexical"
    assert match.asset_id == "" or CATALOG.asset(match.asset_id) is not None


def test_unknown_type_error_names_close_matches() -> None:
    with pytest.raises(
        SceneError, match=r"unknown object type 'TeaTable'; did you mean CoffeeTable"
    ):
        CATALOG.type("TeaTable")
    with pytest.raises(SceneError, match=r"no object type matches 'spaceship'"):
        CATALOG.resolve("spaceship")


def test_clip_backend_refuses_clearly_when_unavailable() -> None:
    reason = clip_unavailable_reason()
    if reason is None:
        pytest.skip("CLIP is available here; see test_clip_backend_resolves")
    with pytest.raises(SceneError, match="CLIP retrieval backend is unavailable"):
        clip_retriever(CATALOG).resolve("a couch")


def test_clip_backend_resolves() -> None:
    reason = clip_unavailable_reason()
    if reason is not None:
        pytest.skip(f"CLIP backend unavailable: {reason}")
    assert clip_retriever(CATALOG).resolve("a comfortable couch").type == "Sofa"
