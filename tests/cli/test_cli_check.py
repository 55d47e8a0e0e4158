"""``logicenv check`` as a user runs it: files and directories of scenes, PhyPR, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from synthetic import synthetic_spec

from pytest_logicenv.cli import main
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.scene_json import scene_to_json
from pytest_logicenv.scenes.scene_model import Scene, SceneObject


@pytest.fixture(scope="module")
def solved() -> Scene:
    spec = synthetic_spec(12, rooms=2, seed=1)
    stool = SceneObject("stool", "Stool", room=spec.rooms[0].id, size=(0.3, 0.45, 0.3))
    return solve_layout(replace(spec, objects=(*spec.objects, stool)), seed=1)


def write(path: Path, scene: Scene) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(scene_to_json(scene)), encoding="utf-8")
    return path


def floating(scene: Scene) -> Scene:
    """The scene with its stool (which holds nothing and no relation names) lifted 0.5 m."""
    stool = scene.object("stool")
    x, y, z = stool.position
    return scene.with_objects(
        [replace(o, position=(x, y + 0.5, z)) if o is stool else o for o in scene.objects]
    )


def test_a_solved_scene_passes(
    tmp_path: Path, solved: Scene, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "scene.json", solved)
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: PASS: floor plan ok (" in out
    assert out.rstrip().endswith(
        "PhyPR over 1 scene: floor plan 100.0%, entity 100.0%, relation 100.0%, all three 100.0%"
    )


def test_a_broken_scene_lists_its_violations_and_exits_1(
    tmp_path: Path, solved: Scene, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path / "a.json", solved)
    bad = write(tmp_path / "b.json", floating(solved))
    assert main(["check", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: FAIL: floor plan ok" in out
    assert "entity 1 violation" in out
    assert "  [entity] objects[" in out
    assert "floats: its bottom is at 0.500 m" in out
    assert "entity 50.0%" in out
    assert "all three 50.0%" in out


def test_directories_are_searched_for_scenes_only(
    tmp_path: Path, solved: Scene, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "cache" / "scenes" / "one.json", solved)
    write(tmp_path / "cache" / "scenes" / "deeper" / "two.json", solved)
    (tmp_path / "cache" / "plan.json").write_text(json.dumps({"task": "not a scene"}))
    assert main(["check", str(tmp_path / "cache")]) == 0
    out = capsys.readouterr().out
    assert "PhyPR over 2 scenes" in out
    assert "plan.json" not in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file or directory"),
        ("{not json", "not valid JSON"),
        ('{"format": "logicenv-scene/0", "id": "old"}', "regenerate it"),
    ],
)
def test_bad_input_exits_2_with_the_file_named(
    tmp_path: Path, content: str | None, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scene.json"
    if content is not None:
        path.write_text(content)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("logicenv check: error: ")
    assert str(path) in err
    assert message in err


def test_an_empty_directory_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(tmp_path)]) == 2
    assert "no scene files in" in capsys.readouterr().err


def test_the_installed_command(tmp_path: Path, solved: Scene) -> None:
    path = write(tmp_path / "scene.json", floating(solved))
    done = subprocess.run(
        [sys.executable, "-m", "pytest_logicenv.cli", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "FAIL" in done.stdout
    assert "floats" in done.stdout
