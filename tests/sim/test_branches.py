"""Diagnosis by branch: a SUCCESS that did what another leaf of the subtask asks, without
checking which situation it is in, is a lackbranch that names the branch and the factor."""

from __future__ import annotations

import json

import py_trees
from helpers import ROOT
from sim_scenes import obj, scene

from pytest_logicenv.logic.plan import Plan, load_plan, plan_from_json
from pytest_logicenv.logic.trajectories import Trajectory, select, trajectory_for
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.branches import branches_of
from pytest_logicenv.sim.controls import carry, fallback, sequence
from pytest_logicenv.sim.leaves import GoTo, HasAttr
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.runner import run_policy

TOY_PLAN = json.loads(
    (ROOT / "example_agents" / "plans" / "living_room_pillow_toy.json").read_text()
)
Behaviour = py_trees.behaviour.Behaviour


def toy_plan() -> Plan:
    """The toy subtask alone: a doll goes in the blue box, another toy in the white one."""
    data = dict(TOY_PLAN, subtasks=[TOY_PLAN["subtasks"][1]], setting=[])
    return plan_from_json(data)


def doll_situation() -> tuple[Plan, Trajectory, Scene]:
    plan = toy_plan()
    trajectory = next(t for t in select(plan, "exhaustive").trajectories if "doll" in t.id)
    room = scene(
        obj("blue_box", "ToyBox", "receptacle", size=(0.6, 0.4, 0.4), at=(4, 4)),
        obj("white_box", "ToyBox", "receptacle", size=(0.6, 0.4, 0.4), at=(1, 4)),
        obj("toy", "Toy", "pickupable", attrs={"kind": "doll"}, size=(0.2, 0.2, 0.2)),
    )
    return plan, trajectory, room


def run(policy: Behaviour, *, branches: bool = True) -> Outcome:
    plan, trajectory, room = doll_situation()
    return run_policy(
        policy,
        room,
        goal=trajectory.goal,
        branches=branches_of(plan, trajectory) if branches else (),
    )


def every_toy_in_the_white_box() -> Behaviour:
    return carry("toy", "white_box", into=True)


def boxes_swapped() -> Behaviour:
    dolls = sequence("Dolls", HasAttr("toy", kind="doll"), carry("toy", "white_box", into=True))
    return fallback("ByKind", dolls, carry("toy", "blue_box", into=True))


def test_doing_another_leafs_job_unchecked_is_a_lackbranch_that_names_the_factor() -> None:
    outcome = run(every_toy_in_the_white_box())
    assert outcome.kind == "lackbranch"
    assert outcome.headline() == (
        "Lackbranch: the policy returned SUCCESS having done what another situation asks "
        "(What type of toy is it? = other), never checking which situation this is"
    )
    assert (
        "branch taken: in subtask 'toy' the policy did what What type of toy is it? = other "
        "asks (Place the toy in the white toy box.), but here What type of toy is it? = doll "
        "(Place the toy in the blue toy box.); it never checked: What type of toy is it?"
    ) in outcome.explain()
    assert outcome.to_json()["branches"] == [
        {
            "subtask": "toy",
            "factor": "toy_type",
            "question": "What type of toy is it?",
            "answer": "doll",
            "assumed": "other",
            "taken": [
                ["Is there a toy on the floor?", "YES"],
                ["What type of toy is it?", "other"],
            ],
            "action": "Place the toy in the white toy box.",
            "expected_action": "Place the toy in the blue toy box.",
            "checked": False,
        }
    ]
    read_back = Outcome.from_json(outcome.to_json())
    assert read_back.explain() == outcome.explain()


def test_a_policy_that_checked_the_factor_has_the_branch_and_stays_unreachable() -> None:
    outcome = run(boxes_swapped())
    assert outcome.kind == "unreachable"
    assert "it checked What type of toy is it? and still took that branch" in outcome.explain()


def test_a_goal_no_other_leaf_reaches_stays_unreachable() -> None:
    outcome = run(GoTo("toy"))
    assert (outcome.kind, outcome.branches) == ("unreachable", ())


def test_without_the_plans_branches_there_is_no_diagnosis() -> None:
    assert run(every_toy_in_the_white_box(), branches=False).kind == "unreachable"


def test_a_leaf_with_no_goal_explains_nothing() -> None:
    plan, trajectory, _ = doll_situation()
    (toy,) = branches_of(plan, trajectory)
    assert [str(b) for b in toy.others] == [
        "Is there a toy on the floor? = YES; What type of toy is it? = other: "
        "Place the toy in the white toy box.",
        "Is there a toy on the floor? = NO: Do nothing.",
    ]
    assert toy.others[1].goal == ()


def test_the_committed_bathroom_cache_diagnoses_hanging_a_dirty_towel() -> None:
    """On a cached scene, with the branches the fixture derives from the entry's plan: the
    policy that hangs every towel, dirty or not, never looked at the dirt."""
    plan = load_plan(ROOT / "example_agents" / "plans" / "bathroom_reset.json")
    entry = next((ROOT / "cache").glob("in_the_bathroom_*"))
    room = load_scene(entry / "scenes" / "towel_dirty=yes-light=yes-window=yes.json")
    trajectory = trajectory_for(plan, room.provenance.conditions)
    outcome = run_policy(
        carry("towel", "towel_holder"),
        room,
        goal=trajectory.paths[0].leaf.goal,
        branches=branches_of(plan, trajectory)[:1],
    )
    assert outcome.kind == "lackbranch", outcome.explain()
    assert "it never checked: Is the towel dirty?" in outcome.explain()
