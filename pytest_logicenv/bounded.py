"""Reading every file a user (or a hand edit) gave us within bounds, and echoing values cut
short.

Plans, scenes, type files, run files and cache files are small; a file far past its
:class:`Limits` (characters, nesting depth, number of values, length of one string) is a
mistake (or an attack), refused with a clear error instead of gigabytes of memory, minutes of
work or a ``RecursionError`` deep in a reader. The readers that recurse over the data (facts,
trees, a type's parts) stay within Python's stack because the depth was checked first. Every
reader of a user's file goes through :func:`read_text_file` (the bounded read) and
:func:`check_shape` (the limits of what was parsed), JSON through :func:`read_json_file`. A
value quoted in an error message is cut to :data:`ECHO_CHARS` characters (:func:`shown`), so
that a 50 MB string is not repeated back.

>>> shown("x" * 100)[-20:]
'xxxxx... (102 chars)'
>>> json_depth({"a": [1, {"b": []}]})
4
>>> json_shape({"a": [1, {"b": []}]})
(4, 5, 1)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Largest JSON file read (characters): the example plans are 10 KB, scenes 30 KB.
MAX_JSON_CHARS = 8_000_000
#: Deepest nesting of objects and lists: a plan's tree takes two levels per decision.
MAX_JSON_DEPTH = 100
#: Most values (objects, lists, strings, numbers) in one file: a scene holds a few thousand.
MAX_JSON_ITEMS = 1_000_000
#: Longest single string or key in a plan or scene (a fact's text is a line); a type file's
#: are shorter still.
MAX_STRING_CHARS = 2_000_000
#: How much of a value an error message repeats.
ECHO_CHARS = 60


@dataclass(frozen=True)
class Limits:
    """What one kind of user file may hold; ``kind`` names it in the error ("a plan")."""

    kind: str = "a plan"
    chars: int = MAX_JSON_CHARS
    depth: int = MAX_JSON_DEPTH
    items: int = MAX_JSON_ITEMS
    string: int = MAX_STRING_CHARS


#: The default: plans, scenes, situations, run files, cache files.
JSON_LIMITS = Limits()


def shown(value: object) -> str:
    """``repr(value)``, cut to :data:`ECHO_CHARS` characters with the full length said."""
    text = repr(value)
    if len(text) <= ECHO_CHARS:
        return text
    return f"{text[:ECHO_CHARS]}... ({len(text)} chars)"


def json_depth(data: Any) -> int:
    """How deeply objects and lists nest in ``data`` (a scalar is 0), without recursion."""
    return json_shape(data)[0]


def json_shape(
    data: Any, limits: Limits = JSON_LIMITS, strings: bool = True
) -> tuple[int, int, int]:
    """``(depth, values, longest string)`` of ``data``, without recursion; past a limit the
    count stops, since too much is known. ``strings=False`` leaves the longest string at 0,
    for a caller that knows none can be too long (the text it parsed is shorter).

    Level by level, keeping only the containers of each, sorted by kind with comprehensions:
    every file the cache reads goes through here, and most of a scene's values are scalars."""
    depth, items, level = 0, 1, [data]
    longest = _length(data) if strings else 0
    while level and depth <= limits.depth and items <= limits.items:
        dicts = [item for item in level if isinstance(item, dict)]
        lists = [item for item in level if isinstance(item, list)]
        if not dicts and not lists:
            break
        depth += 1
        level = [value for item in dicts for value in item.values()]
        for item in lists:
            level += item
        items += len(level)
        if strings:
            longest = max(longest, _longest(key for item in dicts for key in item), _longest(level))
    return depth, items, longest


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def _longest(values: Iterable[Any]) -> int:
    return max((len(value) for value in values if isinstance(value, str)), default=0)


def check_shape(
    data: Any,
    source: str,
    fail: Callable[[str], Exception],
    limits: Limits = JSON_LIMITS,
    strings: bool = True,
) -> Any:
    """``data`` if it is within ``limits``, else ``fail(reason)`` naming ``source`` and the
    limit (``strings=False``: the caller knows no string is too long)."""
    depth, items, longest = json_shape(data, limits, strings)
    if depth > limits.depth:
        raise fail(f"{source}: nested more than {limits.depth} levels deep; is this {limits.kind}?")
    if items > limits.items:
        raise fail(f"{source}: more than {limits.items} values; is this {limits.kind}?")
    if longest > limits.string:
        raise fail(
            f"{source}: a string or key of more than {limits.string} characters; is this "
            f"{limits.kind}?"
        )
    return data


def load_json_text(
    text: str,
    source: str,
    fail: Callable[[str], Exception],
    invalid: Callable[[json.JSONDecodeError], Exception] | None = None,
    limits: Limits = JSON_LIMITS,
) -> Any:
    """Parse ``text``; what is too long, too deep, too many or not JSON raises
    ``fail(reason)`` (or ``invalid(error)`` for bad JSON, when given)."""
    check_length(text, source, fail, limits)
    try:
        data = json.loads(text)
    except RecursionError:
        raise fail(
            f"{source}: nested more than {limits.depth} levels deep; is this {limits.kind}?"
        ) from None
    except json.JSONDecodeError as error:
        raise (invalid(error) if invalid else fail(f"{source}: not valid JSON ({error})")) from None
    # A string is never longer than the text it was parsed from.
    return check_shape(data, source, fail, limits, strings=len(text) > limits.string)


def check_length(
    text: str, source: str, fail: Callable[[str], Exception], limits: Limits = JSON_LIMITS
) -> str:
    """``text`` if it is within ``limits.chars``, else ``fail(reason)``."""
    if len(text) > limits.chars:
        raise fail(f"{source}: more than {limits.chars} characters; is this the right file?")
    return text


def read_bounded(path: Path, limit: int = MAX_JSON_CHARS) -> str:
    """A text file read no further than one character past ``limit`` (a 50 MB file costs
    8 MB of memory, not 50); OS and decoding errors pass to the caller."""
    with path.open(encoding="utf-8") as handle:
        return handle.read(limit + 1)


def read_text_file(
    path: Path, fail: Callable[[str], Exception], limits: Limits = JSON_LIMITS
) -> str:
    """A user's text file within ``limits.chars``; unreadable, not UTF-8 or too long raises
    ``fail(reason)``, except ``FileNotFoundError``, which passes."""
    try:
        text = read_bounded(path, limits.chars)
    except FileNotFoundError:
        raise
    except UnicodeDecodeError as error:
        raise fail(f"{path}: not UTF-8 text ({error})") from None
    except OSError as error:
        raise fail(f"{path}: cannot read it ({error.strerror or error})") from None
    return check_length(text, str(path), fail, limits)


def read_json_file(
    path: Path, fail: Callable[[str], Exception], limits: Limits = JSON_LIMITS
) -> Any:
    """Read a JSON file within the bounds; problems raise ``fail(reason)``, except
    ``FileNotFoundError``, which passes."""
    return load_json_text(read_text_file(path, fail, limits), str(path), fail, limits=limits)


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
