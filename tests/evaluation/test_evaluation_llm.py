"""``logicenv eval --planner llm``: the model derives each task's plan (through the real openai
client and the scripted server), cached as the plugin caches it, and the scenes are judged
against the ground truth in PLANS_DIR, as the paper measures LogicEnvGen."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fake_llm import MODEL, FakeLLMServer, answer, planner_script
from helpers import ROOT
from plan_answers import DECOMPOSITION, FACTORS, GOOD_PLAN, TASK
from scripted_endpoint import use_scripted_server

from pytest_logicenv.cli import main
from pytest_logicenv.llm.planner import factors_answer

AGENTS = ROOT / "example_agents"


@pytest.fixture
def project(tmp_path: Path, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The breakfast task and its ground truth, the endpoint set to the scripted server."""
    use_scripted_server(fake_llm, monkeypatch)
    monkeypatch.chdir(tmp_path)
    for folder in ("tasks", "plans"):
        (tmp_path / folder).mkdir()
        shutil.copy(AGENTS / folder / "breakfast.json", tmp_path / folder)
    return tmp_path


def run_eval(*extra: str) -> tuple[int, dict[str, Any]]:
    code = main(["eval", "tasks", str(AGENTS), "--planner", "llm", "--json", "m.json", *extra])
    return code, json.loads(Path("m.json").read_text())["tasks"]["breakfast"]


def without_the_apple_factor() -> dict[str, Any]:
    """A plan that missed a factor: where the apple is when there is no bread."""
    plan = copy.deepcopy(GOOD_PLAN)
    food = plan["subtasks"][1]
    food["factors"] = food["factors"][:1]
    food["tree"]["branches"]["no"] = {
        "action": "Put an apple on the plate.",
        "goal": [{"on": ["Apple", "plate"]}],
    }
    return plan


def test_the_models_plan_is_cached_like_the_plugins_and_judged_against_the_ground_truth(
    project: Path, fake_llm: FakeLLMServer, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_llm.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
    code, task = run_eval()
    assert code == 0, capsys.readouterr()
    assert capsys.readouterr().out.startswith(
        "LogicEnvEval (minimal strategy, plans by the LLM, judged against PLANS_DIR)"
    )
    assert len(fake_llm.requests) == 3
    assert (task["LogCov"], task["JI"], task["SceVR"], task["FauDR"]) == (100.0, 1.0, 100.0, 100.0)
    assert task["notes"][0] == (
        f"plan by llm:{MODEL}: LogCov 100.00% against the ground truth, 100.00% against its "
        "own plan"
    )
    # The entry is the one a marked test of the same task text and rooms would use.
    [entry] = [p for p in (project / "cache").iterdir() if p.is_dir()]
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["task"] == TASK
    assert manifest["settings"]["rooms"] == ["Kitchen"]
    assert manifest["settings"]["plan_file"] is None
    assert manifest["plan"]["made_by"] == f"llm:{MODEL}"
    assert len(list((entry / "llm").iterdir())) == 3
    code, again = run_eval()
    assert (code, len(fake_llm.requests)) == (0, 3)  # from the cache
    assert again["LogCov"] == 100.0


def test_a_factor_the_model_missed_is_missed_in_logcov_against_the_ground_truth(
    project: Path, fake_llm: FakeLLMServer
) -> None:
    plan = without_the_apple_factor()
    fake_llm.respond_with(planner_script(DECOMPOSITION, factors_answer(plan), [answer(plan)]))
    code, task = run_eval()
    assert code == 0
    assert task["LogCov"] < 100.0
    own = task["notes"][0]
    assert own.startswith(f"plan by llm:{MODEL}: LogCov ")
    assert own.endswith("% against the ground truth, 100.00% against its own plan")


def test_under_ci_eval_calls_no_model_unless_allowed(
    project: Path, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "1")
    code, task = run_eval()
    assert code == 1
    [error] = task["errors"]
    assert (
        "LLM calls are off (--logicenv-offline, or the CI variable is set; --allow-ci allows "
        "them under CI)"
    ) in error
    assert fake_llm.requests == []


def test_eval_reads_the_endpoint_from_the_pytest_configuration_as_the_plugin_does(
    project: Path, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LOGICENV_LLM_BASE_URL")
    monkeypatch.delenv("LOGICENV_LLM_MODEL")
    (project / "pytest.ini").write_text(
        f"[pytest]\nlogicenv_llm_base_url = {fake_llm.base_url}\nlogicenv_llm_model = {MODEL}\n"
    )
    fake_llm.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
    code, task = run_eval()
    assert (code, task["errors"], len(fake_llm.requests)) == (0, [], 3)


def test_a_task_without_a_ground_truth_is_an_error_of_that_task(
    project: Path, fake_llm: FakeLLMServer
) -> None:
    (project / "plans" / "breakfast.json").unlink()
    code, task = run_eval()
    assert code == 1
    assert task["errors"] == [
        "no environments: no ground truth plans/breakfast.json: the model's "
        "plan is judged against it; write one (logicenv convert tasks/breakfast.json)"
    ]
    assert fake_llm.requests == []
