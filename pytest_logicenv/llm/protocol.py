"""What the pipeline needs of a language model (:class:`LLM`), and :class:`CallableLLM`, one
made of a plain function, for tests and other plugins.

The planner and the LLM scene designer ask an :class:`LLM` for text. Any object with a
``model`` name and ``complete(messages, *, purpose) -> Exchange`` will do;
:class:`~pytest_logicenv.llm.client.OpenAILLM` speaks to OpenAI-compatible servers.

>>> llm = CallableLLM(lambda messages: '{"ok": true}', model="canned")
>>> exchange = llm.complete([Message("user", "Answer in JSON.")], purpose="demo")
>>> exchange.response, exchange.model, len(exchange.attempts)
('{"ok": true}', 'canned', 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from pytest_logicenv.llm.exchange import Attempt, Exchange, Message, now


class LLM(Protocol):
    """What the pipeline needs of a language model."""

    @property
    def model(self) -> str:
        """Who answers, for the cache's "who made the plan" (e.g. ``deepseek-chat``)."""
        ...

    def complete(self, messages: Sequence[Message], *, purpose: str) -> Exchange:
        """Answer a chat; ``purpose`` (``plan.decompose``, ...) is recorded, not sent."""
        ...


class CallableLLM:
    """An :class:`LLM` made of a function from messages to answer text (other plugins, local
    models): it records exchanges like :class:`OpenAILLM` does."""

    def __init__(
        self, answer: Callable[[Sequence[Message]], str], *, model: str, endpoint: str = "local"
    ) -> None:
        self._answer = answer
        self._model = model
        self._endpoint = endpoint

    @property
    def model(self) -> str:
        return self._model

    def complete(self, messages: Sequence[Message], *, purpose: str) -> Exchange:
        started_at, start = now(), time.perf_counter()
        text = self._answer(tuple(messages))
        elapsed = round(time.perf_counter() - start, 6)
        return Exchange(
            purpose=purpose,
            endpoint=self._endpoint,
            model=self._model,
            messages=tuple(messages),
            parameters={},
            response=text,
            response_model=self._model,
            finish_reason="stop",
            started_at=started_at,
            elapsed_s=elapsed,
            attempts=(Attempt(1, "ok", elapsed),),
        )
