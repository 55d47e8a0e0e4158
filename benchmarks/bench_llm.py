"""What the LLM path costs beyond the model itself, and how large its prompts are.

``python benchmarks/run.py llm [--repeat N]``

Against the tests' scripted OpenAI-compatible server on 127.0.0.1 (answers are instant, so
only client-side work and the local HTTP round trip remain), prints the median time of:

* a bare ``openai`` client ``chat.completions.create`` call (the baseline);
* ``OpenAILLM.complete`` for the same request (retry loop, raw body parsing, the exchange);
* a whole ``derive_plan`` (three steps: decomposition, factors, plan) against 3 baselines;
* reading and checking one plan answer (JSON, plan reader, checks), without HTTP;

and the size of each prompt as the plugin sends it (with the default catalog), in characters
and roughly in tokens (characters / 4): the planner's system prompt and its first message
(the task grounded in the world model), all request text of one derivation, and the scene
designer's system prompt and situation message.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
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
    base, ours = [], []
    for i in range(repeat):
        for which in (run, baseline) if i % 2 else (baseline, run):
            start = time.perf_counter()
            which()
            (ours if which is run else base).append((time.perf_counter() - start) * 1000)
    return base, ours


def spread(values: list[float], unit: str = "ms") -> str:
    return f"{min(values):.2f}/{statistics.median(values):.2f}/{max(values):.2f} {unit}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench llm")
    parser.add_argument("--repeat", type=int, default=30)
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

        llm = OpenAILLM(LLMConfig(server.base_url, MODEL))
        bases, ourses = paired_ratios(
            lambda: llm.complete(messages, purpose="bench"), bare_call, args.repeat
        )
        baseline = statistics.median(bases)
        ratios = [o / b for o, b in zip(ourses, bases, strict=True)]

        catalog = default_catalog()

        def derive() -> object:
            server.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
            return derive_plan(TASK, ["Kitchen"], llm, catalog=catalog)

        derivations = times_ms(derive, args.repeat)
        derivation_ms = statistics.median(derivations)
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
        f"min/median/max of {args.repeat} runs, local scripted server, all measured in this "
        "run; the client and the baseline in pairs, back to back"
    )
    print(f"bare openai create          {spread(bases)}  (baseline)")
    print(
        f"OpenAILLM.complete          {spread(ourses)}  (per pair {spread(ratios, 'x')} "
        "the baseline)"
    )
    print(
        f"derive_plan, 3 steps        {spread(derivations)}  "
        f"(median {derivation_ms / (3 * baseline):.2f}x three baselines' median)"
    )
    print(f"read + check one plan       {spread(checks)}")
    for what, size in sizes.items():
        print(f"{what:<27} {size:8d} chars  (~{size // 4} tokens)")
    print(f"sent by one derivation      {sent:8d} chars  (~{sent // 4} tokens, 3 requests)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
