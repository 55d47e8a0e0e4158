"""Keeping an endpoint's credentials out of everything we write or log.

A key may come as ``LOGICENV_LLM_API_KEY``, inside the base URL (``https://user:key@host/v1``)
or in its query (``?api_key=...``). :func:`url_secrets` finds the latter two, :func:`redact`
replaces every secret in a text with ``***``, and :func:`redact_logs` keeps them out of every
log record of the process, httpx's ``HTTP Request: POST https://user:key@...`` lines among
them, whichever logger or handler (pytest's log capture too) sees the record.

>>> url_secrets("https://alice:s3cret-pass@example.test/v1?api_key=sk-123456&v=2")
('alice', 's3cret-pass', 'sk-123456')
>>> redact("GET https://alice:s3cret-pass@example.test", ("alice", "s3cret-pass"))
'GET https://***:***@example.test'
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from urllib.parse import parse_qsl, urlsplit

#: Shorter values are not treated as secrets: masking every "v2" of a text helps no one.
MIN_SECRET_CHARS = 4
MASK = "***"

_SECRETS: set[str] = set()
_LOCK = threading.Lock()
_INSTALLED: list[bool] = []


def url_secrets(url: str) -> tuple[str, ...]:
    """The user name, password and query values of ``url`` long enough to be secrets."""
    parts = urlsplit(url)
    found = [parts.username or "", parts.password or ""]
    found += [value for _, value in parse_qsl(parts.query, keep_blank_values=False)]
    return tuple(value for value in found if len(value) >= MIN_SECRET_CHARS)


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret (longest first, so none is left half-masked) masked."""
    for secret in sorted(set(secrets), key=len, reverse=True):
        if secret:
            text = text.replace(secret, MASK)
    return text


def redact_logs(secrets: Sequence[str]) -> None:
    """Mask ``secrets`` in every log record created from now on in this process.

    A record factory rather than a filter: filters sit on one logger or one handler, and
    the HTTP libraries log through loggers of their own (``httpx``, ``httpcore.connection``,
    ``openai._base_client``, ...) into handlers we do not own."""
    with _LOCK:
        _SECRETS.update(s for s in secrets if len(s) >= MIN_SECRET_CHARS)
        if _INSTALLED:
            return
        previous = logging.getLogRecordFactory()

        def factory(*args: object, **kwargs: object) -> logging.LogRecord:
            record = previous(*args, **kwargs)
            try:
                text = record.getMessage()
            except Exception:  # a record whose arguments do not fit its message: as it is
                return record
            masked = redact(text, tuple(_SECRETS))
            if masked != text:
                record.msg, record.args = masked, ()
            return record

        logging.setLogRecordFactory(factory)
        _INSTALLED.append(True)
