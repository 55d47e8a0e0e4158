"""``logicenv types``: what a plan's facts and a policy may name, as the error messages promise."""

from __future__ import annotations

import pytest

from pytest_logicenv.cli import main


def test_every_type_with_its_properties(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["types"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "HousePlant: moveable, fillable; rooms: Kitchen, LivingRoom, Bedroom, Bathroom" in lines
    assert any(
        line.startswith("Mop (custom): pickupable, cleaning_tool; rooms: ") for line in lines
    )
    assert "Television: moveable, toggleable, breakable; rooms: LivingRoom" in lines
    assert lines == sorted(lines)


def test_a_word_narrows_by_name_property_or_room(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["types", "fillable"]) == 0
    names = [line.split(":")[0] for line in capsys.readouterr().out.splitlines()]
    assert "WateringCan" in names
    assert "Sofa" not in names
    assert main(["types", "lamp"]) == 0
    assert [line.split(":")[0] for line in capsys.readouterr().out.splitlines()] == [
        "DeskLamp",
        "FloorLamp",
    ]


def test_a_misspelt_type_gets_the_closest_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["types", "Televison"]) == 1
    assert capsys.readouterr().out == (
        "logicenv types: no type, property or room matches 'Televison'; did you mean Television?\n"
    )
