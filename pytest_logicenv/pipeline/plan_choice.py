"""Where a task's plan comes from when its entry is (re)built: the marker's plan file, the
entry's own (possibly hand-edited) ``plan.json``, or an LLM planner, in that order."""

from __future__ import annotations

import difflib
from typing import Any

from pytest_logicenv.cache import Entry, file_hash, regenerate_hint
from pytest_logicenv.errors import CacheError
from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.pipeline.cached import load_plan_of, plan_record, read_bytes
from pytest_logicenv.pipeline.request import Builders, TaskRequest, Where

HAND_WRITTEN = "hand-written"
#: How alike (difflib's ratio) an entry's task text must be to pass for an earlier wording.
ALIKE = 0.6

#: A chosen plan, the manifest's record of who made it, and the LLM exchanges behind it.
ChosenPlan = tuple[Plan, dict[str, Any], list[dict[str, Any]]]


def choose_plan(request: TaskRequest, builders: Builders, where: Where) -> ChosenPlan:
    """The plan to build the entry from, completed with the request's rooms and task text."""
    if request.plan_file is not None:
        plan, record, exchanges = _from_file(request, where)
    elif (previous := _previous_plan(request, where)) is not None:
        plan, record, exchanges = (*previous, [])
    else:
        plan, record, exchanges = _derived(request, builders, where)
    if request.rooms:
        plan = Plan(plan.task, plan.subtasks, plan.setting, request.rooms)
    if not plan.task:
        plan = Plan(request.task, plan.subtasks, plan.setting, plan.rooms)
    return plan, record, exchanges


def _from_file(request: TaskRequest, where: Where) -> ChosenPlan:
    assert request.plan_file is not None
    source = read_bytes(request.plan_file, f"check the plan= path of {where.nodeid}")
    record = {
        "made_by": HAND_WRITTEN,
        "source": request.settings(where.rootdir)["plan_file"],
        "source_sha256": file_hash(source),
    }
    return load_plan(request.plan_file), record, []


def _previous_plan(request: TaskRequest, where: Where) -> tuple[Plan, dict[str, Any]] | None:
    """The entry's own plan.json, kept when only what depends on it must be rebuilt.

    A plan made by an LLM is re-derived on ``--logicenv-regenerate``; a hand-edited plan is
    kept (that is the point of editing it).
    """
    entry = where.entry
    if request.plan_file is not None or not entry.exists():
        return None
    try:
        manifest = entry.manifest(fix="")
        plan_bytes = entry.plan_path.read_bytes()
    except (OSError, CacheError):
        return None
    record = plan_record(manifest)
    edited = record.get("sha256") != file_hash(plan_bytes)
    if where.mode.regenerate and not edited:
        return None
    fix = f"fix {entry.plan_path} or delete {entry.root} to derive the plan anew"
    plan = load_plan_of(entry, fix)
    made_by = str(record.get("made_by", "unknown"))
    if edited and not made_by.startswith("hand-edited") and made_by != HAND_WRITTEN:
        record["made_by"] = f"hand-edited ({made_by})"
    return plan, record


def _derived(request: TaskRequest, builders: Builders, where: Where) -> ChosenPlan:
    planner = None if where.mode.offline else builders.planner()
    if planner is None:
        earlier = earlier_entry(request, where)
        why = (
            f"the task text or settings changed since {where.shown(earlier.root)} was generated"
            if earlier is not None
            else "there is no cached plan for this task"
        )
        raise no_llm(why, 'or give the marker a hand-written plan: plan="path/to/plan.json"', where)
    plan, exchanges = planner.derive(request.task, request.rooms)
    return plan, {"made_by": planner.name}, exchanges


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


def no_llm(why: str, otherwise: str, where: Where) -> CacheError:
    """A cache miss that needs an LLM when none may be used: why, and how to fix it."""
    how = (
        "LLM calls are off (--logicenv-offline, or the CI variable is set)"
        if where.mode.offline
        else "no LLM endpoint is configured (set LOGICENV_LLM_BASE_URL and "
        "LOGICENV_LLM_MODEL, or the logicenv_llm_* ini options)"
    )
    return CacheError(
        f"{where.nodeid}: {why}\n"
        f"  cache entry: {where.shown(where.entry.root)}\n"
        f"  {how}\n"
        f"  fix: generate it where an LLM is available with {regenerate_hint(where.nodeid)}"
        f" and commit {where.shown(where.cache.root)}/,\n"
        f"       {otherwise}"
    )
