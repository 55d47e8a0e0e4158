"""Design speed and size: every trajectory of the example plans, five seeds each.

``python benchmarks/run.py design`` prints one line per plan and, last, the totals, each as
min/median/max over its designs, all measured in this run. No ratio is printed: nothing else
here does the same work (the catalog load it needs once per process is shown beside it, as a
figure of its own, not as a baseline).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from pytest_logicenv.logic.plan import load_plan
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.design import design_scene

PLANS = Path(__file__).resolve().parents[1] / "example_agents" / "plans"
SEEDS = range(5)


def main(argv: list[str]) -> int:
    start = time.perf_counter()
    default_catalog()
    load_ms = (time.perf_counter() - start) * 1000
    times: list[float] = []
    for path in sorted(PLANS.glob("*.json")):
        plan = load_plan(path)
        plan_times, objects, relations = [], [], []
        for trajectory in select(plan, "exhaustive").trajectories:
            for seed in SEEDS:
                began = time.perf_counter()
                spec = design_scene(plan, trajectory, seed=seed)
                plan_times.append((time.perf_counter() - began) * 1000)
                objects.append(len(spec.objects))
                relations.append(len(spec.relations))
        times += plan_times
        median = statistics.median(plan_times)
        print(
            f"{path.stem:24} {len(plan_times):3} designs  min/median/max "
            f"{min(plan_times):.1f}/{median:.1f}/{max(plan_times):.1f} ms"
            f"  objects {min(objects)}-{max(objects)}  relations {min(relations)}-{max(relations)}"
        )
    median = statistics.median(times)
    print(
        f"design: {len(times)} designs, min/median/max {min(times):.1f}/{median:.1f}/"
        f"{max(times):.1f} ms; catalog load {load_ms:.0f} ms once per process, apart "
        "(all measured in this run; no baseline does the same work)"
    )
    return 0
