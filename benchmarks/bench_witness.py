"""The witness search over every committed example scene.

``python benchmarks/run.py witness [--ms MS] [--steps N] [--repeat N]``

For each scene of the committed cache (``cache/``), :func:`~pytest_logicenv.witness.find_witness`
searches a sequence of the simulator's actions that makes its situation's goal facts true and
replays it as a policy. The baseline, measured in the same process, is that replay alone (one
policy run of the witness through the simulator's judge): the search costs so many runs. Wall
times (the last line) are printed with the CPU times the budget counts, which a machine shared
by other runs does not inflate. Each scene is searched ``--repeat`` times (its median is
printed); the ``noise:`` line gives each repeat's median and worst scene as min/median/max.

Only one engine, the best-first search on the simulator itself, is measured: a planning
library needs a PDDL domain, and one generated from the rules table would carry only the rules
that are data. The benchmark measures that share (``engine:`` line); what is code would have to
be written a second time by hand (``docs/explanation/witness.md``).
The last line: ``witness: median X ms, worst Y ms, N/M solved``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from committed_scenes import committed_scenes

from pytest_logicenv.sim.actions import ACTIONS
from pytest_logicenv.witness import Budget, find_witness, replay

#: Requirement kinds a STRIPS domain states as they are: a static fact or a fluent.
AS_FACTS = frozenset({"property", "state", "held", "accepts"})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="run.py witness")
    parser.add_argument("--ms", type=float, default=Budget().max_ms, help="time budget per scene")
    parser.add_argument("--steps", type=int, default=Budget().max_steps, help="step budget")
    parser.add_argument("--repeat", type=int, default=3, help="searches of each scene")
    args = parser.parse_args(argv)
    budget = Budget(args.steps, args.ms)
    items = list(committed_scenes())
    # wall[r][i], cpu[r][i]: repeat r, scene i.
    wall: list[list[float]] = []
    cpu: list[list[float]] = []
    replays: list[float] = []
    results = []
    for repeat in range(max(1, args.repeat)):
        wall.append([])
        cpu.append([])
        for item in items:
            began, began_cpu = time.perf_counter(), time.process_time()
            result = find_witness(item.scene, item.trajectory, budget)
            wall[-1].append((time.perf_counter() - began) * 1000)
            cpu[-1].append((time.process_time() - began_cpu) * 1000)
            if repeat == 0:
                results.append(result)
                if result.solved:
                    began = time.perf_counter()
                    replay(item.scene, result, item.trajectory.goal)
                    replays.append((time.perf_counter() - began) * 1000)
    times = [statistics.median(run[i] for run in wall) for i in range(len(items))]
    cpus = [statistics.median(run[i] for run in cpu) for i in range(len(items))]
    for item, result, ms in zip(items, results, times, strict=True):
        print(
            f"{ms:9.1f} ms  {result.verdict:10} {result.states:6} states "
            f"{len(result.calls):3} calls  {item.name}"
        )
    solved = sum(result.solved for result in results)
    print(engine_line())
    print(f"noise: {noise(wall, 'wall')}; {noise(cpu, 'CPU')} (over {len(wall)} repeats)")
    print(f"cpu: median {statistics.median(cpus):.0f} ms, worst {max(cpus):.0f} ms")
    replay_ms = statistics.median(replays) if replays else float("nan")
    print(f"baseline: replaying a witness (one policy run), median {replay_ms:.2f} ms")
    print(f"search / replay: median {statistics.median(times) / replay_ms:.0f}x")
    print(
        f"witness: median {statistics.median(times):.0f} ms, worst {max(times):.0f} ms, "
        f"{solved}/{len(items)} solved"
    )
    return 0


def noise(runs: list[list[float]], clock: str) -> str:
    """The median and the worst scene of each repeat, as min/median/max over repeats."""
    medians = [statistics.median(run) for run in runs]
    worsts = [max(run) for run in runs]

    def spread(values: list[float]) -> str:
        return f"{min(values):.0f}/{statistics.median(values):.0f}/{max(values):.0f}"

    return f"{clock} median {spread(medians)} ms, worst {spread(worsts)} ms"


def engine_line() -> str:
    """How much of the rules table a generated PDDL domain could carry: the preconditions
    whose requirement is a fact (data), those that name their kind only (room by volume,
    water over a basin: the measure is code), those that are code alone, and the effects
    made of declared changes."""
    kinds: Counter[str] = Counter()
    code: Counter[str] = Counter()
    for spec in ACTIONS.values():
        for rule in spec.preconditions:
            needs = rule.requires
            kind = "data" if needs and needs.kind in AS_FACTS else "named" if needs else "code"
            kinds[kind] += 1
            if kind == "code":
                code[rule.code] += 1
    made_of_changes = sum(
        1 for spec in ACTIONS.values() if spec.effect.__qualname__.startswith("_applied.")
    )
    rules = sum(kinds.values())
    listing = ", ".join(f"{name} x{count}" for name, count in code.most_common())
    return (
        f"engine: a PDDL domain generated from the rules table would carry {kinds['data']} of "
        f"{rules} preconditions as facts, {kinds['named']} by name only (room, water), "
        f"{kinds['code']} not at all ({listing}); {made_of_changes} of {len(ACTIONS)} effects "
        "are declared changes, and the physics' conditions are code: only the best-first "
        "search is measured"
    )
