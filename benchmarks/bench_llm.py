"""What the LLM path costs beyond the model itself, and how large its prompts are.

``python benchmarks/run.py llm [--repeat N]``

Against the tests' scripted OpenAI-compatible server on 127.0.0.1 (answers are instant, so
only client-side work and the local HTTP round trip remain), prints min/median/max of:

* ``OpenAILLM.complete`` (retry loop, raw body parsing, the exchange) against a bare
  ``openai`` client ``chat.completions.create`` of the same request (the baseline);
* a whole ``derive_plan`` (three steps: decomposition, factors, plan) against three bare
  calls;
* reading and checking one plan answer (JSON, plan reader, checks), without HTTP;

Each is timed in pairs with its baseline, and the pairs are repeated in rounds until the
median ratio's 95% interval excludes 1.00x and is narrow, or the rounds run out: then the
line says *inconclusive*, since the baseline's own run-to-run noise (printed) is larger than
the gap. Also printed: the size of each prompt as the plugin sends it (with the default
catalog), in characters and roughly in tokens (characters / 4): the planner's system
prompt and its first message (the task grounded in the world model), all request text of
one derivation, and the scene designer's system prompt and situation message.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

from fake_llm import MODEL, FakeLLMServer, answer, planner_script  # noqa: E402
from plan_answers import DECOMPOSITION, FACTORS, GOOD_PLAN, TASK, TYPES  # noqa: E402

from pytest_logicenv.llm import design_prompts  # noqa: E402
from pytest_logicenv.llm.answers import parse_json_answer  # noqa: E402
from pytest_logicenv.llm.client import OpenAILLM  # noqa: E402
from pytest_logicenv.llm.config import LLMConfig  # noqa: E402
from pytest_logicenv.llm.exchange import Message  # noqa: E402
from pytest_logicenv.llm.planner import (  # noqa: E402
    decomposition_prompt,
    derive_plan,
    system_prompt,
)
from pytest_logicenv.logic.plan import PLAN_FORMAT, plan_from_json  # noqa: E402
from pytest_logicenv.logic.rules import check_plan  # noqa: E402
from pytest_logicenv.scenes.catalog import default_catalog  # noqa: E402


def times_ms(run: Callable[[], object], repeat: int) -> list[float]:
    run()  # warm up (imports, connection)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return times


def paired_ratios(
    run: Callable[[], object], baseline: Callable[[], object], repeat: int
) -> tuple[list[float], list[float]]:
    """Times (ms) of ``baseline`` and ``run``, measured in pairs back to back (the order
    alternating), so that a slow moment of the machine falls on both of a pair."""
    run(), baseline()  # warm up
    base: list[float] = []
    ours: list[float] = []
    for i in range(repeat):
        for which in (run, baseline) if i % 2 else (baseline, run):
            start = time.perf_counter()
            which()
            (ours if which is run else base).append((time.perf_counter() - start) * 1000)
    return base, ours


def median_interval(values: list[float]) -> tuple[float, float]:
    """A distribution-free 95% interval for the median: the order statistics around it
    (ranks n/2 -/+ 0.98 sqrt(n)), so no assumption about the machine's noise is made."""
    ordered = sorted(values)
    n = len(ordered)
    half = 0.98 * math.sqrt(n)
    low, high = max(0, math.floor(n / 2 - half)), min(n - 1, math.ceil(n / 2 + half))
    return ordered[low], ordered[high]


@dataclass(frozen=True)
class Settled:
    """Paired times of a run and its baseline, repeated until their ratio is settled."""

    base: list[float]
    ours: list[float]
    rounds: int

    @property
    def ratios(self) -> list[float]:
        return [o / b for o, b in zip(self.ours, self.base, strict=True)]

    @property
    def baseline_noise(self) -> list[float]:
        """The baseline against itself, pair by pair (its next run over this one): the
        ratio a run would show if it cost exactly what the baseline does."""
        return [b / a for a, b in itertools.pairwise(self.base)]

    def verdict(self) -> str:
        low, high = median_interval(self.ratios)
        ratio = f"median {statistics.median(self.ratios):.2f}x, 95% {low:.2f}-{high:.2f}x"
        if low > 1 or high < 1:
            return f"{ratio}: settled after {len(self.ratios)} pairs"
        return (
            f"{ratio}: inconclusive after {len(self.ratios)} pairs (the interval holds 1.00x: "
            "the difference is within the baseline's noise)"
        )


def settle(
    run: Callable[[], object], baseline: Callable[[], object], repeat: int, rounds: int
) -> Settled:
    """Rounds of ``repeat`` pairs until the median ratio's interval leaves 1.0 and is
    narrower than a tenth of it, or ``rounds`` rounds have run."""
    base: list[float] = []
    ours: list[float] = []
    for done in range(1, rounds + 1):
        more_base, more_ours = paired_ratios(run, baseline, repeat)
        base += more_base
        ours += more_ours
        settled = Settled(base, ours, done)
        low, high = median_interval(settled.ratios)
        if (low > 1 or high < 1) and high - low < 0.1 * statistics.median(settled.ratios):
            break
    return settled


def spread(values: list[float], unit: str = "ms") -> str:
    return f"{min(values):.2f}/{statistics.median(values):.2f}/{max(values):.2f} {unit}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench llm")
    parser.add_argument("--repeat", type=int, default=30, help="pairs per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds at most, until settled")
    args = parser.parse_args(argv)

    import openai

    plan_text = json.dumps(GOOD_PLAN)
    messages = [Message("system", system_prompt(sorted(TYPES))), Message("user", "Step 1")]
    with FakeLLMServer(planner_script(DECOMPOSITION, FACTORS, [])) as server:
        server.respond_with(lambda request: answer(plan_text))
        bare = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)

        payload: Any = [m.to_json() for m in messages]

        def bare_call() -> object:
            return bare.chat.completions.create(model=MODEL, messages=payload, temperature=0)

        def three_bare_calls() -> object:
            server.respond_with(lambda request: answer(plan_text))
            return [bare_call() for _ in range(3)]

        llm = OpenAILLM(LLMConfig(server.base_url, MODEL))
        complete = settle(
            lambda: llm.complete(messages, purpose="bench"), bare_call, args.repeat, args.rounds
        )

        catalog = default_catalog()

        def derive() -> object:
            server.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
            return derive_plan(TASK, ["Kitchen"], llm, catalog=catalog)

        derivation = settle(derive, three_bare_calls, args.repeat, args.rounds)
        derive()
        requests = server.requests[-3:]

    def read_and_check() -> object:
        data = {**parse_json_answer(plan_text), "format": PLAN_FORMAT, "task": TASK}
        return check_plan(plan_from_json(data), known_types=TYPES, require_facts=True)

    checks = times_ms(read_and_check, args.repeat)
    sent = sum(len(m["content"]) for r in requests for m in r.messages)
    sizes = {
        "plan system prompt": len(system_prompt(sorted(catalog.types))),
        "plan first message": len(decomposition_prompt(TASK, ["Kitchen"], catalog)),
        "designer system prompt": len(design_prompts.system_prompt(catalog)),
        "designer situation": len(design_prompts.example_situation()[2]),
    }

    print(
        "min/median/max, local scripted server, all measured in this run; each run and its "
        "baseline in pairs, back to back, in rounds of "
        f"{args.repeat} pairs until the median ratio's 95% interval leaves 1.00x and is "
        f"within a tenth of it (at most {args.rounds} rounds)"
    )
    for name, settled, baseline in (
        ("OpenAILLM.complete", complete, "bare openai create"),
        ("derive_plan, 3 steps", derivation, "3 bare openai creates"),
    ):
        print(f"{baseline:<27} {spread(settled.base)}  (baseline)")
        print(f"{'  its own noise':<27} {spread(settled.baseline_noise, 'x')} run to run")
        print(f"{name:<27} {spread(settled.ours)}  per pair {spread(settled.ratios, 'x')}")
        print(f"{'  against the baseline':<27} {settled.verdict()}")
    print(f"read + check one plan       {spread(checks)}")
    for what, size in sizes.items():
        print(f"{what:<27} {size:8d} chars  (~{size // 4} tokens)")
    print(f"sent by one derivation      {sent:8d} chars  (~{sent // 4} tokens, 3 requests)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
