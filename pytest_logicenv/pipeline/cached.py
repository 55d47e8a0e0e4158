"""Reading a task's cache entry back: its cases and plan, when everything is fresh.

What counts as fresh, like a snapshot tool would judge it:

* the entry's manifest has our format version, and (for ``plan=`` tests) the plan file has
  not changed since;
* ``plan.json`` is the one the trajectories and scenes were made from: editing it by hand
  makes only the trajectories and scenes stale, and they are rebuilt from the edited plan;
* every scene the trajectories name is there.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_logicenv.cache import CACHE_FORMAT, Entry, file_hash
from pytest_logicenv.errors import CacheError, LogicEnvError, PlanError
from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Plan, plan_from_json
from pytest_logicenv.pipeline.request import Case, TaskRequest

TRAJECTORIES_FORMAT = "logicenv-trajectories/1"


def read_fresh(entry: Entry, request: TaskRequest, fix: str) -> tuple[Case, ...] | str:
    """The entry's cases when everything is fresh, else the reason it is stale."""
    manifest = entry.manifest(fix=fix)
    if manifest.get("format") != CACHE_FORMAT:
        return f"cache format {manifest.get('format')!r} is not {CACHE_FORMAT!r}"
    plan_bytes = read_bytes(entry.plan_path, fix)
    recorded = plan_record(manifest)
    if request.plan_file is not None and recorded.get("source_sha256") != file_hash(
        read_bytes(request.plan_file, fix)
    ):
        return f"the plan file {request.plan_file} changed"
    if recorded.get("sha256") != file_hash(plan_bytes):
        return "plan.json was edited"
    cases = _load_cases(entry, fix)
    missing = [c.trajectory_id for c in cases if not c.scene_path.is_file()]
    if missing:
        return f"scene(s) missing: {', '.join(missing)}"
    return cases


def load_plan_of(entry: Entry, fix: str) -> Plan:
    """The entry's ``plan.json``; a broken one is a :class:`CacheError` saying how to fix it."""
    data = entry.read_json(entry.plan_path, fix=fix)
    try:
        return plan_from_json(data, str(entry.plan_path))
    except PlanError as error:
        raise CacheError(f"{error}\nfix the plan by hand, or {fix}") from None


def case_from_record(entry_root: Path, record: Mapping[str, Any]) -> Case:
    """A case from its record in ``trajectories.json`` (the one reader of that record)."""
    return Case(
        entry_root=entry_root,
        trajectory_id=str(record["id"]),
        situation=tuple((str(q), str(a)) for q, a in record["situation"]),
        goal=parse_facts(record.get("goal", []), f"{record['id']}.goal"),
        conditions=tuple((str(f), str(v)) for f, v in record["conditions"]),
    )


def plan_record(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The manifest's record of who made the plan (empty when a hand edit broke it: the
    entry is then stale, not a crash)."""
    record = manifest.get("plan")
    return dict(record) if isinstance(record, dict) else {}


def read_bytes(path: Path, fix: str) -> bytes:
    """A file's bytes; a missing one is a :class:`CacheError` that says how to fix it."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise CacheError(f"{path}: missing; {fix}") from None


def _load_cases(entry: Entry, fix: str) -> tuple[Case, ...]:
    data = entry.read_json(entry.trajectories_path, fix=fix)
    try:
        if data.get("format") != TRAJECTORIES_FORMAT:
            raise CacheError(f"{entry.trajectories_path}: format {data.get('format')!r}")
        return tuple(case_from_record(entry.root, item) for item in data["trajectories"])
    except (KeyError, TypeError, ValueError, AttributeError, LogicEnvError) as error:
        raise CacheError(f"{entry.trajectories_path}: malformed ({error}); {fix}") from None
