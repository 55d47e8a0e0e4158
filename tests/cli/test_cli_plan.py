"""``logicenv paths`` and ``logicenv select`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import TASKS

from pytest_logicenv.cli import main

CLEAN = str(TASKS / "clean_living_room.json")


def test_paths_lists_every_path_with_its_question_and_action(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["paths", CLEAN]) == 0
    out = capsys.readouterr().out
    assert "3 subtasks, 7 decision paths, 12 combinations" in out
    assert (
        "toy_type=doll         There is a toy on the floor? YES -> What is the type of the toy "
        "on the floor? doll  => Place the toy in the red box." in out
    )


@pytest.mark.parametrize("strategy", ["minimal", "greedy", "pairwise", "exhaustive"])
def test_select_json_has_the_documented_shape(
    strategy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["select", CLEAN, "--strategy", strategy, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["strategy"] == strategy
    first = document["trajectories"][0]
    assert set(first) == {"id", "paths"}
    assert len(first["paths"]) == 3  # one path per subtask, in plan order
    assert first["paths"][0][0] == {"question": "There is a toy on the floor?", "answer": "YES"}


def test_select_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["select", CLEAN]) == 0
    out = capsys.readouterr().out
    assert out.startswith("minimal: 3 trajectories name 7/7 decision paths (of 12 combinations)")
    assert "toy_type=doll-book=yes-wipe=yes" in out


def test_convert_prints_our_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", CLEAN]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "logicenv-plan/1"


def test_bad_plan_exits_2_with_the_problem_and_no_traceback(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "plan.json"
    bad.write_text(json.dumps([{"Is the door open?": {"YES": "Close it."}}]))
    result = subprocess.run(
        [sys.executable, "-m", "pytest_logicenv.cli", "select", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"logicenv select: error: {bad}: 1 problem" in result.stderr
    assert "a factor with one value ('yes') is not uncertain" in result.stderr


def test_unknown_strategy_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["select", CLEAN, "--strategy", "fastest"])
    assert caught.value.code == 2
    assert "invalid choice: 'fastest'" in capsys.readouterr().err
