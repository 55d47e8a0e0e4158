"""The example agents (``example_agents/*.py``) in every situation of their task's plan.

Scenes come from the procedural designer (``exhaustive`` selection, seed 0, as the plugin
builds them, positions unsolved: the simulator does not read them). The correct policy
passes in every situation; a faulty one shows exactly its declared fault where the table in
``example_agents/faults.py`` says and passes elsewhere; a BehaviorTree.CPP twin gives the
py_trees policy's trace and outcome; and the ``minimal`` selection the plugin uses by default
reveals every fault.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType

import pytest
from faults import EXAMPLE_FAULTS, expected_outcome
from helpers import ROOT

from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import Trajectory, select
from pytest_logicenv.scenes.design import design_scene, provisional_scene
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.judge import judge, situation_of
from pytest_logicenv.sim.outcome import FAULTS, Outcome
from pytest_logicenv.sim.runner import Policy, vocabulary

TASKS = tuple(EXAMPLE_FAULTS)
KINDS = ("correct", *FAULTS)
#: Tasks whose module has BehaviorTree.CPP twins of all four policies.
WITH_XML = (
    "bathroom_reset",
    "breakfast",
    "clean_living_room",
    "cook_potato",
    "load_dishwasher",
    "study_night",
    "tidy_bed",
)


def module(task: str) -> ModuleType:
    return importlib.import_module(task)  # example_agents is on the pythonpath


@functools.cache
def plan(task: str) -> Plan:
    return load_plan(ROOT / "example_agents" / "plans" / f"{task}.json")


def trajectories(task: str, strategy: str = "exhaustive") -> tuple[Trajectory, ...]:
    return select(plan(task), strategy).trajectories


@functools.cache
def scenes(task: str) -> Mapping[str, Scene]:
    return {
        t.id: provisional_scene(design_scene(plan(task), t, seed=0)) for t in trajectories(task)
    }


@functools.cache
def known(task: str) -> frozenset[str]:
    return vocabulary(scenes(task).values(), plan(task).setting)


def expected(task: str, kind: str, trajectory: Trajectory) -> str:
    return expected_outcome(task, kind, dict(trajectory.conditions))


def run(task: str, policy: Policy, trajectory: Trajectory) -> Outcome:
    scene = scenes(task)[trajectory.id]
    return judge(policy, situation_of(plan(task), trajectory, scene, known=known(task)))


def cases() -> Iterator[object]:
    for task in TASKS:
        for kind in KINDS:
            for trajectory in trajectories(task):
                yield pytest.param(task, kind, trajectory, id=f"{task}-{kind}-{trajectory.id}")


@pytest.mark.parametrize(("task", "kind", "trajectory"), list(cases()))
def test_each_policy_shows_its_class_exactly_where_it_fails(
    task: str, kind: str, trajectory: Trajectory
) -> None:
    agents = module(task)
    outcome = run(task, agents.POLICIES[kind], trajectory)
    assert outcome.kind == expected(task, kind, trajectory), outcome.explain()
    if task in WITH_XML:
        twin = run(task, agents.xml_policy(kind), trajectory)
        assert twin.trace == outcome.trace
        assert twin.to_json() == outcome.to_json()


@pytest.mark.parametrize("task", TASKS)
def test_the_modules_expose_the_four_policies(task: str) -> None:
    agents = module(task)
    assert tuple(agents.POLICIES) == KINDS
    assert agents.__doc__ is not None
    for fault in FAULTS:  # the docstring says which situations reveal each fault
        assert f"``{fault}``" in agents.__doc__
        assert EXAMPLE_FAULTS[task][fault].declared == fault  # each is named by its class
    if task in WITH_XML:
        assert tuple(agents.XML_TREES) == KINDS
    else:
        assert not hasattr(agents, "xml_policy")


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("fault", FAULTS)
def test_the_plugins_minimal_selection_reveals_every_fault(task: str, fault: str) -> None:
    everywhere = trajectories(task)
    revealing = [t for t in everywhere if expected(task, fault, t) == fault]
    assert 0 < len(revealing) < len(everywhere)
    policy = module(task).POLICIES[fault]
    kinds = {run(task, policy, t).kind for t in trajectories(task, "minimal")}
    assert fault in kinds
