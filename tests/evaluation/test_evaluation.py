"""``logicenv eval``: the paper's metrics on the example tasks, and bad input per task."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import ROOT

from pytest_logicenv.cli import main
from pytest_logicenv.evaluation import METRIC_KEYS, evaluate

AGENTS = ROOT / "example_agents"


def test_example_tasks_all_metrics_from_the_committed_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # the cache keys are relative to the project root
    out = tmp_path / "metrics.json"
    assert main(["eval", "example_agents/tasks", "example_agents", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("LogicEnvEval (minimal strategy)")
    document = json.loads(out.read_text())
    assert set(document["overall"]) == set(METRIC_KEYS)
    assert set(document["tasks"]) == {p.stem for p in (AGENTS / "tasks").glob("*.json")}
    overall = document["overall"]
    for key in ("PhyPR", "LogCov", "SceVR", "FauDR", "FauDR_lackbranch"):
        assert overall[key] == 100.0, key
    assert overall["JI"] == 1.0
    assert 0 < overall["ST"] < 5
    clean = document["tasks"]["clean_living_room"]
    assert clean["scenes"] == 3
    assert clean["notes"] == []


def _one_task(tmp_path: Path) -> tuple[Path, Path]:
    tasks, plans = tmp_path / "tasks", tmp_path / "plans"
    tasks.mkdir()
    plans.mkdir()
    for name in ("clean_living_room",):
        shutil.copy(AGENTS / "tasks" / f"{name}.json", tasks)
        shutil.copy(AGENTS / "plans" / f"{name}.json", plans)
    return tasks, plans


@pytest.mark.slow
def test_bad_input_is_reported_per_task_never_a_crash(tmp_path: Path) -> None:
    tasks, plans = _one_task(tmp_path)
    (tasks / "orphan_task.json").write_text(json.dumps({"id": "orphan_task", "plan": []}))
    policies = tmp_path / "policies"
    policies.mkdir()
    # The correct policy also stands in for the lackbranch one: a "faulty" policy that passes.
    (policies / "clean_living_room.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(AGENTS)!r})\n"
        "from clean_living_room import POLICIES as ALL\n"
        "POLICIES = {'correct': ALL['correct'], 'lackbranch': ALL['correct'],\n"
        "            'unreachable': ALL['unreachable']}\n"
    )
    (policies / "unknown_task.py").write_text("POLICIES = {}\n")
    evaluation = evaluate(tasks, policies, plans_dir=plans, cache_dir=tmp_path / "cache")
    by_id = {t.task_id: t for t in evaluation.tasks}
    clean = by_id["clean_living_room"]
    assert clean.metrics["FauDR_lackbranch"] == 0.0
    assert clean.metrics["FauDR_unreachable"] == 100.0
    assert clean.metrics["FauDR_counterfactual"] is None
    assert "lackbranch policy passes in every valid scene: not revealed" in clean.notes
    assert "no counterfactual policy" in clean.notes
    orphan = by_id["orphan_task"]
    assert orphan.scenes == 0
    assert any("unreadable task" in e or "no formal plan" in e for e in orphan.errors)
    assert any("policies for an unknown task 'unknown_task'" in n for n in evaluation.notes)
    # The task that produced nothing counts 0 in the overall row, and is named.
    assert evaluation.overall["FauDR"] == pytest.approx(25.0)
    assert evaluation.overall_note is not None
    assert evaluation.overall_note.startswith(
        "overall: over all 2 tasks; 1 produced nothing and count 0: orphan_task ("
    )


def test_a_task_without_policies_is_measured_as_far_as_it_can_be(tmp_path: Path) -> None:
    tasks, plans = _one_task(tmp_path)
    evaluation = evaluate(tasks, tmp_path / "none", plans_dir=plans, cache_dir=tmp_path / "cache")
    [task] = evaluation.tasks
    assert task.metrics["LogCov"] == 100.0
    assert task.metrics["SceVR"] is None
    assert any(note.startswith("no policies: expected") for note in task.notes)


WINDOW_PLAN = json.loads((ROOT / "tests" / "data" / "window_light_plan.json").read_text())
WINDOW_POLICIES = """
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Close, GoTo, IsOpen, IsToggledOn, ToggleOff


def correct():
    return sequence(
        "Reset",
        when("Window", IsOpen("window"), sequence("Shut", GoTo("window"), Close("window"))),
        when("Light", IsToggledOn("light"), sequence("Off", GoTo("light"), ToggleOff("light"))),
    )


def typo():
    return sequence("Reset", GoTo("windw"), Close("window"))
"""


def _window_project(root: Path, policies_module: str) -> None:
    """A user's project: their policies in ``window_light.py``, and an evaluation layout whose
    policy module must be named after the task, ``window_light`` too."""
    (root / "window_light.py").write_text(WINDOW_POLICIES)
    for folder in ("tasks", "plans", "policies"):
        (root / folder).mkdir()
    paper = [
        {"Is the window open?": {"YES": "Close it.", "NO": "Do nothing."}},
        {"Is the light on?": {"YES": "Switch it off.", "NO": "Do nothing."}},
    ]
    task = {"id": "window_light", "description": WINDOW_PLAN["task"], "plan": paper}
    (root / "tasks" / "window_light.json").write_text(json.dumps(task))
    (root / "plans" / "window_light.json").write_text(json.dumps(WINDOW_PLAN))
    (root / "policies" / "window_light.py").write_text(policies_module)


def test_a_policy_module_named_like_the_project_module_it_imports_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _window_project(
        tmp_path,
        "from window_light import correct\nPOLICIES = {'correct': correct}\n",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "tasks", "policies"]) == 0
    out = capsys.readouterr().out
    assert "window_light: error" not in out
    [row] = [line for line in out.splitlines() if line.startswith("window_light ")]
    assert row.split()[7] == "100.00"  # SceVR: the correct policy ran and passed


def test_what_cannot_be_measured_is_an_error_and_the_exit_status_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _window_project(tmp_path, "from window_light import typo\nPOLICIES = {'correct': typo}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "tasks", "policies"]) == 1
    out = capsys.readouterr().out
    assert "window_light: error: the correct policy cannot run: " in out
    assert "'windw' names no object, type or room" in out


MISJUDGED = """
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Close, IsOpen
from window_light import correct


def no_walk():
    return when("Window", IsOpen("window"), Close("window"))


# The lackbranch policy really breaks causal order: it is detected, as a counterfactual.
POLICIES = {"correct": correct, "counterfactual": no_walk, "lackbranch": no_walk}
"""


def test_each_fault_says_which_class_revealed_it_and_the_scenes_their_outcomes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _window_project(tmp_path, MISJUDGED)
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "tasks", "policies", "--json", "metrics.json"]) == 0
    out = capsys.readouterr().out
    head = next(line for line in out.splitlines() if line.startswith("task "))
    row = next(line for line in out.splitlines() if line.startswith("window_light "))
    assert dict(zip(head.split(), row.split(), strict=True))["Class"] == "50.00"
    assert (
        "window_light  counterfactual -> counterfactual (1/2); "
        "lackbranch -> counterfactual MISMATCH (1/2)"
    ) in out
    task = json.loads((tmp_path / "metrics.json").read_text())["tasks"]["window_light"]
    assert task["ClassAcc"] == 50.0
    assert task["faults"]["lackbranch"] == {
        "revealed": True,
        "revealed_as": "counterfactual",
        "class_matches": False,
        "scenes_revealing": ["window=yes-light=yes"],
    }
    assert task["outcomes"]["window=no-light=no"] == {
        "valid": True,
        "correct": "pass",
        "counterfactual": "pass",
        "lackbranch": "pass",
    }


@pytest.mark.parametrize(
    ("faulty", "revealed_as"),
    [
        (("pass", "pass", "pass"), None),
        (("pass", "unreachable", "pass"), "unreachable"),
        (("lackbranch", "counterfactual", "counterfactual"), "counterfactual"),
        (("lackbranch", "counterfactual", "unreachable"), "unreachable"),  # declared wins
        (("counterfactual", "lackbranch", "error"), "counterfactual"),  # a tie: the first
    ],
)
def test_a_fault_is_revealed_as_its_class_or_the_most_common_one(
    faulty: tuple[str, ...], revealed_as: str | None
) -> None:
    from pytest_logicenv.evaluation.faults import judge

    valid, [finding] = judge(
        {"correct": ("pass", "pass", "pass", "lackbranch"), "unreachable": (*faulty, "lackbranch")}
    )
    assert valid == (0, 1, 2)  # the last scene is invalid: the correct policy fails there
    assert finding.revealed_as == revealed_as
    assert finding.matches == (revealed_as == "unreachable")
