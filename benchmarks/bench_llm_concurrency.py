"""Twelve uncached tasks generated one at a time, then concurrently.

``python benchmarks/run.py llm_concurrency [--tasks N] [--latency S] [--concurrency C]``

A pytest project of twelve marked tests, each a task no cache holds (a window to close and a
light to switch off, in twelve wordings), runs against the tests' scripted OpenAI-compatible
server on 127.0.0.1, which answers every request after a fixed latency (1 s: a model's
answer, not ours). Each task's plan takes three requests. The project runs twice, each time
with an empty cache: with ``--logicenv-llm-concurrency 1`` (the baseline: one task after the
other, as before) and with ``--logicenv-llm-concurrency C``. The last line prints both wall
times, the whole pytest run each, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fake_llm import MODEL, FakeLLMServer, Reply, Request, answer

PLAN = json.loads(
    (Path(__file__).resolve().parents[1] / "tests" / "data" / "window_light_plan.json").read_text()
)
DECOMPOSITION = {
    "subtasks": [
        {"name": "window", "covers": "close the window if open"},
        {"name": "light", "covers": "switch the light off if on"},
    ]
}
FACTORS = {
    "subtasks": [
        {
            "name": subtask["name"],
            "factors": [
                {k: v for k, v in factor.items() if k != "realization"}
                for factor in subtask["factors"]
            ],
        }
        for subtask in PLAN["subtasks"]
    ]
}
STEP3 = {k: v for k, v in PLAN.items() if k not in ("task", "rooms")}


def respond(latency: float) -> object:
    def reply(request: Request) -> Reply:
        steps = [m["content"] for m in request.messages if m.get("role") == "user"]
        current = steps[-1] if steps else ""
        if current.startswith("Task:"):
            body: dict[str, object] = DECOMPOSITION
        elif current.startswith("Step 2"):
            body = FACTORS
        else:
            body = STEP3
        found = answer(body)
        return Reply(found.status, found.body, found.headers, found.content_type, latency)

    return reply


def write_project(root: Path, tasks: int) -> None:
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    tests = ["import pytest", ""]
    for number in range(tasks):
        tests += [
            "",
            f'@pytest.mark.logic_env("In bathroom {number}: close the window if it is open, '
            f'and switch the light off if it is on.", rooms=["Bathroom"])',
            f"def test_task_{number}(logic_env):",
            "    assert logic_env.scene.rooms",
            "",
        ]
    (root / "test_tasks.py").write_text("\n".join(tests))


def run(root: Path, base_url: str, concurrency: int) -> float:
    shutil.rmtree(root / "cache", ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env.update({"LOGICENV_LLM_BASE_URL": base_url, "LOGICENV_LLM_MODEL": MODEL})
    started = time.perf_counter()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            f"--logicenv-llm-concurrency={concurrency}",
            "--logicenv-report=",
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        print(result.stdout[-3000:], result.stderr[-3000:])
        raise SystemExit(f"the project failed with concurrency {concurrency}")
    return elapsed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench llm_concurrency")
    parser.add_argument("--tasks", type=int, default=12)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--concurrency", type=int, default=12)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, FakeLLMServer() as server:
        root = Path(folder)
        write_project(root, args.tasks)
        server.respond_with(respond(args.latency))  # type: ignore[arg-type]
        sequential = run(root, server.base_url, 1)
        requests = len(server.requests)
        concurrent = run(root, server.base_url, args.concurrency)
    print(
        f"{requests} requests per run, {args.latency:g} s each; concurrency "
        f"{args.concurrency} against 1"
    )
    print(
        f"llm_concurrency: {args.tasks} tasks sequential {sequential:.1f} s, concurrent "
        f"{concurrent:.1f} s, ratio {sequential / concurrent:.1f}x"
    )
    return 0
