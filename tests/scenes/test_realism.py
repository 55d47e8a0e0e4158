"""Placement as ProcTHOR annotates it, and parts attached: the designer's and the measure's."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.catalog import default_catalog, occurs_in
from pytest_logicenv.scenes.design import ROOM_TYPES, design_scene
from pytest_logicenv.scenes.design.templates import TEMPLATES, Slot
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.realism import measure
from pytest_logicenv.scenes.scene_json import load_scene, scene_to_json
from pytest_logicenv.scenes.scene_model import Provenance, Room, Scene, SceneObject

CATALOG = default_catalog()
ROOM = Room("r", "LivingRoom", ((0, 0), (4, 0), (4, 4), (0, 4)))
BEDROOM = replace(ROOM, type="Bedroom")


def _scene(*objects: SceneObject, notes: tuple[str, ...] = ()) -> Scene:
    return Scene("s", rooms=(ROOM,), objects=objects, provenance=Provenance(notes=notes))


def _at(obj_id: str, kind: str, x: float, z: float, **extra: Any) -> SceneObject:
    return SceneObject(obj_id, kind, room="r", size=(0.5, 0.5, 0.5), position=(x, 0.25, z), **extra)


@pytest.mark.parametrize(
    ("obj", "problem"),
    [
        (_at("p", "Painting", 2, 2), "does not hang on a wall, as its type does"),
        (_at("f", "Fridge", 2, 2), "stands against no wall; it goes in a corner or on an edge"),
        (_at("a", "Apple", 2, 2), "stands on the floor; ProcTHOR puts its type on furniture"),
        (_at("c", "Cart", 0.3, 2), "stands against 1 wall; it goes in the middle"),
    ],
)
def test_what_is_not_placed_as_annotated_is_named(obj: SceneObject, problem: str) -> None:
    measured = measure(_scene(obj), CATALOG)
    assert (measured.placed, measured.judged) == (0, 1)
    assert measured.problems == (f"{obj.id} ({obj.type}) {problem}",)


def test_what_is_placed_as_annotated_or_as_a_fact_forces_counts() -> None:
    bin_ = _at("bin", "GarbageCan", 0.3, 0.3)  # a corner
    pillow = _at("pillow", "Pillow", 2, 2)
    forced = "placement exception: pillow on the floor, as 'a Pillow on Floor' says"
    measured = measure(_scene(bin_, pillow, notes=(forced,)), CATALOG)
    assert (measured.placed, measured.judged, measured.problems) == (2, 2, ())
    assert measured.forced == 1


def test_an_object_in_a_room_type_it_does_not_occur_in_counts_only_as_recorded() -> None:
    fridge = _at("fridge", "Fridge", 0.3, 0.3)  # a corner of a living room
    measured = measure(_scene(fridge), CATALOG)
    assert (measured.placed, measured.judged, measured.forced) == (0, 1, 0)
    assert measured.problems == (
        "fridge (Fridge) is in r, a LivingRoom, where a Fridge does not occur (its room types: "
        "Kitchen, Garage)",
    )
    placement = "placement exception: fridge on the floor, as 'a Fridge on Floor' says"
    assert measure(_scene(fridge, notes=(placement,)), CATALOG).placed == 0  # not that one
    room = "room exception: fridge in r (a LivingRoom, where a Fridge does not occur), as ..."
    measured = measure(_scene(fridge, notes=(room,)), CATALOG)
    assert (measured.placed, measured.forced, measured.problems) == (1, 1, ())


def test_parts_must_be_there_and_attached() -> None:
    desk = _at("desk", "Desk", 0.3, 0.3)
    drawer = replace(_at("drawer", "Drawer", 3, 3), relation="part", part_of="desk")
    measured = measure(_scene(desk, drawer), CATALOG)
    assert (measured.attached, measured.parts) == (0, 1)
    assert measured.problems == ("drawer (Drawer) lies outside its whole desk",)
    alone = measure(_scene(desk), CATALOG)
    assert (alone.attached, alone.parts, alone.problems) == (0, 1, ("desk (Desk) lacks a Drawer",))


def test_the_designer_places_floor_objects_as_annotated_and_notes_what_facts_force() -> None:
    setting = [
        {"exists": "HousePlant", "as": "plant"},
        {"exists": "Pillow", "as": "pillow", "where": {"on": "Floor"}},
    ]
    plan = Plan("p", (), setting=parse_facts(setting, "setting"), rooms=("LivingRoom",))
    spec = design_scene(plan, None, seed=0)
    assert any(r.kind == "edge" and r.subject == "plant" for r in spec.relations)
    assert (
        "placement exception: pillow on the floor, as 'a Pillow (pillow) on Floor' says "
        "(a Pillow rests on furniture)"
    ) in spec.provenance.notes
    measured = measure(solve_layout(spec, seed=0), CATALOG)
    assert measured.placed_percent == measured.attached_percent == 100.0, measured.problems


def test_the_committed_example_scenes_are_all_realistic() -> None:
    files = [
        path
        for path in sorted((ROOT / "cache").glob("*/scenes/*.json"))
        if not path.name.endswith(".witness.json")
        if not path.stem.endswith(".house")
    ]
    total = [measure(load_scene(path), CATALOG) for path in files]
    problems = [p for m in total for p in m.problems]
    plans = sorted((ROOT / "example_agents" / "plans").glob("*.json"))
    # Every example task's scenes, minimal selection (the cache holds no other entries).
    assert len(files) == sum(len(select(load_plan(path)).trajectories) for path in plans)
    assert problems == []


@pytest.mark.parametrize(
    ("kind", "slot"), [(k, s) for k, slots in TEMPLATES.items() for s in slots]
)
def test_the_room_templates_hold_only_types_that_occur_in_their_room(kind: str, slot: Slot) -> None:
    assert occurs_in(CATALOG.type(slot.type), kind), (slot.type, kind)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(ROOM_TYPES), st.integers(0, 10_000))
def test_the_designer_furnishes_a_room_only_with_types_that_occur_there(
    kind: str, seed: int
) -> None:
    setting = [{"exists": "Book", "as": "book"}]
    plan = Plan("p", (), setting=parse_facts(setting, "setting"), rooms=(kind,))
    spec = design_scene(plan, None, seed=seed)
    for obj in spec.objects:
        if obj.part_of is None and obj.id != "book":
            assert occurs_in(CATALOG.type(obj.type), kind), (obj.id, kind)


def _design(setting: list[dict[str, Any]], *rooms: str) -> Scene:
    plan = Plan("p", (), setting=parse_facts(setting, "setting"), rooms=rooms)
    return solve_layout(design_scene(plan, None, seed=0), seed=0)


def test_a_bedroom_cabinet_is_a_part_of_bedroom_furniture() -> None:
    scene = _design([{"exists": "Cabinet", "as": "cabinet"}], "Bedroom")
    whole = scene.object(scene.object("cabinet").part_of or "")
    assert whole.type in ("Dresser", "SideTable", "Desk")
    assert not [o for o in scene.objects if o.type == "CounterTop"]
    assert not [n for n in scene.provenance.notes if n.startswith("room exception")]
    measured = measure(scene, CATALOG)
    assert measured.placed_percent == measured.attached_percent == 100.0, measured.problems


def test_a_room_a_fact_forces_is_recorded_and_measured_as_an_exception() -> None:
    scene = _design([{"exists": "Faucet", "as": "tap"}], "Bedroom")
    sink = scene.object(scene.object("tap").part_of or "")
    assert sink.type == "Sink"  # a sink is more usual than a bathtub, though not here either
    assert (
        f"room exception: {sink.id} in bedroom (a Bedroom, where a Sink does not occur), as "
        "'a Faucet (tap)' says: tap is always a part of a Bathtub or Sink, and none of them "
        "occurs in a Bedroom"
    ) in scene.provenance.notes
    measured = measure(scene, CATALOG)
    assert (measured.placed_percent, measured.forced) == (100.0, 1), measured.problems
    unrecorded = replace(scene, provenance=Provenance())
    assert measure(unrecorded, CATALOG).placed_percent < 100.0


def test_a_room_the_facts_name_is_the_exceptions_reason() -> None:
    setting = [{"exists": "Toilet", "as": "toilet", "where": {"room": "Kitchen"}}]
    scene = _design(setting, "Kitchen", "Bathroom")
    assert (
        "room exception: toilet in kitchen (a Kitchen, where a Toilet does not occur), as "
        "'a Toilet (toilet) in the Kitchen' says"
    ) in scene.provenance.notes


def test_the_benchmark_counts_room_types_and_the_forced_exceptions(tmp_path: Path) -> None:
    entry = tmp_path / "task" / "scenes"
    entry.mkdir(parents=True)
    faucet = _design([{"exists": "Faucet", "as": "tap"}], "Bedroom")
    lamp = _scene(_at("lamp", "FloorLamp", 0.3, 0.3))
    for name, scene in (("faucet", faucet), ("lamp", replace(lamp, rooms=(BEDROOM,)))):
        (entry / f"{name}.json").write_text(json.dumps(scene_to_json(scene)))
    # A scene's witness beside it is not a scene (reading it as one crashed the benchmark).
    (entry / "lamp.witness.json").write_text('{"format": "logicenv-witness/1", "calls": []}')
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "realism", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = run.stdout.splitlines()
    judged = measure(faucet, CATALOG).judged + 1
    assert "  lamp (FloorLamp) is in r, a Bedroom, where a FloorLamp does not occur" in "\n".join(
        lines
    )
    assert lines[-2].startswith("forced exceptions: 1 of the ")
    percent = 100.0 * (judged - 1) / judged
    assert lines[-1] == (
        f"realism: {percent:.1f}% objects placed as annotated, 100.0% parts attached, over 2 scenes"
    )
