"""Cache keys that follow the content (issue 22): ``logicenv eval --planner llm --types F``
reuses the plan a marked test cached without the type file, asking the model nothing; a
type the plan uses, defined otherwise, rebuilds its scenes from the kept plan; an entry
copied under another key is refused, naming it and what differs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fake_llm import FakeLLMServer, answer, planner_script
from plugin_project import PLAN, TASK, entries, llm_steps, make_project
from scripted_endpoint import use_scripted_server

from pytest_logicenv.cache import entry_key
from pytest_logicenv.cli import main
from pytest_logicenv.pipeline.task_request import TaskRequest

pytest_plugins = ["pytester"]
pytestmark = pytest.mark.slow

TROPHY = {"properties": ["pickupable"], "size": [0.2, 0.3, 0.2], "stand_in": "Statue"}


@pytest.fixture
def cached_by_pytest(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A project whose marked test had the model derive its plan (three requests), with the
    same task as an eval task, its ground truth, and a type file the plan does not use."""
    decomposition, factors = llm_steps()
    fake_llm.respond_with(planner_script(decomposition, factors, [answer(PLAN)]))
    use_scripted_server(fake_llm, monkeypatch, model="fake-planner")
    make_project(
        pytester,
        "@pytest.mark.logic_env(TASK)\ndef test_llm(logic_env):\n"
        "    logic_env.run(correct).assert_ok()\n",
    )
    pytester.runpytest().assert_outcomes(passed=2)
    assert len(fake_llm.requests) == 3
    for folder in ("tasks", "plans", "policies"):
        (pytester.path / folder).mkdir()
    (pytester.path / "tasks" / "bath.json").write_text(json.dumps({"description": TASK}))
    (pytester.path / "plans" / "bath.json").write_text(json.dumps(PLAN))
    (pytester.path / "types.json").write_text(json.dumps({"types": {"Trophy": TROPHY}}))
    monkeypatch.chdir(pytester.path)
    return pytester.path


def run_eval(*extra: str) -> tuple[int, dict[str, Any]]:
    code = main(["eval", "tasks", "policies", "--planner", "llm", "--json", "m.json", *extra])
    return code, json.loads(Path("m.json").read_text())["tasks"]["bath"]


def test_eval_with_a_type_file_reuses_the_plan_pytest_cached(
    cached_by_pytest: Path, fake_llm: FakeLLMServer
) -> None:
    code, task = run_eval("--types", "types.json")
    assert (code, task["errors"], len(fake_llm.requests)) == (0, [], 3)
    assert task["LogCov"] == 100.0
    assert task["notes"][0].startswith("plan by llm:fake-planner: ")
    assert len(entries_of(cached_by_pytest)) == 1


def test_an_entry_copied_under_another_key_is_refused_naming_what_differs(
    cached_by_pytest: Path, fake_llm: FakeLLMServer
) -> None:
    [entry] = entries_of(cached_by_pytest)
    settings = TaskRequest(TASK, seed=1).settings(cached_by_pytest)
    copy = entry.parent / entry_key(TASK, settings)
    shutil.copytree(entry, copy)
    code, task = run_eval("--seed", "1")
    assert code == 1
    [error] = task["errors"]
    assert error.startswith(
        f"no environments: {copy}: this cache entry was made for another task or settings "
        "than its key stands for (copied or renamed by hand?): seed 0, here 1"
    )
    assert len(fake_llm.requests) == 3


def entries_of(project: Path) -> list[Path]:
    return sorted(p for p in (project / "cache").iterdir() if p.is_dir() and p.name[0] != ".")


# -- a user type the plan uses --------------------------------------------------------------


def test_a_changed_definition_of_a_type_the_plan_uses_rebuilds_the_scenes_from_the_kept_plan(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = json.loads(json.dumps(PLAN))
    plan["setting"].append({"exists": "Trophy", "as": "trophy", "where": {"on": "Floor"}})
    decomposition, factors = llm_steps()
    fake_llm.respond_with(planner_script(decomposition, factors, [answer(plan)]))
    use_scripted_server(fake_llm, monkeypatch, model="fake-planner")
    monkeypatch.chdir(pytester.path)
    for folder in ("tasks", "plans", "policies"):
        (pytester.path / folder).mkdir()
    (pytester.path / "tasks" / "bath.json").write_text(json.dumps({"description": TASK}))
    (pytester.path / "plans" / "bath.json").write_text(json.dumps(PLAN))
    types = pytester.path / "types.json"
    types.write_text(json.dumps({"types": {"Trophy": TROPHY}}))
    code, task = run_eval("--types", "types.json")
    assert (code, task["errors"], len(fake_llm.requests)) == (0, [], 3)
    [entry] = entries(pytester)
    recorded = json.loads((entry / "manifest.json").read_text())["types"]
    assert list(recorded) == ["Trophy"]
    # Another type beside it changes nothing; Trophy defined otherwise rebuilds the scenes.
    types.write_text(json.dumps({"types": {"Trophy": TROPHY, "Vase2": TROPHY}}))
    assert run_eval("--types", "types.json")[0] == 0
    assert json.loads((entry / "manifest.json").read_text())["types"] == recorded
    types.write_text(json.dumps({"types": {"Trophy": {**TROPHY, "size": [0.3, 0.4, 0.3]}}}))
    code, task = run_eval("--types", "types.json")
    assert (code, task["errors"], len(fake_llm.requests)) == (0, [], 3)
    assert json.loads((entry / "manifest.json").read_text())["types"] != recorded
    # Without the type file, the plan's Trophy is an error naming it, with no model request.
    code, task = run_eval()
    assert code == 1
    assert "Trophy" in task["errors"][0]
    assert len(fake_llm.requests) == 3
