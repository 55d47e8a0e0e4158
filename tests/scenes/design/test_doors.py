"""Doors as openings of the floor plan (issue 23 item 1): facts name them like any object, a
front door in an exterior wall when the facts ask for one, a role and a ``kind`` to tell
doors apart, and ``Doorway`` refused as a free object, with the fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT

from pytest_logicenv.cli import main
from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import evaluate, parse_fact
from pytest_logicenv.logic.plan import load_plan, plan_from_json
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.design import design_scene
from pytest_logicenv.scenes.export import to_house
from pytest_logicenv.scenes.realization import realize

FRONT_DOOR = ROOT / "example_agents" / "plans" / "front_door.json"


def _plan(realization: list[dict[str, Any]], rooms: tuple[str, ...] = ("LivingRoom",)) -> Any:
    return plan_from_json(
        {
            "format": "logicenv-plan/1",
            "task": "Doors.",
            "rooms": list(rooms),
            "setting": [],
            "subtasks": [
                {
                    "name": "door",
                    "factors": [
                        {
                            "id": "door",
                            "question": "Is it so?",
                            "domain": ["yes", "no"],
                            "answers": {"yes": "YES", "no": "NO"},
                            "realization": {"yes": realization, "no": [{"exists": "Sofa"}]},
                        }
                    ],
                    "tree": {
                        "query": "door",
                        "branches": {
                            "yes": {"action": "Do nothing.", "goal": []},
                            "no": {"action": "Do nothing.", "goal": []},
                        },
                    },
                }
            ],
        }
    )


def _yes(plan: Any) -> Any:
    return next(t for t in select(plan, "exhaustive").trajectories if "door=yes" in t.id)


def test_the_front_door_is_in_an_exterior_wall_of_its_room_with_its_role_and_state() -> None:
    plan = load_plan(FRONT_DOOR)
    for trajectory in select(plan, "exhaustive").trajectories:
        conditions = dict(trajectory.conditions)
        scene = realize(design_scene(plan, trajectory), plan, trajectory)
        front = next(d for d in scene.doors if d.role == "front_door")
        kitchen = next(d for d in scene.doors if d.role == "kitchen_door")
        assert front.rooms == ("living_room", "exterior")
        assert dict(front.attrs) == {"kind": "front"}
        assert front.open is (conditions["front_door"] == "yes")
        assert set(kitchen.rooms) == {"living_room", "kitchen"}
        assert kitchen.open is (conditions["kitchen_door"] == "no")
        wall = next(w for w in scene.walls if w.id == front.wall)
        assert wall.rooms == ("living_room",)  # an exterior wall: one room
        # A door between two rooms is in both: a fact can name it from either.
        fact = parse_fact({"exists": "Door", "where": {"room": "Kitchen"}})
        assert evaluate(fact, scene)
        assert evaluate(parse_fact({"exists": "Door", "where": {"room": "LivingRoom"}}), scene)


def test_the_front_door_exports_as_an_ai2thor_door_opening_that_keeps_its_state() -> None:
    plan = load_plan(FRONT_DOOR)
    trajectory = next(t for t in select(plan).trajectories if "front_door=yes" in t.id)
    scene = realize(design_scene(plan, trajectory), plan, trajectory)
    house = to_house(scene)
    front = next(d for d in house["doors"] if d["id"] == "front_door")
    assert front["assetId"].startswith("Doorway_")  # ProcTHOR's door assets
    assert front["wall1"].startswith("wall|exterior|")
    assert (front["openness"], front["openable"]) == (1.0, True)
    assert not [o for o in house["objects"] if "Door" in o["assetId"]]  # an opening, no object


def test_a_front_door_asked_for_twice_is_one_door() -> None:
    plan = _plan(
        [
            {"exists": "Door", "as": "front", "attrs": {"kind": "front"}},
            {"state": "front", "open": True},
            {"exists": "Door", "attrs": {"kind": "front"}, "states": {"open": True}},
        ]
    )
    spec = design_scene(plan, _yes(plan))
    assert [(d.id, d.role, d.open, d.rooms) for d in spec.doors] == [
        ("front_door", "front", True, ("living_room", "exterior"))
    ]


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        (
            [{"exists": "Door", "as": "d", "states": {"open": False}}],
            "the house has no interior door left for 'd'",
        ),
        (
            [{"exists": "Door", "as": "d", "attrs": {"colour": "red"}}],
            "a door's one attribute is 'kind'",
        ),
        (
            [
                {"exists": "Door", "as": "d", "attrs": {"kind": "front"}, "states": {"open": True}},
                {"state": "d", "open": False},
            ],
            "door d must be open and closed",
        ),
        (
            [{"exists": "Door", "as": "d", "attrs": {"kind": "front"}}, {"on": ["Book", "d"]}],
            "a door: doors are openings in a wall, not receptacles",
        ),
    ],
)
def test_door_facts_that_cannot_hold_say_why(facts: list[dict[str, Any]], message: str) -> None:
    plan = _plan(facts)
    with pytest.raises(SceneError, match=message):
        design_scene(plan, _yes(plan))


def _doorway_plan(tmp_path: Path) -> Path:
    data = json.loads(FRONT_DOOR.read_text())
    data["subtasks"][0]["factors"][0]["realization"]["yes"][0]["exists"] = "Doorway"
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(data))
    return path


def test_plan_check_passes_door_facts_and_refuses_a_doorway_with_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plan", "--check", str(FRONT_DOOR)]) == 0
    assert capsys.readouterr().out.endswith("passes every check\n")
    assert main(["plan", "--check", str(_doorway_plan(tmp_path))]) == 1
    out = capsys.readouterr().out
    assert (
        "realization.yes[0]: 'Doorway' is not an object: doors are openings in walls; name the "
        'door itself, "Door"'
    ) in out


def test_types_lists_the_door_with_its_kind_and_explains_doorway(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["types", "Door"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        "Door: static, openable; can be: open; stands: in a wall (an opening of the floor plan); "
        "attrs: kind=front/interior"
    ) in lines
    assert main(["types", "Doorway"]) == 1
    assert "'Doorway' is not an object: doors are openings in walls" in capsys.readouterr().out


PYTEST_PROJECT = """
import pytest
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Close, GoTo, IsOpen, Select

TASK = {task!r}
FRONT = Select("Door", attrs={{"kind": "front"}})


def shut_front():
    shut = sequence("Shut", GoTo(FRONT), Close(FRONT))
    return sequence("Front", when("Open", IsOpen(FRONT), shut))


def shut_doorway():
    return sequence("Front", when("Open", IsOpen("Doorway"), Close("Doorway")))


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_front(logic_env):
    logic_env.run(shut_front).assert_ok()


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_doorway(logic_env):
    logic_env.run(shut_doorway).assert_ok()
"""


@pytest.mark.slow
def test_a_policy_names_the_front_door_by_kind_and_a_doorway_is_told_the_fix(
    pytester: pytest.Pytester,
) -> None:
    data = json.loads(FRONT_DOOR.read_text())
    data["subtasks"] = data["subtasks"][:1]  # the front door only
    pytester.makefile(".json", plan=json.dumps(data))
    pytester.makepyfile(test_doors=PYTEST_PROJECT.format(task=data["task"]))
    result = pytester.runpytest("-p", "no:cacheprovider", "--logicenv-regenerate")
    result.assert_outcomes(passed=2, failed=2)  # each test runs in both situations
    result.stdout.fnmatch_lines(
        ["*'Doorway' is not an object: doors are openings in walls; name the door itself*"]
    )
