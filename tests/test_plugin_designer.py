"""``--logicenv-designer=llm`` as a user meets it: pytester projects against a scripted LLM."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fake_llm import FakeLLMServer, answer
from plugin_project import CORRECT_TEST, entries, make_project

from pytest_logicenv.llm.config import API_KEY_VARS, BASE_URL_VARS, MODEL_VARS

pytest_plugins = ["pytester"]

#: A design for either situation of the bathroom task (window and light, open or not).
BATHROOM: dict[str, Any] = {
    "materials": {"bathroom": {"floor": "GreyFloor", "wall": "CeramicTiles1"}},
    "objects": [
        {"name": "toilet", "description": "a white toilet", "room": "bathroom"},
        {"name": "sink", "description": "a ceramic wash basin", "type": "Sink"},
        {"name": "towel_rail", "description": "a chrome towel holder", "support": "wall"},
        {"name": "towel", "description": "a blue bath towel", "support": "towel_rail"},
        {"name": "bin", "description": "a small garbage can"},
    ],
    "relations": [
        {"kind": "edge", "subject": "toilet"},
        {"kind": "edge", "subject": "sink"},
        {"kind": "near", "subject": "bin", "target": "toilet"},
        {"kind": "near", "subject": "towel_rail", "target": "sink"},
    ],
}
SECRET = "sk-designer-plugin-secret"


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CI", *BASE_URL_VARS, *MODEL_VARS, *API_KEY_VARS):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def endpoint(fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> FakeLLMServer:
    """The scripted server, configured as the run's LLM, answering every design request."""
    fake_llm.respond_with(lambda request: answer(BATHROOM))
    monkeypatch.setenv("LOGICENV_LLM_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("LOGICENV_LLM_MODEL", "fake-designer")
    monkeypatch.setenv("LOGICENV_LLM_API_KEY", SECRET)
    return fake_llm


def manifest(entry: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((entry / "manifest.json").read_text())
    return data


def test_llm_designed_scenes_are_cached_with_who_made_them_and_read_offline(
    pytester: pytest.Pytester, endpoint: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest("--logicenv-designer=llm").assert_outcomes(passed=2)
    [entry] = entries(pytester)
    recorded = manifest(entry)
    assert recorded["scenes"]["made_by"] == "llm:fake-designer"
    assert recorded["plan"]["made_by"] == "hand-written"
    assert recorded["settings"]["designer"] == "llm"
    assert len(endpoint.requests) == 2  # one design per situation, each right the first time
    logs = sorted((entry / "llm").glob("*.json"))
    assert len(logs) == 2
    assert {json.loads(log.read_text())["purpose"] for log in logs} == {"scene.design"}
    assert all(SECRET not in log.read_text() for log in logs)
    scene = json.loads((entry / "scenes" / "window=yes-light=yes.json").read_text())
    assert {"toilet", "sink", "towel_rail", "towel", "bin"} <= {o["id"] for o in scene["objects"]}
    assert scene["provenance"]["designer"] == "llm:fake-designer"
    # Later runs need no LLM: the endpoint is gone and the tests run from the cache.
    monkeypatch.delenv("LOGICENV_LLM_BASE_URL")
    monkeypatch.delenv("LOGICENV_LLM_MODEL")
    pytester.runpytest("--logicenv-designer=llm", "--logicenv-offline").assert_outcomes(passed=2)
    assert len(endpoint.requests) == 2
    # The procedural designer is another setting: its own entry, the LLM's left alone.
    pytester.runpytest().assert_outcomes(passed=2)
    designs = sorted(manifest(e)["scenes"]["made_by"] for e in entries(pytester))
    assert designs == ["llm:fake-designer", "procedural designer"]
    assert "designer" not in manifest(next(e for e in entries(pytester) if e != entry))["settings"]


def test_the_ini_option_chooses_the_llm_designer(
    pytester: pytest.Pytester, endpoint: FakeLLMServer
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makeini(
        "[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\nlogicenv_designer = llm\n"
    )
    pytester.runpytest().assert_outcomes(passed=2)
    assert manifest(entries(pytester)[0])["scenes"]["made_by"] == "llm:fake-designer"
    assert len(endpoint.requests) == 2


def test_offline_a_miss_that_needs_llm_scenes_names_the_test_and_the_fix(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST + "\n\ndef test_unrelated():\n    pass\n")
    result = pytester.runpytest("--logicenv-designer=llm", "--logicenv-offline")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*test_bath.py::test_reset: its scenes are designed by an LLM "
            "(--logicenv-designer=llm) and there are no up-to-date cached scenes*",
            "*LLM calls are off (--logicenv-offline, or the CI variable is set)*",
            "*fix: generate it where an LLM is available with pytest --logicenv-regenerate "
            '--logicenv-designer=llm "test_bath.py::test_reset"*',
            "*or design them procedurally: --logicenv-designer=procedural*",
        ]
    )
    assert not entries(pytester)


def test_without_an_endpoint_the_miss_says_how_to_configure_one(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("--logicenv-designer=llm")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*no LLM endpoint is configured (set LOGICENV_LLM_BASE_URL*"])


def test_a_bad_designer_name_is_a_usage_error(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("--logicenv-designer=fancy")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--logicenv-designer: 'fancy': use procedural or llm*"])
    pytester.makeini("[pytest]\nlogicenv_designer = fancy\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*logicenv_designer in *: 'fancy': use procedural or llm*"])


def test_the_designer_hook_overrides_the_llm_designer(
    pytester: pytest.Pytester, endpoint: FakeLLMServer
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makeconftest(
        """
        from pytest_logicenv.pipeline.generators import default_scene_builder

        def pytest_logicenv_designer(config):
            return default_scene_builder()
        """
    )
    pytester.runpytest("--logicenv-designer=llm").assert_outcomes(passed=2)
    assert endpoint.requests == []


def test_a_design_the_model_cannot_fix_errors_its_test_with_the_problems(
    pytester: pytest.Pytester, endpoint: FakeLLMServer
) -> None:
    switch = {"name": "switch", "description": "a light switch", "support": "wall"}
    wrong = {**BATHROOM, "objects": [*BATHROOM["objects"], switch]}
    endpoint.respond_with(lambda request: answer(wrong))
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("--logicenv-designer=llm")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*scene.design: the answer of model 'fake-designer' after 3 rounds: 1 problem*",
            "*[[]type[]] objects[[]5[]] switch: the task's conditions are about LightSwitch *",
        ]
    )
    assert not entries(pytester)
