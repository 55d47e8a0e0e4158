"""The paper's Clean Living Room (Table 6, Figures 6-9): the correct policy passes in every
situation, each faulty one is classified as its class exactly where it fails, and the
BehaviorTree.CPP twins give the same traces as the py_trees policies."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from helpers import load_benchmark

from pytest_logicenv.logic.facts import evaluate_all
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.model import Scene
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.runner import run_policy, vocabulary

bench = load_benchmark("simulate")
policies = bench.load_policies()
CASES: list[tuple[Plan, Trajectory, Scene]] = list(bench.cases())
IDS = [trajectory.id for _, trajectory, _ in CASES]
KNOWN = vocabulary([scene for _, _, scene in CASES], CASES[0][0].setting)


def run(policy: object, case: tuple[Plan, Trajectory, Scene]) -> Outcome:
    plan, trajectory, scene = case
    return run_policy(
        policy,  # type: ignore[arg-type]
        scene,
        goal=trajectory.goal,
        situation=bench.situation(plan, trajectory),
        known=KNOWN,
    )


# Where each faulty policy must show its fault (paper Figures 7-9), by trajectory conditions.
FAILS_WHERE: dict[str, Callable[[dict[str, str]], bool]] = {
    "counterfactual": lambda answers: answers.get("toy_type") == "other_types",
    "unreachable": lambda answers: answers.get("toy_type") == "doll",
    "lackbranch": lambda answers: answers["wipe"] == "no",
}


def test_the_scenes_realize_their_trajectories() -> None:
    assert len(CASES) == 12
    for plan, trajectory, scene in CASES:
        facts = [*plan.setting]
        for path in trajectory.paths:
            for step in path.steps:
                facts += plan.factor(step.factor).realizations[step.value]
        assert evaluate_all(facts, scene), trajectory.id


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_correct_policy_passes_in_every_situation(
    case: tuple[Plan, Trajectory, Scene],
) -> None:
    run(policies.correct_policy, case).assert_ok()
    run(policies.xml_policy("correct"), case).assert_ok()


@pytest.mark.parametrize("kind", ["counterfactual", "unreachable", "lackbranch"])
def test_each_faulty_policy_shows_its_class_exactly_where_it_fails(kind: str) -> None:
    kinds = []
    for case in CASES:
        outcome = run(policies.POLICIES[kind], case)
        expected = kind if FAILS_WHERE[kind](dict(case[1].conditions)) else "pass"
        assert outcome.kind == expected, f"{case[1].id}:\n{outcome.explain()}"
        kinds.append(outcome.kind)
    assert 0 < kinds.count(kind) < len(CASES)


def xml_twins() -> Iterator[tuple[str, tuple[Plan, Trajectory, Scene]]]:
    for kind in policies.POLICIES:
        for case in CASES:
            yield kind, case


@pytest.mark.parametrize(("kind", "case"), list(xml_twins()))
def test_the_xml_twin_gives_the_same_trace_and_outcome(
    kind: str, case: tuple[Plan, Trajectory, Scene]
) -> None:
    from_python = run(policies.POLICIES[kind], case)
    from_xml = run(policies.xml_policy(kind), case)
    assert from_xml.trace == from_python.trace
    assert from_xml.to_json() == from_python.to_json()


def test_the_explanations_read_as_the_design_notes_show() -> None:
    case = next(c for c in CASES if c[1].id == "toy=other_types-book=yes-wipe=no")
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


def test_the_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--repeat", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "12 situations of clean_living_room, scenes of 30-30 objects, 1 repeats"
    assert any(line.startswith("correct (BT.CPP XML)") and "pass 12" in line for line in lines)
    assert lines[-1].startswith("simulate: ")
    assert lines[-1].endswith(" ms per policy run")
