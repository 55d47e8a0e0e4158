"""A robust client for any OpenAI-compatible ``/chat/completions`` endpoint (OpenAI, DeepSeek,
vLLM, Ollama, llama.cpp), through the real ``openai`` client, using nothing vendor-specific.

Every call returns an immutable :class:`~pytest_logicenv.llm.exchange.Exchange`: the request
messages and parameters, the response text, the model that answered, timing, and each attempt
it took. Credentials (the API key, and a user, password or query values in the base URL) never
appear in an exchange, an error message or a log line (:mod:`~pytest_logicenv.llm.redaction`).
The timeout bounds each attempt whole, however slowly a server sends its answer
(:mod:`~pytest_logicenv.llm.deadline`).

Importing this module is cheap: ``openai`` is imported on the first request.
"""

from __future__ import annotations

import email.utils
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from pytest_logicenv.errors import LLMError
from pytest_logicenv.llm.config import CONFIGURE_HINT, TIMEOUT_VAR, LLMConfig
from pytest_logicenv.llm.deadline import DeadlineLoop
from pytest_logicenv.llm.exchange import Attempt, Exchange, LLMRequestError, Message, now
from pytest_logicenv.llm.redaction import redact, redact_logs

# Request parameters we can do without, in the order they are given up on an unclear 400.
_OPTIONAL = ("response_format", "seed", "temperature")
# HTTP statuses worth another try: request timeout, conflict, rate limit, server errors.
_TRANSIENT = frozenset({408, 409, 429})


@dataclass(frozen=True)
class _Failure:
    """What one failed attempt means for the next: retry (after ``wait_s`` if given), drop an
    optional request parameter and resend, or give up with ``message``."""

    outcome: str
    detail: str
    retry: bool = False
    wait_s: float | None = None
    drop: str | None = None
    message: str = ""


class OpenAILLM:
    """An :class:`LLM` on any OpenAI-compatible ``/chat/completions`` endpoint.

    Retries are ours, not the client's (``max_retries=0`` there), so that every attempt is
    recorded and a server asking for a long ``Retry-After`` gets a clear error instead of a
    silent minutes-long wait. ``sleep`` is injectable for tests.
    """

    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.config = config
        self._sleep = sleep
        self._client: Any = None
        self._deadline = DeadlineLoop()
        self._secrets = config.secrets
        redact_logs(self._secrets)  # httpx logs each request's URL, credentials included
        # Optional parameters the server rejected with a 400; not sent again by this instance.
        self._unsupported: set[str] = set()

    @property
    def model(self) -> str:
        return self.config.model

    def __repr__(self) -> str:
        return f"OpenAILLM(model={self.config.model!r}, endpoint={self.config.endpoint!r})"

    def parameters(self) -> dict[str, Any]:
        """The request parameters the next request sends (optional ones until rejected)."""
        config = self.config
        params: dict[str, Any] = {}
        if "temperature" not in self._unsupported:
            params["temperature"] = config.temperature
        if config.seed is not None and "seed" not in self._unsupported:
            params["seed"] = config.seed
        if config.json_mode and "response_format" not in self._unsupported:
            params["response_format"] = {"type": "json_object"}
        if config.max_tokens is not None:
            params["max_tokens"] = config.max_tokens
        return params

    def complete(self, messages: Sequence[Message], *, purpose: str) -> Exchange:
        messages = tuple(messages)
        started_at, start = now(), time.perf_counter()
        attempts: list[Attempt] = []
        retries_left = self.config.max_retries
        while True:
            params = self.parameters()
            attempt_start = time.perf_counter()
            outcome = self._attempt(messages, params)
            elapsed = round(time.perf_counter() - attempt_start, 6)
            number = len(attempts) + 1
            if not isinstance(outcome, _Failure):
                attempts.append(Attempt(number, "ok", elapsed))
                text, response_model, finish_reason, usage = outcome
                return Exchange(
                    purpose=purpose,
                    endpoint=self.config.endpoint,
                    model=self.config.model,
                    messages=messages,
                    parameters=params,
                    response=self._redact(text),
                    response_model=response_model,
                    finish_reason=finish_reason,
                    usage=usage,
                    started_at=started_at,
                    elapsed_s=round(time.perf_counter() - start, 6),
                    attempts=tuple(attempts),
                )
            failure = replace(outcome, detail=self._redact(outcome.detail))
            if failure.drop is not None and failure.drop not in self._unsupported:
                # A server that rejects an optional feature: resend without it (not a retry).
                self._unsupported.add(failure.drop)
                attempts.append(Attempt(number, failure.outcome, elapsed, 0.0, failure.detail))
                continue
            if not failure.retry or retries_left == 0:
                attempts.append(Attempt(number, failure.outcome, elapsed, 0.0, failure.detail))
                raise self._error(failure, attempts, purpose)
            used = self.config.max_retries - retries_left
            wait = failure.wait_s
            if wait is None:
                wait = min(self.config.backoff_s * 2**used, 8 * self.config.backoff_s)
            attempts.append(Attempt(number, failure.outcome, elapsed, wait, failure.detail))
            retries_left -= 1
            if wait > 0:
                self._sleep(wait)

    # -- one attempt

    def _openai(self) -> Any:
        if self._client is None:
            import openai  # heavy; only when a request is made

            # A query in the base URL (?api_key=...) goes with every request; left in the
            # URL, the client would append the path after it.
            parts = urlsplit(self.config.base_url)
            self._client = openai.AsyncOpenAI(
                base_url=urlunsplit((*parts[:3], "", "")),
                default_query=dict(parse_qsl(parts.query)) or None,
                # The client insists on a key; local servers ignore it.
                api_key=self.config.api_key or "not-needed",
                timeout=self.config.timeout_s,
                max_retries=0,
            )
        return self._client

    def _attempt(
        self, messages: tuple[Message, ...], params: Mapping[str, Any]
    ) -> tuple[str, str, str | None, dict[str, int]] | _Failure:
        import openai

        client = self._openai()

        async def request() -> str:
            raw = await client.chat.completions.with_raw_response.create(
                model=self.config.model, messages=[m.to_json() for m in messages], **params
            )
            return str(raw.text)

        try:
            body = self._deadline.run(request, self.config.timeout_s)
        except (openai.APITimeoutError, TimeoutError):
            return _Failure(
                "timeout",
                f"no answer within {self.config.timeout_s:g} s",
                retry=True,
                message=f"the server did not answer within {self.config.timeout_s:g} s; "
                f"raise {TIMEOUT_VAR} for a slow model, or check the server's load",
            )
        except openai.APIConnectionError as error:
            cause = error.__cause__ or error
            return _Failure(
                "connection",
                f"{type(cause).__name__}: {cause}",
                retry=True,
                message="the connection failed (refused, reset, or closed without an answer); "
                f"check that the server is running at that address, or {CONFIGURE_HINT}",
            )
        except openai.APIStatusError as error:
            return self._status_failure(error.status_code, error.response.headers, error.body)
        return _read_completion(body)

    def _status_failure(self, status: int, headers: Mapping[str, str], body: object) -> _Failure:
        detail = f"HTTP {status}: {_error_text(body)}"
        outcome = f"http {status}"
        if status in (400, 422):
            # Servers without JSON mode or seeds (older vLLM, llama.cpp, some proxies) and
            # models with a fixed temperature reject the parameter: resend without it.
            text = detail.lower()
            sent = [name for name in _OPTIONAL if name in self.parameters()]
            named = [name for name in sent if name in text or name.replace("_", " ") in text]
            if named or "response_format" in sent:
                return _Failure(
                    outcome,
                    detail,
                    drop=(named or ["response_format"])[0],
                    message="the server rejected the request as malformed",
                )
            return _Failure(outcome, detail, message="the server rejected the request as malformed")
        if status in (401, 403):
            return _Failure(
                outcome,
                detail,
                message="the server refused the API key; set LOGICENV_LLM_API_KEY "
                "(or OPENAI_API_KEY) to a key it accepts",
            )
        if status == 404:
            return _Failure(
                outcome,
                detail,
                message=f"the server does not know the model {self.config.model!r} or the "
                "path; check LOGICENV_LLM_MODEL, and that LOGICENV_LLM_BASE_URL ends where "
                "/chat/completions follows (usually .../v1)",
            )
        if status == 429:
            wait = retry_after_seconds(headers)
            if wait is not None and wait > self.config.max_wait_s:
                return _Failure(
                    outcome,
                    detail,
                    message=f"rate limited: the server asks to wait {wait:.0f} s, more than "
                    f"{self.config.max_wait_s:.0f} s; try again later",
                )
            return _Failure(
                outcome,
                detail,
                retry=True,
                wait_s=wait,
                message="rate limited on every attempt; try again later or lower the load",
            )
        if status in _TRANSIENT or status >= 500:
            return _Failure(
                outcome, detail, retry=True, message="the server failed on every attempt"
            )
        return _Failure(outcome, detail, message="the server refused the request")

    # -- errors

    def _redact(self, text: str) -> str:
        return redact(text, self._secrets)

    def _error(self, failure: _Failure, attempts: Sequence[Attempt], purpose: str) -> LLMError:
        count = len(attempts)
        tries = f"{count} attempt{'s' if count != 1 else ''}"
        lines = [
            f"LLM request failed ({purpose}): model {self.config.model!r} at "
            f"{self.config.endpoint}, {tries}",
            f"  {failure.message}",
            *(f"  attempt {a.number}: {a.outcome}: {a.detail}" for a in attempts),
        ]
        return LLMRequestError("\n".join(lines), tuple(attempts))


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """The pause a response asks for: ``retry-after-ms``, ``retry-after`` in seconds or as
    an HTTP date; ``None`` when absent or unreadable.

    >>> retry_after_seconds({"retry-after": "2"}), retry_after_seconds({"retry-after-ms": "250"})
    (2.0, 0.25)
    """
    lowered = {k.lower(): v for k, v in headers.items()}
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = lowered.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / scale
        except ValueError:
            continue
        return max(seconds, 0.0) if math.isfinite(seconds) else None
    date = lowered.get("retry-after")
    if date is None:
        return None
    try:
        when = email.utils.parsedate_to_datetime(date)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max((when - datetime.now(timezone.utc)).total_seconds(), 0.0)


def _error_text(body: object) -> str:
    """The message of an OpenAI-style error body (``{"error": {"message": ...}}``), shortened."""
    if isinstance(body, Mapping):
        inner = body.get("error", body)
        body = inner.get("message", inner) if isinstance(inner, Mapping) else inner
    text = body if isinstance(body, str) else json.dumps(body)
    return text if len(text) <= 300 else text[:300] + "..."


def _read_completion(body: str) -> tuple[str, str, str | None, dict[str, int]] | _Failure:
    """The answer text, model, finish reason and usage of a chat completion body."""
    try:
        data = json.loads(body)
        choice = data["choices"][0]
        content = choice["message"]["content"]
        if not isinstance(content, str):
            raise TypeError(f"message content is {type(content).__name__}, not text")
    except (ValueError, KeyError, IndexError, TypeError) as error:
        snippet = body[:120] + ("..." if len(body) > 120 else "")
        return _Failure(
            "bad body",
            f"{type(error).__name__}: {error}; body: {snippet!r}",
            retry=True,
            message="the server's answers are not chat completions; is this an "
            "OpenAI-compatible endpoint?",
        )
    usage = data.get("usage") or {}
    return (
        content,
        str(data.get("model") or ""),
        choice.get("finish_reason"),
        {k: v for k, v in usage.items() if isinstance(v, int)} if isinstance(usage, dict) else {},
    )


def llm_from_env(
    environ: Mapping[str, str] | None = None, defaults: Mapping[str, str] | None = None
) -> OpenAILLM | None:
    """An :class:`OpenAILLM` for the configured endpoint, or ``None`` when there is none."""
    config = LLMConfig.from_env(environ, defaults)
    return None if config is None else OpenAILLM(config)
