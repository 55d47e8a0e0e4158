"""Routes drawn along the floor the agent can walk: from stand points on free floor, around
the furniture and through the doors, never through what stands there."""

from __future__ import annotations

import itertools
import json

import pytest
from clean_living_room import POLICIES as LIVING_ROOM
from fetch_lamp_or_pillow import POLICIES as FETCH
from helpers import ROOT

from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.render.route import route_of
from pytest_logicenv.scenes.physics.reach import obstacles_of, walkable_floor
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.scenes.scene_model import Point, Scene
from pytest_logicenv.sim.runner import run_policy

CASES = {
    "four-rooms": ("you_are_in_the_living_room-c315e001", "pan=yes", FETCH["correct"]),
    "living-room": (
        "you_are_in_the_living_room-b808b58d",
        "toy_type=other_types-book=no-wipe=no",
        LIVING_ROOM["counterfactual"],
    ),
}


def _run(case: str) -> tuple[Scene, list[Point]]:
    entry, trajectory, policy = CASES[case]
    scene = load_scene(ROOT / "cache" / entry / "scenes" / f"{trajectory}.json")
    records = json.loads((ROOT / "cache" / entry / "trajectories.json").read_text())
    [record] = [r for r in records["trajectories"] if r["id"] == trajectory]
    outcome = run_policy(policy, scene, goal=parse_facts(record["goal"], "goal"))
    return scene, list(route_of(scene, outcome.trace).points)


def _samples(points: list[Point], step: float = 0.02) -> list[Point]:
    found = []
    for (x0, z0), (x1, z1) in itertools.pairwise(points):
        n = max(1, int(((x1 - x0) ** 2 + (z1 - z0) ** 2) ** 0.5 / step))
        found += [(x0 + (x1 - x0) * k / n, z0 + (z1 - z0) * k / n) for k in range(n + 1)]
    return found


@pytest.mark.parametrize("case", list(CASES))
def test_a_route_goes_around_the_furniture_from_stand_points_on_free_floor(case: str) -> None:
    scene, points = _run(case)
    assert len(points) > 3
    inside = [
        (name, point)
        for point in _samples(points)
        for name, rect in obstacles_of(scene)
        if rect.distance(point) == 0
    ]
    assert inside == []
    floor = walkable_floor(scene, points[0])
    for point in points[1:]:  # every corner and stand point is floor the agent can walk
        assert floor.nearest(point) == (round(point[0] / 0.05), round(point[1] / 0.05))
