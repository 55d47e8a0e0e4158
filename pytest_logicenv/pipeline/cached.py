"""Reading a task's cache entry back: its cases and plan, when everything is fresh.

What counts as fresh, like a snapshot tool would judge it:

* the entry's manifest has our format version (an older one is stale; a newer one is an
  error, so that an older pytest-logicenv never rewrites it in the older layout), and (for
  ``plan=`` tests) the plan file has not changed since;
* every file the manifest records a digest of is there, unchanged: ``plan.json`` edited by
  hand makes only what is derived from it (trajectories and scenes) stale, to be rebuilt from
  the edited plan; an edited or damaged derived file is never trusted, it is rebuilt;
* ``trajectories.json`` was made from this ``plan.json``, and names only recorded scenes.

A damaged manifest (not JSON, not a manifest) is stale like a missing one: the entry is
rebuilt, its ``plan.json`` kept. Anything else wrong (a file that cannot be read, a
``trajectories.json`` that is not one) is a :class:`~pytest_logicenv.errors.CacheError` naming
the file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pytest_logicenv.cache import (
    CACHE_VERSION,
    PLAN,
    SCENES,
    Entry,
    format_version,
    safe_file_name,
)
from pytest_logicenv.errors import CacheError, LogicEnvError, PlanError
from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Plan, plan_from_json
from pytest_logicenv.pipeline import entry_reads
from pytest_logicenv.pipeline.derived import content_problem
from pytest_logicenv.pipeline.entry_reads import read_once
from pytest_logicenv.pipeline.task_request import Case, TaskRequest

TRAJECTORIES_FORMAT = "logicenv-trajectories/1"


#: Why an entry is stale when only its plan.json changed (the plan is kept, the rest rebuilt).
PLAN_EDITED = f"{PLAN} was edited"
#: The plan record's key that marks a derived plan which failed the checks (its violations:
#: the entry has no trajectories or scenes, see ``failed_plans.py``).
FAILED = "failed"
#: Why such an entry is stale: its plan is kept and checked again, the rest made once it passes.
FAILED_REASON = "its plan, derived by an LLM, failed the checks"
#: Why an entry whose scenes could not be built is stale: its plan (an LLM's) is kept and the
#: scenes are tried again from it, with no model (``failed_plans.keep_unbuilt``).
SCENES_FAILED_REASON = "no scene could be built from its plan, which is kept"


#: The manifest's record of the user types the plan uses: ``{name: digest of its definition}``.
USED_TYPES = "types"


def read_fresh(
    entry: Entry, request: TaskRequest, settings: Mapping[str, Any], fix: str
) -> tuple[Case, ...] | str:
    """The entry's cases when everything is fresh, else the reason it is stale. An entry
    made for another task text or other ``settings`` than the request's (copied or renamed
    by hand) is an error naming what differs."""
    manifest = read_manifest(entry, fix)
    if isinstance(manifest, str):
        return manifest
    version = check_version(entry, manifest, fix)
    if version < CACHE_VERSION:
        return f"it is in the older cache format {version} (this version writes {CACHE_VERSION})"
    check_identity(entry, manifest, request.task, settings)
    types_changed = changed_types(manifest, request)
    if types_changed:
        return types_changed
    recorded = plan_record(manifest)
    if recorded.get(FAILED):
        return FAILED_REASON
    scenes = manifest.get("scenes")
    if isinstance(scenes, dict) and scenes.get(FAILED):
        return SCENES_FAILED_REASON
    if request.plan_file is not None and recorded.get("source_sha256") != _hash(
        request.plan_file, fix
    ):
        return f"the plan file {request.plan_file} changed"
    recorded_files = recorded_digests(manifest)
    assert recorded_files is not None  # read_manifest says so otherwise
    changed = changed_files(entry, recorded_files, fix)
    if PLAN in changed:
        return PLAN_EDITED
    if changed:
        return "; ".join(f"{entry.root / name} {why}" for name, why in changed.items())
    return _load_cases(entry, recorded, recorded_files, fix)


def check_identity(
    entry: Entry, manifest: Mapping[str, Any], task: str, settings: Mapping[str, Any]
) -> None:
    """Refuse an entry whose manifest was made for another task text or other settings
    than its key stands for here: its plan is another task's, or its scenes other ones."""
    differs = identity_differences(manifest.get("task"), manifest.get("settings"), task, settings)
    if not differs:
        return
    raise CacheError(
        f"{entry.root}: this cache entry was made for another task or settings than its "
        f"key stands for (copied or renamed by hand?): {'; '.join(differs)}\n"
        f"  fix: delete {entry.root} to make it anew, or give the test the task and "
        "settings the entry records"
    )


def identity_differences(
    task: object, settings: object, wanted_task: str, wanted: Mapping[str, Any]
) -> list[str]:
    """What differs between a manifest's task and settings and the wanted ones, in words."""
    differs = []
    recorded_task = " ".join(task.split()) if isinstance(task, str) else task
    if recorded_task != " ".join(wanted_task.split()):
        differs.append(f"task text {recorded_task!r}, here {' '.join(wanted_task.split())!r}")
    recorded = dict(settings) if isinstance(settings, Mapping) else {}
    for key in sorted(set(recorded) | set(wanted)):
        if recorded.get(key) != wanted.get(key):
            differs.append(f"{key} {recorded.get(key)!r}, here {wanted.get(key)!r}")
    return differs


def changed_types(manifest: Mapping[str, Any], request: TaskRequest) -> str | None:
    """Why the entry is stale when a user type its plan uses is defined otherwise now (or
    no longer): its scenes are rebuilt from the kept plan. Types it does not use do not
    matter, so adding a type file keeps every entry that uses none of its types."""
    recorded = manifest.get(USED_TYPES, {})
    if not isinstance(recorded, Mapping):
        return f"its manifest's {USED_TYPES!r} is not a map of type digests"
    now = request.type_digests(recorded)
    changed = sorted(name for name, digest in recorded.items() if now.get(name) != digest)
    gone = [name for name in changed if name not in now]
    if gone:
        return f"its plan uses {', '.join(gone)}, which no type file given here defines"
    if changed:
        return f"the type file's definition of {', '.join(changed)} changed"
    return None


def read_manifest(entry: Entry, fix: str) -> Mapping[str, Any] | str:
    """The entry's manifest, or why it is damaged: not JSON, not a manifest, not of any cache
    format. A damaged manifest is like a missing one: the entry is rebuilt, keeping its
    ``plan.json`` (a plan may have cost an LLM minutes; a manifest is cheap to write again).
    A manifest that cannot be read at all (permissions), or of a newer format, is an error.
    It is read once while it stays as it is (every marked function of a task reads it), and
    shared read-only."""

    def parse(path: Path) -> Mapping[str, Any]:
        return MappingProxyType(entry.manifest(fix=fix))

    try:
        manifest = read_once(entry.manifest_path, "manifest", parse)
    except CacheError as error:
        if not _readable(entry.manifest_path):
            raise
        said = str(error).removeprefix(f"{entry.manifest_path}: ").removesuffix(f"; {fix}")
        return f"{entry.manifest_path} is damaged ({said})"
    if format_version(manifest.get("format")) is None:
        return f"{entry.manifest_path} is damaged (its format {manifest.get('format')!r})"
    if recorded_digests(manifest) is None:
        return f"{entry.manifest_path} is damaged ('files' is not a map of digests)"
    return manifest


def _readable(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            handle.read(1)
    except OSError:
        return False
    return True


def check_version(entry: Entry, manifest: Mapping[str, Any], fix: str) -> int:
    """The entry's cache format version; one we cannot read (not ours, or newer) is an error,
    so that it is never rewritten in an older layout."""
    value = manifest.get("format")
    version = format_version(value)
    if version is None:
        raise CacheError(f"{entry.manifest_path}: format {value!r} is not a cache format; {fix}")
    if version > CACHE_VERSION:
        raise CacheError(
            f"{entry.manifest_path}: written by a newer pytest-logicenv (cache format "
            f"{version}; this version reads up to {CACHE_VERSION}); upgrade pytest-logicenv "
            "(pip install -U pytest-logicenv), or delete the entry to rebuild it with this one"
        )
    return version


def changed_files(entry: Entry, recorded: Mapping[str, str], fix: str) -> dict[str, str]:
    """The entry's files that are missing or whose SHA-256 is not the one recorded, with
    what is wrong with each."""
    changed = {}
    for name, digest in recorded.items():
        path = entry.root / name
        if not path.is_file():
            changed[name] = "is missing"
        elif _hash(path, fix) != digest:
            changed[name] = (
                "does not match the digest manifest.json records (edited by hand, or damaged)"
            )
    return changed


def _hash(path: Path, fix: str) -> str:
    """A file's SHA-256, computed once while the file stays as it is (``entry_reads``)."""
    try:
        return entry_reads.digest(path)
    except FileNotFoundError:
        raise CacheError(f"{path}: missing; {fix}") from None
    except OSError as error:
        raise CacheError(f"{path}: cannot be read ({error.strerror or error}); {fix}") from None


def recorded_digests(manifest: Mapping[str, Any]) -> dict[str, str] | None:
    """The manifest's digests, by path in the entry; ``None`` when a hand edit broke them."""
    recorded = manifest.get("files")
    if not isinstance(recorded, Mapping) or not all(
        isinstance(name, str)
        and isinstance(digest, str)
        and all(part not in ("", ".", "..") for part in name.split("/"))
        for name, digest in recorded.items()
    ):
        return None
    return dict(recorded)


def load_plan_of(entry: Entry, fix: str) -> Plan:
    """The entry's ``plan.json`` (read once while it stays as it is); a broken one is a
    :class:`CacheError` saying how to fix it."""

    def parse(path: Path) -> Plan:
        data = entry.read_json(path, fix=fix)
        try:
            return plan_from_json(data, str(path))
        except PlanError as error:
            raise CacheError(f"{error}\nfix the plan by hand, or {fix}") from None

    return read_once(entry.plan_path, "plan", parse)


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
    """A file's bytes; a missing or unreadable one is a :class:`CacheError` that says how to
    fix it."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise CacheError(f"{path}: missing; {fix}") from None
    except OSError as error:
        raise CacheError(f"{path}: cannot be read ({error.strerror or error}); {fix}") from None


def _load_cases(
    entry: Entry, plan: Mapping[str, Any], recorded: Mapping[str, str], fix: str
) -> tuple[Case, ...] | str:
    cases, made_from, records = read_trajectories(entry, fix)
    if made_from != _hash(entry.plan_path, fix):  # plan.json itself, not what a record says
        return f"{entry.trajectories_path} was made from another {PLAN}"
    unrecorded = [
        case.trajectory_id
        for case in cases
        if f"{SCENES}/{safe_file_name(case.trajectory_id)}.json" not in recorded
    ]
    if unrecorded:
        return f"{entry.trajectories_path} names scenes the entry lacks: {', '.join(unrecorded)}"
    problem = _checked_content(entry, recorded, records, fix)
    return cases if problem is None else problem


#: What ``trajectories.json`` reads as: its cases, the plan digest it was made from, and its
#: records as written (read only: the content check compares them with the plan's).
Trajectories = tuple[tuple[Case, ...], object, tuple[Any, ...]]


def read_trajectories(entry: Entry, fix: str) -> Trajectories:
    """The cases of the entry's ``trajectories.json``, the plan digest it was made from and
    its records (read once while it stays as it is); a malformed file is a
    :class:`CacheError`."""

    def parse(path: Path) -> Trajectories:
        data = entry.read_json(path, fix=fix)
        try:
            if data.get("format") != TRAJECTORIES_FORMAT:
                raise CacheError(f"{path}: format {data.get('format')!r}")
            records = tuple(data["trajectories"])
            cases = tuple(case_from_record(entry.root, item) for item in records)
            return cases, data.get("plan_sha256"), records
        except (KeyError, TypeError, ValueError, AttributeError, LogicEnvError) as error:
            raise CacheError(f"{path}: malformed ({error}); {fix}") from None

    return read_once(entry.trajectories_path, ("cases", str(entry.root)), parse)


def _checked_content(
    entry: Entry, recorded: Mapping[str, str], records: Sequence[Any], fix: str
) -> str | None:
    """:func:`~.derived.content_problem`, once per entry and content (across runs, with the
    read record): the digests name the content, so an unchanged entry is not checked again."""
    return entry_reads.kept(
        ("content check", str(entry.root)),
        tuple(sorted(recorded.items())),
        lambda: content_problem(entry, load_plan_of(entry, fix), records),
        entry.root,
        entry_reads.DIGEST_BYTES,
    )
