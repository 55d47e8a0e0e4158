"""The LLM scene designer's own cost: prompts, answer reading and the designer's checks.

``python benchmarks/run.py llm_design`` asks a canned model (no latency: what is measured is
ours, not the model's) to design the first situation of the planner's worked example, once
with a good first answer and once with a wrong answer sent back before the good one. The
baseline is the procedural design of the same situation, measured in the same run.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Iterator

from pytest_logicenv.llm.protocol import CallableLLM
from pytest_logicenv.llm.scene_designer import EXAMPLE_ANSWER, design_with_llm, example_situation
from pytest_logicenv.scenes.design import design_scene

REPEATS = 20
WRONG = {**EXAMPLE_ANSWER, "objects": [*EXAMPLE_ANSWER["objects"], {"name": "x", "type": "Rug"}]}


def _median_ms(run: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def _canned(*answers: dict[str, object]) -> Callable[[], CallableLLM]:
    def make() -> CallableLLM:
        replies: Iterator[dict[str, object]] = iter(answers)
        return CallableLLM(lambda messages: json.dumps(next(replies)), model="canned")

    return make


def main(argv: list[str]) -> int:
    plan, trajectory, _ = example_situation()  # warms the catalog and the example
    procedural = _median_ms(lambda: design_scene(plan, trajectory, seed=0))
    one = _canned(EXAMPLE_ANSWER)
    two = _canned(WRONG, EXAMPLE_ANSWER)
    first = _median_ms(lambda: design_with_llm(plan, trajectory, one()))
    refined = _median_ms(lambda: design_with_llm(plan, trajectory, two()))
    print(
        f"llm_design: {first:.1f} ms per design (1 round), {refined:.1f} ms (2 rounds), "
        f"procedural design {procedural:.1f} ms, ratio {first / procedural:.1f}x "
        "(model time excluded)"
    )
    return 0
