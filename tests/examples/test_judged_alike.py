"""Every example policy in every committed scene, judged under pytest and by ``logicenv run``:
the same outcome, down to the explanation.

The pytest side is the example suite as a user runs it (``pytest example_agents`` with a JSON
report holding every run's outcome); the other side is ``logicenv run POLICY --scene
cache/ENTRY/scenes/ID.json --json``, given no plan and no goal: it finds the entry's situation
from the scene file's place. Before one function judged both, the command judged without the
plan's branches (a lackbranch printed as unreachable) and a bare scene without its goal.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import subprocess
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT

from pytest_logicenv.cache import Entry
from pytest_logicenv.cli import main
from pytest_logicenv.sim.outcome import Outcome

pytestmark = pytest.mark.slow

#: What depends on the test's declared fault, which ``logicenv run`` is never told: the rest
#: of an outcome is what it says whoever judged it.
DECLARED = ("expected", "ok", "explanation")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Mapping[str, Any]:
    """The JSON report of ``pytest example_agents`` (committed cache, as CI runs it)."""
    path = tmp_path_factory.mktemp("report") / "report.json"
    command = [sys.executable, "-m", "pytest", "example_agents", "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(
        [*command, f"--logicenv-report=json:{path}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    document: Mapping[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def runs(report: Mapping[str, Any]) -> list[tuple[Path, Mapping[str, Any]]]:
    """Every run the report holds, with the entry it ran in."""
    return [
        (ROOT / task["entry"], run) for task in report["tasks"].values() for run in task["runs"]
    ]


def command_policy(test: str, label: str) -> list[str]:
    """The run's policy as ``logicenv run`` takes it: ``example_agents/TASK.py:name`` for a
    py_trees factory, ``example_agents/FILE.xml --tree ID`` for its BehaviorTree.CPP twin."""
    if ".xml:" in label:
        file, tree = label.split(":")
        return [str(ROOT / "example_agents" / file), "--tree", tree]
    task = Path(test.split("::")[0]).stem.removeprefix("test_")
    return [f"{ROOT / 'example_agents' / task}.py:{label}"]


def judged_by_the_command(policy: list[str], scene: Path) -> dict[str, Any]:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main(["run", *policy, "--scene", str(scene), "--json"])
    assert code in (0, 1), f"logicenv run {' '.join(policy)} --scene {scene}: exit {code}"
    outcome: dict[str, Any] = json.loads(out.getvalue())["outcomes"][0]
    return outcome


def said(outcome: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in outcome.items() if key not in DECLARED}


def explained(outcome: Mapping[str, Any]) -> str:
    """The outcome's class and explanation, as a test that declares no fault prints it."""
    return Outcome.from_json(said(outcome)).explain()


@cache
def example_policies(task: str) -> frozenset[str]:
    """The policies an example module has: its py_trees factories and XML twins."""
    module = importlib.import_module(task)  # example_agents is on the pythonpath
    twins = getattr(module, "XML_TREES", {}).values()
    xml = f"{task}.xml"
    return frozenset({f.__name__ for f in module.POLICIES.values()} | {f"{xml}:{t}" for t in twins})


def test_every_example_policy_in_every_committed_scene_is_judged_alike(
    report: Mapping[str, Any],
) -> None:
    seen: dict[Path, set[str]] = {}
    for entry_root, run in runs(report):
        scene = Entry(entry_root).scene_path(run["scene"])
        pytest_said = run["outcome"]
        command_said = judged_by_the_command(command_policy(run["test"], run["policy"]), scene)
        where = f"{run['policy']} in {scene.relative_to(ROOT)}"
        assert said(command_said) == said(pytest_said), where
        assert command_said["explanation"] == explained(pytest_said), where
        seen.setdefault(scene, set()).add(run["policy"])
    committed = {
        p
        for p in (ROOT / "cache").glob("*/scenes/*.json")
        if ".house." not in p.name and not p.name.endswith(".witness.json")
    }
    assert set(seen) == committed
    for scene, policies in seen.items():
        task = json.loads((scene.parents[1] / "manifest.json").read_text())["settings"]
        assert policies == example_policies(Path(task["plan_file"]).stem), scene
