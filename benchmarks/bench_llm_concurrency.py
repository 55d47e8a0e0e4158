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
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fake_llm import MODEL, FakeLLMServer
from window_answers import planner, task


def write_project(root: Path, tasks: int) -> None:
    (root / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    tests = ["import pytest", ""]
    for number in range(tasks):
        tests += [
            "",
            f"@pytest.mark.logic_env({task(str(number))!r}, rooms=['Bathroom'])",
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
    with (
        tempfile.TemporaryDirectory() as folder,
        FakeLLMServer(planner, latency_s=args.latency) as server,
    ):
        root = Path(folder)
        write_project(root, args.tasks)
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
