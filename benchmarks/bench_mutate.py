"""The mutation score of the example agents' environments, and what a mutant costs.

``python benchmarks/run.py mutate`` makes the mutants of every example task's correct policy
(py_trees, and the BehaviorTree.CPP twin where there is one), runs each in the situations the
plugin's default selection picks, prints one line per policy with its score, the score per
operator and per fault class, and the baseline (the policy itself over its scenes), then last
``mutate: M mutants over P policies, score S%, T ms per mutant`` (T: making the mutants and
running each over all its scenes, per mutant).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pytest_logicenv.mutation import MutationReport, mutants_of, run_mutants, score_policy
from pytest_logicenv.report.mutation import shares


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "example_agents"))
    from example_tasks import TASKS, flavours, plan, situations

    scores = []
    mutating = baseline = 0.0
    runs = 0
    for task in TASKS:
        scenes = situations(task)
        for flavour, policies in flavours(task).items():
            correct = policies["correct"]
            started = time.perf_counter()
            originals = {s.id: s.run(correct).kind for s in scenes}
            baseline += time.perf_counter() - started
            runs += 1
            started = time.perf_counter()
            mutants = mutants_of(correct, plan(task))
            found = [(s.id, run_mutants(mutants, originals[s.id], s.run)) for s in scenes]
            mutating += time.perf_counter() - started
            score = score_policy(task, flavour, found)
            scores.append(score)
            print(
                f"{task:24} {flavour:9} {score.total:3} mutants  {score.killed:3} killed  "
                f"{score.score or 0:5.1f}%  over {len(scenes)} scenes"
            )
    report = MutationReport(tuple(scores))
    print(f"by operator: {shares(report.by_operator)}")
    print(f"by fault class: {shares(report.by_fault)}")
    print(f"baseline: the correct policy itself, {1000 * baseline / runs:.2f} ms over its scenes")
    print(
        f"mutate: {report.total} mutants over {len(scores)} policies, score "
        f"{report.score or 0:.1f}%, {1000 * mutating / max(report.total, 1):.2f} ms per mutant"
    )
    return 0
