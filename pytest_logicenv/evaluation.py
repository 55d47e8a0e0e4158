"""LogicEnvEval on our own environments: the paper's Table 2 columns, computed by the product.

For every task the harness prepares the environments exactly as the plugin does (same cache,
same keys, so a committed cache is reused), then runs the task's correct policy and its three
faulty ones in every scene and reports, per task and overall (the mean over tasks):

* **PhyPR** per Table 1 dimension and on average: the share of scenes the independent checker
  passes (``checker.py``);
* **LogCov**: the share of decision paths covered, from facts evaluated on the scenes;
* **SceVR**: the share of scenes where the correct policy passes (valid scenes);
* **FauDR** per fault class and on average: a faulty policy is detected when it does not pass
  in some *valid* scene (the paper excludes invalid scenes, where every policy would fail);
* **ST**: seconds to verify one policy over all the task's scenes (mean over its policies);
* **JI**: Jaccard index of the selected situations against the minimal set selected from the
  ground-truth plan, comparing situations by their question and answer text.

Layout of the inputs (so that others can add tasks)::

    TASKS_DIR/<task_id>.json        {"id", "description", "rooms", "plan": <paper's form>}
    PLANS_DIR/<task_id>.json        the formal plan with facts (default TASKS_DIR/../plans)
    POLICIES_DIR/<task_id>.py       a module with POLICIES = {"correct": factory, ...}
      or POLICIES_DIR/<task_id>/    correct.xml, counterfactual.xml, unreachable.xml,
                                    lackbranch.xml (BehaviorTree.CPP) or .py with policy()

Policy modules import your own code as ``python -m`` would: the current directory comes first
on ``sys.path``, then the policy's folder (so ``POLICIES_DIR/chores.py`` may import your
``chores`` package even though it shares its name).

Bad input is reported per task, never a crash of the whole evaluation: what stops a
measurement (an unreadable task, no environments, a policy that cannot be imported or built)
is one of the task's ``errors``; what is merely missing or found (a task without some policy,
policies for an unknown task, a faulty policy that passes everywhere) is one of its ``notes``.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_logicenv.cache import Cache
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.logic.trajectories import jaccard_index
from pytest_logicenv.pipeline.environments import (
    Builders,
    Case,
    Environments,
    Mode,
    TaskRequest,
    prepare,
)
from pytest_logicenv.sim.outcome import FAULTS

POLICY_KINDS = ("correct", *FAULTS)
METRIC_KEYS = (
    "PhyPR",
    "PhyPR_floor_plan",
    "PhyPR_entity",
    "PhyPR_relation",
    "LogCov",
    "SceVR",
    "FauDR",
    "FauDR_counterfactual",
    "FauDR_unreachable",
    "FauDR_lackbranch",
    "ST",
    "JI",
)


@dataclass(frozen=True)
class TaskResult:
    """The metrics of one task (``None`` where they could not be computed) and why."""

    task_id: str
    scenes: int = 0
    metrics: Mapping[str, float | None] = field(default_factory=dict)
    detected: Mapping[str, str] = field(default_factory=dict)  # fault -> outcome seen
    notes: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()  # what kept a metric from being measured


@dataclass(frozen=True)
class Evaluation:
    strategy: str
    tasks: tuple[TaskResult, ...]
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether there were tasks and every one could be measured."""
        return bool(self.tasks) and not any(task.errors for task in self.tasks)

    @property
    def overall(self) -> dict[str, float | None]:
        """Each metric's mean over the tasks that have it."""
        result: dict[str, float | None] = {}
        for key in METRIC_KEYS:
            values = [t.metrics[key] for t in self.tasks if t.metrics.get(key) is not None]
            result[key] = statistics.fmean(v for v in values if v is not None) if values else None
        return result

    def to_json(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "overall": _rounded(self.overall),
            "tasks": {
                t.task_id: {
                    **_rounded(t.metrics),
                    "scenes": t.scenes,
                    "notes": list(t.notes),
                    "errors": list(t.errors),
                }
                for t in self.tasks
            },
            "notes": list(self.notes),
        }


def _rounded(metrics: Mapping[str, float | None]) -> dict[str, float | None]:
    return {
        key: None if metrics.get(key) is None else round(float(metrics[key] or 0.0), 4)
        for key in METRIC_KEYS
    }


# --------------------------------------------------------------------------- policies

PolicyFactory = Any  # a py_trees factory or an XML path; run_policy accepts both


def load_policies(
    policies_dir: Path, task_id: str
) -> tuple[dict[str, PolicyFactory], list[str], list[str]]:
    """The policies of one task, by kind, notes on what is missing, and errors (policies
    that exist but cannot be loaded)."""
    from pytest_logicenv.sim.runner import import_policy_file

    notes: list[str] = []
    errors: list[str] = []
    module_path = policies_dir / f"{task_id}.py"
    folder = policies_dir / task_id
    policies: dict[str, PolicyFactory] = {}
    if module_path.is_file():
        try:
            module = import_policy_file(module_path)
        except Exception as error:  # user code: report, never crash the evaluation
            why = f"{type(error).__name__}: {error}"
            return {}, [], [f"{module_path}: cannot be imported ({why})"]
        found = getattr(module, "POLICIES", None)
        if not isinstance(found, Mapping):
            return {}, [], [f"{module_path}: defines no POLICIES mapping (kind -> factory)"]
        policies = {str(k): v for k, v in found.items() if k in POLICY_KINDS}
    elif folder.is_dir():
        for kind in POLICY_KINDS:
            xml, script = folder / f"{kind}.xml", folder / f"{kind}.py"
            if xml.is_file():
                policies[kind] = xml
            elif script.is_file():
                try:
                    policies[kind] = import_policy_file(script).policy
                except Exception as error:
                    why = f"{type(error).__name__}: {error}"
                    errors.append(f"{script}: no usable policy() ({why})")
    else:
        return {}, [f"no policies: expected {module_path} or {folder}/"], []
    for kind in POLICY_KINDS:
        if kind not in policies:
            notes.append(f"no {kind} policy")
    return policies, notes, errors


# --------------------------------------------------------------------------- evaluation


def _situation_set(pairs: Sequence[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    return frozenset((" ".join(q.lower().split()), " ".join(a.lower().split())) for q, a in pairs)


def _ground_truth_situations(task: Mapping[str, Any]) -> list[frozenset[Any]]:
    from pytest_logicenv.logic.plan import plan_from_paper
    from pytest_logicenv.logic.trajectories import select, situation

    plan = plan_from_paper(task["plan"], task=str(task.get("description", "")))
    return [
        _situation_set(situation(plan, trajectory.paths))
        for trajectory in select(plan, "minimal").trajectories
    ]


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
) -> TaskResult:
    from pytest_logicenv.logic.coverage import plan_coverage
    from pytest_logicenv.pipeline.environments import load_plan_of
    from pytest_logicenv.scenes.model import load_scene
    from pytest_logicenv.scenes.physics import check_scene, phypr
    from pytest_logicenv.session.fixture import known_names
    from pytest_logicenv.sim.runner import run_policy

    task_id = task_file.stem
    try:
        task = json.loads(task_file.read_text(encoding="utf-8"))
        description = str(task["description"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        return TaskResult(task_id, errors=(f"{task_file}: unreadable task ({error})",))
    plan_file = plans_dir / f"{task_id}.json"
    if not plan_file.is_file():
        return TaskResult(
            task_id,
            errors=(f"no formal plan {plan_file}; write one (logicenv convert {task_file})",),
        )
    notes: list[str] = []
    try:
        environments: Environments = prepare(
            TaskRequest(task=description, plan_file=plan_file, select=strategy, seed=seed),
            cache,
            Mode(offline=True),
            builders,
            nodeid=f"logicenv eval {task_id}",
            rootdir=rootdir,
        )
        plan = load_plan_of(environments.entry, fix=f"regenerate {environments.entry.root}")
        scenes = [load_scene(case.scene_path) for case in environments.cases]
    except LogicEnvError as error:
        return TaskResult(task_id, errors=(f"no environments: {error}",))
    physics = phypr([check_scene(scene) for scene in scenes])
    metrics: dict[str, float | None] = {
        "PhyPR": physics.average,
        "PhyPR_floor_plan": physics.floor_plan,
        "PhyPR_entity": physics.entity,
        "PhyPR_relation": physics.relation,
        "LogCov": plan_coverage(plan, scenes).log_cov,
        "SceVR": None,
        "FauDR": None,
        **{f"FauDR_{fault}": None for fault in FAULTS},
        "ST": None,
        "JI": None,
    }
    try:
        truth = _ground_truth_situations(task)
        metrics["JI"] = jaccard_index(
            [_situation_set(case.situation) for case in environments.cases], truth
        )
    except (LogicEnvError, KeyError) as error:
        notes.append(f"no JI: the task file's ground-truth plan is unusable ({error})")
    # As under pytest: a name no scene of the task can have is a typo, not a lackbranch.
    known = known_names(environments.entry.root)
    policies, policy_notes, errors = load_policies(policies_dir, task_id)
    notes += policy_notes
    runs: dict[str, list[str]] = {}
    seconds: dict[str, float] = {}
    for kind, policy in policies.items():
        try:
            kinds, elapsed = _run_all(run_policy, policy, environments.cases, scenes, known)
        except LogicEnvError as error:  # a policy that cannot even be built
            errors.append(f"the {kind} policy cannot run: {error}")
            continue
        runs[kind], seconds[kind] = kinds, elapsed
    detected: dict[str, str] = {}
    if "correct" in runs:
        valid = [i for i, outcome in enumerate(runs["correct"]) if outcome == "pass"]
        metrics["SceVR"] = 100.0 * len(valid) / len(scenes) if scenes else None
        for fault in FAULTS:
            if fault not in runs:
                continue
            revealed = [runs[fault][i] for i in valid if runs[fault][i] != "pass"]
            metrics[f"FauDR_{fault}"] = 100.0 if revealed else 0.0
            if revealed:
                detected[fault] = revealed[0]
                if fault not in revealed:
                    notes.append(f"{fault} policy detected, but shown as {revealed[0]}")
            else:
                notes.append(f"{fault} policy passes in every valid scene: not revealed")
        present = [metrics[f"FauDR_{f}"] for f in FAULTS if metrics[f"FauDR_{f}"] is not None]
        metrics["FauDR"] = (
            statistics.fmean(v for v in present if v is not None) if present else None
        )
    elif policies:
        notes.append("no SceVR/FauDR without a correct policy")
    if seconds:
        metrics["ST"] = statistics.fmean(seconds.values())
    return TaskResult(task_id, len(scenes), metrics, detected, tuple(notes), tuple(errors))


def _run_all(
    run_policy: Callable[..., Any],
    policy: PolicyFactory,
    cases: Sequence[Case],
    scenes: Sequence[Any],
    known: frozenset[str],
) -> tuple[list[str], float]:
    kinds = []
    started = time.perf_counter()
    for case, scene in zip(cases, scenes, strict=True):
        outcome = run_policy(policy, scene, goal=case.goal, situation=case.situation, known=known)
        kinds.append(outcome.kind)
    return kinds, time.perf_counter() - started


def evaluate(
    tasks_dir: Path,
    policies_dir: Path,
    *,
    plans_dir: Path | None = None,
    strategy: str = "minimal",
    seed: int = 0,
    cache_dir: Path = Path("cache"),
    rootdir: Path | None = None,
    builders: Builders | None = None,
) -> Evaluation:
    """Evaluate every task of ``tasks_dir`` with the policies of ``policies_dir``."""
    from pytest_logicenv.pipeline.generators import default_scene_builder
    from pytest_logicenv.scenes.catalog import default_catalog

    rootdir = (rootdir or Path.cwd()).resolve()
    plans_dir = plans_dir or tasks_dir.parent / "plans"
    if builders is None:
        catalog = default_catalog()
        builders = Builders(
            scene=default_scene_builder(None), known_types=lambda: frozenset(catalog.types)
        )
    cache = Cache((rootdir / cache_dir).resolve() if not cache_dir.is_absolute() else cache_dir)
    task_files = sorted(tasks_dir.glob("*.json"))
    results = tuple(
        evaluate_task(
            task_file,
            plans_dir,
            policies_dir,
            strategy=strategy,
            seed=seed,
            cache=cache,
            builders=builders,
            rootdir=rootdir,
        )
        for task_file in task_files
    )
    known = {f.stem for f in task_files}
    notes = []
    for candidate in sorted(policies_dir.iterdir()) if policies_dir.is_dir() else []:
        name = candidate.stem if candidate.suffix == ".py" else candidate.name
        is_policy = (candidate.suffix == ".py" and _defines_policies(candidate)) or (
            candidate.is_dir() and any((candidate / f"{k}.xml").exists() for k in POLICY_KINDS)
        )
        if is_policy and name not in known:
            notes.append(f"{candidate}: policies for an unknown task {name!r} (no {name}.json)")
    if not task_files:
        notes.append(f"{tasks_dir}: no task files (*.json)")
    return Evaluation(strategy, results, tuple(notes))


def _defines_policies(path: Path) -> bool:
    if path.name.startswith(("test_", "_", "conftest")):
        return False
    try:
        return "POLICIES" in path.read_text(encoding="utf-8")
    except OSError:
        return False


# --------------------------------------------------------------------------- text


def _cell(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def format_table(evaluation: Evaluation) -> list[str]:
    """Table 2's columns, one row per task and an overall row."""
    columns = [
        ("Floor", "PhyPR_floor_plan"),
        ("Entity", "PhyPR_entity"),
        ("Relat.", "PhyPR_relation"),
        ("PhyPR", "PhyPR"),
        ("LogCov", "LogCov"),
        ("SceVR", "SceVR"),
        ("CFact.", "FauDR_counterfactual"),
        ("Unreach", "FauDR_unreachable"),
        ("LBranch", "FauDR_lackbranch"),
        ("FauDR", "FauDR"),
        ("ST(s)", "ST"),
        ("JI", "JI"),
    ]
    width = max([len("overall"), *(len(t.task_id) for t in evaluation.tasks)])
    head = f"{'task':<{width}} {'scenes':>6} " + " ".join(f"{name:>7}" for name, _ in columns)
    lines = [f"LogicEnvEval ({evaluation.strategy} strategy)", head, "-" * len(head)]

    def row(name: str, scenes: str, metrics: Mapping[str, float | None]) -> str:
        cells = []
        for _, key in columns:
            digits = 4 if key == "ST" else 2
            cells.append(f"{_cell(metrics.get(key), digits):>7}")
        return f"{name:<{width}} {scenes:>6} " + " ".join(cells)

    for task in evaluation.tasks:
        lines.append(row(task.task_id, str(task.scenes), task.metrics))
    lines.append("-" * len(head))
    total = sum(t.scenes for t in evaluation.tasks)
    lines.append(row("overall", str(total), evaluation.overall))
    for task in evaluation.tasks:
        for error in task.errors:
            lines.append(f"{task.task_id}: error: {error}")
        for note in task.notes:
            lines.append(f"{task.task_id}: {note}")
    lines += list(evaluation.notes)
    return lines
