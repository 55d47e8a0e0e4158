"""Selection strategies side by side: trajectories chosen and time per strategy.

``python benchmarks/run.py select [--tasks DIR] [--repeat N]``

Runs every strategy on the plans in the tasks directory (the paper's form) and on synthetic
plans of 8 subtasks x 4 paths and 20 subtasks x 10 paths, and prints the median time of
``repeat`` runs. The last line compares ``minimal`` with the paper's ``greedy`` (Algorithm 1)
at 8x4. Strategies that would enumerate more than ``MAX_PRODUCT`` combinations are skipped
and say so.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from pairwise_reference import reference_ipog
from synthetic_plans import synthetic_plan

from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import MAX_PRODUCT, STRATEGIES, Selection, select
from pytest_logicenv.logic.trajectories.pairwise import _ipog

DEFAULT_TASKS = Path(__file__).resolve().parents[1] / "example_agents" / "tasks"


def timed(plan: Plan, strategy: str, repeat: int) -> tuple[Selection, float]:
    times = []
    selection = select(plan, strategy)
    for _ in range(repeat):
        started = time.perf_counter()
        selection = select(plan, strategy)
        times.append((time.perf_counter() - started) * 1000)
    return selection, statistics.median(times)


def pairwise_scaling(repeat: int) -> None:
    """IPOG's rows at 10, 20 and 50 subtasks x 10 paths, against the pre-issue-26 version
    (``tests/pairwise_reference.py``) on the same counts in the same run: min/median/max ms,
    the ratio of medians, and how time grows with subtasks (log-log slope)."""
    import math

    medians = []
    for subtasks in (10, 20, 50):
        counts = [10] * subtasks
        ours, old = [], []
        for _ in range(max(1, repeat // 2)):
            for run, into in ((_ipog, ours), (reference_ipog, old)):
                started = time.perf_counter()
                rows = run(counts)
                into.append((time.perf_counter() - started) * 1000)
        assert _ipog(counts) == reference_ipog(counts)  # the same rows
        medians.append((subtasks, statistics.median(ours)))
        print(
            f"pairwise {subtasks}x10: {len(rows)} rows; ours {min(ours):.0f}/"
            f"{statistics.median(ours):.0f}/{max(ours):.0f} ms, reference {min(old):.0f}/"
            f"{statistics.median(old):.0f}/{max(old):.0f} ms (min/median/max, same rows), "
            f"{statistics.median(old) / statistics.median(ours):.1f}x"
        )
    (n0, t0), (n1, t1) = medians[0], medians[-1]
    print(f"pairwise: time grows as subtasks^{math.log(t1 / t0) / math.log(n1 / n0):.2f} (10-50)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py select")
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    plans: list[tuple[str, Plan]] = [
        (path.stem, load_plan(path)) for path in sorted(args.tasks.glob("*.json"))
    ]
    plans += [("synthetic 8x4", synthetic_plan(8, 4)), ("synthetic 20x10", synthetic_plan(20, 10))]
    results: dict[tuple[str, str], tuple[int, float]] = {}
    print(f"{'plan':<26}{'combinations':>24}" + "".join(f"{s:>22}" for s in STRATEGIES))
    for name, plan in plans:
        cells = []
        combinations = 0
        for strategy in STRATEGIES:
            combinations = select(plan, "minimal").combinations
            if strategy in ("greedy", "exhaustive") and combinations > MAX_PRODUCT:
                cells.append(f"{'skipped (product)':>22}")
                continue
            repeat = (
                1 if strategy in ("greedy", "exhaustive") and combinations > 10_000 else args.repeat
            )
            selection, ms = timed(plan, strategy, repeat)
            results[(name, strategy)] = (len(selection.trajectories), ms)
            cells.append(f"{len(selection.trajectories):>8} in {ms:>9.3f} ms")
        print(f"{name:<26}{combinations:>24,}" + "".join(cells))
    minimal_n, minimal_ms = results[("synthetic 8x4", "minimal")]
    greedy_n, greedy_ms = results[("synthetic 8x4", "greedy")]
    _, big_ms = results[("synthetic 20x10", "minimal")]
    print(
        f"8x4: minimal {minimal_n} trajectories, greedy {greedy_n}; "
        f"20x10 (10^20 combinations): minimal {big_ms:.3f} ms"
    )
    pairwise_scaling(args.repeat)
    print(
        f"select: minimal {minimal_ms:.3f} ms, greedy {greedy_ms:.1f} ms, "
        f"ratio {greedy_ms / minimal_ms:.0f}x (8x4)"
    )
    return 0
