"""Layout speed: the decomposed Z3 layout against one monolithic Z3 model, same designs.

``python benchmarks/run.py solve [--seeds N] [--timeout S] [--sizes 10,20,40,60]`` lays out
synthetic designs (``synthetic``: realistic AI2-THOR sizes, about two relations
per piece of furniture, some conflicting) of each size in one room and across three rooms, with
both solvers, in this process, interleaved seed by seed. The monolithic baseline is
``solve_layout(decompose=False)``: every object, every pairwise no-collision constraint of a room
and every relation in one ``z3.Solver``, relaxed the same way; it gets ``--timeout`` seconds per
layout, and a timed-out run counts as that many seconds (the medians and ratios are then lower
bounds, marked ``>=``). The checker's PhyPR is computed on every output of both. The last line
is the 40-object one-room figure:

``solve: 40 objects X s median, monolithic Y s, ratio Rx, PhyPR P%``
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field

from synthetic import synthetic_spec

from pytest_logicenv.errors import LayoutTimeout
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.physics import SceneCheck, check_scene, phypr


@dataclass
class Runs:
    """The timings of one solver on one size, and the checks of its outputs."""

    seconds: list[float] = field(default_factory=list)
    timeouts: int = 0
    checks: list[SceneCheck] = field(default_factory=list)
    kept: int = 0
    dropped: int = 0

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def median_text(self) -> str:
        return f"{'>=' if self.timeouts else ''}{self.median:.3f}"


def _run(runs: Runs, spec: object, seed: int, decompose: bool, timeout_ms: int) -> None:
    began = time.perf_counter()
    try:
        scene = solve_layout(spec, seed=seed, decompose=decompose, timeout_ms=timeout_ms)  # type: ignore[arg-type]
    except LayoutTimeout:
        runs.seconds.append(timeout_ms / 1000)
        runs.timeouts += 1
        return
    runs.seconds.append(time.perf_counter() - began)
    check = check_scene(scene)
    runs.checks.append(check)
    for violation in check.violations[:3]:  # say what is wrong, should anything be
        print(f"  {scene.id} (decompose={decompose}, seed {seed}): {violation}")
    runs.kept += len(scene.provenance.kept)
    runs.dropped += len(scene.provenance.dropped)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/run.py solve")
    parser.add_argument("--seeds", type=int, default=7, help="designs per size (default 7)")
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds per monolithic layout (default 30)"
    )
    parser.add_argument(
        "--sizes", default="10,20,40,60", help="object counts (default 10,20,40,60)"
    )
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    mono_timeout_ms = int(args.timeout * 1000)

    solve_layout(synthetic_spec(10, seed=99), seed=99)  # load z3 and the asset sizes once
    print(
        f"{'objects':>7} {'rooms':>5}  {'decomposed s':>12} {'monolithic s':>12} {'ratio':>7}"
        f"  {'kept/dropped':>12}  PhyPR dec/mono"
    )
    every: list[SceneCheck] = []
    headline: tuple[Runs, Runs] | None = None
    for rooms in (1, 3):
        for size in sizes:
            decomposed, monolithic = Runs(), Runs()
            for seed in range(args.seeds):
                spec = synthetic_spec(size, rooms=rooms, seed=seed)
                _run(decomposed, spec, seed, True, 60_000)
                _run(monolithic, spec, seed, False, mono_timeout_ms)
            every += decomposed.checks + monolithic.checks
            ratio = monolithic.median / decomposed.median
            bound = ">=" if monolithic.timeouts else ""
            print(
                f"{size:>7} {rooms:>5}  {decomposed.median_text():>12} "
                f"{monolithic.median_text():>12} {bound + f'{ratio:.1f}x':>7}  "
                f"{decomposed.kept:>6}/{decomposed.dropped:<5}  "
                f"{phypr(decomposed.checks).overall:.0f}%/{phypr(monolithic.checks).overall:.0f}%"
                + (
                    f"  (monolithic timed out {monolithic.timeouts}/{args.seeds} at "
                    f"{args.timeout:g} s)"
                    if monolithic.timeouts
                    else ""
                )
            )
            if size == 40 and rooms == 1:
                headline = decomposed, monolithic
    overall = phypr(every)
    print(overall)
    if headline is None:
        return 0
    decomposed, monolithic = headline
    bound = ">=" if monolithic.timeouts else ""
    print(
        f"solve: 40 objects {decomposed.median:.3f} s median, monolithic "
        f"{bound}{monolithic.median:.3f} s, ratio {bound}"
        f"{monolithic.median / decomposed.median:.1f}x, PhyPR {overall.overall:.0f}%"
    )
    return 0
