"""Configuration for every test in this repository: pytest reads a ``conftest.py`` at the rootdir
before any test below it (``tests/``, ``example_agents/``, the doctests in ``pytest_logicenv/``).

Why it is here: it is where a project configures pytest-logicenv for all of its tests, and the
place users look for an example to copy. The repository's own tests share nothing beyond what
``pyproject.toml`` sets (``tests/conftest.py`` holds the suite's fixtures; the example agents
need none), so what it holds is that example: the LLM that derives plans (and designs scenes
with ``--logicenv-designer=llm``), chosen in code with the ``pytest_logicenv_make_llm`` hook
rather than with the ``LOGICENV_LLM_*`` variables, because a local model wants settings the
variables do not give (a long timeout, a bounded answer). It is inert unless
``LOGICENV_LOCAL_LLM`` names a model, and even then it is called only when a plan or scenes
must be generated (``--logicenv-regenerate``, or a cache miss) and LLM calls are allowed.

    LOGICENV_LOCAL_LLM=qwen2.5:14b pytest example_agents --logicenv-regenerate
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_logicenv.llm.protocol import LLM

#: Ollama's OpenAI-compatible endpoint; vLLM serves at http://localhost:8000/v1.
LOCAL_ENDPOINT = "http://localhost:11434/v1"


@pytest.hookimpl(optionalhook=True)  # no error when the plugin is off (-p no:logicenv)
def pytest_logicenv_make_llm(config: pytest.Config) -> LLM | None:
    model = os.environ.get("LOGICENV_LOCAL_LLM", "").strip()
    if not model:
        return None  # the endpoint of LOGICENV_LLM_* / OPENAI_* or the ini options, if any
    from pytest_logicenv.llm.client import OpenAILLM
    from pytest_logicenv.llm.config import LLMConfig

    endpoint = os.environ.get("LOGICENV_LOCAL_LLM_URL") or LOCAL_ENDPOINT
    # A model on this machine may take minutes per answer; a plan's answer is a few KB.
    return OpenAILLM(LLMConfig(endpoint, model, timeout_s=900.0, max_tokens=8192))
