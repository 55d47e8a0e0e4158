"""Making a task's environments when the cache does not hold them fresh: the pipeline's parts
wired to the run (:func:`builders`), and what collection makes at once, with no LLM
(:func:`made_now`). :mod:`~pytest_logicenv.session.generation` makes, after the run's
selection, what an LLM must. A run from a warm cache never imports this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_logicenv.cache import Cache
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.llm.planner import acceptance_violations
from pytest_logicenv.pipeline.entry_reads import plan_types_at
from pytest_logicenv.pipeline.environments import needs_llm, peek, prepare
from pytest_logicenv.pipeline.scene_building import default_scene_builder
from pytest_logicenv.pipeline.task_request import Builders, Environments, Mode
from pytest_logicenv.session.catalog_choice import catalog_for
from pytest_logicenv.session.collection import ErrorCase, Marked, cache_error
from pytest_logicenv.session.generators import planner_for, scene_designer_for
from pytest_logicenv.session.settings import witness_budget
from pytest_logicenv.sim.achievable import goal_violations
from pytest_logicenv.witness.verdict import Budget


def builders(config: pytest.Config, designer_name: str, plan_types: Path | None = None) -> Builders:
    """The pipeline's pluggable parts, with the plugin hooks' answers wired in; the catalog
    has the type file the plan names too (``plan_types``)."""
    steps, ms = witness_budget(config)
    default = Budget()
    budget = Budget(steps or default.max_steps, float(ms) if ms else default.max_ms)
    designer = config.hook.pytest_logicenv_designer(config=config)
    catalog = catalog_for(config, plan_types)  # the hook's or ours, with the user's types
    scene_builder = designer or default_scene_builder(catalog)
    asks_llm = designer is None and designer_name == "llm"  # the hook overrides both

    def known_types() -> frozenset[str] | None:
        return frozenset(catalog.types)

    def on_scene(scene: Any, trajectory: Any) -> None:
        config.hook.pytest_logicenv_scene_generated(
            config=config, scene=scene, trajectory=trajectory
        )

    def plan_checks(plan: Any, strategy: str) -> list[Any]:
        return acceptance_violations(plan, catalog=catalog, strategy=strategy)

    def goal_checks(plan: Any) -> list[Any]:
        return goal_violations(plan, catalog)

    return Builders(
        scene=scene_builder,
        planner=lambda: planner_for(config),
        known_types=known_types,
        on_scene=on_scene,
        llm_scenes=(lambda: scene_designer_for(config)) if asks_llm else None,
        plan_checks=plan_checks,
        goal_checks=goal_checks,
        witness_budget=budget,
        catalog=catalog,
    )


def made_now(
    config: pytest.Config, designer: str, cache: Cache, mode: Mode, found: Marked, nodeid: str
) -> Environments | ErrorCase | None:
    """A marked function's environments when its entry is not fresh: made now when no LLM is
    needed (a plan file, a cached plan to rebuild from: so ``-k`` sees its situations); ``None``
    when an LLM must make them, after the run's selection, for the selected tests only; in
    strict mode (CI) the error that says so."""
    rootdir = config.rootpath
    try:
        plan_types = plan_types_at(found.request.plan_file)
        parts = builders(config, designer, plan_types)  # a bad type file: this test's error
        environments = peek(found.request, cache, mode, parts, nodeid=nodeid, rootdir=rootdir)
        if environments is None and needs_llm(found.request, cache, mode, parts, rootdir=rootdir):
            return None
        if environments is None:
            environments = prepare(
                found.request, cache, mode, parts, nodeid=nodeid, rootdir=rootdir
            )
    except (LogicEnvError, OSError) as error:
        return cache_error(cache.root, nodeid, error)
    return environments
