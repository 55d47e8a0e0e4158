"""The witness search over every committed example scene.

``python benchmarks/run.py witness [--ms MS] [--steps N]``

For each scene of the committed cache (``cache/``), :func:`~pytest_logicenv.witness.find_witness`
searches a sequence of the simulator's actions that makes its situation's goal facts true and
replays it as a policy. The baseline, measured in the same process, is that replay alone (one
policy run of the witness through the simulator's judge): the search costs so many runs. Only
one engine, the best-first search on the simulator itself, is measured: a planning library
would need the actions written a second time as PDDL (``docs/explanation/witness.md``).
The last line: ``witness: median X ms, worst Y ms, N/M solved``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from committed_scenes import committed_scenes

from pytest_logicenv.witness import Budget, find_witness, replay


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="run.py witness")
    parser.add_argument("--ms", type=float, default=Budget().max_ms, help="time budget per scene")
    parser.add_argument("--steps", type=int, default=Budget().max_steps, help="step budget")
    args = parser.parse_args(argv)
    budget = Budget(args.steps, args.ms)
    times, replays, solved, total = [], [], 0, 0
    for item in committed_scenes():
        total += 1
        began = time.perf_counter()
        result = find_witness(item.scene, item.trajectory, budget)
        times.append((time.perf_counter() - began) * 1000)
        if result.solved:
            solved += 1
            began = time.perf_counter()
            replay(item.scene, result, item.trajectory.goal)
            replays.append((time.perf_counter() - began) * 1000)
        print(
            f"{times[-1]:9.1f} ms  {result.verdict:10} {result.states:6} states "
            f"{len(result.calls):3} calls  {item.name}"
        )
    replay_ms = statistics.median(replays) if replays else float("nan")
    print(f"baseline: replaying a witness (one policy run), median {replay_ms:.2f} ms")
    print(f"search / replay: median {statistics.median(times) / replay_ms:.0f}x")
    print(
        f"witness: median {statistics.median(times):.0f} ms, worst {max(times):.0f} ms, "
        f"{solved}/{total} solved"
    )
    return 0
