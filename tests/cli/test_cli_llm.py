"""``logicenv plan`` as a user runs it, against the scripted local server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_llm import MODEL, FakeLLMServer, answer, planner_script
from grounded_answers import MIRROR_DECOMPOSITION, MIRROR_FACTORS, MIRROR_TASK, mirror_plan
from plan_answers import (
    DECOMPOSITION,
    FACTORS,
    GOOD_PLAN,
    TASK,
    TWO_ROOM_PLAN,
    missing_branch_plan,
)

from pytest_logicenv.cli import main
from pytest_logicenv.llm.config import API_KEY_VARS, BASE_URL_VARS, MODEL_VARS
from pytest_logicenv.llm.exchange import exchange_from_json
from pytest_logicenv.logic.plan import load_plan

KEY = "sk-cli-test-key"
ENDPOINT_VARS = (*BASE_URL_VARS, *MODEL_VARS, *API_KEY_VARS)


@pytest.fixture
def endpoint(fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> FakeLLMServer:
    for name in (*ENDPOINT_VARS, "CI"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LOGICENV_LLM_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("LOGICENV_LLM_MODEL", MODEL)
    monkeypatch.setenv("LOGICENV_LLM_API_KEY", KEY)
    monkeypatch.setenv("LOGICENV_LLM_MAX_RETRIES", "0")
    return fake_llm


def test_without_an_endpoint_plan_exits_2_saying_what_to_set(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in (*ENDPOINT_VARS, "CI")}
    out = tmp_path / "plan.json"
    result = subprocess.run(
        [sys.executable, "-m", "pytest_logicenv.cli", "plan", TASK, "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("logicenv plan: error: no LLM endpoint is configured: set ")
    assert "LOGICENV_LLM_BASE_URL" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()


def test_plan_reads_the_endpoint_from_the_pytest_configuration_as_the_plugin_does(
    endpoint: FakeLLMServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("LOGICENV_LLM_BASE_URL")
    monkeypatch.delenv("LOGICENV_LLM_MODEL")
    (tmp_path / "pytest.ini").write_text(
        f"[pytest]\nlogicenv_llm_base_url = {endpoint.base_url}\nlogicenv_llm_model = {MODEL}\n"
    )
    (tmp_path / "tests").mkdir()
    monkeypatch.chdir(tmp_path / "tests")  # found walking up, as pytest finds it
    endpoint.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
    assert main(["plan", TASK, "--rooms", "Kitchen"]) == 0
    assert f"model {MODEL}, 1 round, 3 exchanges" in capsys.readouterr().err
    assert len(endpoint.requests) == 3


def test_plan_writes_a_checked_plan_and_the_exchanges(
    endpoint: FakeLLMServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    endpoint.respond_with(
        planner_script(DECOMPOSITION, FACTORS, [answer(missing_branch_plan()), answer(GOOD_PLAN)])
    )
    out = tmp_path / "plans" / "breakfast.json"
    logs = tmp_path / "llm"
    code = main(["plan", TASK, "--rooms", "Kitchen", "--out", str(out), "--exchanges", str(logs)])
    assert code == 0
    assert capsys.readouterr().out == (
        f"wrote {out}: 2 subtasks, 3 factors, 5 decision paths; model {MODEL}, 2 rounds, "
        "4 exchanges\n"
    )
    plan = load_plan(out)
    assert (plan.task, plan.rooms) == (TASK, ("Kitchen",))
    assert [p.name for p in out.parent.iterdir()] == ["breakfast.json"]  # no temp file left
    recorded = sorted(logs.iterdir())
    assert len(recorded) == 4
    for path in recorded:
        text = path.read_text(encoding="utf-8")
        assert KEY not in text
        assert exchange_from_json(json.loads(text)).key == path.stem


def test_plan_prints_to_stdout_without_out(
    endpoint: FakeLLMServer, capsys: pytest.CaptureFixture[str]
) -> None:
    endpoint.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(TWO_ROOM_PLAN)]))
    assert main(["plan", TASK, "--rooms", "Kitchen,DiningRoom"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["rooms"] == ["Kitchen", "DiningRoom"]
    assert "1 round, 3 exchanges" in captured.err


def test_a_plan_that_stays_wrong_exits_2_and_writes_no_plan(
    endpoint: FakeLLMServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    endpoint.respond_with(
        planner_script(DECOMPOSITION, FACTORS, [answer(missing_branch_plan())] * 2)
    )
    out = tmp_path / "plan.json"
    logs = tmp_path / "llm"
    code = main(["plan", TASK, "--out", str(out), "--max-rounds", "2", "--exchanges", str(logs)])
    assert code == 2
    err = capsys.readouterr().err
    assert "logicenv plan: error: plan.tree: the answer of model 'fake-model' after 2 rounds" in err
    assert "has no branch for value 'bowl'" in err
    assert not out.exists()
    assert len(list(logs.iterdir())) == 4  # kept to see what the model answered
    # The model's last plan is kept beside it, to fix by hand and check with no model.
    kept = tmp_path / "plan.rejected.json"
    assert f"the model's last plan is in {kept}: fix the problems above by hand" in err
    assert f"`logicenv plan --check {kept}`" in err
    assert main(["plan", "--check", str(kept)]) == 1
    printed = capsys.readouterr().out
    assert "[grounding] subtasks[1](food).tree.branches.no: the query on 'apple'" in printed
    assert printed.endswith(f"{kept}: 1 problem\n")
    kept.write_text(json.dumps({**GOOD_PLAN, "task": TASK, "rooms": ["Kitchen"]}))
    assert main(["plan", "--check", str(kept)]) == 0
    assert capsys.readouterr().out == f"{kept}: passes every check\n"


def test_plan_exits_non_zero_with_a_state_the_type_cannot_have(
    endpoint: FakeLLMServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    endpoint.respond_with(
        planner_script(MIRROR_DECOMPOSITION, MIRROR_FACTORS, [answer(mirror_plan("Painting"))])
    )
    out = tmp_path / "mirror.json"
    code = main(
        ["plan", MIRROR_TASK, "--rooms", "Bathroom", "--out", str(out), "--max-rounds", "1"]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "[capability] subtasks[0](mirror)" in err
    assert "mirror (a Painting) cannot be dirty" in err
    assert not out.exists()
    assert (tmp_path / "mirror.rejected.json").is_file()


def test_under_ci_plan_calls_no_model_unless_allowed(
    endpoint: FakeLLMServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CI", "true")
    assert main(["plan", TASK, "--rooms", "Kitchen"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "logicenv plan: error: the CI variable is set (CI=true), so no model is called"
    )
    assert "pass --allow-ci to call the model here anyway" in err
    assert endpoint.requests == []
    endpoint.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
    assert main(["plan", TASK, "--rooms", "Kitchen", "--allow-ci"]) == 0
    assert len(endpoint.requests) == 3


def test_an_unknown_room_is_a_usage_error_before_any_request(
    endpoint: FakeLLMServer, capsys: pytest.CaptureFixture[str]
) -> None:
    endpoint.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
    assert main(["plan", TASK, "--rooms", "Kitchen,Attic"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "logicenv plan: error: --rooms ['Kitchen', 'Attic']: unknown room type 'Attic'; "
        "known room types: LivingRoom, Kitchen, Bedroom, Bathroom, Study, LaundryRoom, DiningRoom"
    )
    assert main(["plan", TASK, "--rooms", "kichen"]) == 2
    assert "unknown room type 'kichen'; did you mean Kitchen?" in capsys.readouterr().err
    assert main(["plan", TASK, "--rooms", "Cellar,Kitchn,Attic"]) == 2
    assert (
        "unknown room types 'Cellar', 'Kitchn' (did you mean Kitchen?), 'Attic'; known room types:"
        in capsys.readouterr().err
    )
    assert endpoint.requests == []


def test_plan_offers_the_catalogs_types(
    endpoint: FakeLLMServer, capsys: pytest.CaptureFixture[str]
) -> None:
    endpoint.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
    assert main(["plan", TASK]) == 0
    system, first = (m["content"] for m in endpoint.requests[0].messages)
    assert "the first message describes the task's own: AlarmClock, AluminumFoil, " in system
    # The types the task names, with what each can be and hold, open the conversation.
    assert "- Fridge: can be open; holds things in it; rooms Kitchen, Garage\n" in first
    assert "- Toaster: can be toggled; holds things in it; usually on CounterTop" in first


def test_an_unwritable_out_path_is_a_clear_error(
    endpoint: FakeLLMServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    endpoint.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    assert main(["plan", TASK, "--out", str(blocker / "plan.json")]) == 2
    assert f"logicenv plan: error: cannot write {blocker / 'plan.json'}" in capsys.readouterr().err


def test_max_rounds_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["plan", TASK, "--max-rounds", "0"])
    assert caught.value.code == 2
    assert "expected a whole number of at least 1, got '0'" in capsys.readouterr().err
