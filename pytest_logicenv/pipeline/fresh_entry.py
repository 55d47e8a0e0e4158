"""A task's environments when the cache holds them fresh: read without the lock, generating
nothing and loading nothing that generates (:mod:`.environments` makes what is not fresh),
so that a run from a warm cache imports no LLM client, designer, layout solver or search."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_logicenv.cache import Cache, Entry, regenerate_hint
from pytest_logicenv.errors import CacheError
from pytest_logicenv.pipeline.cached import read_fresh
from pytest_logicenv.pipeline.task_request import (
    Case,
    Environments,
    Mode,
    TaskRequest,
    entry_key_of,
)


def read_cached(
    request: TaskRequest, cache: Cache, mode: Mode, *, nodeid: str, rootdir: Path
) -> Environments | str | None:
    """The environments of one task when its entry is fresh; else why it must be (re)built,
    or ``None`` when this run makes it anew (``--logicenv-regenerate``, an entry set aside)."""
    key = entry_key_of(request, cache.root, rootdir)
    if mode.regenerate or cache.was_set_aside(key):
        return None
    entry = cache.entry(key)
    fix = f"delete {entry.root} and run {regenerate_hint(nodeid, mode.options)}"
    settings = request.settings(rootdir, cache.root)
    fresh = _read_unlocked(entry, request, settings, fix, mode)
    return Environments(entry, fresh) if isinstance(fresh, tuple) else fresh


#: Why an entry must be made: there is none.
MISSING = "it has no cache entry yet"


def _read_unlocked(
    entry: Entry, request: TaskRequest, settings: Mapping[str, Any], fix: str, mode: Mode
) -> tuple[Case, ...] | str:
    """The entry read without the lock: fresh cases, or why it must be (re)built. Another
    process may be rewriting it right now, so what looks broken is read again under the
    lock, except in strict mode, where nothing writes."""
    if not entry.exists():
        return f"{entry.manifest_path} is missing" if entry.plan_path.is_file() else MISSING
    try:
        return read_fresh(entry, request, settings, fix)
    except CacheError:
        if mode.strict:
            raise
        return "unreadable without the lock"
