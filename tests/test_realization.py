"""Every generated scene is checked to realize its trajectory; a scene that does not is
refused with the facts it breaks."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import ROOT
from sample_scenes import two_rooms

from pytest_logicenv.designer import design_scene, provisional_scene
from pytest_logicenv.errors import SceneError
from pytest_logicenv.facts import parse_facts
from pytest_logicenv.plan import Plan, load_plan
from pytest_logicenv.realization import generate_scene, require_realized, unrealized
from pytest_logicenv.trajectories import select

PLANS = sorted((ROOT / "example_agents" / "plans").glob("*.json"))


def test_unrealized_lists_the_false_facts_in_words() -> None:
    facts = parse_facts(
        [
            {"exists": "Toy", "as": "toy", "where": {"on": "Floor"}, "attrs": {"kind": "doll"}},
            {"exists": "WetWipes", "where": {"on": "table"}},
            {"state": "window", "open": False},
            {"absent": "Milk"},
        ],
        "facts",
    )
    assert unrealized(two_rooms(), facts) == ["window is not open", "no Milk"]


def test_a_scene_that_misses_its_conditions_is_refused() -> None:
    plan = load_plan(ROOT / "example_agents" / "plans" / "clean_living_room.json")
    trajectory = next(
        t for t in select(plan, "exhaustive").trajectories if ("toy_type", "doll") in t.conditions
    )
    scene = provisional_scene(design_scene(plan, trajectory))
    assert require_realized(scene, plan, trajectory) is scene
    broken = scene.with_objects([o for o in scene.objects if o.role != "toy"])
    with pytest.raises(SceneError, match=r"does not realize toy=doll.*a Toy \(toy\) on Floor"):
        require_realized(broken, plan, trajectory)
    wrong_kind = scene.with_objects(
        [replace(o, attrs={"kind": "other"}) if o.role == "toy" else o for o in scene.objects]
    )
    with pytest.raises(SceneError, match="with kind=doll"):
        require_realized(wrong_kind, plan, trajectory)


def test_the_setting_is_checked_too() -> None:
    plan = Plan("t", (), setting=parse_facts([{"exists": "Sofa"}], "setting"))
    with pytest.raises(SceneError, match="does not realize the setting: a Sofa"):
        require_realized(two_rooms().with_objects([]), plan, None)


@pytest.mark.slow
@pytest.mark.parametrize("path", PLANS, ids=lambda p: p.stem)
def test_generate_scene_designs_lays_out_and_realizes(path: object) -> None:
    plan = load_plan(path)  # type: ignore[arg-type]
    for trajectory in select(plan).trajectories:
        scene = generate_scene(plan, trajectory, seed=0)
        assert scene.provenance.trajectory == trajectory.id
        assert scene.provenance.designer == "procedural"
        assert all(obj.asset_id or obj.custom_type for obj in scene.objects)
