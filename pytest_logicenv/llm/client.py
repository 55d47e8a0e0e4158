"""Talking to an LLM: configuration, a small protocol, and a robust OpenAI-compatible client.

The planner and the LLM scene designer ask an :class:`LLM` for text. Any object with a
``model`` name and ``complete(messages, *, purpose) -> Exchange`` will do, so tests and other
plugins can substitute their own; :class:`OpenAILLM` speaks the chat-completions API of any
OpenAI-compatible server (OpenAI, DeepSeek, vLLM, Ollama, llama.cpp) through the real ``openai``
client, using nothing vendor-specific.

Every call returns an immutable :class:`Exchange`: the request messages and parameters, the
response text, the model that answered, timing, and each attempt it took. The cache stores
exchanges as ``llm/<key>.json`` (:func:`exchange_to_json`). API keys never appear in an
exchange or an error message.

Importing this module is cheap: ``openai`` is imported on the first request.

>>> llm = CallableLLM(lambda messages: '{"ok": true}', model="canned")
>>> exchange = llm.complete([Message("user", "Answer in JSON.")], purpose="demo")
>>> exchange.response, exchange.model, len(exchange.attempts)
('{"ok": true}', 'canned', 1)
>>> exchange_from_json(exchange_to_json(exchange)) == exchange
True
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import math
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Literal, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

from pytest_logicenv.errors import AnswerError, LLMError, LLMRequestError, Rejected, Violation

#: Environment variables read by :meth:`LLMConfig.from_env`, first match wins.
BASE_URL_VARS = ("LOGICENV_LLM_BASE_URL", "OPENAI_BASE_URL")
MODEL_VARS = ("LOGICENV_LLM_MODEL",)
API_KEY_VARS = ("LOGICENV_LLM_API_KEY", "OPENAI_API_KEY")
TIMEOUT_VAR = "LOGICENV_LLM_TIMEOUT_S"
MAX_RETRIES_VAR = "LOGICENV_LLM_MAX_RETRIES"
#: Where a model name without a base URL is sent.
OPENAI_BASE_URL = "https://api.openai.com/v1"
#: How to configure an endpoint, appended to every "not configured" message.
CONFIGURE_HINT = (
    "set LOGICENV_LLM_BASE_URL (e.g. http://localhost:11434/v1 for Ollama, "
    "http://localhost:8000/v1 for vLLM) and LOGICENV_LLM_MODEL, plus LOGICENV_LLM_API_KEY "
    "if the server needs a key"
)

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class Message:
    """One chat message."""

    role: Role
    content: str

    def to_json(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


@dataclass(frozen=True)
class Attempt:
    """One HTTP attempt of an exchange: ``outcome`` is ``ok`` or what went wrong
    (``timeout``, ``connection``, ``http 429``, ``bad body``, ...); ``waited_s`` is the pause
    taken after it before the next attempt."""

    number: int
    outcome: str
    elapsed_s: float
    waited_s: float = 0.0
    detail: str = ""


@dataclass(frozen=True)
class Exchange:
    """One request to an LLM and its answer, as the cache records it (never an API key).

    ``model`` is the model asked for, ``response_model`` the one the server says answered;
    ``parameters`` are the request parameters actually sent (temperature, seed,
    response_format, ...); ``attempts`` lists every try, the last one successful.
    """

    purpose: str
    endpoint: str
    model: str
    messages: tuple[Message, ...]
    parameters: Mapping[str, Any]
    response: str
    response_model: str = ""
    finish_reason: str | None = None
    usage: Mapping[str, int] = field(default_factory=dict)
    started_at: str = ""
    elapsed_s: float = 0.0
    attempts: tuple[Attempt, ...] = ()

    @property
    def key(self) -> str:
        """A stable name for the request (not the answer): 16 hex digits of its SHA-256."""
        request = {
            "endpoint": self.endpoint,
            "model": self.model,
            "messages": [m.to_json() for m in self.messages],
            "parameters": dict(self.parameters),
        }
        digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode("utf-8"))
        return digest.hexdigest()[:16]

    @property
    def truncated(self) -> bool:
        """Whether the server stopped because the answer hit its length limit."""
        return self.finish_reason == "length"


class LLM(Protocol):
    """What the pipeline needs of a language model."""

    @property
    def model(self) -> str:
        """Who answers, for the cache's "who made the plan" (e.g. ``deepseek-chat``)."""
        ...

    def complete(self, messages: Sequence[Message], *, purpose: str) -> Exchange:
        """Answer a chat; ``purpose`` (``plan.decompose``, ...) is recorded, not sent."""
        ...


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class LLMConfig:
    """How to reach an OpenAI-compatible endpoint, and how patiently.

    ``max_retries`` bounds the retries of transient failures (timeouts, connection errors,
    429, 5xx, malformed bodies); a 429's ``Retry-After`` is honoured up to ``max_wait_s``,
    other retries back off from ``backoff_s``, doubling. ``seed`` and ``json_mode``
    (``response_format={"type": "json_object"}``) are sent until the server rejects them.

    >>> config = LLMConfig("http://localhost:8000/v1", "qwen2.5", api_key="sk-secret")
    >>> "sk-secret" in repr(config)
    False
    """

    base_url: str
    model: str
    api_key: str = field(default="", repr=False)
    timeout_s: float = 180.0
    max_retries: int = 2
    temperature: float = 0.0
    seed: int | None = 0
    json_mode: bool = True
    max_tokens: int | None = None
    backoff_s: float = 1.0
    max_wait_s: float = 60.0

    def __post_init__(self) -> None:
        problems = []
        if urlsplit(self.base_url).scheme not in ("http", "https"):
            problems.append(
                f"base URL {self.base_url!r} must start with http:// or https:// "
                "(check LOGICENV_LLM_BASE_URL)"
            )
        if not self.model.strip():
            problems.append("the model name is empty (set LOGICENV_LLM_MODEL)")
        if not self.timeout_s > 0:
            problems.append(f"timeout_s must be positive, got {self.timeout_s}")
        if self.max_retries < 0:
            problems.append(f"max_retries must be 0 or more, got {self.max_retries}")
        if problems:
            raise LLMError("invalid LLM configuration: " + "; ".join(problems))

    @property
    def endpoint(self) -> str:
        """The base URL without credentials or query, safe to record and print."""
        return public_url(self.base_url)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, defaults: Mapping[str, str] | None = None
    ) -> LLMConfig | None:
        """The configuration in the environment, or ``None`` when no endpoint is configured.

        An endpoint is configured by a base URL (``LOGICENV_LLM_BASE_URL`` or
        ``OPENAI_BASE_URL``) or a model (``LOGICENV_LLM_MODEL``, then OpenAI's own URL is
        used); an API key alone does not opt in to calling a paid service. ``defaults`` give
        variables the environment leaves unset or empty (the plugin's ini options).

        >>> LLMConfig.from_env({}) is None
        True
        >>> config = LLMConfig.from_env({"LOGICENV_LLM_BASE_URL": "http://127.0.0.1:8080/v1",
        ...                              "LOGICENV_LLM_MODEL": "llama"})
        >>> config.endpoint, config.model, config.api_key
        ('http://127.0.0.1:8080/v1', 'llama', '')
        """
        env = {
            **(defaults or {}),
            **{k: v for k, v in (os.environ if environ is None else environ).items() if v},
        }
        base_url = _first(env, BASE_URL_VARS)
        model = _first(env, MODEL_VARS)
        if base_url is None and model is None:
            return None
        if model is None:
            raise LLMError(
                f"an LLM endpoint is configured ({public_url(base_url or '')}) but no model: "
                "set LOGICENV_LLM_MODEL to the model name the server serves"
            )
        return cls(
            base_url=base_url or OPENAI_BASE_URL,
            model=model,
            api_key=_first(env, API_KEY_VARS) or "",
            timeout_s=_number(env, TIMEOUT_VAR, float, cls.timeout_s),
            max_retries=_number(env, MAX_RETRIES_VAR, int, cls.max_retries),
        )


def _first(env: Mapping[str, str], names: Sequence[str]) -> str | None:
    for name in names:
        value = env.get(name, "").strip()
        if value:
            return value
    return None


def _number(env: Mapping[str, str], name: str, kind: type[float] | type[int], default: Any) -> Any:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        return kind(text)
    except ValueError:
        raise LLMError(f"{name}={text!r} is not a number; unset it or give one") from None


def public_url(url: str) -> str:
    """``url`` without user info, query or fragment: fit to record and print.

    >>> public_url("https://user:secret@example.test/v1?key=abc")
    'https://example.test/v1'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def llm_from_env(
    environ: Mapping[str, str] | None = None, defaults: Mapping[str, str] | None = None
) -> OpenAILLM | None:
    """An :class:`OpenAILLM` for the configured endpoint, or ``None`` when there is none."""
    config = LLMConfig.from_env(environ, defaults)
    return None if config is None else OpenAILLM(config)


# --------------------------------------------------------------------------- exchanges as JSON

#: Version of the JSON form of an exchange.
EXCHANGE_FORMAT = "logicenv-llm-exchange/1"


def exchange_to_json(exchange: Exchange) -> dict[str, Any]:
    """The JSON form the cache writes to ``llm/<key>.json``."""
    return {
        "format": EXCHANGE_FORMAT,
        "key": exchange.key,
        "purpose": exchange.purpose,
        "endpoint": exchange.endpoint,
        "model": exchange.model,
        "parameters": dict(exchange.parameters),
        "messages": [m.to_json() for m in exchange.messages],
        "response": exchange.response,
        "response_model": exchange.response_model,
        "finish_reason": exchange.finish_reason,
        "usage": dict(exchange.usage),
        "started_at": exchange.started_at,
        "elapsed_s": exchange.elapsed_s,
        "attempts": [
            {
                "number": a.number,
                "outcome": a.outcome,
                "elapsed_s": a.elapsed_s,
                "waited_s": a.waited_s,
                "detail": a.detail,
            }
            for a in exchange.attempts
        ],
    }


def exchange_from_json(data: Any, source: str = "exchange") -> Exchange:
    """Read :func:`exchange_to_json`'s form back; a malformed document is an :class:`LLMError`."""
    try:
        if data["format"] != EXCHANGE_FORMAT:
            raise ValueError(f"format {data['format']!r}, expected {EXCHANGE_FORMAT!r}")
        return Exchange(
            purpose=str(data["purpose"]),
            endpoint=str(data["endpoint"]),
            model=str(data["model"]),
            messages=tuple(Message(m["role"], str(m["content"])) for m in data["messages"]),
            parameters=dict(data["parameters"]),
            response=str(data["response"]),
            response_model=str(data["response_model"]),
            finish_reason=data["finish_reason"],
            usage={str(k): int(v) for k, v in data["usage"].items()},
            started_at=str(data["started_at"]),
            elapsed_s=float(data["elapsed_s"]),
            attempts=tuple(
                Attempt(
                    int(a["number"]),
                    str(a["outcome"]),
                    float(a["elapsed_s"]),
                    float(a["waited_s"]),
                    str(a["detail"]),
                )
                for a in data["attempts"]
            ),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise LLMError(
            f"{source}: not a recorded LLM exchange ({error!s}); delete it to record it again"
        ) from None


# --------------------------------------------------------------------------- substitutes


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
        started_at, start = _now(), time.perf_counter()
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


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


# --------------------------------------------------------------------------- the real client

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
        started_at, start = _now(), time.perf_counter()
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

            self._client = openai.OpenAI(
                base_url=self.config.base_url,
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
        try:
            raw = client.chat.completions.with_raw_response.create(
                model=self.config.model, messages=[m.to_json() for m in messages], **params
            )
            body = raw.text
        except openai.APITimeoutError:
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
        key = self.config.api_key
        return text.replace(key, "***") if key else text

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


# --------------------------------------------------------------------------- reading answers


_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)


def parse_json_answer(text: str) -> dict[str, Any]:
    """The JSON object in a model's answer, tolerating code fences, prose around it and the
    reasoning blocks some models emit. The text is only ever parsed as JSON, never evaluated.

    >>> parse_json_answer('Sure! Here it is:\\n```json\\n{"a": [1, 2]}\\n```\\nAnything else?')
    {'a': [1, 2]}
    >>> parse_json_answer('{"a": [1, 2')
    Traceback (most recent call last):
    ...
    pytest_logicenv.errors.AnswerError: the JSON ends before it is complete (cut off?): ...
    """
    text = _THINKING.sub("", text).strip()
    if not text:
        raise AnswerError("the answer is empty; answer with one JSON object")
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    first_error: json.JSONDecodeError | None = None
    for candidate in candidates:
        # Only from the first brace: a later one may open an inner object of a broken answer.
        start = candidate.find("{")
        if start == -1:
            continue
        try:
            value, _ = decoder.raw_decode(candidate, start)
        except json.JSONDecodeError as error:
            first_error = first_error or error
            continue
        if isinstance(value, dict):
            return value
    if first_error is None:
        raise AnswerError("the answer holds no JSON object; answer with one JSON object only")
    if _unclosed(first_error.doc[first_error.doc.find("{") :]):
        raise AnswerError(f"the JSON ends before it is complete (cut off?): {first_error.msg}")
    where = f"line {first_error.lineno} column {first_error.colno}"
    raise AnswerError(f"the answer is not valid JSON: {first_error.msg} at {where}")


def _unclosed(text: str) -> bool:
    """Whether JSON text ends inside a string or with brackets still open: cut off."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
    return in_string or depth > 0


# --------------------------------------------------------------------------- refinement

T = TypeVar("T")


#: Makes the error of a step still wrong after the last round from ``(what, violations of
#: the last answer, every exchange so far)``.
Failure = Callable[[str, Sequence[Violation], tuple[Exchange, ...]], LLMError]


class Conversation:
    """A chat in steps, each answered with one JSON object (the planner's three, the scene
    designer's one): rule-guided iterative refinement. ``read`` turns an answer into a value
    or raises :class:`Rejected`; the violations go back to the model, which answers again, up
    to ``max_rounds`` answers per step; then ``fail`` makes the error. A step's accepted answer
    stays in the history; a rejected one only until the model's next answer, so the context
    does not grow with each round.

    >>> answers = iter(['{"n": -1}', '{"n": 2}'])
    >>> talk = Conversation(CallableLLM(lambda m: next(answers), model="m"), "Count.", 3,
    ...                     lambda what, violations, exchanges: LLMError(what))
    >>> def positive(data):
    ...     if data["n"] < 1:
    ...         raise Rejected([Violation("range", "n", "must be positive")])
    ...     return data["n"]
    >>> talk.step("count", "How many?", positive), len(talk.rejected), len(talk.exchanges)
    (2, 1, 2)
    """

    def __init__(self, llm: LLM, system: str, max_rounds: int, fail: Failure) -> None:
        self.llm = llm
        self.history: list[Message] = [Message("system", system)]
        self.max_rounds = max_rounds
        self.fail = fail
        self.exchanges: list[Exchange] = []
        self.rejected: list[tuple[Violation, ...]] = []  # of the current step

    def step(self, purpose: str, prompt: str, read: Callable[[dict[str, Any]], T]) -> T:
        self.rejected = []
        asked = [Message("user", prompt)]
        for round_number in range(1, self.max_rounds + 1):
            label = purpose if round_number == 1 else f"{purpose}#{round_number}"
            exchange = self.llm.complete([*self.history, *asked], purpose=label)
            self.exchanges.append(exchange)
            try:
                value = read(parse_json_answer(exchange.response))
            except AnswerError as error:
                violations: tuple[Violation, ...] = (Violation("syntax", "answer", error.reason),)
            except Rejected as rejection:
                violations = rejection.violations
            else:
                self.history += [asked[0], Message("assistant", exchange.response)]
                return value
            self.rejected.append(violations)
            asked = [
                asked[0],
                Message("assistant", exchange.response),
                Message("user", feedback(violations, truncated=exchange.truncated)),
            ]
        raise self.fail(
            f"{purpose}: the answer of model {self.llm.model!r} after {self.max_rounds} "
            f"round{'s' if self.max_rounds != 1 else ''}",
            self.rejected[-1],
            tuple(self.exchanges),
        )


def feedback(violations: Sequence[Violation], *, truncated: bool = False) -> str:
    """The message that sends rule violations back to the model.

    >>> print(feedback([Violation("grounding", "subtasks[0](toy).tree", "add a branch")]))
    Your answer has 1 problem:
    - [grounding] subtasks[0](toy).tree: add a branch
    Correct every problem and answer again with the complete JSON object only.
    """
    count = len(violations)
    lines = [f"Your answer has {count} problem{'s' if count != 1 else ''}:"]
    lines += [f"- {violation}" for violation in violations]
    if truncated:
        lines.append(
            "Your answer was cut off at the server's length limit: be more concise (short "
            "texts, no keys beyond the format)."
        )
    lines.append("Correct every problem and answer again with the complete JSON object only.")
    return "\n".join(lines)
