"""Generation of what the run selects, concurrently, once per task.

At collection a test whose environments an LLM must make (a plan to derive, or scenes the
LLM designs) gets one pending item (:class:`~pytest_logicenv.session.collection.PendingCase`).
Once pytest has settled the run's items (``-k``, ``-m``, ``--deselect``, node ids, ``--lf``,
and every plugin's reordering), :func:`generate_selected` makes the environments of the pending
items still there, and replaces each by one item per environment, or by one erroring item. A
test the run deselected causes no generation and no LLM call.

* **Once per task.** Tests that share a task (the same cache entry) share one generation; a
  generation that fails is attempted once per run, across tests and ``pytest -n`` workers:
  the first records its error beside the entry (``.<key>.failed``, with the run's id) under
  a lock of its own, and every test of that task, in every worker, reports that error
  (strict mode writes no record: it writes nothing, and its failures cost no LLM call).
  Workers that find a task's entry made by another read it (the cache's lock).
* **Concurrently.** Up to ``--logicenv-llm-concurrency N`` tasks are generated at once by
  threads, and the LLM sees at most N requests at once, also from several workers
  (:class:`~pytest_logicenv.llm.limits.BoundedLLM`).

What ``-k`` can match before generation is what pytest knows then: a pending test's name
(``test_tidy[logicenv-pending]``), its file, class and markers, not its situations' ids. A
``-k`` that names only situations (``-k yes-light``) deselects the pending test, so nothing is
generated; one that selects it (``-k "test_tidy and not yes"``) has its task generated, and
its situations' items then go through ``-k`` like collected ones. Once the entry is cached,
``-k`` and node ids see the situations from the start.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_logicenv.cache import LOCK_TIMEOUT_S, safe_file_name
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.pipeline.environments import prepare
from pytest_logicenv.session.collection import (
    ERROR_ID,
    PENDING_ID,
    CaseParam,
    ErrorCase,
    PendingCase,
    PendingTask,
    cache_error,
)
from pytest_logicenv.session.making import builders
from pytest_logicenv.session.settings import Settings

if TYPE_CHECKING:
    from pytest_logicenv.cache import Cache
    from pytest_logicenv.pipeline.task_request import Builders, Environments, Mode
    from pytest_logicenv.session.marker import MarkerArgs

#: Told that a function's environments are ready; returns their params (the session keeps
#: the environments: see ``collection.ready``).
OnReady = Callable[[str, "MarkerArgs", "Environments", Callable[[Warning], None]], list[CaseParam]]


@dataclass(frozen=True)
class Making:
    """What generating the selected tests' environments needs from the session: its
    settings, cache and mode, the pending functions and the entry key of each."""

    settings: Settings
    config: pytest.Config
    cache: Cache
    mode: Mode
    pending: Mapping[str, PendingTask]
    keys: Mapping[str, str]
    on_ready: OnReady


def generate_selected(making: Making, session: pytest.Session) -> None:
    """Make the environments of the selected pending items and put their items in their
    place, in order (the session's item list is changed in place). The new items go through
    the run's selection as collected items do (``pytest_collection_modifyitems``: ``-k``,
    ``-m``, ``--deselect``, ``--lf``), so that ``-k "not yes"`` leaves out the situations it
    names, once they have ids."""
    items = session.items
    functions = list(dict.fromkeys(p.function for item in items if (p := _pending(item))))
    if not functions:
        return
    by_key: dict[str, list[str]] = {}
    for function in functions:
        by_key.setdefault(making.keys[function], []).append(function)
    made = _generate_all(making, [found[0] for found in by_key.values()])
    outcome = {f: made[found[0]] for found in by_key.values() for f in found}
    params = {f: _params(making, f, outcome[f], items) for f in functions}
    new = {
        id(item): _respawned(item, params[pending.function])
        for item in items
        if (pending := _pending(item)) is not None
    }
    selected = [n for made_items in new.values() for n in made_items]
    session.config.hook.pytest_collection_modifyitems(
        session=session, config=session.config, items=selected
    )
    kept = {id(n) for n in selected}
    replaced: list[pytest.Item] = []
    for item in items:
        replaced += [n for n in new[id(item)] if id(n) in kept] if id(item) in new else [item]
    items[:] = replaced


def _pending(item: pytest.Item) -> PendingCase | None:
    param = getattr(getattr(item, "callspec", None), "params", {}).get("logic_env")
    return param if isinstance(param, PendingCase) else None


def _params(
    making: Making,
    function: str,
    outcome: Environments | ErrorCase,
    items: Sequence[pytest.Item],
) -> list[tuple[object, str]]:
    """The params (and their ids) that replace a function's pending one."""
    if isinstance(outcome, ErrorCase):
        return [(outcome, ERROR_ID)]
    first = next(item for item in items if (p := _pending(item)) and p.function == function)
    task = making.pending[function]
    cases = making.on_ready(function, task.args, outcome, first.warn)
    return [(param, param.case.trajectory_id) for param in cases]


# --------------------------------------------------------------------------- generating


def _generate_all(making: Making, functions: Sequence[str]) -> dict[str, Any]:
    """Each function's environments (or error), generated up to N at once."""
    try:  # one catalog, one LLM budget: shared
        parts = builders(making.config, making.settings.designer)
    except LogicEnvError as error:  # a catalog hook's: every pending test's error
        return {function: ErrorCase(str(error)) for function in functions}
    if not making.mode.strict:
        with contextlib.suppress(OSError):  # each generation says so, as its test's error
            making.cache.prepare_root()
    workers = max(1, min(making.settings.llm_concurrency, len(functions)))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="logicenv") as pool:
        futures = {f: pool.submit(_generate_once, making, parts, f) for f in functions}
        return {f: future.result() for f, future in futures.items()}


def _generate_once(making: Making, parts: Builders, function: str) -> Environments | ErrorCase:
    """One task's environments, or the error its generation ended in: the one this run
    recorded already (by another test or worker), or a new one, recorded."""
    from filelock import FileLock, Timeout

    if making.mode.strict:  # strict mode writes nothing of its own, failures included
        return _attempt(making, parts, function)
    cache_root, run_id = making.settings.cache_root, making.settings.run_id
    stem = f".{safe_file_name(making.keys[function])}"
    lock = FileLock(str(cache_root / f"{stem}.attempt.lock"))
    try:
        lock.acquire(timeout=LOCK_TIMEOUT_S)
    except (OSError, Timeout):  # a cache that cannot be locked: preparing says how, precisely
        return _attempt(making, parts, function)
    try:
        failed = cache_root / f"{stem}.failed"
        earlier = _recorded(failed, run_id)
        if earlier is not None:
            return ErrorCase(earlier)
        made = _attempt(making, parts, function)
        if isinstance(made, ErrorCase):
            _record(failed, run_id, made.message)
        return made
    finally:
        lock.release()


def _attempt(making: Making, parts: Builders, function: str) -> Environments | ErrorCase:
    task = making.pending[function]
    try:
        return prepare(
            task.request,
            making.cache,
            making.mode,
            parts,
            nodeid=function,
            rootdir=making.config.rootpath,
        )
    except (LogicEnvError, OSError) as error:
        return cache_error(making.settings.cache_root, function, error)


def _recorded(path: Path, run_id: str) -> str | None:
    """The error this run recorded for a task, if it did."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(data, dict) and data.get("run") == run_id:
        return str(data.get("error", ""))
    return None


def _record(path: Path, run_id: str, message: str) -> None:
    # Unwritten, another worker tries once more: the error is still this test's.
    with contextlib.suppress(OSError):
        path.write_text(json.dumps({"run": run_id, "error": message}), encoding="utf-8")


# --------------------------------------------------------------------------- items


def _respawned(item: pytest.Item, params: Sequence[tuple[object, str]]) -> list[pytest.Item]:
    """The items that replace a pending one: its callspec with our param and its id in place
    of the pending ones, everything else (other parametrizations, marks) kept. pytest builds
    parametrized items the same way (``Function.from_parent`` with a callspec)."""
    assert isinstance(item, pytest.Function)
    spec = item.callspec
    ids = list(spec._idlist)
    at = ids.index(PENDING_ID)
    made: list[pytest.Item] = []
    for param, param_id in params:
        ids[at] = param_id
        new = dataclasses.replace(
            spec, params={**spec.params, "logic_env": param}, _idlist=tuple(ids)
        )
        made.append(
            pytest.Function.from_parent(
                item.parent,
                name=f"{item.originalname}[{new.id}]",
                callspec=new,
                callobj=item.obj,
                fixtureinfo=item._fixtureinfo,
                keywords={new.id: True},
                originalname=item.originalname,
            )
        )
    return made


__all__ = ["CaseParam", "Making", "PendingTask", "generate_selected"]
