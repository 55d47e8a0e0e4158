"""Plugin overhead from a warm cache: ``python benchmarks/run.py plugin [--tests N]``.

Builds a throw-away project with N marked test functions (each its own task, so N cache
entries, two environments each), fills the cache once, then measures with the cache warm:

* collection: ``pytest --collect-only`` of the N marked tests, against the same N tests
  unmarked (a plain parametrize over two ids) collected in the same run;
* per item: running the 2N items through the plugin, against 2N plain tests that run the same
  policy in the same scenes loaded directly; the difference per item is what the plugin adds
  (marker, cache lookup, fixture, scene loading, records, coverage report).

Each figure is the median of ``--repeat`` subprocess runs. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLAN = HERE.parent / "tests" / "data" / "window_light_plan.json"

POLICY = """
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Close, GoTo, IsOpen, IsToggledOn, ToggleOff


def correct():
    return sequence(
        "Reset",
        when("Window", IsOpen("window"), sequence("Shut", GoTo("window"), Close("window"))),
        when("Light", IsToggledOn("light"), sequence("Off", GoTo("light"), ToggleOff("light"))),
    )
"""

MARKED = """
@pytest.mark.logic_env(TASK + " (variant {i})", plan="plan.json")
def test_marked_{i}(logic_env):
    logic_env.run(correct).assert_ok()
"""

PLAIN = """
@pytest.mark.parametrize("scene", SCENES, ids=IDS)
def test_plain_{i}(scene):
    outcome = run_policy(correct, scene, goal=GOALS[scene.id])
    assert outcome.ok
"""


def write_project(root: Path, count: int) -> None:
    plan = json.loads(PLAN.read_text())
    (root / "plan.json").write_text(json.dumps(plan))
    (root / "policies.py").write_text(POLICY)
    (root / "pytest.ini").write_text(
        "[pytest]\naddopts = -p no:cacheprovider -p no:xdist\npythonpath = .\n"
    )
    task = plan["task"]
    marked = ["import pytest", "from policies import correct", f"TASK = {task!r}"]
    marked += [MARKED.format(i=i) for i in range(count)]
    (root / "test_marked.py").write_text("\n".join(marked))


def write_plain(root: Path, count: int) -> None:
    """Plain tests over the scenes the plugin generated for variant 0, loaded directly."""
    entry = next(p for p in sorted((root / "cache").iterdir()) if (p / "manifest.json").exists())
    lines = [
        "import json, pytest",
        "from pathlib import Path",
        "from policies import correct",
        "from pytest_logicenv.logic.facts import parse_facts",
        "from pytest_logicenv.sim.runner import run_policy",
        "from pytest_logicenv.scenes.scene_json import load_scene",
        f"ENTRY = Path({str(entry)!r})",
        "TRAJ = json.loads((ENTRY / 'trajectories.json').read_text())['trajectories']",
        "SCENES = [load_scene(ENTRY / 'scenes' / (t['id'] + '.json')) for t in TRAJ]",
        "IDS = [t['id'] for t in TRAJ]",
        "GOALS = {s.id: parse_facts(t['goal'], 'goal') for s, t in zip(SCENES, TRAJ)}",
    ]
    lines += [PLAIN.format(i=i) for i in range(count)]
    (root / "test_plain.py").write_text("\n".join(lines))


def pytest_seconds(root: Path, *args: str, repeat: int, ok: tuple[int, ...] = (0,)) -> float:
    times = []
    env = {**os.environ, "CI": "1"}
    for _ in range(repeat):
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", *args],
            cwd=root,
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        times.append(time.perf_counter() - started)
        if result.returncode not in ok:
            raise SystemExit(f"pytest {' '.join(args)} failed:\n{result.stdout[-3000:]}")
    return statistics.median(times)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py plugin")
    parser.add_argument("--tests", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        write_project(root, args.tests)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "test_marked.py", "--logicenv-report="],
            cwd=root,
            capture_output=True,
            check=True,
        )
        cold = time.perf_counter() - started
        write_plain(root, args.tests)
        (root / "test_empty.py").write_text("")
        items = 2 * args.tests
        startup = pytest_seconds(
            root, "--collect-only", "test_empty.py", repeat=args.repeat, ok=(5,)
        )
        collect_marked = pytest_seconds(
            root, "--collect-only", "test_marked.py", repeat=args.repeat
        )
        collect_plain = pytest_seconds(root, "--collect-only", "test_plain.py", repeat=args.repeat)
        run_marked = pytest_seconds(root, "test_marked.py", repeat=args.repeat)
        run_plain = pytest_seconds(root, "test_plain.py", repeat=args.repeat)
    per_item_ms = (run_marked - run_plain) / items * 1000
    print(f"cold cache: generated {args.tests} tasks ({items} scenes) in {cold:.1f} s")
    print(f"pytest start-up, nothing to collect: {startup:.3f} s")
    print(
        f"collect {args.tests} marked tests: {collect_marked:.3f} s "
        f"(plain tests {collect_plain:.3f} s, ratio {collect_marked / collect_plain:.2f}x); "
        f"beyond start-up: marked {collect_marked - startup:.3f} s, "
        f"plain {collect_plain - startup:.3f} s"
    )
    print(
        f"run {items} items: plugin {run_marked:.3f} s, plain with the same policy runs "
        f"{run_plain:.3f} s"
    )
    print(
        f"plugin: {per_item_ms:.2f} ms per item overhead (warm cache), "
        f"{args.tests} marked tests collected in {collect_marked - startup:.2f} s beyond "
        f"pytest start-up ({collect_marked:.2f} s in all)"
    )
    return 0
