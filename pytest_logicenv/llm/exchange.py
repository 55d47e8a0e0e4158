"""What one request to an LLM was: its :class:`Message` s, every :class:`Attempt`, and the
answer, as an immutable :class:`Exchange` that the cache records as JSON (never an API key);
and the errors that carry exchanges (the ground floor, ``errors``, cannot name them).

>>> exchange = Exchange("demo", "local", "m", (Message("user", "Hi"),), {}, '{"ok": true}')
>>> exchange_from_json(exchange_to_json(exchange)) == exchange
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Literal

from pytest_logicenv.errors import LLMError, PlanError, Violation, listing

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


# --------------------------------------------------------------------------- errors


class LLMRequestError(LLMError):
    """An endpoint kept failing; ``attempts`` says how, attempt by attempt."""

    def __init__(self, message: str, attempts: tuple[Attempt, ...]) -> None:
        super().__init__(message)
        self.attempts = attempts


class PlanDerivationError(PlanError, LLMError):
    """The model's answers still broke the rules after the last round: both a plan error (the
    violations) and an LLM error (the model kept answering with something unusable).
    ``exchanges`` holds the conversation, to record and inspect; ``document`` the last plan
    the model answered with (a plan's JSON form, ``None`` when no answer got that far), for a
    person to fix by hand."""

    def __init__(
        self,
        source: str,
        violations: Sequence[Violation],
        exchanges: tuple[Exchange, ...],
        *,
        document: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(source, violations)
        self.exchanges = exchanges
        self.document = document


class SceneDesignError(LLMError):
    """The model's design still broke the rules after the last round; ``violations`` are
    those of its last answer, ``exchanges`` the conversation, to record and inspect."""

    def __init__(
        self, source: str, violations: Sequence[Violation], exchanges: tuple[Exchange, ...]
    ) -> None:
        self.violations = tuple(violations)
        self.exchanges = exchanges
        super().__init__(
            listing(source, self.violations)
            + "\nthe scene designer cannot use it: try again (another model may do better), "
            "or design the scenes procedurally (--logicenv-designer=procedural)"
        )


def now() -> str:
    """The current UTC time as an exchange records it."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
