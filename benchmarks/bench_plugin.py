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
the min/median/max over the rounds, in CPU time (the runs' and their workers', what the work
costs on a machine others load) and in wall-clock time. The runs write and reuse bytecode as
Python does by default (into a cache of their own, ``PYTHONPYCACHEPREFIX``, after an untimed
warm-up run of each project and mode): with ``PYTHONDONTWRITEBYTECODE`` set, every run would
compile and assertion-rewrite the plugin's modules again, a fixed cost of some seconds that the
trivial run does not pay. In the same way the marked projects keep the record of what their
last run read (``.logicenv/reads``, as bytecode is kept); the distinct-task project is also
timed without it (removed before the run), as a fresh clone's first run finds it.

Then the checks a user relies on for trust, timed in this process on one scene of the
distinct-task project, per item: the judge's second run (determinism) and the replay of a run's
trace in a fresh world (tamper detection), and per entry: the digests of its files and the
content check (each trajectory re-derived from the plan, each scene realizing its situation),
with the entry's files already parsed. Every figure is measured here; none is quoted.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pytest_logicenv.cache import MANIFEST, Entry, dumps, entry_key, path_hash, text_hash
from pytest_logicenv.pipeline import entry_reads
from pytest_logicenv.pipeline.cached import load_plan_of, read_trajectories
from pytest_logicenv.pipeline.derived import content_problem
from pytest_logicenv.pipeline.entry_reads import scene_at
from pytest_logicenv.pipeline.entry_situation import case_situation
from pytest_logicenv.pipeline.read_record import ReadRecord, reads_folder
from pytest_logicenv.pipeline.task_request import Case
from pytest_logicenv.sim.judge import judge
from pytest_logicenv.sim.tamper import replay, snapshot
from pytest_logicenv.sim.world import WorldState

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


#: The clocks a run is timed by, as the figures name them.
CLOCKS = {"cpu": "CPU (user+system, workers included)", "wall": "wall-clock"}
#: Where the timed runs keep their bytecode (set by :func:`measure`; ``None``: Python's default).
PYCACHE: list[Path] = []


@dataclass(frozen=True)
class Timing:
    """Seconds one run took: on the clock, and of CPU (user and system, its xdist workers'
    included: they are its children). On a machine others load, the CPU time is the cost
    of the work; the wall time also counts the waits for a core."""

    wall: float
    cpu: float


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def pytest_run(root: Path, *args: str, strict: bool = True) -> Timing:
    """What one pytest run of the project takes (it must pass); ``strict`` runs it as CI
    does, reading the cache only."""
    unset = ("CI", "PYTHONDONTWRITEBYTECODE") if PYCACHE else ("CI",)
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env |= {"CI": "1"} if strict else {}
    env |= {"PYTHONPYCACHEPREFIX": str(PYCACHE[0])} if PYCACHE else {}
    started, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    timing = Timing(time.perf_counter() - started, _children_cpu() - cpu)
    if result.returncode != 0:
        raise SystemExit(f"pytest {' '.join(args)} in {root} failed:\n{result.stdout[-3000:]}")
    return timing


#: The distinct-task project run without the record of its last run's reads.
NO_RECORD = "distinct, no record"


def _first_run(root: Path, *args: str) -> Timing:
    """A run of the project as a fresh clone's first finds it: no record of earlier reads."""
    shutil.rmtree(reads_folder(root), ignore_errors=True)
    return pytest_run(root, *args)


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
    PYCACHE[:] = [scratch / "pycache"]
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
    modes = {"serial": ("-p", "no:xdist"), f"-n {workers}": ("-n", str(workers))}
    for flags in modes.values():  # bytecode written, as a user's second run finds it
        for root, extra in ((trivial, ()), (trivial, ("--cov",)), (one, ()), (distinct, ())):
            pytest_run(root, *flags, *extra)
    print(f"caches filled and bytecode written (not timed): {time.perf_counter() - started:.1f} s")
    per_item: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(rounds):
        for mode, flags in modes.items():
            base = pytest_run(trivial, *flags)
            times = {
                "pytest-cov": pytest_run(trivial, *flags, "--cov"),
                "plugin, one task": pytest_run(one, *flags),
                "plugin, distinct tasks": pytest_run(distinct, *flags),
                NO_RECORD: _first_run(distinct, *flags),
            }
            for name, timing in times.items():
                for clock in CLOCKS:
                    extra = getattr(timing, clock) - getattr(base, clock)
                    per_item.setdefault((clock, mode, name), []).append(extra / items * 1000)
    for clock, said in CLOCKS.items():
        print(
            f"{items} items per project, {rounds} rounds; {said} ms per item beyond {items} "
            "trivial tests in the same round and mode, min/median/max (all measured in this run):"
        )
        for mode in modes:
            cov = statistics.median(per_item[(clock, mode, "pytest-cov")])
            for name in ("pytest-cov", "plugin, one task", "plugin, distinct tasks", NO_RECORD):
                values = per_item[(clock, mode, name)]
                ratio = statistics.median(values) / cov if cov > 0 else float("nan")
                print(
                    f"  {mode:8} {name:24} {spread(values)} ms ({ratio:.2f}x pytest-cov's median)"
                )
    print_checks(distinct, rounds)
    return 0


def print_checks(project: Path, rounds: int, repeats: int = 200) -> None:
    """What the trust checks cost, in this process, on the distinct-task project's first
    entry: per item, the judge's second run and the tamper replay; per entry, the digests
    and the content check (its files parsed already)."""
    sys.path.insert(0, str(project))
    from policies import idle  # type: ignore[import-not-found]

    entry = Entry(
        next(p for p in sorted((project / "cache").iterdir()) if (p / MANIFEST).is_file())
    )
    fix = "bench"
    plan = load_plan_of(entry, fix)
    manifest = entry.manifest(fix=fix)
    cases, _, records = read_trajectories(entry, fix)
    scene = scene_at(cases[0].scene_path)
    situation = case_situation(cases[0], plan, scene)
    trace = judge(idle, situation).trace
    timed = {
        "judged once (one run, its replay)": lambda: judge(idle, situation, twice=False),
        "judged as the plugin does (twice)": lambda: judge(idle, situation),
        "  the tamper check's replay of it": lambda: replay(scene, trace),
        "  a replay's world built (with actions)": lambda: snapshot(WorldState.from_scene(scene)),
        "digests of an entry's files": lambda: _digests_afresh(entry, manifest),
        "content check of an entry": lambda: content_problem(entry, plan, records),
        "an entry's records read back": lambda: _records_read(entry, cases),
    }
    print(
        f"trust checks, in-process on {entry.root.name}'s first scene ({len(scene.objects)} "
        f"objects), ms per call, min/median/max over {rounds} rounds of {repeats} "
        "(all measured in this run; the idle policy's trace has no action, so its replay is "
        "the scene's world as built, kept once per scene; a trace with actions builds one):"
    )
    entry_reads.keep_across_runs(ReadRecord(project))
    for name, call in timed.items():
        values = []
        for _ in range(rounds):
            started = time.perf_counter()
            for _ in range(repeats):
                call()
            values.append((time.perf_counter() - started) / repeats * 1000)
        print(f"  {name:36} {spread(values)} ms")
    entry_reads.keep_across_runs(None)


def _records_read(entry: Entry, cases: Sequence[Case]) -> None:
    """The records of reads of the entry and of its scenes taken back, as a process that runs
    all its items does (nothing in memory before; the collector paused while they load)."""
    entry_reads.forget_all()
    load_plan_of(entry, "bench")
    for case in cases:
        scene_at(case.scene_path)
    gc.unfreeze()


def _digests_afresh(entry: Entry, manifest: dict[str, object]) -> None:
    """The digest of every file the manifest records, each file read and hashed (as a
    process does the first time it reads the entry)."""
    files = manifest["files"]
    assert isinstance(files, dict)
    for name in files:
        path_hash(entry.root / name)
