"""The house types users name (a garage, a storage room, a dining room, a study, a laundry
room): known to the designer and to ``logicenv types``, furnished from ProcTHOR's rooms they
are like, with template relations that hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_logicenv.cli import main
from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.scenes.catalog import default_catalog, occurrence, occurs_in
from pytest_logicenv.scenes.catalog.user_types import load_catalog
from pytest_logicenv.scenes.design import design_scene
from pytest_logicenv.scenes.design.templates import ROOM_TYPES, TEMPLATES, room_type
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.realism import measure


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
@pytest.mark.parametrize("room", ROOM_TYPES)
def test_every_rooms_own_template_relations_hold_in_its_layout(room: str) -> None:
    """No room's template asks what its layout must drop: a dining room's painting above its
    centred table, two boxes side by side on one shelving unit's top, a painting above a
    headboard that reaches the ceiling (bedroom, seed 15: left out at design, with a note)."""
    for seed in range(20):
        scene = solve_layout(design_scene(_plan(room), None, seed=seed), seed=seed)
        assert [str(d) for d in scene.provenance.dropped] == [], (room, seed)
        assert scene.provenance.dropped_objects == (), (room, seed)


def test_a_template_relation_the_assets_cannot_hold_is_not_asked_and_says_why() -> None:
    spec = design_scene(_plan("Bedroom"), None, seed=15)
    assert not [r for r in spec.relations if r.kind == "above" and r.target == "bed_1"]
    assert any(
        note.startswith("template relation above(painting_1, bed_1) not asked: bed_1 is 2.32 m")
        for note in spec.provenance.notes
    )


def test_a_laundry_room_holds_its_machines_not_a_bathrooms_fixtures() -> None:
    catalog = default_catalog()
    for name in ("WashingMachine", "ClothesDryer", "LaundryHamper", "Basket", "Detergent"):
        assert occurs_in(catalog.type(name), "LaundryRoom"), name
    for name in ("Toilet", "Bathtub", "ShowerCurtain", "Plunger"):
        assert not occurs_in(catalog.type(name), "LaundryRoom"), name
    assert occurrence(catalog.type("WashingMachine"), "LaundryRoom")[0] == 2  # often
    assert not occurs_in(catalog.type("Fridge"), "DiningRoom")
    assert not occurs_in(catalog.type("Sofa"), "Garage")
    assert occurs_in(catalog.type("Cloth"), "LaundryRoom")  # carried: as in a bathroom


def test_a_type_files_rooms_make_a_built_in_type_occur_there(tmp_path: Path) -> None:
    """[types.Sofa] rooms = ["Garage"] puts a sofa in a garage (the room kind says no)."""
    path = tmp_path / "types.toml"
    path.write_text('[types.Sofa]\nrooms = ["Garage"]\n', encoding="utf-8")
    catalog = load_catalog(path)
    assert occurs_in(catalog.type("Sofa"), "Garage")
    assert not occurs_in(default_catalog().type("Sofa"), "Garage")


def test_a_bathroom_sink_set_into_its_counter_is_no_exception() -> None:
    """AI2-THOR's bathrooms have counters (83% of its scenes) though ProcTHOR weights none."""
    plan = _plan(
        "Bathroom",
        {"exists": "CounterTop", "as": "counter"},
        {"exists": "Sink", "as": "sink", "where": {"part_of": "counter"}},
    )
    spec = design_scene(plan, None, seed=0)
    assert not [note for note in spec.provenance.notes if "exception" in note]
    scene = solve_layout(spec, seed=0)
    measured = measure(scene, default_catalog())
    assert measured.forced == 0
    assert not [p for p in measured.problems if "does not occur" in p]


def test_logicenv_types_finds_what_a_dining_room_and_a_laundry_room_hold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["types", "DiningRoom"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "DiningRoom: a room type ProcTHOR lacks; what stands in it is reviewed (often: "
        "DiningTable, Chair), the things carried there are its Kitchen and LivingRoom rooms'"
    )
    assert any(line.startswith("DiningTable: ") for line in lines)
    assert not any(line.startswith(("Fridge: ", "Stove ", "CounterTop: ")) for line in lines)
    assert main(["types", "laundry room"]) == 0
    shown = {line.split(":")[0].split(" ")[0] for line in capsys.readouterr().out.splitlines()}
    assert {"WashingMachine", "ClothesDryer", "Basket", "LaundryBasket"} <= shown
    assert main(["types", "Study"]) == 0
    assert "Desk: " in capsys.readouterr().out
    assert main(["types", "WashingMachine"]) == 0
    assert "rooms: Bathroom sometimes, LaundryRoom often, Garage sometimes" in (
        capsys.readouterr().out
    )
    assert main(["types", "Desk"]) == 0
    assert "Bedroom often, Study often" in capsys.readouterr().out  # a type that lists Study
