"""Where a task's plan comes from when its entry is (re)built: the marker's plan file, the
entry's own (possibly hand-edited) ``plan.json``, or an LLM planner.

Which wins for a ``plan=`` test: the marker's file, whenever it changed since the entry was
built (the hand edits of the cached copy are then replaced, and a note says so); while it is
unchanged, a hand edit of the cached ``plan.json`` is kept and only what depends on it is
rebuilt, as for any other entry. A ``plan.json`` whose ``manifest.json`` is missing is kept
too (a plan may have cost an LLM minutes; a manifest is cheap to write again)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace
from typing import Any

from pytest_logicenv.cache import Entry, file_hash, regenerate_hint
from pytest_logicenv.errors import CacheError
from pytest_logicenv.llm.exchange import PlanDerivationError
from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.pipeline.cached import (
    FAILED,
    identity_differences,
    load_plan_of,
    plan_record,
    read_bytes,
    read_manifest,
)
from pytest_logicenv.pipeline.failed_plans import keep_failed
from pytest_logicenv.pipeline.task_request import Builders, PlanSource, TaskRequest, Where

HAND_WRITTEN = "hand-written"
#: How alike (difflib's ratio) an entry's task text must be to pass for an earlier wording.
ALIKE = 0.6

#: The note of a rebuild in which the marker's plan file replaced a hand-edited copy.
REPLACED_EDITS = "it replaced the hand edits of the cached plan.json (edit the plan file itself)"


@dataclass(frozen=True)
class ChosenPlan:
    """A chosen plan, the manifest's record of who made it, the LLM exchanges behind it,
    whether it is the entry's own ``plan.json`` kept, and notes for the manifest;
    ``planner`` is the planner that derived it in this run, whose conversation what its
    scenes show goes back to (``None``: a plan of a file, or kept)."""

    plan: Plan
    record: dict[str, Any]
    exchanges: list[dict[str, Any]] = field(default_factory=list)
    kept: bool = False
    notes: tuple[str, ...] = ()
    planner: PlanSource | None = field(default=None, compare=False)


def choose_plan(request: TaskRequest, builders: Builders, where: Where) -> ChosenPlan:
    """The plan to build the entry from, completed with the request's rooms and task text."""
    chosen = plan_at_hand(request, where)
    return chosen if chosen is not None else _completed(_derived(request, builders, where), request)


def plan_at_hand(request: TaskRequest, where: Where) -> ChosenPlan | None:
    """The plan :func:`choose_plan` would choose when it needs no LLM (the entry's own
    ``plan.json`` kept, or the marker's plan file), else ``None``."""
    chosen = _previous_plan(request, where)
    if chosen is None and request.plan_file is not None:
        chosen = _from_file(request, where)
    return None if chosen is None else _completed(chosen, request)


def _completed(chosen: ChosenPlan, request: TaskRequest) -> ChosenPlan:
    plan = chosen.plan
    if request.rooms:
        plan = replace(plan, rooms=request.rooms)
    if not plan.task:
        plan = replace(plan, task=request.task)
    return replace(chosen, plan=plan)


def needs_llm(request: TaskRequest, where: Where) -> bool:
    """Whether choosing the plan asks an LLM: no plan file, and no ``plan.json`` of the
    entry that a rebuild keeps."""
    if request.plan_file is not None:
        return False
    try:
        return _previous_plan(request, where) is None
    except (CacheError, OSError):
        return False  # a broken plan.json: the rebuild says so, without an LLM


def _from_file(request: TaskRequest, where: Where) -> ChosenPlan:
    assert request.plan_file is not None
    source = read_bytes(request.plan_file, f"check the plan= path of {where.nodeid}")
    record = {
        "made_by": HAND_WRITTEN,
        "source": request.settings(where.rootdir, where.cache.root)["plan_file"],
        "source_sha256": file_hash(source),
    }
    notes = (REPLACED_EDITS,) if _copy_edited(where) else ()
    return ChosenPlan(load_plan(request.plan_file), record, notes=notes)


def _copy_edited(where: Where) -> bool:
    """Whether the entry's plan.json was edited by hand (now, or kept from an earlier edit)."""
    try:
        record = plan_record(where.entry.manifest(fix=""))
        plan_bytes = where.entry.plan_path.read_bytes()
    except (OSError, CacheError):
        return False
    made_by = str(record.get("made_by", ""))
    return made_by.startswith("hand-edited") or record.get("sha256") != file_hash(plan_bytes)


def _previous_plan(request: TaskRequest, where: Where) -> ChosenPlan | None:
    """The entry's own plan.json, kept when only what depends on it must be rebuilt.

    A plan made by an LLM is re-derived on ``--logicenv-regenerate``; a hand-edited plan is
    kept (that is the point of editing it), unless the marker's plan file changed.
    """
    entry = where.entry
    if not entry.plan_path.is_file():
        return None
    try:
        manifest = read_manifest(entry, "") if entry.manifest_path.exists() else "missing"
        plan_bytes = entry.plan_path.read_bytes()
    except (OSError, CacheError):
        return None
    if isinstance(manifest, str):  # missing or damaged: the plan is kept all the same
        return None if request.plan_file is not None else _recovered(where, manifest)
    record = {k: v for k, v in plan_record(manifest).items() if k != FAILED}
    edited = record.get("sha256") != file_hash(plan_bytes)
    if request.plan_file is not None and (not edited or _file_changed(request, record, where)):
        return None
    if where.mode.regenerate and not edited:
        return None
    fix = f"fix {entry.plan_path} or delete {entry.root} to derive the plan anew"
    plan = load_plan_of(entry, fix)
    made_by = str(record.get("made_by", "unknown"))
    if edited and not made_by.startswith("hand-edited"):
        record["made_by"] = f"hand-edited ({made_by})"
    return ChosenPlan(plan, record, kept=True)


def _file_changed(request: TaskRequest, record: dict[str, Any], where: Where) -> bool:
    assert request.plan_file is not None
    source = read_bytes(request.plan_file, f"check the plan= path of {where.nodeid}")
    return record.get("source_sha256") != file_hash(source)


def _recovered(where: Where, why: str) -> ChosenPlan:
    """A plan.json whose manifest is gone or damaged: kept, and said so."""
    fix = f"fix {where.entry.plan_path} or delete {where.entry.root} to derive the plan anew"
    plan = load_plan_of(where.entry, fix)
    lost = "missing" if why == "missing" else "damaged"
    record = {"made_by": f"unknown (plan.json kept: its manifest.json was {lost})"}
    return ChosenPlan(plan, record, kept=True)


def _derived(request: TaskRequest, builders: Builders, where: Where) -> ChosenPlan:
    planner = None if where.mode.offline else builders.planner()
    if planner is None:
        raise no_cached_plan(request, where)
    try:
        plan, exchanges = planner.derive(request.task, request.rooms)
    except PlanDerivationError as error:  # kept for a person to fix, not asked again
        raise keep_failed(error, planner.name, request, where) from None
    return ChosenPlan(plan, {"made_by": planner.name}, exchanges, planner=planner)


def no_cached_plan(request: TaskRequest, where: Where) -> CacheError:
    """No plan for this task in the cache, and no LLM to derive one: why (a changed task
    text or settings, when an earlier entry of the test is there), and how to fix it."""
    earlier = earlier_entry(request, where)
    why = (
        f"the task text or settings changed since {where.shown(earlier.root)} was generated "
        f"({_differences(earlier, request, where)})"
        if earlier is not None
        else "there is no cached plan for this task"
    )
    return no_llm(why, 'or give the marker a hand-written plan: plan="path/to/plan.json"', where)


def _differences(entry: Entry, request: TaskRequest, where: Where) -> str:
    """What differs between an entry's task and settings and the request's, in words."""
    identity = entry.identity()
    if identity is None:
        return "its manifest cannot tell"
    settings = request.settings(where.rootdir, where.cache.root)
    return "; ".join(identity_differences(*identity, request.task, settings))


def earlier_entry(request: TaskRequest, where: Where) -> Entry | None:
    """The entry this test most likely used before its task text or settings changed: one
    made for the same task with other settings, else the one made with the same settings for
    the most alike task text (at least ``ALIKE`` similar). Judged from the entries' own task
    and settings, so a fresh clone of a committed cache tells the same."""
    settings = request.settings(where.rootdir)
    wanted = " ".join(request.task.split())
    best: tuple[float, Entry] | None = None
    for entry in where.cache.entries():
        identity = entry.identity() if entry.root != where.entry.root else None
        if identity is None:
            continue
        task = " ".join(identity[0].split())
        if task == wanted:
            score = 2.0  # the same task: only its settings changed
        elif identity[1] == settings:
            score = difflib.SequenceMatcher(None, task, wanted).ratio()
        else:
            continue
        if score >= ALIKE and (best is None or score > best[0]):
            best = (score, entry)
    return None if best is None else best[1]


def regeneration_needs_llm(what: str, where: Where) -> CacheError:
    """``--logicenv-regenerate`` where no LLM may be called (CI) of an entry whose plan or
    scenes an LLM made: say so, and how to allow it, rather than "no cached plan"."""
    return CacheError(
        f"{where.nodeid}: --logicenv-regenerate {what} anew with an LLM, and LLM calls are "
        "off here (the CI variable is set, or --logicenv-offline)\n"
        f"  cache entry: {where.shown(where.entry.root)} (left as it is)\n"
        f"  fix: regenerate it where an LLM is available and commit "
        f"{where.shown(where.cache.root)}/,\n"
        f"       or allow the LLM under CI: {where.mode.allow_llm},\n"
        "       or leave out --logicenv-regenerate to run from the cached entry"
    )


def no_llm(why: str, otherwise: str, where: Where) -> CacheError:
    """A cache miss that needs an LLM when none may be used: why, and how to fix it."""
    how = (
        "LLM calls are off (--logicenv-offline, or the CI variable is set; "
        f"{where.mode.allow_llm.split(' (')[0]} allows them under CI)"
        if where.mode.offline
        else "no LLM endpoint is configured (set LOGICENV_LLM_BASE_URL and "
        "LOGICENV_LLM_MODEL, or the logicenv_llm_* ini options)"
    )
    return CacheError(
        f"{where.nodeid}: {why}\n"
        f"  cache entry: {where.shown(where.entry.root)}\n"
        f"  {how}\n"
        "  fix: generate it where an LLM is available with "
        f"{regenerate_hint(where.nodeid, where.mode.options)}"
        f" and commit {where.shown(where.cache.root)}/,\n"
        f"       {otherwise}"
    )
