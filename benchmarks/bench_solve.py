"""Layout speed: the decomposed Z3 layout against one monolithic Z3 model, same designs.

``python benchmarks/run.py solve [--seeds N] [--timeout S] [--sizes 10,20,40,60]`` lays out
synthetic designs (``synthetic``: realistic AI2-THOR sizes, about two relations
per piece of furniture, some conflicting) of each size in one room and across three rooms, with
both solvers, in this process, interleaved seed by seed. The monolithic baseline is
``solve_layout(decompose=False)``: every object, every pairwise no-collision constraint of a room
and every relation in one ``z3.Solver``, relaxed the same way; it gets ``--timeout`` seconds per
layout. A run that its budget cut short returns what it placed by then (or fails, when that is
not what the task needs); it counts as the seconds it took, and the medians and ratios are then
lower bounds, marked ``>=``. Beside the times, both solvers' objects placed and relations kept
and dropped (summed over the seeds), the checker's PhyPR on every output, and how far past its
budget a cut-short run returned. The last line is the 40-object one-room figure, with the
noise of both (min/median/max over the seeds), then, per size in one room, the relations
each kept (summed over the seeds) and where the decomposed layout keeps fewer than one model.
Every figure is measured in this run:

``solve: 40 objects X s median (min/median/max), monolithic Y s (...), ratio Rx, PhyPR P%;
relations kept in one room dec/mono: 10 a/b, ...; the decomposed layout keeps fewer than one
model at N objects`` (or: as many or more at every size)
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field

from synthetic import synthetic_spec

from pytest_logicenv.errors import LayoutTimeout
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.layout.relaxation import OUT_OF_TIME
from pytest_logicenv.scenes.physics import SceneCheck, check_scene, phypr
from pytest_logicenv.scenes.scene_model import Scene


@dataclass
class Runs:
    """The timings of one solver on one size, and the checks of its outputs."""

    seconds: list[float] = field(default_factory=list)
    timeouts: int = 0
    #: The most seconds a run cut short by its budget took past it (negative: before it).
    over: float = -float("inf")
    checks: list[SceneCheck] = field(default_factory=list)
    placed: int = 0
    asked: int = 0
    kept: int = 0
    dropped: int = 0

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def spread(self) -> str:
        return "/".join(f"{v:.3f}" for v in (min(self.seconds), self.median, max(self.seconds)))

    def median_text(self) -> str:
        return f"{'>=' if self.timeouts else ''}{self.median:.3f}"

    def relations_text(self) -> str:
        return f"{self.kept}/{self.dropped}"


def _cut_short(scene: Scene) -> bool:
    """Whether the layout's budget ran out before it finished (what it left out says so)."""
    return any(
        "budget" in d.reason or "in time" in d.reason for d in scene.provenance.dropped_objects
    ) or any(OUT_OF_TIME in r.reason for r in scene.provenance.dropped)


def _run(runs: Runs, spec: object, seed: int, decompose: bool, timeout_ms: int) -> None:
    began = time.perf_counter()
    runs.asked += len(spec.objects)  # type: ignore[attr-defined]
    try:
        scene = solve_layout(spec, seed=seed, decompose=decompose, timeout_ms=timeout_ms)  # type: ignore[arg-type]
    except LayoutTimeout:
        runs.seconds.append(time.perf_counter() - began)
        runs.timeouts += 1
        runs.over = max(runs.over, runs.seconds[-1] - timeout_ms / 1000)
        return
    runs.seconds.append(time.perf_counter() - began)
    if _cut_short(scene):
        runs.timeouts += 1
        runs.over = max(runs.over, runs.seconds[-1] - timeout_ms / 1000)
    check = check_scene(scene)
    runs.checks.append(check)
    for violation in check.violations[:3]:  # say what is wrong, should anything be
        print(f"  {scene.id} (decompose={decompose}, seed {seed}): {violation}")
    runs.placed += len(scene.objects)
    runs.kept += len(scene.provenance.kept)
    runs.dropped += len(scene.provenance.dropped)


def _row(
    size: int, rooms: int, decomposed: Runs, monolithic: Runs, seeds: int, timeout: float
) -> str:
    """One line of the table: times, objects placed, relations kept/dropped, PhyPR."""
    ratio = monolithic.median / decomposed.median
    bound = ">=" if monolithic.timeouts else ""
    placed = f"{decomposed.placed}/{monolithic.placed} of {decomposed.asked}"
    line = (
        f"{size:>7} {rooms:>5}  {decomposed.median_text():>12} "
        f"{monolithic.median_text():>12} {bound + f'{ratio:.1f}x':>7}  {placed:>15}  "
        f"{decomposed.relations_text():>16}  {monolithic.relations_text():>7}  "
        f"{phypr(decomposed.checks).overall:.0f}%/{phypr(monolithic.checks).overall:.0f}%"
    )
    if monolithic.timeouts:
        line += (
            f"  (monolithic out of time {monolithic.timeouts}/{seeds} at {timeout:g} s, "
            f"returned at most {monolithic.over:+.2f} s past it)"
        )
    return line


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
        f"  {'placed dec/mono':>15}  {'kept/dropped dec':>16}  {'mono':>7}  PhyPR dec/mono"
    )
    every: list[SceneCheck] = []
    headline: tuple[Runs, Runs] | None = None
    one_room: dict[int, tuple[Runs, Runs]] = {}
    for rooms in (1, 3):
        for size in sizes:
            decomposed, monolithic = Runs(), Runs()
            for seed in range(args.seeds):
                spec = synthetic_spec(size, rooms=rooms, seed=seed)
                _run(decomposed, spec, seed, True, 60_000)
                _run(monolithic, spec, seed, False, mono_timeout_ms)
            every += decomposed.checks + monolithic.checks
            print(_row(size, rooms, decomposed, monolithic, args.seeds, args.timeout))
            if rooms == 1:
                one_room[size] = decomposed, monolithic
            if size == 40 and rooms == 1:
                headline = decomposed, monolithic
    overall = phypr(every)
    print(overall)
    if headline is None:
        return 0
    decomposed, monolithic = headline
    bound = ">=" if monolithic.timeouts else ""
    kept = ", ".join(f"{n} {d.kept}/{m.kept}" for n, (d, m) in one_room.items())
    fewer = [str(n) for n, (d, m) in one_room.items() if d.kept < m.kept]
    print(
        f"solve: 40 objects {decomposed.median:.3f} s median ({decomposed.spread()}), "
        f"monolithic {bound}{monolithic.median:.3f} s ({monolithic.spread()}), ratio {bound}"
        f"{monolithic.median / decomposed.median:.1f}x, PhyPR {overall.overall:.0f}%; "
        f"relations kept in one room dec/mono: {kept}; "
        + (
            f"the decomposed layout keeps fewer than one model at {', '.join(fewer)} objects"
            if fewer
            else "the decomposed layout keeps as many as one model or more at every size"
        )
        + " (all measured in this run)"
    )
    return 0
