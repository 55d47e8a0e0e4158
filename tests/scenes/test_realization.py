"""Every generated scene is checked to realize its trajectory; a scene that does not is
refused with the facts it breaks."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest
from helpers import ROOT
from sample_scenes import two_rooms

from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.design import design_scene, provisional_scene
from pytest_logicenv.scenes.realization import generate_scene
from pytest_logicenv.scenes.realized import require_realized, unrealized

CATALOG = default_catalog()
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
    with pytest.raises(SceneError, match=r"does not realize toy_type=doll.*a Toy \(toy\) on Floor"):
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
        for obj in scene.objects:  # an asset, but for a part (its whole's shows it) or a type
            shown = obj.asset_id or obj.part_of or not CATALOG.type(obj.type).exportable
            assert shown, obj.id


# A fresh interpreter generates a scene (design, layout, check), exports it, draws it and runs
# a policy in it: everything printed must be the same whatever the hash seed (no set or dict
# order, no hash() of a str may leak into a scene or a trace).
_EVERYTHING = """
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from clean_living_room import correct_policy, xml_policy
from pytest_logicenv.scenes.export import to_house
from pytest_logicenv.scenes.scene_json import scene_to_json
from pytest_logicenv.logic.plan import load_plan
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.realization import generate_scene
from pytest_logicenv.render import render_svg
from pytest_logicenv.sim.runner import run_policy
from pytest_logicenv.logic.trajectories import select
plan = load_plan(sys.argv[2])
digest = hashlib.sha256()
for trajectory in select(plan, "pairwise").trajectories:
    scene = generate_scene(plan, trajectory, seed=5)
    digest.update(json.dumps(scene_to_json(scene), sort_keys=True).encode())
    digest.update(json.dumps(to_house(scene), sort_keys=True).encode())
    digest.update(render_svg(scene).encode())
    for policy in (correct_policy, xml_policy("lackbranch")):
        digest.update(json.dumps(run_policy(policy, scene).to_json(), sort_keys=True).encode())
print(digest.hexdigest())
"""


@pytest.mark.slow
def test_same_seed_same_scene_and_trace_whatever_the_hash_seed() -> None:
    digests = set()
    for hash_seed in ("0", "1", "4242"):
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                _EVERYTHING,
                str(ROOT / "example_agents"),
                str(ROOT / "example_agents" / "plans" / "clean_living_room.json"),
            ],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(done.stdout.strip())
    assert len(digests) == 1, digests
