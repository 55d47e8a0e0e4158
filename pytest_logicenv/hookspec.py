"""Hooks that other plugins and ``conftest.py`` files may implement.

Implement them like any pytest hook, e.g. in a ``conftest.py``. Their names start with
``pytest_`` because pytest only looks at such names in plugins and conftest files::

    def pytest_logicenv_make_llm(config):
        from pytest_logicenv.llm.config import LLMConfig
        from pytest_logicenv.llm.client import OpenAILLM
        return OpenAILLM(LLMConfig(base_url="http://localhost:8000/v1", model="qwen2.5"))

    def pytest_logicenv_outcome(item, outcome):
        if not outcome.ok:
            print(item.nodeid, outcome.kind)
"""

from __future__ import annotations

from typing import Any

import pytest


@pytest.hookspec(firstresult=True)
def pytest_logicenv_make_llm(config: pytest.Config) -> Any:
    """Return the LLM used to derive plans, and to design scenes with
    ``--logicenv-designer=llm`` (an object with the ``pytest_logicenv.llm.protocol.LLM``
    protocol), or ``None`` to let the next implementation (finally the configured endpoint)
    decide. Called only when a plan or scenes must be generated and LLM calls are allowed."""


@pytest.hookspec(firstresult=True)
def pytest_logicenv_designer(config: pytest.Config) -> Any:
    """Return a scene builder ``(plan, trajectory, seed) -> Scene`` to replace the
    designer (procedural or LLM), or ``None``. The scene it returns is still checked for physical
    plausibility and for realizing its trajectory before it is cached."""


@pytest.hookspec(firstresult=True)
def pytest_logicenv_catalog(config: pytest.Config) -> Any:
    """Return the object catalog (``pytest_logicenv.scenes.catalog.Catalog``) to design scenes with,
    e.g. one extended with your robot lab's objects, or ``None`` for the default."""


@pytest.hookspec
def pytest_logicenv_scene_generated(config: pytest.Config, scene: Any, trajectory: Any) -> None:
    """Called for every scene generated (not for scenes read from the cache)."""


@pytest.hookspec
def pytest_logicenv_outcome(item: pytest.Item, outcome: Any) -> None:
    """Called after every ``logic_env.run(policy)`` with the policy's outcome."""
