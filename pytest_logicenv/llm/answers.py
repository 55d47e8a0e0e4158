"""Reading a model's answer: the one JSON object in it, whatever the model wrapped it in."""

from __future__ import annotations

import json
import re
from typing import Any

from pytest_logicenv.errors import AnswerError

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
