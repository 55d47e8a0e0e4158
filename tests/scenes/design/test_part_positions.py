"""Parts told apart by where they are in their whole (issue 23 item 2): a counter's left and
right cabinets, a wall cabinet's upper ones, the cabinet under a sink, a dresser's top
drawer; facts and selectors name them by those attributes."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import ROOT

from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.plan import load_plan, plan_from_json
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.design import design_scene
from pytest_logicenv.scenes.part_geometry import part_boxes, turned
from pytest_logicenv.scenes.realization import realize
from pytest_logicenv.sim.controls import sequence
from pytest_logicenv.sim.leaves import GoTo, Open, Select
from pytest_logicenv.sim.runner import run_policy

UPPER = ROOT / "example_agents" / "plans" / "upper_cabinet.json"


def test_left_and_right_are_as_a_person_facing_the_whole_says_them() -> None:
    parts = [("Cabinet", {"position": "right"}), ("Cabinet", {"position": "left"})]
    (_, right), (_, left) = part_boxes("CounterTop", (2.0, 0.9, 0.6), parts)
    # Facing the front of a counter that faces +z, one looks along -z: in AI2-THOR's
    # left-handed frame the left hand is +x.
    assert left[0] > 0 > right[0]
    turned_left = turned(left, 180)  # the counter turned to face -z: its left is now -x
    assert turned_left[0] < 0


def test_the_cabinet_under_a_sink_fills_the_block_below_its_basin() -> None:
    parts = [("SinkBasin", {}), ("Faucet", {}), ("Cabinet", {"position": "under_sink"})]
    (basin_size, basin), _, (cabinet_size, cabinet) = part_boxes("Sink", (0.8, 0.9, 0.6), parts)
    assert cabinet[1] + cabinet_size[1] / 2 <= basin[1] - basin_size[1] / 2  # below the basin
    assert cabinet_size[1] > 0.5


def _scene(trajectory_id: str) -> Any:
    plan = load_plan(UPPER)
    trajectory = next(t for t in select(plan, "exhaustive").trajectories if t.id == trajectory_id)
    return realize(design_scene(plan, trajectory), plan, trajectory)


def test_an_upper_cabinet_is_a_part_of_a_wall_cabinet_hung_on_the_wall() -> None:
    scene = _scene("plate=yes-sink_cabinet=yes")
    upper = next(o for o in scene.objects if o.role == "upper_cabinet")
    whole = scene.object(upper.part_of or "")
    assert (whole.type, whole.relation, dict(upper.attrs)) == (
        "WallCabinet",
        "wall",
        {"level": "upper", "position": "left"},
    )
    assert upper.position[1] - upper.size[1] / 2 > 1.0  # above the counter, not at the floor
    sink_cabinet = next(o for o in scene.objects if o.role == "sink_cabinet")
    assert scene.object(sink_cabinet.part_of or "").type == "Sink"
    assert dict(sink_cabinet.attrs) == {"position": "under_sink", "level": "lower"}


def test_a_selector_by_position_binds_what_a_bare_part_of_cannot() -> None:
    scene = _scene("plate=no-sink_cabinet=no")
    bare = run_policy(lambda: GoTo(Select("Cabinet", part_of="CounterTop")), scene)
    assert bare.kind == "error"
    explained = bare.explain()
    assert "GoTo(Cabinet of CounterTop) is ambiguous" in explained
    assert "(part of counter, level=lower, position=left)" in explained  # what tells them apart
    left = Select("Cabinet", part_of="CounterTop", attrs={"position": "left"})
    named = run_policy(lambda: sequence("Left", GoTo(left), Open(left)), scene)
    assert named.kind == "pass"
    assert str(named.trace[-1]) == "Open(Cabinet of CounterTop with position=left) ok"


def _plan(facts: list[dict[str, Any]]) -> Any:
    return plan_from_json(
        {
            "format": "logicenv-plan/1",
            "task": "Cabinets.",
            "rooms": ["Kitchen"],
            "setting": [{"exists": "CounterTop", "as": "counter"}, *facts],
            "subtasks": [
                {
                    "name": "s",
                    "factors": [
                        {
                            "id": "f",
                            "question": "Is it so?",
                            "domain": ["yes", "no"],
                            "answers": {"yes": "YES", "no": "NO"},
                            "realization": {
                                "yes": [{"exists": "Apple"}],
                                "no": [{"absent": "Apple"}],
                            },
                        }
                    ],
                    "tree": {
                        "query": "f",
                        "branches": {
                            "yes": {"action": "Do nothing.", "goal": []},
                            "no": {"action": "Do nothing.", "goal": []},
                        },
                    },
                }
            ],
        }
    )


def test_a_position_the_whole_has_no_slot_for_says_which_it_has() -> None:
    plan = _plan(
        [{"exists": "Cabinet", "where": {"part_of": "counter"}, "attrs": {"level": "upper"}}]
    )
    with pytest.raises(SceneError, match=r"asks for level=upper, and counter has no such Cabinet"):
        design_scene(plan, select(plan).trajectories[0])
