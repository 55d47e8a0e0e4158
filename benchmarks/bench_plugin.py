"""The plugin's own cost against pytest-cov's, measured in one run:
``python benchmarks/run.py plugin [--items N] [--rounds R] [--workers W] [--keep DIR]``.

Three throw-away projects, their caches filled once (not timed):

* **one task**: N/2 marked test functions of the same task, two environments each (N items,
  one cache entry);
* **distinct tasks**: N/2 marked test functions of distinct tasks (N items, N/2 entries);
* **trivial**: N test functions that do nothing, run without and with ``--cov``.

The marked tests run a policy that does nothing under a plan whose goals are empty, so what is
timed is the plugin (collection, cache reads, fixture, records, report), not the simulation.
Each round runs every project once, serially and under ``-n W``, in one order; a figure is a
per-item difference against the trivial run of the same round and mode, and each is printed as
the min/median/max over the rounds. Every figure is measured here; none is quoted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from pytest_logicenv.cache import MANIFEST, dumps, entry_key, text_hash

HERE = Path(__file__).resolve().parent
PLAN = HERE.parent / "tests" / "data" / "window_light_plan.json"

POLICY = """
import py_trees


def idle():
    return py_trees.behaviours.Success("idle")
"""

MARKED = """
@pytest.mark.logic_env({task!r}, plan="plan.json")
def test_marked_{i}(logic_env):
    logic_env.run(idle).assert_ok()
"""

TRIVIAL = """
def test_trivial_{i}():
    pass
"""

INI = "[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\n"


def empty_goals(plan: dict[str, object]) -> dict[str, object]:
    """The plan with every branch's goal emptied: nothing a run must achieve."""

    def walk(node: object) -> object:
        if isinstance(node, dict):
            return {k: [] if k == "goal" else walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    result = walk(plan)
    assert isinstance(result, dict)
    return result


def write_marked(root: Path, functions: int, distinct: bool) -> None:
    plan = empty_goals(json.loads(PLAN.read_text()))
    root.mkdir(parents=True, exist_ok=True)
    (root / "plan.json").write_text(json.dumps(plan))
    (root / "policies.py").write_text(POLICY)
    (root / "pytest.ini").write_text(INI)
    task = str(plan["task"])
    lines = ["import pytest", "from policies import idle"]
    for i in range(functions):
        lines.append(MARKED.format(task=f"{task} (variant {i})" if distinct else task, i=i))
    (root / "test_marked.py").write_text("\n".join(lines))


def clone_entries(project: Path, functions: int) -> None:
    """The entries of the distinct tasks, cloned from variant 0's (generated): the same plan
    and settings, so the same scenes; only the task text in the manifest and the key differ.
    The timed runs are strict (CI), so an entry the plugin would not accept fails the run."""
    cache = project / "cache"
    (source,) = [p for p in cache.iterdir() if (p / MANIFEST).is_file()]
    manifest = json.loads((source / MANIFEST).read_text())
    base = str(manifest["task"]).removesuffix(" (variant 0)")
    for i in range(1, functions):
        task = f"{base} (variant {i})"
        target = cache / entry_key(task, manifest["settings"])
        shutil.copytree(source, target)
        clone = {**manifest, "task": task, "task_sha256": text_hash(task)}
        (target / MANIFEST).write_bytes(dumps(clone))


def write_trivial(root: Path, tests: int) -> None:
    root.mkdir(parents=True)
    (root / "pytest.ini").write_text(INI)
    (root / "test_trivial.py").write_text("\n".join(TRIVIAL.format(i=i) for i in range(tests)))


def pytest_run(root: Path, *args: str, strict: bool = True) -> float:
    """Seconds one pytest run of the project takes (it must pass); ``strict`` runs it as CI
    does, reading the cache only."""
    env = {k: v for k, v in os.environ.items() if k != "CI"} | ({"CI": "1"} if strict else {})
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"pytest {' '.join(args)} in {root} failed:\n{result.stdout[-3000:]}")
    return seconds


def spread(values: Sequence[float]) -> str:
    """min/median/max, in ms."""
    return "/".join(f"{v:.2f}" for v in (min(values), statistics.median(values), max(values)))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py plugin")
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="build the projects here and keep them")
    args = parser.parse_args(argv)
    scratch = args.keep or Path(tempfile.mkdtemp(prefix="logicenv-bench-plugin-"))
    try:
        return measure(scratch, args.items, args.rounds, args.workers)
    finally:
        if args.keep is None:
            shutil.rmtree(scratch, ignore_errors=True)


def measure(scratch: Path, items: int, rounds: int, workers: int) -> int:
    one, distinct, trivial = scratch / "one", scratch / "distinct", scratch / "trivial"
    started = time.perf_counter()
    if not one.exists():
        write_marked(one, items // 2, distinct=False)
        pytest_run(one, "--logicenv-report=", strict=False)
    if not distinct.exists():
        write_marked(distinct, 1, distinct=True)
        pytest_run(distinct, "--logicenv-report=", strict=False)
        write_marked(distinct, items // 2, distinct=True)
        clone_entries(distinct, items // 2)
    if not trivial.exists():
        write_trivial(trivial, items)
    print(f"caches filled (not timed): {time.perf_counter() - started:.1f} s")
    modes = {"serial": ("-p", "no:xdist"), f"-n {workers}": ("-n", str(workers))}
    per_item: dict[tuple[str, str], list[float]] = {}
    for _ in range(rounds):
        for mode, flags in modes.items():
            base = pytest_run(trivial, *flags)
            times = {
                "pytest-cov": pytest_run(trivial, *flags, "--cov"),
                "plugin, one task": pytest_run(one, *flags),
                "plugin, distinct tasks": pytest_run(distinct, *flags),
            }
            for name, seconds in times.items():
                per_item.setdefault((mode, name), []).append((seconds - base) / items * 1000)
    print(
        f"{items} items per project, {rounds} rounds; ms per item beyond {items} trivial "
        "tests in the same round and mode, min/median/max (all measured in this run):"
    )
    for mode in modes:
        cov = statistics.median(per_item[(mode, "pytest-cov")])
        for name in ("pytest-cov", "plugin, one task", "plugin, distinct tasks"):
            values = per_item[(mode, name)]
            ratio = statistics.median(values) / cov if cov > 0 else float("nan")
            print(f"  {mode:8} {name:24} {spread(values)} ms ({ratio:.2f}x pytest-cov's median)")
    return 0
