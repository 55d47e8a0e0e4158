"""How to reach an OpenAI-compatible endpoint: :class:`LLMConfig`, read from the environment
(or the plugin's ini options) by :meth:`LLMConfig.from_env`."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pytest_logicenv.errors import LLMError
from pytest_logicenv.llm.redaction import url_secrets

#: Environment variables read by :meth:`LLMConfig.from_env`, first match wins.
BASE_URL_VARS = ("LOGICENV_LLM_BASE_URL", "OPENAI_BASE_URL")
MODEL_VARS = ("LOGICENV_LLM_MODEL",)
API_KEY_VARS = ("LOGICENV_LLM_API_KEY", "OPENAI_API_KEY")
TIMEOUT_VAR = "LOGICENV_LLM_TIMEOUT_S"
MAX_RETRIES_VAR = "LOGICENV_LLM_MAX_RETRIES"
#: The plugin's ini options for the endpoint and the variable each stands in for (a variable
#: that is set wins): read by the plugin and by ``logicenv`` commands alike (:func:`ini_defaults`).
INI_VARS = (
    ("logicenv_llm_base_url", "LOGICENV_LLM_BASE_URL"),
    ("logicenv_llm_model", "LOGICENV_LLM_MODEL"),
)
#: Where a model name without a base URL is sent.
OPENAI_BASE_URL = "https://api.openai.com/v1"
#: How to configure an endpoint, appended to every "not configured" message.
CONFIGURE_HINT = (
    "set LOGICENV_LLM_BASE_URL (e.g. http://localhost:11434/v1 for Ollama, "
    "http://localhost:8000/v1 for vLLM) and LOGICENV_LLM_MODEL, plus LOGICENV_LLM_API_KEY "
    "if the server needs a key (or the logicenv_llm_base_url and logicenv_llm_model options "
    "of the pytest configuration)"
)


def ini_defaults(read: Callable[[str], object]) -> dict[str, str]:
    """The endpoint variables the ini options give (``defaults`` of
    :meth:`LLMConfig.from_env`); ``read(name)`` is an option's value, empty or ``None`` when
    unset (``config.getini`` under pytest, the configuration file for ``logicenv``).

    >>> ini_defaults({"logicenv_llm_model": "qwen"}.get)
    {'LOGICENV_LLM_MODEL': 'qwen'}
    """
    found = {variable: str(read(option) or "").strip() for option, variable in INI_VARS}
    return {variable: value for variable, value in found.items() if value}


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
            shown = self.base_url.split("@")[-1].split("?")[0]  # never echo credentials
            problems.append(
                f"base URL {shown!r} must start with http:// or https:// "
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

    @property
    def secrets(self) -> tuple[str, ...]:
        """What must never be written or logged: the API key and the base URL's user name,
        password and query values (``?api_key=...``)."""
        return tuple(s for s in (self.api_key, *url_secrets(self.base_url)) if s)

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
