"""What an entry's files must say, checked behind their digests: a digest only shows that a
file is the one the manifest records, and a hand edit can fix both. So each trajectory record
of ``trajectories.json`` must be what ``plan.json`` gives for its paths (its conditions,
situation and goal), and each scene must realize its trajectory's facts and place the agent;
an entry that fails is stale, rebuilt from its plan like one whose digest does not match.

:func:`trajectory_record` is the one writer of a record (``entry_files``), read back by
``cached.case_from_record``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_logicenv.cache import SCENES, Entry, safe_file_name
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.logic.facts import to_json
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import DecisionPath, Trajectory, make_trajectory, plan_paths
from pytest_logicenv.logic.trajectories import situation as situation_of
from pytest_logicenv.pipeline.entry_reads import scene_at
from pytest_logicenv.scenes.realized import require_realized


def trajectory_record(plan: Plan, trajectory: Trajectory) -> dict[str, Any]:
    """A trajectory as ``trajectories.json`` records it (read back by ``case_from_record``)."""
    return {
        "id": trajectory.id,
        "paths": [
            {
                "subtask": p.subtask,
                "steps": [{"factor": s.factor, "value": s.value} for s in p.steps],
                "action": p.leaf.action,
            }
            for p in trajectory.paths
        ],
        "conditions": [list(c) for c in trajectory.conditions],
        "situation": [list(pair) for pair in situation_of(plan, trajectory.paths)],
        "goal": [to_json(f) for f in trajectory.goal],
    }


def content_problem(entry: Entry, plan: Plan, records: Sequence[Any]) -> str | None:
    """Why the entry's trajectories or scenes do not follow from ``plan`` (``None``: they
    do), naming the file and what differs."""
    paths = {(p.subtask, _steps_of(p)): p for group in plan_paths(plan) for p in group}
    for record in records:
        trajectory = _rederived(record, paths)
        if trajectory is None or trajectory_record(plan, trajectory) != record:
            differs = _first_difference(record, trajectory, plan)
            return (
                f"{entry.trajectories_path} does not follow from {entry.plan_path}: the record "
                f"of {record.get('id')!r} differs in its {differs} (edited by hand?)"
            )
        problem = _scene_problem(entry, plan, trajectory)
        if problem is not None:
            return problem
    return None


def _steps_of(path: DecisionPath) -> tuple[tuple[str, str], ...]:
    return tuple((step.factor, step.value) for step in path.steps)


def _rederived(
    record: Mapping[str, Any], paths: Mapping[tuple[str, Any], DecisionPath]
) -> Trajectory | None:
    try:
        found = [
            paths.get((str(p["subtask"]), tuple((s["factor"], s["value"]) for s in p["steps"])))
            for p in record["paths"]
        ]
    except (KeyError, TypeError):
        return None
    chosen = [path for path in found if path is not None]
    return make_trajectory(chosen) if len(chosen) == len(found) else None


def _first_difference(record: Mapping[str, Any], trajectory: Trajectory | None, plan: Plan) -> str:
    if trajectory is None:
        return "paths, which are no paths of the plan"
    derived = trajectory_record(plan, trajectory)
    return next((key for key in derived if derived[key] != record.get(key)), "keys")


def _scene_problem(entry: Entry, plan: Plan, trajectory: Trajectory) -> str | None:
    path = entry.root / SCENES / f"{safe_file_name(trajectory.id)}.json"
    try:
        scene = scene_at(path)  # parsed once: the items' runs and the report use it too
        require_realized(scene, plan, trajectory)
    except LogicEnvError as error:
        return f"{path} does not hold its situation: {error}"
    if scene.agent is None:
        return f"{path} does not hold its situation: it places no agent"
    return None
