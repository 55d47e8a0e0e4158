"""Selection strategies side by side: trajectories chosen and time per strategy.

``python benchmarks/run.py select [--tasks DIR] [--repeat N] [--reference-max SUBTASKS]``

Runs every strategy on the plans in the tasks directory (the paper's form) and on synthetic
plans of 8 subtasks x 4 paths and 20 subtasks x 10 paths, and prints the median time of
``repeat`` runs. A table then times ``pairwise`` at 25 to 200 subtasks x 10 paths against
the IPOG of before issue 26 on the same counts, with the fitted exponent of each. The last
line compares ``minimal`` with the paper's ``greedy`` (Algorithm 1) at 8x4. Strategies that
would enumerate more than ``MAX_PRODUCT`` combinations are skipped and say so.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from pairwise_reference import reference_ipog
from synthetic_plans import synthetic_plan

from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import MAX_PRODUCT, STRATEGIES, Selection, select
from pytest_logicenv.logic.trajectories.ipog import ipog

DEFAULT_TASKS = Path(__file__).resolve().parents[1] / "example_agents" / "tasks"


def timed(plan: Plan, strategy: str, repeat: int) -> tuple[Selection, float]:
    times = []
    selection = select(plan, strategy)
    for _ in range(repeat):
        started = time.perf_counter()
        selection = select(plan, strategy)
        times.append((time.perf_counter() - started) * 1000)
    return selection, statistics.median(times)


#: Subtasks of 10 paths each in the pairwise scaling table.
SCALING_SIZES = (25, 50, 100, 200)


def _times(run: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return times


def _spread(times: list[float]) -> str:
    return f"{min(times):.0f}/{statistics.median(times):.0f}/{max(times):.0f}"


def _exponent(medians: list[tuple[int, float]]) -> float:
    """The least-squares slope of log time against log subtasks."""
    xs = [math.log(n) for n, _ in medians]
    ys = [math.log(t) for _, t in medians]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def pairwise_scaling(repeat: int, reference_max: int) -> int:
    """``select(plan, "pairwise")`` at 25 to 200 subtasks x 10 paths against the IPOG of
    before issue 26 (``tests/pairwise_reference.py``) on the same counts, in the same run:
    min/median/max ms, whether the rows are the same, and the fitted exponent of each."""
    print(f"{'pairwise':<16}{'rows':>6}{'ms ours min/med/max':>22}{'reference':>22}{'ratio':>8}")
    ours_medians, old_medians, differ = [], [], 0
    for subtasks in SCALING_SIZES:
        plan, counts = synthetic_plan(subtasks, 10), [10] * subtasks
        ours = _times(lambda plan=plan: select(plan, "pairwise"), repeat)
        ours_medians.append((subtasks, statistics.median(ours)))
        rows = ipog(counts)
        cells = f"{subtasks:>4} x 10      {len(rows):>6}{_spread(ours):>22}"
        if subtasks > reference_max:
            print(f"{cells}{'not run':>22}  (--reference-max {reference_max})")
            continue
        old = _times(lambda counts=counts: reference_ipog(counts), max(1, repeat // 2))
        old_medians.append((subtasks, statistics.median(old)))
        same = rows == reference_ipog(counts)
        differ += not same
        ratio = statistics.median(old) / statistics.median(ours)
        print(f"{cells}{_spread(old):>22}{ratio:>7.1f}x" + ("" if same else "  ROWS DIFFER"))
    low, high = SCALING_SIZES[0], SCALING_SIZES[-1]
    print(
        f"pairwise: time grows as subtasks^{_exponent(ours_medians):.2f} ({low}-{high}, medians, "
        f"measured in this run); the reference as subtasks^{_exponent(old_medians):.2f} "
        f"({low}-{old_medians[-1][0]}); rows as subtasks^"
        f"{_exponent([(n, len(ipog([10] * n))) for n in SCALING_SIZES]):.2f}; "
        + ("the same rows at every size compared" if not differ else f"{differ} size(s) differ")
    )
    return differ


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py select")
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--reference-max", type=int, default=100, help="largest size the reference runs at"
    )
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
    differ = pairwise_scaling(args.repeat, args.reference_max)
    print(
        f"select: minimal {minimal_ms:.3f} ms, greedy {greedy_ms:.1f} ms, "
        f"ratio {greedy_ms / minimal_ms:.0f}x (8x4)"
    )
    return 1 if differ else 0
