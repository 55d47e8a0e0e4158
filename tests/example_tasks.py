"""The example tasks' situations, as the plugin's default selection picks them, ready to run a
policy in: for the mutation tests and ``benchmarks/bench_mutate.py`` (importable because
``pythonpath = ["tests", "example_agents"]``).

Scenes come from the procedural designer with seed 0, as the plugin builds them, positions
unsolved: the simulator does not read them.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from faults import EXAMPLE_FAULTS
from helpers import ROOT

from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.design import design_scene, provisional_scene
from pytest_logicenv.sim.branches import branches_of
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.runner import run_policy, vocabulary

TASKS = tuple(EXAMPLE_FAULTS)


@dataclass(frozen=True)
class Situation:
    """One scene of a task: its trajectory's id, and how to run a policy in it."""

    id: str
    run: Callable[[Any], Outcome]


@functools.cache
def plan(task: str) -> Plan:
    return load_plan(ROOT / "example_agents" / "plans" / f"{task}.json")


@functools.cache
def situations(task: str, strategy: str = "minimal") -> tuple[Situation, ...]:
    the_plan = plan(task)
    trajectories = select(the_plan, strategy).trajectories
    scenes = {t.id: provisional_scene(design_scene(the_plan, t, seed=0)) for t in trajectories}
    known = vocabulary(scenes.values(), the_plan.setting)
    found = []
    for trajectory in trajectories:
        situation = tuple(
            (the_plan.factor(f).question, the_plan.factor(f).answer(v))
            for f, v in trajectory.conditions
        )
        options = {
            "goal": trajectory.goal,
            "situation": situation,
            "known": known,
            "branches": branches_of(the_plan, trajectory),
        }
        scene = scenes[trajectory.id]
        found.append(Situation(trajectory.id, functools.partial(_run, scene=scene, **options)))
    return tuple(found)


def _run(policy: Any, *, scene: Any, **options: Any) -> Outcome:
    return run_policy(policy, scene, **options)


def flavours(task: str) -> Mapping[str, Mapping[str, Any]]:
    """The task's policies by kind (``correct``, ``counterfactual``, ...): the py_trees ones,
    and their BehaviorTree.CPP twins when the module has them."""
    agents = importlib.import_module(task)
    found: dict[str, Mapping[str, Any]] = {"py_trees": agents.POLICIES}
    if hasattr(agents, "xml_policy"):
        found["bt.cpp"] = {kind: agents.xml_policy(kind) for kind in agents.POLICIES}
    return found
