"""Collection from a warm cache, per task: ``python benchmarks/run.py collect [--tasks ...]``.

For each size N (default 100, 1,000 and 5,000 cached tasks) a throw-away project with N
marked test functions of distinct tasks is collected (``pytest --collect-only``, strict as in
CI), against N functions of which one is marked, collected in the same round (so both pay the
plugin's imports, which the first marked function brings); the time per task is the
difference over the N - 1 other tasks. The entries are cloned from one generated entry
(the same plan and settings, each manifest with its own task text), as ``bench_plugin``
does. Every figure is measured in this run: min/median/max over ``--rounds``, in CPU time
(what the work costs on a machine others load) and wall-clock time; collection is linear when
the time per task stays flat as the tasks grow.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from bench_plugin import CLOCKS, clone_entries, pytest_run, spread, write_marked

MARK = "\n@pytest.mark.logic_env"
PLAIN = """
def test_plain_{i}():
    pass
"""


def project(scratch: Path, tasks: int, seed: Path) -> Path:
    """``tasks`` marked functions of distinct tasks, their entries cloned from ``seed``'s."""
    root = scratch / f"tasks-{tasks}"
    write_marked(root, tasks, distinct=True)
    shutil.copytree(seed / "cache", root / "cache")
    clone_entries(root, tasks)
    marked = (root / "test_marked.py").read_text()
    header, test_0, *_ = marked.split(MARK)
    first = f"{header}{MARK}{test_0}"
    plain = "\n".join(PLAIN.format(i=i) for i in range(1, tasks))
    (root / "test_mixed.py").write_text(f"{first}\n{plain}")
    return root


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py collect")
    parser.add_argument("--tasks", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="logicenv-bench-collect-"))
    try:
        seed = scratch / "seed"
        write_marked(seed, 1, distinct=True)
        pytest_run(seed, "--logicenv-report=", strict=False)  # one entry, generated
        roots = {tasks: project(scratch, tasks, seed) for tasks in args.tasks}
        per_task: dict[int, dict[str, list[float]]] = {
            tasks: {clock: [] for clock in CLOCKS} for tasks in args.tasks
        }
        for _ in range(args.rounds):
            for tasks, root in roots.items():
                mixed = pytest_run(root, "--collect-only", "-p", "no:xdist", "test_mixed.py")
                marked = pytest_run(root, "--collect-only", "-p", "no:xdist", "test_marked.py")
                for clock, values in per_task[tasks].items():
                    extra = getattr(marked, clock) - getattr(mixed, clock)
                    values.append(extra / (tasks - 1) * 1000)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for clock, said in CLOCKS.items():
        print(
            f"collect, warm cache: {said} ms per marked task beyond a plain test, "
            f"min/median/max over {args.rounds} rounds (all measured in this run):"
        )
        for tasks, clocks in per_task.items():
            print(f"  {tasks:>6} tasks: {spread(clocks[clock])} ms per task")
        medians = [statistics.median(clocks[clock]) for clocks in per_task.values()]
        print(
            f"collect, {clock}: largest/smallest median per task {max(medians) / min(medians):.2f}x"
        )
    return 0
