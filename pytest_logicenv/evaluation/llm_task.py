"""One task's metrics with the plan derived by the LLM (``logicenv eval --planner llm``), as
the paper evaluates LogicEnvGen: the model derives the plan from the task's description (and
rooms), cached as the plugin caches it (same keys: a marked test of the same task text shares
the entry); the scenes are built from it; then everything is judged against the ground truth,
the formal plan in PLANS_DIR (:mod:`~pytest_logicenv.evaluation.ground_truth`):

* **LogCov**: the share of the ground truth's decision paths whose facts hold in some scene,
  so a factor the model missed counts as missed (against the model's own plan, the note says,
  it would count as covered);
* **JI**: the situations the scenes realize against the ground truth's minimal selection;
* **SceVR, FauDR, ST**: the task's policies, written against the ground truth, run in each
  scene given the ground truth's roles, judged by the goal and situation it realizes; a scene
  that realizes none is not valid (``unmatched``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from pytest_logicenv.cache import Cache
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.evaluation.best_cover import best_jaccard
from pytest_logicenv.evaluation.eval_results import TaskResult
from pytest_logicenv.evaluation.ground_truth import Grounded, Truth, ground, log_cov
from pytest_logicenv.evaluation.task import measure_runs, physics_metrics
from pytest_logicenv.evaluation.type_stand_ins import stand_ins, type_mismatches
from pytest_logicenv.evaluation.witness_validity import witness_scevr
from pytest_logicenv.logic.coverage import plan_coverage
from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import plan_paths
from pytest_logicenv.pipeline.environments import Builders, Mode, TaskRequest, load_plan_of, prepare
from pytest_logicenv.scenes.catalog import Catalog
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.judge import Situation, plan_names, situation_of


def evaluate_llm_task(
    task_file: Path,
    plans_dir: Path,
    policies_dir: Path,
    *,
    strategy: str,
    seed: int,
    cache: Cache,
    builders: Builders,
    rootdir: Path,
    mode: Mode,
    catalog: Catalog,
    types: tuple[tuple[str, str], ...] = (),
) -> TaskResult:
    """The metrics of the task in ``task_file`` with the LLM's plan, against the ground truth
    in ``plans_dir``; what keeps one from being measured is one of the result's ``errors``."""
    task_id = task_file.stem
    try:
        truth, request = _inputs(task_file, plans_dir, strategy, seed, types)
        environments = prepare(
            request,
            cache,
            mode,
            builders,
            nodeid=f"logicenv eval --planner llm {task_id}",
            rootdir=rootdir,
        )
        entry = environments.entry
        own = load_plan_of(entry, fix=f"delete {entry.root} to derive the plan again")
        scenes = [load_scene(case.scene_path) for case in environments.cases]
    except LogicEnvError as error:
        return TaskResult(task_id, errors=(f"no environments: {error}",))
    found = stand_ins(truth, request.task, catalog)
    judge = Truth.of(truth, found.accepted)
    grounded = [ground(judge, scene) for scene in scenes]
    metrics = {**physics_metrics(scenes), "LogCov": log_cov(truth, grounded)}
    metrics["JI"] = jaccard(truth, grounded)
    mismatched = type_mismatches(truth, [g.scene for g in grounded], found)
    metrics["TypeMis"] = float(len(mismatched))
    notes = _notes(entry.manifest(fix="").get("plan", {}), own, scenes, grounded, metrics)
    notes += [f"{name} stands in for the ground truth's {t}" for t, name in found.accepted.items()]
    notes += mismatched
    known = plan_names(truth)
    targets = [_target(truth, g, known) for g in grounded]
    measured, run_notes, errors, runs, findings = measure_runs(policies_dir, task_id, targets)
    metrics.update(measured)
    metrics["SceVR_witness"] = witness_scevr(environments.cases, targets)
    scene_ids = tuple(case.trajectory_id for case in environments.cases)
    return TaskResult(
        task_id,
        len(scenes),
        metrics,
        notes=tuple(notes + run_notes),
        errors=tuple(errors),
        scene_ids=scene_ids,
        runs={kind: tuple(kinds) for kind, kinds in runs.items()},
        findings=findings,
    )


def _inputs(
    task_file: Path, plans_dir: Path, strategy: str, seed: int, types: tuple[tuple[str, str], ...]
) -> tuple[Plan, TaskRequest]:
    """The ground truth, and the request the plugin would make for the task's text."""
    try:
        task = json.loads(task_file.read_text(encoding="utf-8"))
        description = str(task["description"])
        rooms = tuple(str(room) for room in task.get("rooms", ()))
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise LogicEnvError(f"{task_file}: unreadable task ({error})") from None
    truth_file = plans_dir / f"{task_file.stem}.json"
    if not truth_file.is_file():
        raise LogicEnvError(
            f"no ground truth {truth_file}: the model's plan is judged against it; write "
            f"one (logicenv convert {task_file})"
        )
    request = TaskRequest(description, None, rooms, select=strategy, seed=seed, types=types)
    return load_plan(truth_file), request


def jaccard(truth: Plan, grounded: Sequence[Grounded]) -> float:
    """JI: the situations the scenes realize against the ground truth's minimal cover that
    shares most of them; a scene that realizes none counts as one no cover has."""
    paths = [[path.key for path in group] for group in plan_paths(truth)]
    made = [
        None if g.trajectory is None else tuple(path.key for path in g.trajectory.paths)
        for g in grounded
    ]
    return best_jaccard(paths, made)


def _target(truth: Plan, grounded: Grounded, known: frozenset[str]) -> Situation | None:
    """The ground truth's situation the scene realizes, judged with the truth's names."""
    if grounded.trajectory is None:
        return None
    return situation_of(truth, grounded.trajectory, grounded.scene, known=known)


def _notes(
    record: object,
    own: Plan,
    scenes: Sequence[Scene],
    grounded: Sequence[Grounded],
    metrics: Mapping[str, float | None],
) -> list[str]:
    """Who made the plan and what LogCov its own plan would claim; what each scene realizes."""
    made_by = record.get("made_by", "?") if isinstance(record, dict) else "?"
    own_cov = plan_coverage(own, scenes).log_cov
    notes = [
        f"plan by {made_by}: LogCov {metrics['LogCov']:.2f}% against the ground truth, "
        f"{own_cov:.2f}% against its own plan"
    ]
    for scene, found in zip(scenes, grounded, strict=True):
        if found.trajectory is None:
            notes.append(
                f"scene {scene.id} realizes no ground-truth situation (no path of "
                f"{', '.join(found.missing)} holds there): not valid"
            )
        else:
            notes.append(f"scene {scene.id} realizes {found.trajectory.id}")
    return notes
