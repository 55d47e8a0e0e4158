"""From a task to its environments: the pipeline behind one marked test, with the cache.

``prepare(request, cache, mode, builders)`` returns the environments of one task: the plan,
the selected trajectories and one solved scene each, read from the cache when it holds a fresh
entry (:mod:`~pytest_logicenv.pipeline.fresh_entry`; :mod:`~pytest_logicenv.pipeline.cached`
says what is fresh), else generated and written to the cache atomically under a lock:

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

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_logicenv.cache import Cache, Entry, pytest_command, regenerate_hint
from pytest_logicenv.errors import CacheError, LogicEnvError, PlanError
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.rules import validate_plan
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.pipeline.cached import (
    case_from_record,
    check_version,
    load_plan_of,
    read_fresh,
)
from pytest_logicenv.pipeline.entry_files import Made, entry_files, recorded_exchanges
from pytest_logicenv.pipeline.failed_plans import check_kept, derived_by_llm
from pytest_logicenv.pipeline.fresh_entry import MISSING, read_cached
from pytest_logicenv.pipeline.kept_scenes import KeepingDesigner, KeptScenes, design_key
from pytest_logicenv.pipeline.plan_choice import (
    choose_plan,
    no_cached_plan,
    no_llm,
    plan_at_hand,
    regeneration_needs_llm,
)
from pytest_logicenv.pipeline.plan_choice import needs_llm as plan_needs_llm
from pytest_logicenv.pipeline.proven_scenes import build_proven
from pytest_logicenv.pipeline.task_request import (
    Builders,
    Case,
    Environments,
    Mode,
    PlanSource,
    SceneBuilder,
    SceneSource,
    TaskRequest,
    Where,
    entry_key_of,
)

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
    "needs_llm",
    "peek",
    "prepare",
]


def needs_llm(
    request: TaskRequest, cache: Cache, mode: Mode, builders: Builders, *, rootdir: Path
) -> bool:
    """Whether making the task's entry asks an LLM (for its plan or its scenes): the plugin
    makes such entries only for the tests the run selects, and concurrently."""
    entry = cache.entry(entry_key_of(request, cache.root, rootdir))
    where = Where(cache, entry, mode, "", rootdir)
    return plan_needs_llm(request, where) or scenes_need_llm(request, builders, where)


def scenes_need_llm(request: TaskRequest, builders: Builders, where: Where) -> bool:
    """Whether (re)building the entry asks the LLM designer for a scene: not when every
    selected situation keeps its scene (``kept_scenes.py``)."""
    if builders.llm_scenes is None:
        return False
    if where.mode.regenerate:
        return True
    try:
        chosen = plan_at_hand(request, where)
        if chosen is None:
            return True
        kept = KeptScenes.read(where.entry)
        trajectories = select(chosen.plan, request.select).trajectories
    except (LogicEnvError, OSError):
        return True  # reported when the entry is built, after the run's selection
    return any(kept.get(chosen.plan, trajectory) is None for trajectory in trajectories)


def peek(
    request: TaskRequest,
    cache: Cache,
    mode: Mode,
    builders: Builders,
    *,
    nodeid: str,
    rootdir: Path,
) -> Environments | None:
    """The environments of one task when the cache holds them fresh (:func:`read_cached`);
    ``None`` when they must be made (:func:`prepare` makes them). In strict mode (CI) an entry
    that must be made is the error :func:`prepare` would raise."""
    found = read_cached(request, cache, mode, nodeid=nodeid, rootdir=rootdir)
    if found is None or isinstance(found, Environments):
        return found
    if mode.strict:
        entry = cache.entry(entry_key_of(request, cache.root, rootdir))
        raise not_allowed(found, request, builders, Where(cache, entry, mode, nodeid, rootdir))
    return None


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
    found = peek(request, cache, mode, builders, nodeid=nodeid, rootdir=rootdir)
    if found is not None:
        return found
    key = entry_key_of(request, cache.root, rootdir)
    entry = cache.entry(key)
    where = Where(cache, entry, mode, nodeid, rootdir)
    if mode.strict and mode.offline and entry.plan_path.is_file():
        _refuse_llm_regeneration(request, builders, where)  # before the lock: nothing written
    fix = f"delete {entry.root} and run {regenerate_hint(nodeid, mode.options)}"
    with cache.lock(key):
        cache.restore(key)  # what a run killed between the two renames of a rewrite set aside
        stale = None
        if entry.exists():
            done_this_run = mode.regenerate and _read_marker(cache.run_marker(key)) == mode.run_id
            if not mode.regenerate or done_this_run:
                settings = request.settings(rootdir, cache.root)
                fresh = read_fresh(entry, request, settings, fix)
                if not isinstance(fresh, str):
                    return Environments(entry, fresh)
                stale = fresh
            else:
                _refuse_newer(entry, fix)
        elif entry.plan_path.is_file():
            stale = f"{entry.manifest_path} is missing"
        if mode.strict and not mode.regenerate:
            raise not_allowed(stale or MISSING, request, builders, where)
        environments = _generate(request, builders, where, stale)
        if mode.regenerate:
            cache.run_marker(key).write_text(mode.run_id)
        return environments


def not_allowed(why: str, request: TaskRequest, builders: Builders, where: Where) -> CacheError:
    """A cache entry that must be (re)built in strict mode (CI): an error that tells "there
    is no cached plan" or "its scenes need an LLM" apart from "regeneration is not allowed
    here" (it could be rebuilt without an LLM, but CI only reads the cache)."""
    entry = where.entry
    if request.plan_file is None and not entry.plan_path.is_file():
        return no_cached_plan(request, where)
    if scenes_need_llm(request, builders, where):
        return _no_llm_scenes(where, why)
    if request.plan_file is None or builders.llm_scenes is not None:
        # --logicenv-regenerate would ask the LLM anew; a plain run rebuilds without one
        rerun = pytest_command(where.nodeid, *where.mode.options)
        fix = (
            f"run {rerun} where the cache may be written (no CI variable, no "
            "--logicenv-offline): the rebuild asks no LLM; then commit "
            f"{where.shown(where.cache.root)}/"
        )
    else:
        fix = (
            f"run {regenerate_hint(where.nodeid, where.mode.options)} and commit "
            f"{where.shown(where.cache.root)}/"
        )
    return CacheError(
        f"{where.nodeid}: its cache entry must be rebuilt ({why}), and regeneration is not "
        "allowed here\n"
        f"  cache entry: {where.shown(entry.root)}\n"
        "  strict mode (the CI variable is set, or --logicenv-offline) only reads the cache\n"
        f"  fix: {fix}"
    )


def _refuse_llm_regeneration(request: TaskRequest, builders: Builders, where: Where) -> None:
    """In strict mode, ``--logicenv-regenerate`` of an entry whose plan or scenes only an LLM
    makes anew is an error saying so (LLM calls are off), before anything is written."""
    if plan_needs_llm(request, where):
        raise regeneration_needs_llm("derives its plan", where)
    if scenes_need_llm(request, builders, where):
        raise regeneration_needs_llm("designs its scenes", where)


def _refuse_newer(entry: Entry, fix: str) -> None:
    """Even when asked to regenerate, never rewrite an entry of a newer format in ours; a
    manifest broken beyond reading is replaced."""
    try:
        manifest = entry.manifest(fix=fix)
    except CacheError:
        return
    check_version(entry, manifest, fix)


def _read_marker(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _generate(
    request: TaskRequest, builders: Builders, where: Where, stale: str | None
) -> Environments:
    """Build the entry anew (the lock is held) and write it; ``stale`` says why an existing
    entry is rebuilt."""
    designer = _llm_designer(builders, where, stale)
    chosen = choose_plan(request, builders, where)
    plan, exchanges = chosen.plan, chosen.exchanges
    if chosen.kept:  # an LLM's plan.json, fixed by hand or not: checked as derived plans are
        check_kept(plan, chosen.record, request, builders, where)
    source = str(request.plan_file or where.entry.plan_path)
    validate_plan(plan, source, known_types=builders.known_types(), require_facts=True)
    _check_goals(plan, chosen.record, source, builders)
    proven = build_proven(chosen, request, builders, where, designer)
    chosen, trajectories, scenes = proven.chosen, proven.trajectories, proven.scenes
    plan, exchanges = chosen.plan, chosen.exchanges
    if designer is not None:
        exchanges = [*exchanges, *designer.take_exchanges()]
    notes = [*chosen.notes, *proven.notes]
    made = Made(
        plan,
        chosen.record,
        trajectories,
        scenes,
        exchanges,
        designer.name if designer is not None else None,
        notes,
        designed_for={t.id: design_key(plan, t) for t in trajectories} if designer else {},
        kept_files=designer.kept_files if designer is not None else {},
        witnesses=proven.witnesses,
    )
    settings = request.settings(where.rootdir, where.cache.root)
    kept = recorded_exchanges(where.entry) if chosen.kept or not where.mode.regenerate else {}
    files, records = entry_files(made, request, settings, kept=kept)
    written = where.cache.write_entry(where.entry.key, files)
    cases = tuple(case_from_record(where.entry.root, record) for record in records)
    rebuilt = None if stale is None or where.mode.regenerate else "; ".join((stale, *chosen.notes))
    return Environments(written, cases, generated=True, notes=tuple(notes), rebuilt=rebuilt)


def _check_goals(plan: Plan, record: Mapping[str, Any], source: str, builders: Builders) -> None:
    """A plan not an LLM's (those pass the same checks when derived) whose goals no action
    reaches is its test's error: which leaf, which fact, what blocks it."""
    if builders.goal_checks is None or derived_by_llm(record):
        return
    violations = builders.goal_checks(plan)
    if violations:
        raise PlanError(
            f"{source} (goals no sequence of actions can reach: fix them there; "
            f"`logicenv plan --check {source}` checks it)",
            violations,
        )


def _llm_designer(builders: Builders, where: Where, stale: str | None) -> KeepingDesigner | None:
    """The LLM scene designer when one designs the scenes: it keeps the scenes of the
    situations whose facts did not change (not on ``--logicenv-regenerate``), and asks the
    model for the others; no model at hand then is a cache miss."""
    if builders.llm_scenes is None:
        return None
    make = builders.llm_scenes

    def model() -> SceneSource:
        designer = None if where.mode.offline else make()
        if designer is None:
            raise _no_llm_scenes(where, stale)
        return designer

    kept = KeptScenes() if where.mode.regenerate else KeptScenes.read(where.entry)
    return KeepingDesigner(kept, model)


def _no_llm_scenes(where: Where, stale: str | None) -> CacheError:
    why = f" ({stale})" if stale and stale != MISSING else ""
    return no_llm(
        "its scenes are designed by an LLM (--logicenv-designer=llm) and there are no "
        f"up-to-date cached scenes for this task and settings{why}",
        "or design them procedurally: --logicenv-designer=procedural",
        where,
    )
