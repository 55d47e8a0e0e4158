"""Collection: a marked test function becomes one item per environment of its task.

``pytest_generate_tests`` hands each marked function that takes the ``logic_env`` fixture to
:func:`parametrize`: the marker is checked, the environments are prepared (read from the cache,
or generated), and the fixture is parametrized indirectly with one :class:`CaseParam` per
environment, its test id the trajectory's (``window=yes-light=no``). A function whose
preparation fails gets a single :class:`ErrorCase` item, so that it alone errors.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import pytest

from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.session.marker import parse_marker
from pytest_logicenv.session.options import LogicEnvState

if TYPE_CHECKING:
    from pytest_logicenv.pipeline.request import Builders, Case, Environments


@dataclass(frozen=True)
class ErrorCase:
    """Stands for the environments of a test whose preparation failed: the test errors with
    ``message`` while the other tests run."""

    message: str


@dataclass(frozen=True)
class CaseParam:
    """The ``logic_env`` fixture's parameter: one environment of a test function, and what
    its marker sets for the function's policy runs (declared fault, XML tree and nodes)."""

    case: Case
    function: str
    expect_fault: str | None
    tree: str | None = None
    nodes: tuple[str, ...] = ()


def builders(config: pytest.Config, designer_name: str) -> Builders:
    """The pipeline's pluggable parts, with the plugin hooks' answers wired in."""
    from pytest_logicenv.pipeline.generators import (
        catalog_for,
        default_scene_builder,
        planner_for,
        scene_designer_for,
    )
    from pytest_logicenv.pipeline.request import Builders

    designer = config.hook.pytest_logicenv_designer(config=config)
    catalog = catalog_for(config)  # the hook's or the default, with the user's type file
    scene_builder = designer or default_scene_builder(catalog)
    asks_llm = designer is None and designer_name == "llm"  # the hook overrides both

    def known_types() -> frozenset[str] | None:
        return frozenset(catalog.types)

    def on_scene(scene: Any, trajectory: Any) -> None:
        config.hook.pytest_logicenv_scene_generated(
            config=config, scene=scene, trajectory=trajectory
        )

    return Builders(
        scene=scene_builder,
        planner=lambda: planner_for(config),
        known_types=known_types,
        on_scene=on_scene,
        llm_scenes=(lambda: scene_designer_for(config)) if asks_llm else None,
    )


def prepare(state: LogicEnvState, metafunc: pytest.Metafunc) -> Environments | ErrorCase:
    """The environments of a marked test function, or why there are none."""
    from pytest_logicenv.pipeline.environments import prepare
    from pytest_logicenv.pipeline.request import entry_key_of

    nodeid = metafunc.definition.nodeid
    marker = metafunc.definition.get_closest_marker("logic_env")
    assert marker is not None
    try:
        args = parse_marker(marker, metafunc.definition.path, nodeid, state.config.rootpath)
        from pytest_logicenv.pipeline.generators import types_file
        from pytest_logicenv.scenes.catalog.user_types import types_digest

        types = types_digest(types_file(state.config))
    except LogicEnvError as error:
        state.unknown.append(nodeid)  # the entry it uses cannot be known: see unused.py
        return ErrorCase(str(error))
    request = replace(args.request, designer=state.designer, types=types)
    state.used_keys[nodeid] = entry_key_of(request, state.cache_root, state.config.rootpath)
    try:
        environments = prepare(
            request,
            state.cache,
            state.mode,
            builders(state.config, state.designer),
            nodeid=nodeid,
            rootdir=state.config.rootpath,
        )
    except LogicEnvError as error:
        return ErrorCase(str(error))
    except OSError as error:  # the cache's folder, disk or lock: this test's error, not the run's
        return ErrorCase(f"{nodeid}: the cache at {state.cache_root} cannot be used: {error}")
    if environments.rebuilt is not None:
        from pytest_logicenv.errors import CacheRebuilt

        metafunc.definition.warn(
            CacheRebuilt(
                f"cache entry {environments.entry.root.name} was rebuilt: {environments.rebuilt}"
            )
        )
    state.prepared[nodeid] = (args, environments)
    return environments


def parametrize(state: LogicEnvState, metafunc: pytest.Metafunc) -> None:
    """One item per environment (or one erroring item) for a marked test function."""
    prepared = prepare(state, metafunc)
    if isinstance(prepared, ErrorCase):
        metafunc.parametrize("logic_env", [prepared], ids=["logicenv-error"], indirect=True)
        return
    function = metafunc.definition.nodeid
    args, _ = state.prepared[function]
    params = [
        CaseParam(case, function, args.expect_fault, args.tree, args.nodes)
        for case in prepared.cases
    ]
    metafunc.parametrize(
        "logic_env", params, ids=[p.case.trajectory_id for p in params], indirect=True
    )
