"""Hooks that other plugins and ``conftest.py`` files may implement.

Implement them like any pytest hook, e.g. in a ``conftest.py``. Their names start with
``pytest_`` because pytest only looks at such names in plugins and conftest files::

    def pytest_logicenv_make_llm(config):
        from pytest_logicenv.llm.client import OpenAILLM
        from pytest_logicenv.llm.config import LLMConfig
        return OpenAILLM(LLMConfig(base_url="http://localhost:8000/v1", model="qwen2.5"))

    def pytest_logicenv_outcome(item, outcome):
        if not outcome.ok:
            print(item.nodeid, outcome.kind)

The types below are imported for type checkers only: pytest loads this module in every run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_logicenv.llm.protocol import LLM
    from pytest_logicenv.logic.trajectories import Trajectory
    from pytest_logicenv.pipeline.task_request import SceneBuilder
    from pytest_logicenv.scenes.catalog import Catalog
    from pytest_logicenv.scenes.scene_model import Scene
    from pytest_logicenv.sim.outcome import Outcome


@pytest.hookspec(firstresult=True)
def pytest_logicenv_make_llm(config: pytest.Config) -> LLM | None:
    """Return the LLM that derives plans, and designs scenes with ``--logicenv-designer=llm``.

    Called only when a plan or scenes must be generated and LLM calls are allowed (not with
    ``--logicenv-offline`` or ``CI`` set, not for what the cache holds). The first
    non-``None`` result is used; when every implementation returns ``None``, the endpoint the
    environment (``LOGICENV_LLM_*``, ``OPENAI_*``) or the ``logicenv_llm_*`` ini options
    configure is.

    :param config: The pytest config object.
    :return: An object with the :class:`pytest_logicenv.llm.protocol.LLM` protocol (such as
        ``OpenAILLM(LLMConfig(...))``), or ``None`` to let the next implementation decide.
    """


@pytest.hookspec(firstresult=True)
def pytest_logicenv_designer(config: pytest.Config) -> SceneBuilder | None:
    """Return a scene builder to replace the designer (procedural, or LLM with
    ``--logicenv-designer=llm``).

    Called once per marked test function whose environments must be made (not when a fresh
    cache entry holds them). The scenes it builds are still checked for physical plausibility
    and for realizing their trajectory before they are cached, like the designer's.

    :param config: The pytest config object.
    :return: A callable ``(plan, trajectory, seed) -> Scene``, or ``None`` for the designer
        the options choose.
    """


@pytest.hookspec(firstresult=True)
def pytest_logicenv_catalog(config: pytest.Config) -> Catalog | None:
    """Return the object catalog to design scenes with, e.g. the default one extended with
    your robot lab's objects.

    Called once per marked test function whose environments must be made (not when a fresh
    cache entry holds them), and by ``--logicenv-explore``; the catalog's types are also the
    object types a plan's facts may name. The user's type file (``logicenv_types``) still
    applies on top. Types only this hook adds exist under pytest alone, so they get a
    ``CatalogHookWarning``: describe new types in a type file instead, which every
    ``logicenv`` command reads too.

    :param config: The pytest config object.
    :return: A :class:`pytest_logicenv.scenes.catalog.Catalog`, or ``None`` for the
        default (AI2-THOR's types plus a few custom ones).
    """


@pytest.hookspec
def pytest_logicenv_scene_generated(
    config: pytest.Config, scene: Scene, trajectory: Trajectory
) -> None:
    """Called for every scene generated, after its checks and before it is cached; not for
    scenes read from the cache. Under xdist it runs in the worker that generated the scene.

    :param config: The pytest config object.
    :param scene: The solved scene (:class:`pytest_logicenv.scenes.scene_model.Scene`).
    :param trajectory: The situation it realizes: one decision path per subtask
        (:class:`pytest_logicenv.logic.trajectories.Trajectory`); its ``id`` is the test id.
    """


@pytest.hookspec
def pytest_logicenv_outcome(item: pytest.Item, outcome: Outcome) -> None:
    """Called after every ``logic_env.run(policy)`` that ran to an outcome, before the test
    asserts it. Like pytest's own per-item hooks it goes through ``item.ihook``: a
    ``conftest.py`` sees the items below its folder only.

    :param item: The test item (one environment of a marked test function).
    :param outcome: The run's :class:`pytest_logicenv.sim.outcome.Outcome`: its ``kind``
        (``pass``, ``counterfactual``, ``unreachable``, ``lackbranch`` or ``error``), trace
        and explanation, judged against the fault the run declares (``expect_fault``).
    """
