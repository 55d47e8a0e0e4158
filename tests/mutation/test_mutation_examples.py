"""Mutation on the example agents: every hand-written faulty policy's fault is among the kills
of the correct policy's mutants (some killed mutant fails in exactly the situations the
faulty policy fails in, with the same outcome), for the py_trees policies and their
BehaviorTree.CPP twins; and ``--logicenv-mutate`` reports the example agents' score."""

from __future__ import annotations

import json
from typing import Any

import pytest
from example_tasks import TASKS, flavours, plan, situations
from helpers import ROOT

from pytest_logicenv.mutation import mutants_of, run_mutants, score_policy
from pytest_logicenv.sim.outcome import FAULTS

pytest_plugins = ["pytester"]

CASES = [(task, flavour) for task in TASKS for flavour in flavours(task)]


def _kinds(policy: Any, task: str) -> tuple[str, ...]:
    return tuple(situation.run(policy).kind for situation in situations(task))


@pytest.mark.parametrize(("task", "flavour"), CASES)
def test_every_hand_written_fault_is_among_the_kills(task: str, flavour: str) -> None:
    policies = flavours(task)[flavour]
    original = _kinds(policies["correct"], task)
    assert set(original) == {"pass"}
    vectors = {}
    for mutant in mutants_of(policies["correct"], plan(task)).mutants:
        vectors[mutant.mutation.id] = (_kinds(mutant, task), mutant.mutation)
    for fault in FAULTS:
        hand_written = _kinds(policies[fault], task)
        assert fault in hand_written
        twins = [m for kinds, m in vectors.values() if kinds == hand_written]
        assert twins, f"no mutant of the correct policy fails as {fault}_policy does"


#: Mutants of actions that name their objects by selectors (a type with a room, a whole),
#: which the plan's goals name by roles: the operators find the roles a selector denotes.
SELECTOR_MUTANTS = {
    "study_night": [
        "drop-open: skips Open(Drawer of Desk in the Study) before PickUp(book) from study_drawer",
        "delete-goal-action: skips Close(Window in the Study), the last action making "
        "study_window open=False true",
        "delete-goal-action: skips ToggleOff(DeskLamp in the Study), the last action making "
        "study_lamp toggled=False true",
        "delete-goal-action: skips PutOn(book, Desk in the Bedroom), the last action making "
        "book on bedroom_desk true",
    ],
    "living_room_drawers": [
        "delete-goal-action: skips PutIn(keys, Drawer of SideTable), the last action making "
        "keys in side_drawer true",
        "delete-goal-action: skips Close(Cabinet of TVStand (open=true)), the last action "
        "making open_cabinet open=False true",
    ],
}


@pytest.mark.parametrize(
    ("task", "flavour"), [(task, flavour) for task, flavour in CASES if task in SELECTOR_MUTANTS]
)
def test_actions_named_by_selectors_get_the_plans_mutants_and_the_scenes_kill_them(
    task: str, flavour: str
) -> None:
    correct = flavours(task)[flavour]["correct"]
    found = {
        f"{m.mutation.operator}: {m.mutation.change}": m
        for m in mutants_of(correct, plan(task)).mutants
    }
    for change in SELECTOR_MUTANTS[task]:
        assert change in found, f"{change!r} not among {sorted(found)}"
        kinds = _kinds(found[change], task)
        assert set(kinds) - {"pass"}, f"{change!r} survives: {kinds}"


@pytest.mark.parametrize("task", TASKS)
def test_each_tasks_mutants_are_mostly_killed_and_the_survivors_say_why(task: str) -> None:
    correct = flavours(task)["py_trees"]["correct"]
    mutants = mutants_of(correct, plan(task))
    scenes = [(s.id, run_mutants(mutants, s.run(correct).kind, s.run)) for s in situations(task)]
    score = score_policy(f"{task}.py::test", "correct", scenes)
    assert score.score is not None
    assert score.score >= 70  # the survivors: a subtask's order, a reach already there, ...
    assert set(score.by_fault) == set(FAULTS)
    for survivor in score.survivors:
        assert survivor.node
        assert survivor.change


@pytest.mark.parametrize("task", ["wash_mug", "bathroom_mirror"])
def test_skipping_the_walk_to_the_faucet_is_killed(task: str) -> None:
    """Standing at the can (or the cloth) on the counter is not standing at the sink: the
    mutant that never goes to the faucet breaks a rule in some scene."""
    correct = flavours(task)["py_trees"]["correct"]
    mutants = mutants_of(correct, plan(task))
    scenes = [(s.id, run_mutants(mutants, s.run(correct).kind, s.run)) for s in situations(task)]
    score = score_policy(f"{task}.py::test", "correct", scenes)
    skips = [
        verdict
        for verdict in score.verdicts
        if verdict.operator == "delete-needed" and verdict.node.startswith("GoTo(faucet)")
    ]
    assert skips
    assert all(verdict.kills for verdict in skips), skips


@pytest.mark.slow
def test_the_example_agents_report_their_mutation_score(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess(
        str(ROOT / "example_agents"),
        "-p",
        "no:cacheprovider",
        "--rootdir",
        str(ROOT),
        "--logicenv-mutate",
        f"--logicenv-report=json:{pytester.path / 'report.json'}",
        "--logicenv-report=term",
    )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "*- mutation score -*",
            "Policy * Mutants  Killed  Equivalent  Score",
            "example_agents/test_clean_living_room.py::test_policies (correct_policy) *",
            "TOTAL * 9?%",
            "by operator: drop-open */*, delete-needed */*, delete-goal-action */*, *",
            "by fault class: counterfactual */*, unreachable */*, lackbranch */*",
            "surviving mutants (each a situation no scene has, or a change no scene can see):",
        ]
    )
    report = json.loads((pytester.path / "report.json").read_text())
    mutation = report["mutation"]
    policies = mutation["policies"]
    assert len(policies) == len(CASES)  # each correct policy, py_trees and BT.CPP
    assert mutation["total"] == sum(p["total"] for p in policies)
    assert mutation["killed"] / mutation["total"] >= 0.9
