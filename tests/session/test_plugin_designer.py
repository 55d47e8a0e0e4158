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
            "*LLM calls are off (--logicenv-offline, or the CI variable is set; *",
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
        from pytest_logicenv.pipeline.scene_building import default_scene_builder

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


def _requests_after(endpoint: FakeLLMServer, run: Any) -> int:
    before = len(endpoint.requests)
    run()
    return len(endpoint.requests) - before


def _scenes(entry: Path) -> dict[str, Any]:
    """The entry's scene files, the houses as JSON (made again, they may write 0 as 0.0)."""
    return {
        p.name: json.loads(p.read_text()) if p.name.endswith(".house.json") else p.read_bytes()
        for p in sorted((entry / "scenes").glob("*"))
    }


@pytest.mark.slow
def test_damaged_derived_files_of_llm_scenes_are_rebuilt_from_the_scenes_without_the_model(
    pytester: pytest.Pytester, endpoint: FakeLLMServer
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest("--logicenv-designer=llm").assert_outcomes(passed=2)
    [entry] = entries(pytester)
    made = _scenes(entry)
    damaged = [
        entry / "scenes" / "window=yes-light=yes.svg",
        entry / "scenes" / "window=no-light=no.house.json",
        entry / "trajectories.json",
    ]
    for path in damaged:
        path.write_text(path.read_text() + " ")

    def rerun() -> None:
        result = pytester.runpytest("--logicenv-designer=llm")
        result.assert_outcomes(passed=2, warnings=1)
        rebuilt = "; ".join(f"{path} does not match the digest*" for path in sorted(damaged))
        result.stdout.fnmatch_lines([f"*was rebuilt: {rebuilt}"])

    assert _requests_after(endpoint, rerun) == 0
    assert _scenes(entry) == made  # the model's designs kept, the damaged files made again


@pytest.mark.slow
def test_without_an_endpoint_a_damaged_picture_of_llm_scenes_is_rebuilt_all_the_same(
    pytester: pytest.Pytester, endpoint: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest("--logicenv-designer=llm").assert_outcomes(passed=2)
    [entry] = entries(pytester)
    made = _scenes(entry)
    picture = entry / "scenes" / "window=yes-light=yes.svg"
    picture.write_text(picture.read_text() + " ")
    monkeypatch.setenv("CI", "1")  # strict: the cache is only read, and the error says how
    result = pytester.runpytest("--logicenv-designer=llm")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            f"*its cache entry must be rebuilt ({picture} does not match the digest*",
            '*fix: run pytest --logicenv-designer=llm "test_bath.py::test_reset" where the cache '
            "may be written (no CI variable, no --logicenv-offline): the rebuild asks no LLM; "
            "then commit cache/",
        ]
    )
    result = pytester.runpytest("--logicenv-designer=llm", "--logicenv-regenerate")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*test_reset: --logicenv-regenerate designs its scenes anew with an LLM, and LLM calls*"]
    )
    monkeypatch.delenv("CI")
    monkeypatch.delenv("LOGICENV_LLM_BASE_URL")  # no model at hand: none is needed
    result = pytester.runpytest("-v", "--logicenv-designer=llm")
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines(["*test_reset[[]window=yes-light=yes[]] PASSED*"])
    assert _scenes(entry) == made
    assert len(endpoint.requests) == 2
    assert manifest(entry)["scenes"]["made_by"] == "llm:fake-designer"


def _edit_plan(path: Path, edit: Any) -> None:
    plan = json.loads(path.read_text())
    edit(plan)
    path.write_text(json.dumps(plan, indent=2))


def _light_branches(plan: dict[str, Any]) -> dict[str, Any]:
    branches: dict[str, Any] = plan["subtasks"][1]["tree"]["branches"]
    return branches


@pytest.mark.slow
def test_an_action_text_edit_of_the_plan_keeps_every_llm_design(
    pytester: pytest.Pytester, endpoint: FakeLLMServer
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest("--logicenv-designer=llm").assert_outcomes(passed=2)
    [entry] = entries(pytester)
    made = {k: v for k, v in _scenes(entry).items() if k.endswith(".json")}
    _edit_plan(entry / "plan.json", lambda p: _light_branches(p)["yes"].update(action="Off!"))

    def rerun() -> None:
        result = pytester.runpytest("--logicenv-designer=llm")
        result.assert_outcomes(passed=2, warnings=1)
        result.stdout.fnmatch_lines(["*was rebuilt: plan.json was edited"])

    assert _requests_after(endpoint, rerun) == 0
    assert {k: v for k, v in _scenes(entry).items() if k.endswith(".json")} == made
    trajectories = json.loads((entry / "trajectories.json").read_text())["trajectories"]
    assert trajectories[0]["paths"][1]["action"] == "Off!"


@pytest.mark.slow
def test_a_facts_edit_of_the_plan_asks_the_model_again_for_that_situation_only(
    pytester: pytest.Pytester, endpoint: FakeLLMServer
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest("--logicenv-designer=llm").assert_outcomes(passed=2)
    [entry] = entries(pytester)
    unchanged = (entry / "scenes" / "window=no-light=no.json").read_bytes()
    _edit_plan(
        pytester.path / "plan.json",  # the marker's own plan file
        lambda p: p["subtasks"][1]["factors"][0]["realization"]["yes"].append(
            {"exists": "SoapBar"}
        ),
    )

    def rerun() -> None:
        result = pytester.runpytest("--logicenv-designer=llm")
        result.assert_outcomes(passed=2, warnings=1)
        result.stdout.fnmatch_lines(["*was rebuilt: the plan file *plan.json changed"])

    assert _requests_after(endpoint, rerun) == 1  # light=yes's scene, designed anew
    assert (entry / "scenes" / "window=no-light=no.json").read_bytes() == unchanged
    redesigned = json.loads((entry / "scenes" / "window=yes-light=yes.json").read_text())
    assert "SoapBar" in {o["type"] for o in redesigned["objects"]}
