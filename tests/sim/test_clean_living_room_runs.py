"""The paper's Clean Living Room (Table 6, Figures 6-9) in hand-built scenes
(``tests/living_room.py``, which the CLI tests and the simulator benchmark use too): each
policy and its BehaviorTree.CPP twin end as the table in ``example_agents/faults.py`` says,
the explanations read as the paper's figures show them, and the benchmark runs."""

from __future__ import annotations

import subprocess
import sys

import clean_living_room as policies  # example_agents is on the pythonpath
import pytest
from faults import EXAMPLE_FAULTS, expected_outcome
from helpers import ROOT
from living_room import cases, situation

from pytest_logicenv.logic.facts import evaluate_all
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.runner import run_policy, vocabulary

CASES: list[tuple[Plan, Trajectory, Scene]] = list(cases())
KNOWN = vocabulary([scene for _, _, scene in CASES], CASES[0][0].setting)


def run(policy: object, case: tuple[Plan, Trajectory, Scene]) -> Outcome:
    plan, trajectory, scene = case
    return run_policy(
        policy,  # type: ignore[arg-type]
        scene,
        goal=trajectory.goal,
        situation=situation(plan, trajectory),
        known=KNOWN,
    )


def test_the_scenes_realize_their_trajectories() -> None:
    assert len(CASES) == 12
    for plan, trajectory, scene in CASES:
        facts = [*plan.setting]
        for path in trajectory.paths:
            for step in path.steps:
                facts += plan.factor(step.factor).realizations[step.value]
        assert evaluate_all(facts, scene), trajectory.id


@pytest.mark.parametrize("kind", policies.POLICIES)
def test_each_policy_and_its_twin_end_as_the_table_says_in_every_situation(kind: str) -> None:
    kinds = []
    for case in CASES:
        outcome = run(policies.POLICIES[kind], case)
        expected = expected_outcome("clean_living_room", kind, dict(case[1].conditions))
        assert outcome.kind == expected, f"{case[1].id}:\n{outcome.explain()}"
        twin = run(policies.xml_policy(kind), case)
        assert twin.trace == outcome.trace
        assert twin.to_json() == outcome.to_json()
        kinds.append(outcome.kind)
    if kind in EXAMPLE_FAULTS["clean_living_room"]:
        assert 0 < kinds.count(kind) < len(CASES)


def test_the_explanations_read_as_the_design_notes_show() -> None:
    case = next(c for c in CASES if c[1].id == "toy_type=other_types-book=yes-wipe=no")
    lines = run(policies.lackbranch_policy, case).explain().splitlines()
    assert lines[0] == (
        "Lackbranch: GoTo(wet_wipes) acts on wet_wipes, which this situation does not contain"
    )
    assert lines[1] == (
        "situation: There is a toy on the floor? = YES; What is the type of the toy on the "
        "floor? = other types; There is a book on the floor? = YES; There is a wet wipe on the "
        "table? = NO"
    )
    assert lines[2] == (
        "broken precondition [exists]: this scene contains wet_wipes; "
        "but no wet_wipes in this scene"
    )
    assert lines[3].startswith("trace: Exists(book, on=Floor)? yes, GoTo(book) ok, ")
    assert lines[3].endswith("GoTo(wet_wipes) -> no wet_wipes in this scene")
    counterfactual = run(policies.counterfactual_policy, case).explain().splitlines()
    assert counterfactual[0] == (
        "Counterfactual: PutIn(toy, white_box) broke a precondition: the agent holds toy"
    )
    assert counterfactual[-1].endswith(
        "GoTo(toy) ok, GoTo(white_box) ok, PutIn(toy, white_box) -> the agent holds nothing"
    )


@pytest.mark.slow
def test_the_benchmark_prints_its_figures() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "simulate", "--repeat", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = run.stdout.splitlines()
    assert lines[0] == "12 situations of clean_living_room, scenes of 30-30 objects, 1 repeats"
    assert any(line.startswith("correct (BT.CPP XML)") and "pass 12" in line for line in lines)
    assert lines[-1].startswith("simulate: ")
    assert lines[-1].endswith(" ms per policy run")
