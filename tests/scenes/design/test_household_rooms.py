"""The house types users name (a garage, a storage room, a dining room, a study, a laundry
room): known to the designer and to ``logicenv types``, furnished from ProcTHOR's rooms they
are like, with template relations that hold."""

from __future__ import annotations

import pytest

from pytest_logicenv.cli import main
from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.scenes.catalog import default_catalog, occurs_in
from pytest_logicenv.scenes.design import design_scene
from pytest_logicenv.scenes.design.templates import TEMPLATES, room_type
from pytest_logicenv.scenes.layout import solve_layout


def _plan(room: str, *facts: dict[str, object]) -> Plan:
    setting = parse_facts([{"exists": "LightSwitch", "as": "switch"}, *facts], "setting")
    return Plan(f"tidy the {room}", (), setting=setting, rooms=(room,))


@pytest.mark.parametrize("room", ["Garage", "StorageRoom"])
def test_a_garage_and_a_storage_room_are_designed_from_their_templates(room: str) -> None:
    spec = design_scene(_plan(room), None, seed=1)
    assert [r.type for r in spec.rooms] == [room]
    types = {obj.type for obj in spec.objects}
    assert "ShelvingUnit" in types
    catalog = default_catalog()
    assert all(occurs_in(catalog.type(slot.type), room) for slot in TEMPLATES[room])


def test_room_spellings_and_a_typo() -> None:
    assert room_type("storeroom") == "StorageRoom"
    assert room_type("garage") == "Garage"
    with pytest.raises(SceneError, match=r"unknown room type 'Garag'; did you mean Garage\?"):
        room_type("Garag")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_a_dining_rooms_own_template_relations_hold_in_its_layout(seed: int) -> None:
    scene = solve_layout(design_scene(_plan("DiningRoom"), None, seed=seed), seed=seed)
    assert [str(d) for d in scene.provenance.dropped if "painting" in str(d)] == []


def test_logicenv_types_finds_what_a_dining_room_and_a_laundry_room_hold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["types", "DiningRoom"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "DiningRoom: a room type ProcTHOR lacks; it holds what its Kitchen and LivingRoom rooms "
        "hold"
    )
    assert any(line.startswith("DiningTable: ") for line in lines)
    assert main(["types", "laundry room"]) == 0
    shown = {line.split(":")[0].split(" ")[0] for line in capsys.readouterr().out.splitlines()}
    assert {"WashingMachine", "ClothesDryer", "Basket", "LaundryBasket"} <= shown
    assert main(["types", "Study"]) == 0
    assert "Desk: " in capsys.readouterr().out
