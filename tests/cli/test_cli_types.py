"""``logicenv types``: what a plan's facts and a policy may name, as the catalog has it."""

from __future__ import annotations

import json

import pytest

from pytest_logicenv.cli import main


def _lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().out.splitlines()


def test_every_type_with_its_properties_parts_rooms_and_placement(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["types"]) == 0
    lines = _lines(capsys)
    assert (
        "HousePlant: moveable, canFillWithLiquid; can be: filled; rooms: Kitchen sometimes, "
        "LivingRoom sometimes, Bedroom sometimes, Bathroom sometimes, Study sometimes, DiningRoom "
        "sometimes; stands: corner, edge"
    ) in lines
    assert (
        "Sink: static, receptacle; parts: SinkBasin, Faucet, Cabinet (optional); part of: "
        "CounterTop; rooms: Kitchen 100%, Bathroom 100% of AI2-THOR scenes, LaundryRoom "
        "sometimes; stands: corner, edge"
    ) in lines
    assert (
        "Drawer: static, receptacle, openable; can be: open; part of: CounterTop, Desk, Dresser, "
        "SideTable, TVStand; rooms: Kitchen 93%, LivingRoom 77%, Bedroom 97%, Bathroom 50% of "
        "AI2-THOR scenes; attrs: position=left/right, level=top/middle/bottom"
    ) in lines
    # Parts told apart by where they are in their whole: a counter's left and right, lower
    # cabinets; a wall cabinet's upper ones; the one under a sink.
    cabinet = next(line for line in lines if line.startswith("Cabinet: "))
    assert cabinet.endswith("attrs: position=left/right/under_sink, level=lower/upper")
    assert any(line.startswith("WallCabinet (custom): static; parts: Cabinet x2") for line in lines)
    assert any(
        line.startswith("CounterTop: static, receptacle, dirtyable (ours); ") for line in lines
    )
    assert (
        "Painting: static; rooms: LivingRoom 100%, Bedroom 43% of AI2-THOR scenes, Study "
        "sometimes, DiningRoom sometimes; stands: on a wall" in lines
    )
    mop = next(line for line in lines if line.startswith("Mop (custom): "))
    assert mop.endswith("exports as: Plunger")
    stain = next(line for line in lines if line.startswith("Stain (custom): "))
    assert stain.endswith("exports as: nothing (no AI2-THOR asset; left out, and listed)")
    assert lines == sorted(lines)


def test_properties_are_named_as_ai2thor_names_them_and_ours_are_flagged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["types"]) == 0
    lines = {line.split(":")[0]: line for line in _lines(capsys)}
    assert lines["WateringCan"].startswith("WateringCan: pickupable, canFillWithLiquid; ")
    assert lines["SoapBottle"].startswith("SoapBottle: pickupable, canBeUsedUp; ")
    assert "isHeatSource" in lines["StoveBurner"]
    assert lines["Fridge"].startswith("Fridge: static, receptacle, openable, isColdSource; ")
    assert lines["Towel"].startswith(
        "Towel: pickupable, receptacle (ours), dirtyable (ours), wettable (ours)"
    )
    ours = ("fillable", "can_be_used_up", "heat_source", "cold_source", "see_through")
    assert not [line for line in lines.values() if any(name in line for name in ours)]


def test_a_word_narrows_by_name_property_room_or_part(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["types", "fillable"]) == 0
    names = [line.split(":")[0] for line in _lines(capsys)]
    assert "WateringCan" in names
    assert "Sofa" not in names
    assert main(["types", "lamp"]) == 0
    assert [line.split(":")[0] for line in _lines(capsys)] == ["DeskLamp", "FloorLamp"]
    assert main(["types", "canFillWithLiquid"]) == 0  # AI2-THOR's name for it
    assert "WateringCan" in [line.split(":")[0] for line in _lines(capsys)]


@pytest.mark.parametrize(
    ("word", "shown"),
    [
        # a tin can, the cans of other names; not canFillWithLiquid, Candle nor Cabinet
        ("can", ["Can", "GarbageCan", "WateringCan"]),
        ("tissue", ["Tissue", "TissueBox"]),  # one tissue, and a word of the box's name
        ("tub", ["Bathtub"]),  # what "tub" means; "bathtub" is one word
        ("towel holder", ["HandTowelHolder", "TowelHolder"]),
    ],
)
def test_a_word_matches_whole_words_not_letters(
    capsys: pytest.CaptureFixture[str], word: str, shown: list[str]
) -> None:
    assert main(["types", word]) == 0
    names = [line.split(":")[0].removesuffix(" (custom)") for line in _lines(capsys)]
    assert [name for name in names if not name.startswith("'")] == shown


@pytest.mark.parametrize(
    ("word", "meant"),
    [("nightstand", "SideTable"), ("glass", "Cup"), ("cupboard", "Cabinet"), ("tap", "Faucet")],
)
def test_a_word_finds_the_type_it_means(
    capsys: pytest.CaptureFixture[str], word: str, meant: str
) -> None:
    assert main(["types", word]) == 0
    lines = _lines(capsys)
    assert lines[0] == f"{word!r} means {meant}"
    assert any(line.startswith(f"{meant}: ") for line in lines[1:])


def test_a_misspelt_type_gets_the_closest_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["types", "Televison"]) == 1
    assert capsys.readouterr().out == (
        "logicenv types: no type, property or room matches 'Televison'; did you mean Television?\n"
    )


def test_json_for_tools_and_prompts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["types", "--json", "nightstand"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["means"] == "SideTable"
    side_table = next(t for t in document["types"] if t["name"] == "SideTable")
    assert side_table["properties"] == {
        "moveable": "moveable",
        "receptacle": "receptacle",
        "dirtyable": "",  # ours: AI2-THOR has no name for it
    }
    assert side_table["parts"] == [
        {"type": "Drawer", "count": 1, "optional": False, "rooms": [], "attrs": []},
        {"type": "Cabinet", "count": 1, "optional": True, "rooms": [], "attrs": []},
    ]
    assert side_table["room_weights"]["Bedroom"] == 2
    assert side_table["placement"]["edge"] is True
    assert "nightstand" in side_table["synonyms"]
    assert side_table["exports_as"] == "SideTable"
    assert main(["types", "--json", "Sink"]) == 0
    sink = next(t for t in json.loads(capsys.readouterr().out)["types"] if t["name"] == "Sink")
    assert sink["scene_frequencies"]["Kitchen"] == 1.0
    assert sink["part_of"] == ["CounterTop"]
