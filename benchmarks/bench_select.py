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

from synthetic_plans import synthetic_plan

from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import MAX_PRODUCT, STRATEGIES, Selection, select

DEFAULT_TASKS = Path(__file__).resolve().parents[1] / "example_agents" / "tasks"


def timed(plan: Plan, strategy: str, repeat: int) -> tuple[Selection, float]:
    times = []
    selection = select(plan, strategy)
    for _ in range(repeat):
        started = time.perf_counter()
        selection = select(plan, strategy)
        times.append((time.perf_counter() - started) * 1000)
    return selection, statistics.median(times)


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
    print(
        f"select: minimal {minimal_ms:.3f} ms, greedy {greedy_ms:.1f} ms, "
        f"ratio {greedy_ms / minimal_ms:.0f}x (8x4)"
    )
    return 0
