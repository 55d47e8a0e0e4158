"""From a task to its environments: the pipeline behind one marked test, with the cache.

``prepare(request, cache, mode, builders)`` returns the environments of one task: the plan,
the selected trajectories and one solved scene each, read from the cache when it holds a fresh
entry (:mod:`~pytest_logicenv.pipeline.cached` says what is fresh), else generated and written
to the cache atomically under a lock:

* the plan comes from the marker's plan file, the entry's own ``plan.json`` or an LLM
  (:mod:`~pytest_logicenv.pipeline.plan_choice`), and is validated;
* trajectories are selected and one scene is built for each by a designer, the layout solver
  and the checks (:mod:`~pytest_logicenv.pipeline.scene_building`);
* the entry's files are made (:mod:`~pytest_logicenv.pipeline.entry_files`) and written.

A miss that needs an LLM when none may be used (for the plan, or for the scenes when an LLM
designs them) is a :class:`~pytest_logicenv.errors.CacheError` naming the test, the cache path
and the command that fills it.
"""

from __future__ import annotations

from pathlib import Path

from pytest_logicenv.cache import Cache, entry_key, regenerate_hint
from pytest_logicenv.logic.rules import validate_plan
from pytest_logicenv.pipeline.cached import case_from_record, load_plan_of, read_fresh
from pytest_logicenv.pipeline.entry_files import Made, entry_files
from pytest_logicenv.pipeline.plan_choice import choose_plan, no_llm
from pytest_logicenv.pipeline.request import (
    Builders,
    Case,
    Environments,
    Mode,
    PlanSource,
    SceneBuilder,
    SceneSource,
    TaskRequest,
    Where,
)
from pytest_logicenv.pipeline.scene_building import build_scenes

__all__ = [
    "Builders",
    "Case",
    "Environments",
    "Mode",
    "PlanSource",
    "SceneBuilder",
    "SceneSource",
    "TaskRequest",
    "load_plan_of",
    "prepare",
]


def prepare(
    request: TaskRequest,
    cache: Cache,
    mode: Mode,
    builders: Builders,
    *,
    nodeid: str,
    rootdir: Path,
) -> Environments:
    """The environments of one task, from the cache or freshly generated."""
    key = entry_key(request.task, request.settings(rootdir))
    entry = cache.entry(key)
    fix = f"delete {entry.root} and run {regenerate_hint(nodeid)}"
    if not mode.regenerate and entry.exists():
        fresh = read_fresh(entry, request, fix)
        if not isinstance(fresh, str):
            return Environments(entry, fresh)
    with cache.lock(key):
        marker = cache.run_marker(key)
        if entry.exists():
            done_this_run = mode.regenerate and _read_marker(marker) == mode.run_id
            if not mode.regenerate or done_this_run:
                fresh = read_fresh(entry, request, fix)
                if not isinstance(fresh, str):
                    return Environments(entry, fresh)
        environments = _generate(request, builders, Where(cache, entry, mode, nodeid, rootdir))
        if mode.regenerate:
            marker.write_text(mode.run_id)
        return environments


def _read_marker(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _generate(request: TaskRequest, builders: Builders, where: Where) -> Environments:
    """Build the entry anew (the lock is held) and write it."""
    designer = _llm_designer(builders, where)
    plan, plan_record, exchanges = choose_plan(request, builders, where)
    source = str(request.plan_file or where.entry.plan_path)
    validate_plan(plan, source, known_types=builders.known_types(), require_facts=True)
    build = designer if designer is not None else builders.scene
    trajectories, scenes, notes = build_scenes(plan, request, builders, build)
    if designer is not None:
        exchanges = [*exchanges, *designer.take_exchanges()]
    made = Made(
        plan,
        plan_record,
        trajectories,
        scenes,
        exchanges,
        designer.name if designer is not None else None,
        notes,
    )
    settings = request.settings(where.rootdir)
    files, records = entry_files(made, request, settings)
    written = where.cache.write_entry(where.entry.key, files)
    cases = tuple(case_from_record(where.entry.root, record) for record in records)
    return Environments(written, cases, generated=True, notes=tuple(notes))


def _llm_designer(builders: Builders, where: Where) -> SceneSource | None:
    """The LLM scene designer when one designs the scenes; none at hand is a cache miss."""
    if builders.llm_scenes is None:
        return None
    designer = None if where.mode.offline else builders.llm_scenes()
    if designer is None:
        raise no_llm(
            "its scenes are designed by an LLM (--logicenv-designer=llm) and there are no "
            "up-to-date cached scenes for this task and settings",
            "or design them procedurally: --logicenv-designer=procedural",
            where,
        )
    return designer
