"""One task's LogicEnvEval metrics: prepare its environments as the plugin does, check their
physics, measure coverage and JI, then run its policies in every scene."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_logicenv.cache import Cache
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.evaluation.eval_results import TaskResult
from pytest_logicenv.evaluation.faults import FaultFinding, fault_metrics
from pytest_logicenv.evaluation.policies import PolicyFactory, load_policies
from pytest_logicenv.evaluation.witness_validity import witness_scevr
from pytest_logicenv.logic.coverage import plan_coverage
from pytest_logicenv.logic.plan import Plan, plan_from_paper
from pytest_logicenv.logic.trajectories import jaccard_index, select, situation
from pytest_logicenv.pipeline.entry_situation import case_situation
from pytest_logicenv.pipeline.environments import (
    Builders,
    Environments,
    Mode,
    TaskRequest,
    load_plan_of,
    prepare,
)
from pytest_logicenv.scenes.physics import check_scene, phypr
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.judge import judge, plan_names

if TYPE_CHECKING:
    from pytest_logicenv.sim.judge import Situation

Metrics = dict[str, float | None]


@dataclass(frozen=True)
class _Prepared:
    """A task's environments, ready to measure."""

    task: Mapping[str, Any]
    environments: Environments
    plan: Plan
    scenes: tuple[Scene, ...]


def evaluate_task(
    task_file: Path,
    plans_dir: Path,
    policies_dir: Path,
    *,
    strategy: str,
    seed: int,
    cache: Cache,
    builders: Builders,
    rootdir: Path,
    types: tuple[tuple[str, str], ...] = (),
) -> TaskResult:
    """The metrics of the task in ``task_file``; what keeps one from being measured is one of
    the result's ``errors``, never an exception."""
    task_id = task_file.stem
    plan_file = plans_dir / f"{task_id}.json"
    request = TaskRequest("", plan_file, select=strategy, seed=seed, types=types)
    prepared = _prepare(task_file, request, cache, builders, rootdir)
    if isinstance(prepared, str):
        return TaskResult(task_id, errors=(prepared,))
    notes: list[str] = []
    metrics = {**physics_metrics(prepared.scenes), "LogCov": _log_cov(prepared)}
    metrics["JI"] = _jaccard(prepared, notes)
    targets = _situations(prepared)
    found, run_notes, errors, runs, findings = measure_runs(policies_dir, task_id, targets)
    metrics.update(found)
    metrics["SceVR_witness"] = witness_scevr(prepared.environments.cases, targets)
    notes += run_notes
    scene_ids = tuple(case.trajectory_id for case in prepared.environments.cases)
    return TaskResult(
        task_id,
        len(prepared.scenes),
        metrics,
        notes=tuple(notes),
        errors=tuple(errors),
        scene_ids=scene_ids,
        runs={kind: tuple(kinds) for kind, kinds in runs.items()},
        findings=findings,
    )


def _prepare(
    task_file: Path, request: TaskRequest, cache: Cache, builders: Builders, rootdir: Path
) -> _Prepared | str:
    """The task's environments, exactly as the plugin prepares them (same cache and keys, so a
    committed cache is reused), or why there are none."""
    try:
        task = json.loads(task_file.read_text(encoding="utf-8"))
        description = str(task["description"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        return f"{task_file}: unreadable task ({error})"
    plan_file = request.plan_file
    if plan_file is None or not plan_file.is_file():
        return f"no formal plan {plan_file}; write one (logicenv convert {task_file})"
    request = replace(request, task=description)
    try:
        environments = prepare(
            request,
            cache,
            Mode(offline=True),
            builders,
            nodeid=f"logicenv eval {task_file.stem}",
            rootdir=rootdir,
        )
        plan = load_plan_of(environments.entry, fix=f"regenerate {environments.entry.root}")
        scenes = tuple(load_scene(case.scene_path) for case in environments.cases)
    except LogicEnvError as error:
        return f"no environments: {error}"
    return _Prepared(task, environments, plan, scenes)


def physics_metrics(scenes: Sequence[Scene]) -> Metrics:
    """PhyPR per Table 1 dimension and on average, from the independent checker."""
    physics = phypr([check_scene(scene) for scene in scenes])
    return {
        "PhyPR": physics.average,
        "PhyPR_floor_plan": physics.floor_plan,
        "PhyPR_entity": physics.entity,
        "PhyPR_relation": physics.relation,
    }


def _log_cov(prepared: _Prepared) -> float:
    return plan_coverage(prepared.plan, prepared.scenes).log_cov


def _jaccard(prepared: _Prepared, notes: list[str]) -> float | None:
    """JI of the selected situations against the minimal set of the ground-truth plan."""
    try:
        truth = _ground_truth_situations(prepared.task)
    except (LogicEnvError, KeyError) as error:
        notes.append(f"no JI: the task file's ground-truth plan is unusable ({error})")
        return None
    selected = [_situation_set(case.situation) for case in prepared.environments.cases]
    return jaccard_index(selected, truth)


def _situation_set(pairs: Sequence[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    return frozenset((" ".join(q.lower().split()), " ".join(a.lower().split())) for q, a in pairs)


def _ground_truth_situations(task: Mapping[str, Any]) -> list[frozenset[Any]]:
    plan = plan_from_paper(task["plan"], task=str(task.get("description", "")))
    return [
        _situation_set(situation(plan, trajectory.paths))
        for trajectory in select(plan, "minimal").trajectories
    ]


def _situations(prepared: _Prepared) -> list[Situation | None]:
    """Each scene's situation, judged as under pytest: a name no scene of the task can have
    is a typo, not a lackbranch (the entry plan's known names)."""
    known = plan_names(prepared.plan)
    return [
        case_situation(case, prepared.plan, scene, known=known)
        for case, scene in zip(prepared.environments.cases, prepared.scenes, strict=True)
    ]


#: The outcome kind recorded for every policy in a scene that has no target (it realizes no
#: situation of the ground truth): the scene is not valid, whatever the policies would do.
UNMATCHED = "unmatched"


def run_policies(
    policies: Mapping[str, PolicyFactory],
    targets: Sequence[Situation | None],
    errors: list[str],
) -> tuple[dict[str, list[str]], dict[str, float]]:
    """Each policy's outcome kind per scene, and its seconds over all scenes."""
    runs: dict[str, list[str]] = {}
    seconds: dict[str, float] = {}
    for kind, policy in policies.items():
        try:
            runs[kind], seconds[kind] = _run_all(policy, targets)
        except LogicEnvError as error:  # a policy that cannot even be built
            errors.append(f"the {kind} policy cannot run: {error}")
    return runs, seconds


def _run_all(policy: PolicyFactory, targets: Sequence[Situation | None]) -> tuple[list[str], float]:
    kinds = []
    started = time.perf_counter()
    for target in targets:
        if target is None:
            kinds.append(UNMATCHED)
            continue
        kinds.append(judge(policy, target).kind)
    return kinds, time.perf_counter() - started


def measure_runs(
    policies_dir: Path,
    task_id: str,
    targets: Sequence[Situation | None],
) -> tuple[Metrics, list[str], list[str], dict[str, list[str]], tuple[FaultFinding, ...]]:
    """Run the task's policies in the targets: SceVR, FauDR, ClassAcc and ST, with notes,
    errors, each policy's outcome kinds and the fault findings."""
    policies, notes, errors = load_policies(policies_dir, task_id)
    runs, seconds = run_policies(policies, targets, errors)
    found, findings, fault_notes = fault_metrics(runs, len(targets))
    notes += fault_notes
    if "correct" not in runs and policies:
        notes.append("no SceVR/FauDR without a correct policy")
    metrics: Metrics = {**found, "ST": statistics.fmean(seconds.values()) if seconds else None}
    return metrics, notes, errors, runs, findings
