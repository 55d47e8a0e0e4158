"""A plan an LLM could not get right, kept for a person to fix.

When the model's plan still fails the checks after its last round, the entry is written all
the same, without trajectories or scenes: the model's last plan as ``plan.json`` (when an
answer got that far), every exchange under ``llm/``, and a manifest whose plan record says
``failed`` with the violations. The test errors with them, the file to edit and the commands
that rerun it; nothing is asked of the model again until ``--logicenv-regenerate``.

The next run reads that entry as stale and keeps its ``plan.json`` (edited by hand, or not):
an LLM's plan kept so is checked again as a derived plan is (:func:`check_kept`), so an
unfixed plan gives the same error, offline, and a fixed one is built.

A plan that passed its checks but whose scenes could not be built is kept the same way
(:func:`keep_unbuilt`): its ``plan.json``, its exchanges, and a manifest whose scenes record
says ``failed`` and at which stage (the layout's, or the design's). The next run builds the
scenes again from the kept plan, asking the model nothing. Each error says what failed (the
plan rules, what the scenes need, the layout) and what to do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_logicenv.cache import (
    CACHE_FORMAT,
    LLM_LOG,
    MANIFEST,
    PLAN,
    digests,
    dumps,
    file_hash,
    pytest_command,
    regenerate_hint,
    text_hash,
)
from pytest_logicenv.errors import (
    LayoutError,
    LayoutRejected,
    NoWitnessError,
    PlanNotAcceptedError,
    SceneError,
    Violation,
)
from pytest_logicenv.llm.exchange import PlanDerivationError, exchange_to_json
from pytest_logicenv.logic.plan import Plan, plan_to_json
from pytest_logicenv.pipeline.cached import FAILED, FAILED_REASON, SCENES_FAILED_REASON
from pytest_logicenv.pipeline.entry_files import exchange_files, recorded_exchanges
from pytest_logicenv.pipeline.task_request import Builders, TaskRequest, Where
from pytest_logicenv.version import __version__


def keep_failed(
    error: PlanDerivationError, made_by: str, request: TaskRequest, where: Where
) -> PlanNotAcceptedError:
    """Write the failed derivation's entry (the lock is held) and the error the test shows."""
    record: dict[str, Any] = {"made_by": made_by, FAILED: [str(v) for v in error.violations]}
    files = exchange_files([exchange_to_json(e) for e in error.exchanges])
    if error.document is not None:
        plan_bytes = dumps(dict(error.document))
        files[PLAN] = plan_bytes
        record["sha256"] = file_hash(plan_bytes)
    _write(files, record, {}, FAILED_REASON, request, where)
    kept = error.document is not None
    fix = f"  what failed: {_stage(error.violations)}\n{_fix(where, kept=kept)}"
    return PlanNotAcceptedError(f"{where.nodeid}: {error.source}", error.violations, fix)


def keep_unbuilt(
    error: SceneError,
    plan: Plan,
    record: Mapping[str, Any],
    exchanges: Sequence[Mapping[str, Any]],
    request: TaskRequest,
    where: Where,
) -> SceneError:
    """Write the entry of an LLM's plan whose scenes could not be built (the lock is held):
    the plan, its exchanges, and why; the error the test shows says which stage failed."""
    plan_bytes = dumps(plan_to_json(plan))
    files = {
        **recorded_exchanges(where.entry),
        PLAN: plan_bytes,
        **exchange_files([dict(e) for e in exchanges]),
    }
    stage = _stage_of(error)
    scenes = {FAILED: str(error), "stage": stage.split("-")[0]}
    plan_record = {**record, "sha256": file_hash(plan_bytes)}
    _write(files, plan_record, scenes, SCENES_FAILED_REASON, request, where)
    entry = where.shown(where.entry.root)
    regenerate = regenerate_hint(where.nodeid, where.mode.options)
    message = (
        f"{where.nodeid}: {error}\n"
        f"  what failed: {_SCENE_STAGES[stage]}\n"
        f"  the plan ({record.get('made_by')}) is kept in {entry}/{PLAN} with the model's "
        f"answers in {entry}/{LLM_LOG}/: a rerun builds the scenes from it and asks the model "
        "nothing\n"
        f"  fix: edit {entry}/{PLAN} by hand and rerun, or derive it anew: {regenerate}"
    )
    if isinstance(error, NoWitnessError):
        return NoWitnessError(message, error.results)
    return {"layout-bug": LayoutRejected, "layout": LayoutError}.get(stage, SceneError)(message)


def _stage_of(error: SceneError) -> str:
    """The stage a scene error is of, as the manifest records it."""
    if isinstance(error, NoWitnessError):
        return "witness"
    if isinstance(error, LayoutRejected):
        return "layout-bug"
    return "layout" if isinstance(error, LayoutError) else "design"


_SCENE_STAGES: Mapping[str, str] = {
    "layout-bug": "the layout (a layout bug, not the plan's: its facts can hold)",
    "layout": "the layout (the situation's objects could not be placed in its rooms)",
    "design": "the scene design (a situation's facts cannot all hold in one scene)",
    "witness": (
        "the witness search (the plan passed its checks and its scenes were built, but no "
        "sequence of the simulator's actions does the task in some of them; the model was "
        "told what blocks each goal, and its answers did not fix it)"
    ),
}


#: Violation codes of the checks of what the scene stages need (``scenes/feasibility.py``,
#: ``sim/achievable.py``); every other code is a plan rule's.
FEASIBILITY_CODES = frozenset({"capability", "room", "design", "goal", "label", "witness"})


def _stage(violations: Sequence[Violation]) -> str:
    codes = {v.code for v in violations}
    if codes <= FEASIBILITY_CODES:
        return "feasibility (the plan is well formed, but its scenes or goals cannot be made)"
    if codes & FEASIBILITY_CODES:
        return "the plan rules and feasibility (what its scenes and goals need)"
    return "the plan rules (the plan's form and logic)"


def _write(
    files: dict[str, bytes],
    record: Mapping[str, Any],
    scenes: Mapping[str, Any],
    note: str,
    request: TaskRequest,
    where: Where,
) -> None:
    settings = request.settings(where.rootdir, where.cache.root)
    manifest = {
        "format": CACHE_FORMAT,
        "generator": f"pytest-logicenv {__version__}",
        "task": request.task,
        "task_sha256": text_hash(request.task),
        "settings": dict(settings),
        "plan": dict(record),
        "scenes": {"made_by": None, "seed": request.seed, "count": 0, **scenes},
        "notes": [note],
    }
    files[MANIFEST] = dumps({**manifest, "files": digests(files)})
    where.cache.write_entry(where.entry.key, files)


def derived_by_llm(record: Mapping[str, Any]) -> bool:
    """Whether a plan record is an LLM's (also once edited by hand)."""
    made_by = str(record.get("made_by", ""))
    return made_by.startswith(("llm:", "hand-edited (llm:"))


def check_kept(
    plan: Plan, record: Mapping[str, Any], request: TaskRequest, builders: Builders, where: Where
) -> None:
    """A kept ``plan.json`` an LLM derived must pass what a derived plan must (with the
    request's selection): else the same error as when it was derived, naming the file."""
    if builders.plan_checks is None or not derived_by_llm(record):
        return
    violations: Sequence[Violation] = builders.plan_checks(plan, request.select)
    if violations:
        source = f"{where.nodeid}: {where.shown(where.entry.plan_path)} ({record['made_by']})"
        raise PlanNotAcceptedError(source, violations, _fix(where, kept=True))


def _fix(where: Where, *, kept: bool) -> str:
    entry = where.shown(where.entry.root)
    regenerate = regenerate_hint(where.nodeid, where.mode.options)
    if not kept:
        return (
            f"  no answer got as far as a plan; the model's answers are in {entry}/{LLM_LOG}/\n"
            f"  fix: derive it anew (another model may do better): {regenerate},\n"
            '       or give the marker a hand-written plan: plan="path/to/plan.json"'
        )
    plan = f"{entry}/{PLAN}"
    return (
        f"  the model's plan is kept in {plan} (its answers in {entry}/{LLM_LOG}/)\n"
        f"  fix: edit {plan} by hand and rerun {pytest_command(where.nodeid)} (no LLM needed; "
        f"`logicenv plan --check {plan}` checks it first),\n"
        f"       or derive it anew: {regenerate}"
    )
