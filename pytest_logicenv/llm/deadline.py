"""A deadline for a whole LLM request, not for the gap between two bytes.

The HTTP client's timeouts bound each connect, write and read; a server that sends a byte
every second keeps a request with a 2 s timeout alive for as long as it likes. asyncio can
cancel a request whole, so each request runs as a coroutine under ``asyncio.wait_for`` on an
event loop of its own, in a daemon thread: the caller stays synchronous, works inside another
event loop too, and the connection pool of the async client is reused between requests.

>>> async def answer() -> str:
...     return "hello"
>>> DeadlineLoop().run(answer, 1.0)
'hello'
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


class DeadlineLoop:
    """Runs coroutines one at a time, each within a deadline, on a private event loop."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def run(self, request: Callable[[], Awaitable[T]], timeout_s: float) -> T:
        """``await request()`` within ``timeout_s`` seconds in all; past it, the request is
        cancelled and :class:`TimeoutError` raised."""
        loop = self._started()

        async def bounded() -> T:
            return await asyncio.wait_for(request(), timeout_s)

        try:
            return asyncio.run_coroutine_threadsafe(bounded(), loop).result()
        except asyncio.TimeoutError:  # a distinct class before Python 3.11
            raise TimeoutError(f"no complete answer within {timeout_s:g} s") from None

    def _started(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(
                    target=_serve, args=(loop,), name="logicenv-llm", daemon=True
                ).start()
                weakref.finalize(self, loop.call_soon_threadsafe, loop.stop)
                self._loop = loop
            return self._loop


def _serve(loop: asyncio.AbstractEventLoop) -> None:
    """Run ``loop`` until its owner is finalized, then close it in its own thread: a loop
    left open is closed by the garbage collector, which warns from whatever runs then."""
    try:
        loop.run_forever()
    finally:
        loop.close()
