"""Pointing a run (the plugin, ``logicenv plan``, ``logicenv eval``) at the scripted server of
``tests/fake_llm.py``: the one setup the LLM tests share, so none of them reads an endpoint
the machine happens to configure, or a CI variable that turns LLM calls off."""

from __future__ import annotations

import pytest
from fake_llm import MODEL, FakeLLMServer

from pytest_logicenv.llm.config import API_KEY_VARS, BASE_URL_VARS, MODEL_VARS


def no_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    """No LLM endpoint in the environment, and no CI variable."""
    for name in (*BASE_URL_VARS, *MODEL_VARS, *API_KEY_VARS, "CI"):
        monkeypatch.delenv(name, raising=False)


def use_scripted_server(
    server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch, *, model: str = MODEL
) -> FakeLLMServer:
    """The run's only LLM is ``server``, answering as ``model``."""
    no_endpoint(monkeypatch)
    monkeypatch.setenv("LOGICENV_LLM_BASE_URL", server.base_url)
    monkeypatch.setenv("LOGICENV_LLM_MODEL", model)
    return server
