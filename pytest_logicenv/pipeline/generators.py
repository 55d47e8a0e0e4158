"""The default generators the plugin wires in: the scene designers and the LLM planner.

Kept apart from ``plugin.py`` so that pytest's start-up imports none of the heavy stages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.pipeline.environments import PlanSource, SceneBuilder, SceneSource
from pytest_logicenv.scenes.model import Scene

if TYPE_CHECKING:
    from pytest_logicenv.llm.protocol import LLM


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


def _catalog(config: pytest.Config) -> Any:
    from pytest_logicenv.scenes.catalog import default_catalog

    return config.hook.pytest_logicenv_catalog(config=config) or default_catalog()


def planner_for(config: pytest.Config) -> PlanSource | None:
    """The LLM planner for this run, or ``None`` when no LLM is available (:func:`llm_for`);
    the object types offered and enforced are the catalog's (``pytest_logicenv_catalog`` hook,
    or the default)."""
    from pytest_logicenv.llm.planner import LLMPlanner, type_vocabulary

    llm = llm_for(config)
    if llm is None:
        return None
    return LLMPlanner(llm, known_types=type_vocabulary(_catalog(config)))


def scene_designer_for(config: pytest.Config) -> SceneSource | None:
    """The LLM scene designer for this run (``--logicenv-designer=llm``), or ``None`` when no
    LLM is available; the same LLM and catalog as the planner's."""
    from pytest_logicenv.llm.scene_designer import llm_scene_builder

    llm = llm_for(config)
    if llm is None:
        return None
    return llm_scene_builder(llm, _catalog(config))
