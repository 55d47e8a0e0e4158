"""Evaluate every task of a tasks folder: the entry point of ``logicenv eval``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_logicenv.cache import Cache
from pytest_logicenv.errors import LogicEnvError, Violation
from pytest_logicenv.evaluation.eval_results import Evaluation, TaskResult
from pytest_logicenv.evaluation.llm_task import evaluate_llm_task
from pytest_logicenv.evaluation.policies import unknown_task_notes
from pytest_logicenv.evaluation.task import evaluate_task
from pytest_logicenv.llm.client import llm_from_env
from pytest_logicenv.llm.planner import LLMPlanner, acceptance_violations
from pytest_logicenv.logic.plan import Plan, plan_type_file
from pytest_logicenv.pipeline.environments import Builders, Mode, PlanSource
from pytest_logicenv.pipeline.scene_building import default_scene_builder
from pytest_logicenv.scenes.catalog import Catalog
from pytest_logicenv.scenes.catalog.user_types import load_catalog, type_digests

#: Where ``logicenv eval`` takes each task's plan from (see :func:`evaluate`).
PLANNERS = ("plan", "llm")


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
    types_file: Path | None = None,
    planner: str = "plan",
    offline: bool = False,
    llm_defaults: Mapping[str, str] | None = None,
) -> Evaluation:
    """Evaluate every task of ``tasks_dir`` with the policies of ``policies_dir``; the
    designs know the types of ``types_file`` too (a user's type file), and each task's those
    of the type file its plan names (``"types"``: two task sets may each define a type).

    ``planner`` says where each task's plan comes from: ``plan``, the formal plan in
    ``plans_dir`` (the ground truth itself); ``llm``, the configured model, from the task's
    description, judged against that ground truth (see
    :mod:`~pytest_logicenv.evaluation.llm_task`). ``offline`` forbids LLM calls (a plan
    missing from the cache is then a task's error), as ``CI`` does under pytest;
    ``llm_defaults`` give the endpoint variables the environment leaves unset (the ini
    options, :func:`~pytest_logicenv.llm.config.ini_defaults`)."""
    if planner not in PLANNERS:
        raise LogicEnvError(f"planner {planner!r}: use {' or '.join(PLANNERS)}")
    rootdir = (rootdir or Path.cwd()).resolve()
    cache = Cache((rootdir / cache_dir).resolve() if not cache_dir.is_absolute() else cache_dir)
    task_files = sorted(tasks_dir.glob("*.json"))
    plans = plans_dir or tasks_dir.parent / "plans"
    mode = Mode(offline=offline, allow_llm="--allow-ci")
    results = []
    for task_file in task_files:
        plan_types = plan_type_file(plans / f"{task_file.stem}.json")
        try:
            catalog = load_catalog(types_file, plan_types)
        except LogicEnvError as error:  # a bad type file: this task's error
            results.append(TaskResult(task_file.stem, errors=(str(error),)))
            continue
        options: dict[str, Any] = {
            "strategy": strategy,
            "seed": seed,
            "cache": cache,
            "builders": builders
            or _default_builders(catalog, with_llm=planner == "llm", llm_defaults=llm_defaults),
            "rootdir": rootdir,
            "types": type_digests(types_file, plan_types),
        }
        results.append(
            evaluate_llm_task(task_file, plans, policies_dir, mode=mode, catalog=catalog, **options)
            if planner == "llm"
            else evaluate_task(task_file, plans, policies_dir, **options)
        )
    notes = unknown_task_notes(policies_dir, {f.stem for f in task_files})
    if not task_files:
        notes.append(f"{tasks_dir}: no task files (*.json)")
    return Evaluation(strategy, tuple(results), tuple(notes), planner=planner)


def _default_builders(
    catalog: Catalog,
    *,
    with_llm: bool = False,
    llm_defaults: Mapping[str, str] | None = None,
) -> Builders:
    """The procedural designer over the catalog (and the user's types), as the plugin has by
    default; ``with_llm``: and the LLM planner of the configured endpoint (none configured: a
    plan missing from the cache is an error saying what to set)."""

    def planner() -> PlanSource | None:
        llm = llm_from_env(defaults=llm_defaults)
        return None if llm is None else LLMPlanner(llm, catalog=catalog)

    def plan_checks(plan: Plan, strategy: str) -> list[Violation]:
        return acceptance_violations(plan, catalog=catalog, strategy=strategy)

    return Builders(
        scene=default_scene_builder(catalog),
        planner=planner if with_llm else lambda: None,
        known_types=lambda: frozenset(catalog.types),
        plan_checks=plan_checks,
        catalog=catalog,
    )
