"""What a scene without a witness tells the model that made its plan (issue 21, item 2).

Each goal fact a witness search left false becomes a :class:`~pytest_logicenv.errors.Violation`
coded ``witness``, located at that goal in the plan (``subtasks[0](chore).tree.branches.yes
.goal[0]``), naming the scenes it failed in, what blocked it there in the simulator's own
words, and what would not: for a thing that does not fit where the goal puts it, the types
that take one of its size in that scene (``types that take a 0.90 x 0.60 m Blanket in them:
LaundryHamper, Box, ...``). The same goal blocked alike in several scenes is said once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.facts import Exists, Fact, Related, describe
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import DecisionPath, Trajectory
from pytest_logicenv.scenes.catalog import Catalog
from pytest_logicenv.scenes.scene_model import Scene, SceneObject
from pytest_logicenv.sim.achievable import takers
from pytest_logicenv.sim.preconditions import room_measure
from pytest_logicenv.witness import IMPOSSIBLE, Blocker, WitnessResult

#: What each violation asks the model to do.
FIX = (
    "change this goal, or what the setting and the realizations put in the scene, so that "
    "the simulator's actions can make it true"
)


def witness_violations(
    plan: Plan,
    trajectories: Sequence[Trajectory],
    scenes: Mapping[str, Scene],
    results: Mapping[str, WitnessResult],
    catalog: Catalog | None,
) -> list[Violation]:
    """One violation per blocked goal (and per reason), naming the scenes it failed in."""
    found: dict[tuple[str, str], list[str]] = {}
    for trajectory in trajectories:
        result = results.get(trajectory.id)
        if result is None or result.solved:
            continue
        scene = scenes[trajectory.id]
        for blocker in result.blockers:
            location, fact = _goal_of(plan, trajectory, blocker)
            reason = _reason(blocker, result, fact, scene, catalog)
            found.setdefault((location, reason), []).append(trajectory.id)
    return [
        Violation("witness", location, f"in {_scenes(ids)}, {reason}; {FIX}")
        for (location, reason), ids in found.items()
    ]


def _scenes(ids: Sequence[str]) -> str:
    return f"scene {ids[0]}" if len(ids) == 1 else f"scenes {', '.join(ids)}"


def _reason(
    blocker: Blocker,
    result: WitnessResult,
    fact: Fact | None,
    scene: Scene,
    catalog: Catalog | None,
) -> str:
    """Why no sequence of actions makes the blocker's fact true, and what would take it."""
    searched = (
        "every state the actions reach was searched"
        if result.verdict == IMPOSSIBLE
        else f"none within the search's budget of {result.budget}"
    )
    if blocker.note:
        why = blocker.note
    elif blocker.refusals:
        why = "; ".join(str(refusal) for refusal in blocker.refusals)
    else:
        why = "no action call on its objects changes it"
    text = f"no sequence of actions makes {blocker.fact} true ({searched}): {why}"
    if catalog is not None and fact is not None and any(r.rule == "room" for r in blocker.refusals):
        text += "".join(f"; {hint}" for hint in _takers(fact, scene, catalog))
    return text


def _takers(fact: Fact, scene: Scene, catalog: Catalog) -> Iterator[str]:
    """The types that take the fact's subject, of its size in ``scene``, where it goes."""
    for relation, subject in _placements(fact):
        thing = _object(scene, subject)
        if thing is None or not all(thing.size):
            continue
        x, _, z = thing.size
        size = f"{max(x, z):.2f} x {min(x, z):.2f} m"
        yield takers(relation, thing.type, size, room_measure(thing.size, relation), catalog)


def _placements(fact: Fact) -> Iterator[tuple[str, str]]:
    if isinstance(fact, Related) and fact.relation in ("on", "in"):
        yield fact.relation, fact.subject
    elif isinstance(fact, Exists):
        subject = fact.as_ or fact.ref
        for relation, target in (("on", fact.where.on), ("in", fact.where.in_)):
            if target is not None:
                yield relation, subject


def _object(scene: Scene, ref: str) -> SceneObject | None:
    """The scene's object a fact's reference names: by role or id, else by type."""
    named = [o for o in scene.objects if ref in (o.role, o.id)]
    typed = [o for o in scene.objects if o.type == ref]
    return next(iter(named or typed), None)


def _goal_of(plan: Plan, trajectory: Trajectory, blocker: Blocker) -> tuple[str, Fact | None]:
    """Where in the plan the blocked goal fact is, and the fact (``scene`` when the blocker
    names no leaf of the trajectory)."""
    for path in trajectory.paths:
        if blocker.leaf != f"{path.key} ({path.leaf.action})":
            continue
        for index, fact in enumerate(path.leaf.goal):
            if describe(fact) == blocker.fact:
                return f"{leaf_location(plan, path)}.goal[{index}]", fact
        return leaf_location(plan, path), None
    return f"scene {trajectory.id}", None


def leaf_location(plan: Plan, path: DecisionPath) -> str:
    """A decision path's leaf as a location in the plan, as the plan checks write it."""
    index = next(i for i, s in enumerate(plan.subtasks) if s.name == path.subtask)
    branches = "".join(f".branches.{step.value}" for step in path.steps)
    return f"subtasks[{index}]({path.subtask}).tree{branches}"
