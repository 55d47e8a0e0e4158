"""``sim.judge``: one description of a situation and one function that judges a policy in it;
``sim.situation_file``: a scene file that carries its situation, read back to the same one."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import py_trees
import pytest
from helpers import ROOT
from load_dishwasher import POLICIES  # example_agents is on the pythonpath
from sim_scenes import kitchen

from pytest_logicenv.errors import PolicyError, SceneError
from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import Trajectory, trajectory_for
from pytest_logicenv.scenes.scene_json import load_scene, scene_to_json
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.controls import sequence
from pytest_logicenv.sim.judge import (
    Situation,
    judge,
    plan_names,
    scene_situation,
    situation_of,
)
from pytest_logicenv.sim.leaves import AgentBehaviour, GoTo, IsOpen
from pytest_logicenv.sim.situation_file import read_scene_file, situation_document
from pytest_logicenv.sim.view import world_of
from pytest_logicenv.sim.world import WorldState

PLAN = ROOT / "example_agents" / "plans" / "load_dishwasher.json"


@pytest.fixture(scope="module")
def clean_bowl() -> tuple[Plan, Trajectory, Scene]:
    """The dishwasher example's committed scene with a clean bowl in the dishwasher."""
    plan = load_plan(PLAN)
    for path in (ROOT / "cache").glob("*/scenes/clean_bowl=yes.json"):
        scene = load_scene(path)
        if scene.provenance.conditions == (("running", "no"), ("clean_bowl", "yes")):
            return plan, trajectory_for(plan, scene.provenance.conditions), scene
    raise AssertionError("no committed clean_bowl=yes scene of the dishwasher example")


def test_a_situation_of_a_plan_carries_its_goal_answers_and_branches(
    clean_bowl: tuple[Plan, Trajectory, Scene],
) -> None:
    plan, trajectory, scene = clean_bowl
    situation = situation_of(plan, trajectory, scene)
    assert situation.id == trajectory.id == "clean_bowl=yes"
    assert situation.goal == trajectory.goal
    assert situation.answers == (
        ("Is the dishwasher running?", "NO"),
        ("Is there a clean bowl in the dishwasher?", "YES"),
    )
    assert [str(b.taken) for b in situation.branches] == [
        "Is the dishwasher running? = NO; Is there a clean bowl in the dishwasher? = YES: Put the "
        "clean bowl in the cabinet and close it, then put the plate in the dishwasher, close it "
        "and start it."
    ]


def test_the_branches_make_another_situations_work_a_lackbranch(
    clean_bowl: tuple[Plan, Trajectory, Scene],
) -> None:
    """Judged by the goal alone, the policy that never looks for a clean bowl is unreachable;
    with the plan's branches, it did what the other answer asks: a lackbranch."""
    plan, trajectory, scene = clean_bowl
    policy = POLICIES["lackbranch"]
    assert judge(policy, situation_of(plan, trajectory, scene)).kind == "lackbranch"
    assert judge(policy, scene_situation(scene, goal=trajectory.goal)).kind == "unreachable"


def test_the_plans_names_make_a_typo_bad_input(
    clean_bowl: tuple[Plan, Trajectory, Scene],
) -> None:
    plan, trajectory, scene = clean_bowl
    situation = situation_of(plan, trajectory, scene, known=plan_names(plan))
    with pytest.raises(PolicyError, match=r"'dish_washer' names no object.*'dishwasher'"):
        judge(lambda: GoTo("dish_washer"), situation)
    assert judge(lambda: GoTo("dish_washer"), scene_situation(scene)).kind == "lackbranch"


def test_the_budget_and_the_scene_can_change_and_nothing_else(
    clean_bowl: tuple[Plan, Trajectory, Scene],
) -> None:
    plan, trajectory, scene = clean_bowl
    situation = situation_of(plan, trajectory, scene, max_ticks=1)
    other = Scene("other", rooms=scene.rooms, objects=scene.objects, agent=scene.agent)
    moved = situation.in_scene(other)
    assert (moved.scene, moved.goal, moved.branches) == (other, situation.goal, situation.branches)
    assert judge(POLICIES["correct"], moved).scene == "other"
    assert situation.adding_goal(trajectory.goal[:1]).goal == (*trajectory.goal, trajectory.goal[0])


def test_the_judge_shows_a_failing_run_the_situations_witness_and_only_in_its_scene(
    clean_bowl: tuple[Plan, Trajectory, Scene],
) -> None:
    """The one place the witness joins an outcome (the fixture and ``logicenv run`` both
    judge through it): a failing run shows it, a variation of the scene does not."""
    plan, trajectory, scene = clean_bowl
    situation = replace(situation_of(plan, trajectory, scene), witness="GoTo(bowl), PickUp(bowl)")
    failed = judge(POLICIES["lackbranch"], situation)
    # The policy never wrote the plan's role bowl: the witness names it by its type.
    assert "a passing sequence: GoTo(Bowl), PickUp(Bowl)" in failed.explain()
    assert "a passing sequence" not in judge(POLICIES["correct"], situation).explain()
    moved = situation.in_scene(Scene("other", rooms=scene.rooms, objects=scene.objects))
    assert moved.witness == ""
    assert "a passing sequence" not in judge(POLICIES["lackbranch"], moved).explain()


def test_a_saved_situation_reads_back_to_the_same_one(
    clean_bowl: tuple[Plan, Trajectory, Scene], tmp_path: Path
) -> None:
    plan, trajectory, scene = clean_bowl
    situation = situation_of(plan, trajectory, scene, known=plan_names(plan), max_ticks=77)
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(situation_document(situation, "test_x.py::test_x::policy")))
    read = read_scene_file(path)
    assert read.scene == scene == load_scene(path)  # any scene reader still reads it
    assert read.situation == situation
    assert judge(POLICIES["lackbranch"], read.situation).to_json() == (
        judge(POLICIES["lackbranch"], situation).to_json()
    )


def test_a_bare_scene_file_has_no_situation_and_a_missing_one_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(scene_to_json(Scene("bare"))))
    assert read_scene_file(path).situation is None
    with pytest.raises(SceneError, match=r"missing\.json: no such scene file"):
        read_scene_file(tmp_path / "missing.json")


def test_a_situation_without_a_plan_cannot_be_saved() -> None:
    with pytest.raises(ValueError, match="has no plan to save"):
        situation_document(Situation("bare", Scene("bare")), "somewhere")


class _SecondRunCheat(AgentBehaviour):
    """Switches the lamp on past the view, in the policy's second run only."""

    runs = 0

    def __init__(self) -> None:
        super().__init__("Cheat")

    def initialise(self) -> None:
        type(self).runs += 1

    def update(self) -> py_trees.common.Status:
        if type(self).runs == 2:
            world = world_of(self.agent)
            world.set_state(world.candidates("lamp")[0], "toggled", True)
        return py_trees.common.Status.SUCCESS


def _counting_worlds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    built: list[str] = []
    real = WorldState.start.__func__  # type: ignore[attr-defined]

    def counting(cls: type[WorldState], scene: Scene) -> WorldState:
        built.append(scene.id)
        return real(cls, scene)  # type: ignore[no-any-return]

    # Every world of a scene is a copy of the one built once (WorldState.start).
    monkeypatch.setattr(WorldState, "start", classmethod(counting))
    return built


def test_the_second_run_of_a_deterministic_policy_is_checked_against_the_first_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built = _counting_worlds(monkeypatch)
    situation = scene_situation(kitchen())
    outcome = judge(lambda: sequence("Go", GoTo("mug"), GoTo("lamp")), situation)
    assert outcome.kind == "pass"
    assert len(built) == 3  # two runs and one replay, not a replay of each


def test_a_run_with_no_action_is_checked_against_the_scene_as_built_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built = _counting_worlds(monkeypatch)
    situation = scene_situation(replace(kitchen(), id="no-action"))
    for _ in range(3):
        assert judge(lambda: IsOpen("fridge"), situation).kind == "lackbranch"
    assert len(built) == 2 * 3 + 1  # each run's world, and the scene's as built once


def test_a_world_changed_past_the_view_in_the_second_run_only_is_caught() -> None:
    _SecondRunCheat.runs = 0
    outcome = judge(
        lambda: sequence("Go", GoTo("lamp"), _SecondRunCheat()), scene_situation(kitchen())
    )
    assert (outcome.kind, outcome.status) == ("error", "TAMPERED")
    assert "which no action of the trace did" in (outcome.error or "")


def test_runs_whose_traces_differ_are_each_replayed_and_said_to_differ(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built = _counting_worlds(monkeypatch)
    targets = iter(["mug", "lamp"])
    outcome = judge(lambda: sequence("Go", GoTo(next(targets))), scene_situation(kitchen()))
    assert outcome.status == "NONDETERMINISTIC"
    assert len(built) == 4
