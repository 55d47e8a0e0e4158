"""``logicenv run`` as a user runs it: exit 0 on pass, 1 on a fault, 2 on bad input."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import ROOT
from living_room import PLAN, cases

from pytest_logicenv.cli import main
from pytest_logicenv.scenes.scene_json import scene_to_json

XML = str(ROOT / "example_agents" / "clean_living_room.xml")
PY = str(ROOT / "example_agents" / "clean_living_room.py")


@pytest.fixture
def scenes(tmp_path: Path) -> dict[str, Path]:
    """The 12 Clean Living Room scenes as files, by trajectory id (their conditions in their
    provenance, for ``--plan``), and the goal of each."""
    paths = {}
    for _, trajectory, scene in cases():
        made = replace(scene.provenance, trajectory=trajectory.id, conditions=trajectory.conditions)
        path = tmp_path / f"{trajectory.id}.json"
        path.write_text(json.dumps(scene_to_json(replace(scene, provenance=made))))
        paths[trajectory.id] = path
        goal = [{"state": "stain", "dirty": False}]
        (tmp_path / f"{trajectory.id}.goal.json").write_text(json.dumps(goal))
    return paths


def goal_of(scene: Path) -> list[str]:
    return ["--goal", str(scene.with_suffix(".goal.json"))]


WIPES = "toy_type=doll-book=yes-wipe=yes"
NO_WIPES = "toy=no-book=no-wipe=no"


def test_a_passing_run_exits_0(scenes: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    goal = scenes[WIPES].with_suffix(".goal.json")
    assert main(["run", XML, "--scene", str(scenes[WIPES]), "--goal", str(goal)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Pass: the policy returned SUCCESS and every goal fact holds\n")
    assert "PutIn(toy, red_box) ok" in out


def test_a_fault_exits_1_with_the_explanation(
    scenes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["run", XML, "--tree", "CleanLivingRoomLackbranch", "--scene", str(scenes[NO_WIPES])]
    assert main([*args, "--plan", str(PLAN)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(
        "Lackbranch: GoTo(wet_wipes) acts on wet_wipes, which this situation does not contain\n"
    )


def test_a_python_policy_in_several_scenes_with_json(
    scenes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["run", f"{PY}:lackbranch_policy", "--json", "--plan", str(PLAN)]
    for name in (WIPES, NO_WIPES):
        args += ["--scene", str(scenes[name])]
    assert main(args) == 1
    document = json.loads(capsys.readouterr().out)
    assert [o["kind"] for o in document["outcomes"]] == ["pass", "lackbranch"]
    assert [o["scene"] for o in document["outcomes"]] == [WIPES, NO_WIPES]


def test_several_scenes_print_a_summary(
    scenes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["run", f"{PY}:correct_policy", "--plan", str(PLAN)]
    for path in scenes.values():
        args += ["--scene", str(path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"== {NO_WIPES}\nPass: " in out
    assert out.rstrip().endswith("12 runs: 12 passed, 0 failed")


def test_a_module_policy_is_imported_from_the_working_directory(
    scenes: dict[str, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "my_policies.py").write_text(
        "from pytest_logicenv.sim.leaves import GoTo\n\ndef walk():\n    return GoTo('sofa')\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "my_policies", raising=False)
    (tmp_path / "nothing.json").write_text("[]")  # an empty goal: SUCCESS alone passes
    args = ["--scene", str(scenes[WIPES]), "--goal", "nothing.json"]
    assert main(["run", "my_policies:walk", *args]) == 0
    assert capsys.readouterr().out.startswith("Pass: ")


BAD = [
    (["--scene", "missing.json"], "missing.json: no such scene file"),
    (["--tree", "Nope"], "tree='Nope' names no BehaviorTree"),
    (["--goal", "GOAL"], "not valid JSON"),
    (["--known", "Sofa"], "clean_living_room.xml:68 <Condition 'Exists'>: 'book' names no object"),
]


@pytest.mark.parametrize(("extra", "message"), BAD, ids=[m for _, m in BAD])
def test_bad_input_exits_2_with_a_message(
    extra: list[str],
    message: str,
    scenes: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad_goal = tmp_path / "goal.json"
    bad_goal.write_text("{")
    extra = [str(bad_goal) if arg == "GOAL" else arg for arg in extra]
    scene = [] if "--scene" in extra else ["--scene", str(scenes[NO_WIPES])]
    assert main(["run", XML, *scene, *goal_of(scenes[NO_WIPES]), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("logicenv run: error: ")
    assert message in err


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ("policy", "a policy is an XML file, module:name or path/to/file.py:name"),
        (f"{PY}:no_such_policy", "has no 'no_such_policy'"),
        ("no_such_module_xyz:tidy", "cannot import no_such_module_xyz (ModuleNotFoundError"),
        ("missing.py:tidy", "missing.py: no such file"),
    ],
)
def test_bad_policy_specs_exit_2(
    policy: str, message: str, scenes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", policy, "--scene", str(scenes[WIPES]), *goal_of(scenes[WIPES])]) == 2
    assert message in capsys.readouterr().err


def test_the_installed_command_runs_without_a_traceback(scenes: dict[str, Path]) -> None:
    bad = scenes[WIPES].with_name("bad.xml")
    bad.write_text("<root><BehaviorTree ID='T'><Pickup object='toy'/></BehaviorTree></root>")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest_logicenv.cli",
            "run",
            str(bad),
            "--scene",
            str(scenes[WIPES]),
            *goal_of(scenes[WIPES]),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"{bad}:1: <Pickup>: unknown node ID 'Pickup'; did you mean 'PickUp'?" in result.stderr


def test_plan_gives_each_cached_scene_its_goals_and_situation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pattern = "you_are_in_the_living_room-*/scenes/toy_type=doll-*.json"
    scenes = sorted((ROOT / "cache").glob(pattern))
    scene = next(s for s in scenes if not s.name.endswith(".house.json"))
    code = main(
        [
            "run",
            str(ROOT / "example_agents" / "clean_living_room.py") + ":unreachable_policy",
            "--plan",
            str(ROOT / "example_agents" / "plans" / "clean_living_room.json"),
            "--scene",
            str(scene),
        ]
    )
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("Unreachable: the policy returned SUCCESS but 1 goal fact is false")
    assert "What is the type of the toy on the floor? = doll" in out
    assert 'goal not met: "toy in red_box"' in out


DISHWASHER = ROOT / "example_agents" / "load_dishwasher.py"
DISHWASHER_PLAN = ROOT / "example_agents" / "plans" / "load_dishwasher.json"


def _dishwasher_scene(name: str) -> Path:
    """A scene of the committed cache entry the dishwasher example's plan made."""
    for manifest in (ROOT / "cache").glob("*/manifest.json"):
        if json.loads(manifest.read_text())["settings"]["plan_file"].endswith(DISHWASHER_PLAN.name):
            return manifest.parent / "scenes" / f"{name}.json"
    raise AssertionError("no committed cache entry of the dishwasher example")


def test_a_cached_scene_is_judged_by_its_entry_as_pytest_judges_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The entry's plan and trajectory, found from the scene file's place: the plan's branches
    make a policy that did another situation's work a lackbranch (it was unreachable when the
    command judged without them), with ``--plan`` or without."""
    scene = str(_dishwasher_scene("clean_bowl=yes"))
    policy = f"{DISHWASHER}:lackbranch_policy"
    assert main(["run", policy, "--scene", scene]) == 1
    found = capsys.readouterr().out
    assert found.startswith("Lackbranch: the policy returned SUCCESS having done what another")
    assert "it never checked: Is there a clean bowl in the dishwasher?" in found
    assert main(["run", policy, "--scene", scene, "--plan", str(DISHWASHER_PLAN)]) == 1
    assert capsys.readouterr().out == found


def test_a_scene_with_no_situation_and_no_plan_or_goal_is_bad_input(
    scenes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Judged without a goal every run would pass: the command says what to pass instead."""
    assert main(["run", f"{PY}:unreachable_policy", "--scene", str(scenes[WIPES])]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"logicenv run: error: {scenes[WIPES]}: the scene file carries no ")
    assert "pass --plan PLAN.json (the plan the scene was made from) or --goal FACTS.json" in err


@pytest.mark.parametrize(
    ("situation", "message"),
    [
        ({"format": "nope"}, "'situation': not a logicenv-situation/1 object"),
        (
            {"format": "logicenv-situation/1", "conditions": []},
            "'situation': malformed (KeyError: 'plan')",
        ),
        (
            {"format": "logicenv-situation/1", "plan": {"format": "x"}, "conditions": []},
            "'situation'.plan",
        ),
        (
            {"format": "logicenv-situation/1", "plan": "PLAN", "conditions": [], "max_ticks": 0},
            "'situation': malformed (ValueError: max_ticks must be a positive integer, got 0)",
        ),
    ],
)
def test_a_scene_whose_saved_situation_is_malformed_is_bad_input(
    situation: dict[str, object],
    message: str,
    scenes: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = json.loads(scenes[WIPES].read_text())
    saved = tmp_path / "saved.json"
    if situation.get("plan") == "PLAN":
        situation = {**situation, "plan": json.loads(PLAN.read_text())}
    saved.write_text(json.dumps({**document, "situation": situation}))
    assert main(["run", f"{PY}:correct_policy", "--scene", str(saved)]) == 2
    err = capsys.readouterr().err
    assert f"{saved}: {message}" in err


def test_a_scene_file_its_entry_does_not_list_needs_the_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = _dishwasher_scene("clean_bowl=yes").parents[1]
    copy = tmp_path / entry.name
    shutil.copytree(entry, copy)
    stray = copy / "scenes" / "mine.json"
    shutil.copy(copy / "scenes" / "clean_bowl=yes.json", stray)
    assert main(["run", f"{DISHWASHER}:correct_policy", "--scene", str(stray)]) == 2
    err = capsys.readouterr().err
    assert "trajectories.json lists no situation of this scene file; pass --plan PLAN.json" in err
