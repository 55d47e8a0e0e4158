"""At most N model requests at a time, whatever the threads and processes that send them."""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from pytest_logicenv.errors import LLMError
from pytest_logicenv.llm.exchange import Message
from pytest_logicenv.llm.limits import BoundedLLM, Slots
from pytest_logicenv.llm.protocol import CallableLLM


def most_at_once(spans: Sequence[tuple[float, float]]) -> int:
    """The most spans open at one instant."""
    events = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    most = now = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


def hold(slots: Slots, spans: list[tuple[float, float]], lock: threading.Lock) -> None:
    with slots.held():
        start = time.monotonic()
        time.sleep(0.03)
        end = time.monotonic()
    with lock:
        spans.append((start, end))


@pytest.mark.parametrize("folder", [False, True], ids=["threads", "threads-and-files"])
def test_threads_share_the_slots(tmp_path: Path, folder: bool) -> None:
    slots = Slots(2, tmp_path / "slots" if folder else None)
    spans: list[tuple[float, float]] = []
    lock = threading.Lock()
    threads = [threading.Thread(target=hold, args=(slots, spans, lock)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(spans) == 6
    assert most_at_once(spans) == 2


def _process(folder: str, queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    slots = Slots(2, Path(folder))
    spans: list[tuple[float, float]] = []
    lock = threading.Lock()
    threads = [threading.Thread(target=hold, args=(slots, spans, lock)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    queue.put(spans)


def test_processes_share_the_slot_files(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    processes = [context.Process(target=_process, args=(str(tmp_path), queue)) for _ in range(3)]
    for process in processes:
        process.start()
    spans = [span for _ in processes for span in queue.get(timeout=60)]
    for process in processes:
        process.join(timeout=60)
    assert len(spans) == 9
    assert most_at_once(spans) <= 2


def test_a_bounded_llm_answers_as_its_model_and_the_bound_must_be_positive() -> None:
    llm = BoundedLLM(CallableLLM(lambda messages: '{"a": 1}', model="m"), 3)
    exchange = llm.complete([Message("user", "q")], purpose="p")
    assert (exchange.response, exchange.purpose, llm.model) == ('{"a": 1}', "p", "m")
    with pytest.raises(LLMError, match="the LLM concurrency must be at least 1, got 0"):
        Slots(0)
