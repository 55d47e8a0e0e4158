"""At most N requests to the model at a time, across threads and processes.

Tasks are generated concurrently (``--logicenv-llm-concurrency N``), by threads of one pytest
process and by the processes of ``pytest -n``; the endpoint should see at most N requests at
once whatever the split. :class:`BoundedLLM` wraps an :class:`~pytest_logicenv.llm.protocol.LLM`
so that each request holds one of N *slots* while it is sent: an in-process semaphore, and,
when a ``folder`` is given, one of N lock files there that the processes share (the cache's
folder). A slot is held only while one request is in flight, never while a task's cache lock
is awaited, so slots and task locks cannot wait on each other.

>>> from pytest_logicenv.llm.exchange import Message
>>> from pytest_logicenv.llm.protocol import CallableLLM
>>> llm = BoundedLLM(CallableLLM(lambda messages: "{}", model="m"), 2)
>>> llm.model, llm.complete([Message("user", "hi")], purpose="demo").response
('m', '{}')
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from pytest_logicenv.errors import LLMError
from pytest_logicenv.llm.exchange import Exchange, Message
from pytest_logicenv.llm.protocol import LLM

#: How long a process waits between looks for a free slot file.
POLL_S = 0.02


class Slots:
    """N slots: a semaphore for this process's threads, and N lock files in ``folder`` (if
    given) for every process that uses the same folder."""

    def __init__(self, count: int, folder: Path | None = None) -> None:
        if count < 1:
            raise LLMError(f"the LLM concurrency must be at least 1, got {count}")
        self.count = count
        self.folder = folder
        self._local = threading.BoundedSemaphore(count)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold one slot while the block runs."""
        with self._local:
            if self.folder is None:
                yield
                return
            with self._file_slot():
                yield

    @contextmanager
    def _file_slot(self) -> Iterator[None]:
        from filelock import FileLock, Timeout

        assert self.folder is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        while True:
            for number in range(self.count):
                # A new lock object each time: one per thread, so threads exclude each other.
                lock = FileLock(str(self.folder / f"slot-{number}.lock"), thread_local=False)
                try:
                    lock.acquire(timeout=0)
                except Timeout:
                    continue
                try:
                    yield
                finally:
                    lock.release()
                return
            time.sleep(POLL_S)


class BoundedLLM:
    """An :class:`LLM` whose requests each hold one of the ``slots`` (a count, or
    :class:`Slots` shared with other wrappers)."""

    def __init__(self, llm: LLM, slots: int | Slots, folder: Path | None = None) -> None:
        self.llm = llm
        self.slots = slots if isinstance(slots, Slots) else Slots(slots, folder)

    @property
    def model(self) -> str:
        return self.llm.model

    def complete(self, messages: Sequence[Message], *, purpose: str) -> Exchange:
        with self.slots.held():
            return self.llm.complete(messages, purpose=purpose)

    def __repr__(self) -> str:
        return f"BoundedLLM({self.llm!r}, {self.slots.count} at a time)"
