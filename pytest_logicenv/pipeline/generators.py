"""The default generators the plugin wires in: the scene designers and the LLM planner.

Kept apart from ``plugin.py`` so that pytest's start-up imports none of the heavy stages.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_logicenv.errors import CatalogHookWarning
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.pipeline.environments import PlanSource, SceneBuilder, SceneSource
from pytest_logicenv.scenes.model import Scene

if TYPE_CHECKING:
    from pytest_logicenv.llm.protocol import LLM
    from pytest_logicenv.scenes.catalog import Catalog


def default_scene_builder(catalog: Any = None) -> SceneBuilder:
    """Procedural designer -> Z3 layout -> realization check, as one ``SceneBuilder``."""
    from pytest_logicenv.scenes.realization import generate_scene

    def build(plan: Plan, trajectory: Trajectory, seed: int) -> Scene:
        return generate_scene(plan, trajectory, seed=seed, catalog=catalog)

    return build


def llm_for(config: pytest.Config) -> LLM | None:
    """The LLM of this run, or ``None`` when there is none.

    It is a ``pytest_logicenv_make_llm`` hook's, else the endpoint in the environment
    (``LOGICENV_LLM_*``, ``OPENAI_*``), else the ``logicenv_llm_*`` ini options.
    """
    from pytest_logicenv.llm.client import llm_from_env

    llm: LLM | None = config.hook.pytest_logicenv_make_llm(config=config)
    if llm is None:
        llm = llm_from_env(
            defaults={
                "LOGICENV_LLM_BASE_URL": str(config.getini("logicenv_llm_base_url") or ""),
                "LOGICENV_LLM_MODEL": str(config.getini("logicenv_llm_model") or ""),
            }
        )
    return llm


def types_file(config: pytest.Config) -> Path | None:
    """The user's type file: ``--logicenv-types`` (relative to where pytest was started),
    else the ``logicenv_types`` ini option (relative to its ini file), else none."""
    option = config.getoption("logicenv_types", None)
    if option:
        return Path(config.invocation_params.dir, option)
    value = str(config.getini("logicenv_types") or "")
    if not value:
        return None
    base = config.inipath.parent if config.inipath is not None else config.rootpath
    return base / value


_HOOK_WARNED = pytest.StashKey[bool]()


def catalog_for(config: pytest.Config) -> Catalog:
    """The catalog of this run: the ``pytest_logicenv_catalog`` hook's (else the default),
    with the user's type file. Types only the hook adds get a warning, once: ``logicenv``
    commands cannot see them (they read the type file), so plans using them fail there."""
    from pytest_logicenv.scenes.catalog.loading import extend_catalog
    from pytest_logicenv.scenes.catalog.user_types import load_catalog, read_type_file

    path = types_file(config)
    shared = load_catalog(path)  # what the CLI sees; checks the type file
    hooked = config.hook.pytest_logicenv_catalog(config=config)
    if hooked is None:
        return shared
    catalog: Catalog = hooked
    if path is not None:
        added = read_type_file(path, catalog)
        catalog = extend_catalog(catalog, added.specs, added.synonyms)
    hidden = sorted(set(catalog.types) - set(shared.types))
    if hidden and not config.stash.get(_HOOK_WARNED, False):
        config.stash[_HOOK_WARNED] = True
        warnings.warn(
            CatalogHookWarning(
                f"the pytest_logicenv_catalog hook adds types that logicenv commands cannot "
                f"see: {', '.join(hidden)}; describe them in a type file (ini logicenv_types) "
                "so that the plugin and the CLI both know them"
            ),
            stacklevel=1,
        )
    return catalog


def planner_for(config: pytest.Config) -> PlanSource | None:
    """The LLM planner for this run, or ``None`` when no LLM is available (:func:`llm_for`);
    it grounds the model in the catalog (``pytest_logicenv_catalog`` hook, or the default,
    with the user's type file) and checks each plan answer against it."""
    from pytest_logicenv.llm.planner import LLMPlanner

    llm = llm_for(config)
    if llm is None:
        return None
    return LLMPlanner(llm, catalog=catalog_for(config))


def scene_designer_for(config: pytest.Config) -> SceneSource | None:
    """The LLM scene designer for this run (``--logicenv-designer=llm``), or ``None`` when no
    LLM is available; the same LLM and catalog as the planner's."""
    from pytest_logicenv.llm.scene_designer import llm_scene_builder

    llm = llm_for(config)
    if llm is None:
        return None
    return llm_scene_builder(llm, catalog_for(config))
