"""Ports: their declarations, ``{key}`` references and BT.CPP's string conversions.

A port's XML value is literal text or a blackboard reference: ``{key}``, or ``{=}`` (and
``=``) for the entry named like the port (braced text that is no entry name, such as JSON,
stays text). Text is converted to the port's type as BT.CPP's
``convertFromString`` does: integers as ``std::from_chars`` reads them (an optional ``-``, then
digits; what follows them is ignored), doubles as ``std::stod`` (leading blanks, the longest
number), booleans from ``0 1 true false True False TRUE FALSE``, statuses from their names.

>>> blackboard_key("target", "{ item }"), blackboard_key("target", "{=}")
('item', 'target')
>>> convert("12abc", "int"), convert(" 2.5e1x", "double"), convert("True", "bool")
(12, 25.0, True)
>>> convert("maybe", "bool")
Traceback (most recent call last):
    ...
ValueError: 'maybe' is not a bool (write true or false, 1 or 0)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

#: The port types BT.CPP converts text to; ``any`` keeps text as text.
PortType = Literal["str", "int", "unsigned", "double", "bool", "status", "queue", "any"]
Direction = Literal["input", "output", "inout"]
#: What a blackboard entry or a port may hold.
Value = str | int | float | bool | tuple[str, ...]

STATUSES = ("IDLE", "RUNNING", "SUCCESS", "FAILURE", "SKIPPED")
_INT = re.compile(r"-?[0-9]+")
_DOUBLE = re.compile(
    r"[ \t\n\r\f\v]*[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf(?:inity)?|nan)",
    re.I,
)
# What may stand between the braces of a reference; other braced text (JSON such as a Check's
# fact) stays text.
_KEY = re.compile(r"[^\s{}\"':,\[\]]+")
_TRUE = ("1", "true", "True", "TRUE")
_FALSE = ("0", "false", "False", "FALSE")
_INT32 = (-(2**31), 2**31 - 1)
_UINT32 = (0, 2**32 - 1)


@dataclass(frozen=True)
class Port:
    """A declared port: name, direction, type, default text (``None``: none), a description
    (shown in the Groot2 palette) and whether it may be left out although it has no default
    (``optional``; otherwise an input without a default must be given)."""

    name: str
    direction: Direction = "input"
    type: PortType = "str"
    default: str | None = None
    description: str = ""
    optional: bool = False

    @property
    def reads(self) -> bool:
        return self.direction != "output"

    @property
    def writes(self) -> bool:
        return self.direction != "input"


def input_port(
    name: str,
    type: PortType = "str",
    default: str | None = None,
    description: str = "",
    *,
    optional: bool = False,
) -> Port:
    """An input port (BT.CPP's ``InputPort<T>(name, default, description)``)."""
    return Port(name, "input", type, default, description, optional)


def output_port(name: str, type: PortType = "any", description: str = "") -> Port:
    """An output port: the node writes the entry its ``{key}`` names."""
    return Port(name, "output", type, None, description, optional=True)


def inout_port(
    name: str, type: PortType = "any", default: str | None = None, description: str = ""
) -> Port:
    """A port the node both reads and writes (BT.CPP's ``BidirectionalPort``)."""
    return Port(name, "inout", type, default, description)


def blackboard_key(port: str, raw: str) -> str | None:
    """The entry a port value refers to (``{key}``, ``{=}`` or ``=``), or ``None`` for text."""
    if raw in ("{=}", "="):
        return port
    stripped = raw.strip(" ")
    if len(stripped) >= 3 and stripped[0] == "{" and stripped[-1] == "}":
        key = stripped[1:-1].strip()
        if _KEY.fullmatch(key):
            return port if key == "=" else key
    return None


def convert(text: str, type: PortType) -> Value:
    """``text`` as a value of ``type``, the way BT.CPP converts it; ``ValueError`` if not."""
    if type in ("str", "any"):
        return text
    if type in ("int", "unsigned"):
        match = _INT.match(text)
        if match is None:
            raise ValueError(f"{text!r} is not an integer")
        number = int(match.group())
        low, high = _INT32 if type == "int" else _UINT32
        if not low <= number <= high:
            raise ValueError(f"{text!r} is out of range for {type}")
        return number
    if type == "double":
        match = _DOUBLE.match(text)
        if match is None:
            raise ValueError(f"{text!r} is not a number")
        return float(match.group())
    if type == "bool":
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        raise ValueError(f"{text!r} is not a bool (write true or false, 1 or 0)")
    if type == "status":
        if text not in STATUSES:
            raise ValueError(f"{text!r} is not a status ({', '.join(STATUSES)})")
        return text
    return tuple(text.split(";")) if text else ()  # queue: BT.CPP splits on ';'


def parse_double(text: str) -> float:
    """``text`` as ``std::stod`` reads it; ``ValueError`` if it holds no number."""
    value = convert(text, "double")
    assert isinstance(value, float)
    return value


def to_text(value: Value) -> str:
    """A value as the text a string port reads (numbers without a trailing ``.0``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return str(int(value))
    if isinstance(value, tuple):
        return ";".join(value)
    return str(value)


def coerce(value: Value, type: PortType) -> Value:
    """A blackboard value as a port of ``type`` reads it: text is converted, numbers cast
    when nothing is lost (not ``inf`` or ``nan`` to an integer, nor one out of its range);
    ``ValueError`` otherwise.

    >>> coerce(2.0, "int"), coerce(7, "str")
    (2, '7')
    >>> coerce(float("inf"), "int")
    Traceback (most recent call last):
        ...
    ValueError: inf is not a whole number for int
    """
    if type == "any":
        return value
    if isinstance(value, str):
        return convert(value, type)
    if type == "str":
        return to_text(value)
    if isinstance(value, tuple):
        if type == "queue":
            return value
        raise ValueError(f"a queue cannot be read as {type}")
    try:
        number = float(value)
    except OverflowError:  # a user's node may store an int no double holds
        raise ValueError(f"{to_text(value)} is too large a number") from None
    if type in ("int", "unsigned"):
        # inf and nan too: BT.CPP refuses to cast them, and int() would raise OverflowError
        if not math.isfinite(number) or number != int(number):
            raise ValueError(f"{to_text(value)} is not a whole number for {type}")
        low, high = _INT32 if type == "int" else _UINT32
        if not low <= number <= high:
            raise ValueError(f"{to_text(value)} is out of range for {type}")
        return int(number)
    if type == "double":
        return number
    if type == "bool":
        if number not in (0.0, 1.0):
            raise ValueError(f"{to_text(value)} is not a bool (0 or 1)")
        return number == 1.0
    raise ValueError(f"{to_text(value)} cannot be read as {type}")
