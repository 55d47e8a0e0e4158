"""Reading JSON a user (or a hand edit) gave us, within bounds, and echoing values cut short.

Plans, scenes and cache files are small; a file far past :data:`MAX_JSON_CHARS` or nested
past :data:`MAX_JSON_DEPTH` is a mistake (or an attack), refused with a clear error instead of
gigabytes of memory or a ``RecursionError`` deep in a reader. The readers that recurse over
the data (facts, trees) stay within Python's stack because the depth was checked first. A
value quoted in an error message is cut to :data:`ECHO_CHARS` characters (:func:`shown`), so
that a 50 MB string is not repeated back.

>>> shown("x" * 100)[-20:]
'xxxxx... (102 chars)'
>>> json_depth({"a": [1, {"b": []}]})
4
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Largest JSON file read (characters): the example plans are 10 KB, scenes 30 KB.
MAX_JSON_CHARS = 8_000_000
#: Deepest nesting of objects and lists: a plan's tree takes two levels per decision.
MAX_JSON_DEPTH = 100
#: How much of a value an error message repeats.
ECHO_CHARS = 60


def shown(value: object) -> str:
    """``repr(value)``, cut to :data:`ECHO_CHARS` characters with the full length said."""
    text = repr(value)
    if len(text) <= ECHO_CHARS:
        return text
    return f"{text[:ECHO_CHARS]}... ({len(text)} chars)"


def json_depth(data: Any) -> int:
    """How deeply objects and lists nest in ``data`` (a scalar is 0), without recursion.

    Level by level, keeping only the containers of each: every file the cache reads goes
    through here, and most of a scene's values are scalars."""
    depth, level = 0, [data]
    while level and depth <= MAX_JSON_DEPTH:  # past the limit, too deep is known
        containers = [item for item in level if isinstance(item, (dict, list))]
        if not containers:
            break
        depth += 1
        level = [
            child
            for item in containers
            for child in (item.values() if isinstance(item, dict) else item)
        ]
    return depth


def load_json_text(
    text: str,
    source: str,
    fail: Callable[[str], Exception],
    invalid: Callable[[json.JSONDecodeError], Exception] | None = None,
) -> Any:
    """Parse ``text``; what is too long, too deep or not JSON raises ``fail(reason)`` (or
    ``invalid(error)`` for bad JSON, when given)."""
    if len(text) > MAX_JSON_CHARS:
        raise fail(f"{source}: more than {MAX_JSON_CHARS} characters; is this the right file?")
    try:
        data = json.loads(text)
    except RecursionError:
        data = None
        depth = MAX_JSON_DEPTH + 1
    except json.JSONDecodeError as error:
        raise (invalid(error) if invalid else fail(f"{source}: not valid JSON ({error})")) from None
    else:
        depth = json_depth(data)
    if depth > MAX_JSON_DEPTH:
        raise fail(f"{source}: nested more than {MAX_JSON_DEPTH} levels deep; is this a plan?")
    return data


def read_bounded(path: Path) -> str:
    """A text file read no further than one character past :data:`MAX_JSON_CHARS` (a 50 MB
    file costs 8 MB of memory, not 50); OS and decoding errors pass to the caller."""
    with path.open(encoding="utf-8") as handle:
        return handle.read(MAX_JSON_CHARS + 1)


def read_json_file(path: Path, fail: Callable[[str], Exception]) -> Any:
    """Read a JSON file within the bounds; problems raise ``fail(reason)``, except
    ``FileNotFoundError``, which passes."""
    try:
        text = read_bounded(path)
    except UnicodeDecodeError as error:
        raise fail(f"{path}: not UTF-8 text ({error})") from None
    return load_json_text(text, str(path), fail)


def positive_int(text: str) -> int:
    """An argparse ``type`` for counts (the CLI's and the plugin's options): a whole number of
    at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value
