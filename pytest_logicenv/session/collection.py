"""Collection: a marked test function becomes one item per environment of its task.

``pytest_generate_tests`` hands each marked function that takes the ``logic_env`` fixture to
the session object, which asks this module: the marker is checked (:func:`marked`) and the
cache is read (:func:`cached_environments`). When it holds the task's environments (or
:mod:`~pytest_logicenv.session.making` can make them without an LLM: from a plan file, or a
cached plan to rebuild from), the fixture is parametrized indirectly with one :class:`CaseParam` per
environment, its test id the trajectory's (``window=yes-light=no``). When making them asks an
LLM, the function gets one pending item (:class:`PendingCase`, id ``logicenv-pending``): no
model is asked at collection, so ``-k``, ``-m``, node ids and ``--lf`` decide what is, and
:mod:`~pytest_logicenv.session.generation` replaces the selected pending items by their
environments' items. A function whose preparation fails gets a single :class:`ErrorCase`
item, so that it alone errors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_logicenv.errors import CacheRebuilt, LogicEnvError
from pytest_logicenv.pipeline.entry_reads import plan_types_at
from pytest_logicenv.pipeline.fresh_entry import read_cached
from pytest_logicenv.pipeline.task_request import Environments, entry_key_of
from pytest_logicenv.scenes.catalog.user_types import type_digests
from pytest_logicenv.session.catalog_choice import types_file
from pytest_logicenv.session.marker import MarkerArgs, parse_marker
from pytest_logicenv.session.settings import Settings

if TYPE_CHECKING:
    from pytest_logicenv.cache import Cache
    from pytest_logicenv.pipeline.task_request import Case, Mode, TaskRequest


#: The test ids of an item whose preparation failed, and of one whose environments are made
#: after collection (a test of an uncached task, before the run's selection is known).
ERROR_ID = "logicenv-error"
PENDING_ID = "logicenv-pending"


@dataclass(frozen=True)
class ErrorCase:
    """Stands for the environments of a test whose preparation failed: the test errors with
    ``message`` while the other tests run."""

    message: str


@dataclass(frozen=True)
class PendingCase:
    """Stands for the environments of a test whose task the cache does not hold: made once
    the run's selection is known, for the selected tests only
    (:mod:`~pytest_logicenv.session.generation` replaces the item)."""

    function: str


@dataclass(frozen=True)
class PendingTask:
    """What a pending test function asks to be generated."""

    function: str
    args: MarkerArgs
    request: TaskRequest


@dataclass(frozen=True)
class CaseParam:
    """The ``logic_env`` fixture's parameter: one environment of a test function, and what
    its marker sets for the function's policy runs (declared fault, XML tree and nodes)."""

    case: Case
    function: str
    expect_fault: str | None
    tree: str | None = None
    nodes: tuple[str, ...] = ()
    seed: int = 0  # the marker's, which --logicenv-explore draws with


@dataclass(frozen=True)
class Marked:
    """A marked test function's checked marker, the request it makes and the key of the
    cache entry that request maps to."""

    args: MarkerArgs
    request: TaskRequest
    key: str


def marked(
    settings: Settings, config: pytest.Config, metafunc: pytest.Metafunc
) -> Marked | ErrorCase:
    """The marked function's checked marker and the request it makes, or why it has none
    (then the entry it uses cannot be known: see unused.py)."""
    nodeid = metafunc.definition.nodeid
    marker = metafunc.definition.get_closest_marker("logic_env")
    assert marker is not None
    try:
        args = parse_marker(marker, metafunc.definition.path, nodeid, config.rootpath)
        types = type_digests(types_file(config), plan_types_at(args.request.plan_file))
    except LogicEnvError as error:
        return ErrorCase(str(error))
    request = replace(args.request, designer=settings.designer, types=types)
    return Marked(args, request, entry_key_of(request, settings.cache_root, config.rootpath))


def cache_error(cache_root: Path, nodeid: str, error: Exception) -> ErrorCase:
    """What a preparation that failed says: the error, or the cache it could not use."""
    if isinstance(error, OSError):  # the cache's folder, disk or lock: this test's error
        return ErrorCase(f"{nodeid}: the cache at {cache_root} cannot be used: {error}")
    return ErrorCase(str(error))


def ready(
    nodeid: str, args: MarkerArgs, environments: Environments, warn: Callable[[Warning], None]
) -> list[CaseParam]:
    """A function's environments are ready: a rebuild said, one param each."""
    if environments.rebuilt is not None:
        entry = environments.entry.root.name
        warn(CacheRebuilt(f"cache entry {entry} was rebuilt: {environments.rebuilt}"))
    return [
        CaseParam(case, nodeid, args.expect_fault, args.tree, args.nodes, args.request.seed)
        for case in environments.cases
    ]


def cached_environments(
    config: pytest.Config, cache: Cache, mode: Mode, found: Marked, nodeid: str
) -> Environments | ErrorCase | None:
    """A marked function's environments when the cache holds them fresh; ``None`` when they
    must be made (:mod:`~pytest_logicenv.session.making`)."""
    try:
        fresh = read_cached(found.request, cache, mode, nodeid=nodeid, rootdir=config.rootpath)
    except (LogicEnvError, OSError) as error:
        return cache_error(cache.root, nodeid, error)
    return fresh if isinstance(fresh, Environments) else None


def parametrize_ready(metafunc: pytest.Metafunc, params: list[CaseParam]) -> None:
    """One item per environment, its test id the trajectory's."""
    metafunc.parametrize(
        "logic_env", params, ids=[p.case.trajectory_id for p in params], indirect=True
    )


def parametrize_pending(metafunc: pytest.Metafunc, nodeid: str) -> None:
    """One pending item, which :mod:`~pytest_logicenv.session.generation` replaces once the
    run's selection is known."""
    metafunc.parametrize("logic_env", [PendingCase(nodeid)], ids=[PENDING_ID], indirect=True)


def parametrize_error(metafunc: pytest.Metafunc, error: ErrorCase) -> None:
    metafunc.parametrize("logic_env", [error], ids=[ERROR_ID], indirect=True)
