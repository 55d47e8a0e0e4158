"""Placement as ProcTHOR annotates it, and parts attached: the designer's and the measure's."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from helpers import ROOT

from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.design import design_scene
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.model import Provenance, Room, Scene, SceneObject, load_scene
from pytest_logicenv.scenes.realism import measure

CATALOG = default_catalog()
ROOM = Room("r", "LivingRoom", ((0, 0), (4, 0), (4, 4), (0, 4)))


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
    fridge = _at("fridge", "Fridge", 0.3, 0.3)  # a corner
    apple = _at("apple", "Apple", 2, 2)
    forced = "placement exception: apple on the floor, as 'an Apple on Floor' says"
    measured = measure(_scene(fridge, apple, notes=(forced,)), CATALOG)
    assert (measured.placed, measured.judged, measured.problems) == (2, 2, ())


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
        if not path.stem.endswith(".house")
    ]
    total = [measure(load_scene(path), CATALOG) for path in files]
    problems = [p for m in total for p in m.problems]
    assert len(files) == 33  # the twelve example tasks, minimal selection
    assert problems == []
