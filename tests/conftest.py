"""Shared fixtures for the test suite."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fake_llm import FakeLLMServer
from hypothesis import settings

settings.register_profile("default", deadline=None, print_blob=True)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _no_ci_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests choose the plugin's mode themselves: ``CI=1`` (set by ``.ci/run``) would make
    every pytester project strict (offline, its cache only read) and every cold cache an
    error. Tests of strict mode set ``CI`` or pass ``--logicenv-offline``."""
    monkeypatch.delenv("CI", raising=False)


@pytest.fixture
def write_json(tmp_path: Path) -> Callable[[str, object], Path]:
    """Write a JSON document to a file in tmp_path and return its path."""

    def write(name: str, data: object) -> Path:
        path = tmp_path / name
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    return write


@pytest.fixture
def fake_llm() -> Iterator[FakeLLMServer]:
    """A scripted OpenAI-compatible server on 127.0.0.1 (see ``tests/fake_llm.py``)."""
    with FakeLLMServer() as server:
        yield server
