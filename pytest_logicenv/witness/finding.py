"""Find a scene's witness and prove it: search, then replay it as a policy.

:func:`find_witness` searches (:mod:`~pytest_logicenv.witness.state_search`), writes the calls
found with the references a policy would use, and replays them through the simulator's runner
as a behavior tree of its action leaves. A witness the simulator refuses on replay is a bug of
the search: it raises, it is never returned as found.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

import py_trees

from pytest_logicenv.logic.facts import Fact, false_facts
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.judge import judge, scene_situation
from pytest_logicenv.sim.leaves import ActionLeaf
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.world import WorldState
from pytest_logicenv.witness.blockers import NOT_TOGETHER, Blocker, Goal, Refusals
from pytest_logicenv.witness.calls import Call
from pytest_logicenv.witness.estimate import Memory
from pytest_logicenv.witness.goal_agenda import agenda
from pytest_logicenv.witness.ruled_out import ruled_out
from pytest_logicenv.witness.state_search import Limits, Searched, search, search_in_stages
from pytest_logicenv.witness.verdict import (
    BUDGET,
    FOUND,
    IMPOSSIBLE,
    RULES,
    Budget,
    WitnessCall,
    WitnessResult,
)

#: The share of the time budget the search in stages may take before the search of the whole.
STAGED_SHARE = 0.5
#: How many times its CPU-time budget a search may take on the wall clock (a machine shared
#: by several test runs gives each a part of a core; past this, it stops: never a hang).
WALL_FACTOR = 5.0


class WitnessRefused(AssertionError):
    """The simulator refused a witness the search found: a bug of the search."""


def goals_of(trajectory: Trajectory | Sequence[Fact]) -> tuple[Goal, ...]:
    """A trajectory's goal facts, each with the leaf it is the goal of (bare facts: none)."""
    if not isinstance(trajectory, Trajectory):
        return tuple(Goal(fact) for fact in trajectory)
    return tuple(
        Goal(fact, f"{path.key} ({path.leaf.action})")
        for path in trajectory.paths
        for fact in path.leaf.goal
    )


def find_witness(
    scene: Scene, trajectory: Trajectory | Sequence[Fact], budget: Budget | None = None
) -> WitnessResult:
    """A sequence of the simulator's actions that takes ``scene`` from its start to every
    goal fact of ``trajectory``'s leaves (or of the facts given), replayed green; or the
    verdict ``impossible`` / ``budget`` with the blockers of the facts left false."""
    budget = budget or Budget()
    goals = agenda(goals_of(trajectory))
    facts = tuple(goal.fact for goal in goals)
    start = WorldState.from_scene(scene)
    proved = ruled_out(start, goals)
    if proved:
        return WitnessResult(IMPOSSIBLE, blockers=proved, budget=budget, stopped_by=RULES)
    refusals = Refusals(start, goals)
    found = _search(start, facts, budget, refusals)
    if found.calls is None:
        verdict = IMPOSSIBLE if found.exhausted else BUDGET
        return WitnessResult(
            verdict,
            blockers=_blockers(goals, found, refusals),
            budget=budget,
            states=found.states,
            elapsed_ms=found.elapsed_ms,
            stopped_by=found.stopped_by,
        )
    calls = written(start, found.calls)
    result = WitnessResult(FOUND, calls, (), budget, found.states, found.elapsed_ms)
    outcome = replay(scene, result, facts)
    if outcome.kind != "pass":
        raise WitnessRefused(
            f"the witness of scene {scene.id!r} ({result.sequence}) did not pass when "
            f"replayed:\n{outcome.explain()}"
        )
    return replace(result, elapsed_ms=found.elapsed_ms)


def _search(
    start: WorldState, facts: Sequence[Fact], budget: Budget, refusals: Refusals
) -> Searched:
    """The goal facts in stages first (fast when they can be met one after another), then,
    with the time left, all at once (which alone can prove that there is no witness)."""
    began, memory, clock = time.process_time(), Memory(), time.process_time
    deadline = time.monotonic() + budget.max_ms * WALL_FACTOR / 1000
    limits = Limits(budget.max_steps, budget.max_ms * STAGED_SHARE, wall_deadline=deadline)
    if len(facts) > 1:
        staged = search_in_stages(start, facts, limits, refusals, clock, memory)
        if staged is not None:
            return staged
    left = budget.max_ms - (time.process_time() - began) * 1000
    limits = replace(limits, max_ms=max(left, 1.0))
    found = search(start, facts, limits, refusals, clock, memory)
    return replace(found, elapsed_ms=(time.process_time() - began) * 1000)


def _blockers(goals: Sequence[Goal], found: Searched, refusals: Refusals) -> tuple[Blocker, ...]:
    """The goal facts no state seen made true, with what refused the calls on their objects;
    when each held in some state, those false in the closest one, as never together."""
    never = [i for i in range(len(goals)) if i not in found.ever_true]
    if never:
        return refusals.blockers(goals, never)
    apart = [i for i, goal in enumerate(goals) if false_facts([goal.fact], found.closest)]
    return tuple(
        replace(blocker, refusals=(), note=NOT_TOGETHER)
        for blocker in refusals.blockers(goals, apart)
    )


def written(world: WorldState, calls: Sequence[Call]) -> tuple[WitnessCall, ...]:
    """The calls with the references a policy would write: an object's role when it names
    that object alone, else its id (a room: its id)."""
    roles: dict[str, int] = {}
    for obj in world.objects.values():
        if obj.role:
            roles[obj.role] = roles.get(obj.role, 0) + 1

    def reference(obj_id: str) -> str:
        obj = world.objects.get(obj_id)
        if obj is not None and obj.role and roles[obj.role] == 1:
            return obj.role
        return obj_id

    return tuple(
        WitnessCall(call.action, tuple((p, reference(o)) for p, o in call.arguments.items()))
        for call in calls
    )


def as_policy(result: WitnessResult) -> py_trees.behaviour.Behaviour:
    """The witness as a behavior tree: its action leaves in one sequence."""
    leaves = [ActionLeaf(call.action, dict(call.arguments)) for call in result.calls]
    return py_trees.composites.Sequence("witness", memory=True, children=leaves)


def replay(scene: Scene, result: WitnessResult, goal: Sequence[Fact]) -> Outcome:
    """Run the witness in ``scene`` as a policy runs, judged by ``goal`` (the simulator's
    one judge of a run, :func:`~pytest_logicenv.sim.judge.judge`)."""
    return judge(lambda: as_policy(result), scene_situation(scene, goal=goal), twice=False)
