"""Running a parsed script against a blackboard, with BT.CPP's value rules.

Numbers compute as doubles (``1 + 1`` is ``2.0``); comparisons and logic give ``1.0`` or
``0.0``; ``true`` and ``false`` are ``1`` and ``0``. ``+`` joins two strings, ``..`` joins
strings and numbers. A string compared with a number is read as one (``'true'`` is 1, a
registered enum is its value). As in C++, ``x / 0`` is ``inf`` (``0 / 0``: ``nan``); storing
either in an integer entry is a :class:`ScriptRuntimeError`, as BT.CPP throws. Equality of
doubles allows float epsilon. Both sides of ``&&`` and ``||`` are evaluated, as in BT.CPP. A
name is looked up in the enums first, then in the blackboard; a missing entry is a
:class:`ScriptRuntimeError`.

>>> from pytest_logicenv.sim.bt.blackboard import Blackboard
>>> from pytest_logicenv.sim.bt.script import parse_script
>>> board = Blackboard()
>>> run_script(parse_script("A := 3; B := A * 2; msg := 'n=' .. B"), board, {})
'n=6'
>>> truthy(run_script(parse_script("A == 3 && color == RED"), board, {"RED": 1, "color": 1}))
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from pytest_logicenv.sim.bt.blackboard import Blackboard, Entry, assign, is_long
from pytest_logicenv.sim.bt.ports import Value, convert, parse_double, to_text
from pytest_logicenv.sim.bt.script import (
    Assign,
    Binary,
    Compare,
    Conditional,
    Expr,
    Literal,
    Name,
    Script,
    Unary,
)

_EPSILON = 1.1920928955078125e-07  # C++ float epsilon, BT.CPP's tolerance for ==
_INT64 = (-(2**63), 2**63 - 1)

Number = int | float


class ScriptRuntimeError(ValueError):
    """A script failed while it ran (the caller adds the file, line and node)."""


def run_script(script: Script, board: Blackboard, enums: Mapping[str, int]) -> Value:
    """Evaluate every expression of ``script`` in order; the value of the last."""
    result: Value = 0
    try:
        for expr in script.exprs:
            result = _Evaluator(board, enums).eval(expr)
    except ArithmeticError as error:  # a number past what a double holds (BT.CPP's are bound)
        raise ScriptRuntimeError(f"arithmetic error: {error}") from None
    return result


def truthy(value: Value) -> bool:
    """A script result as a condition: a number is true unless 0; text as BT.CPP's bool
    conversion reads it."""
    if isinstance(value, str):
        try:
            return bool(convert(value, "bool"))
        except ValueError:
            raise ScriptRuntimeError(f"the result {value!r} is not a bool") from None
    if isinstance(value, tuple):
        raise ScriptRuntimeError("a queue is not a bool")
    return float(value) != 0.0


def _number(value: Value) -> Number | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return value
    return None


class _Evaluator:
    def __init__(self, board: Blackboard, enums: Mapping[str, int]) -> None:
        self.board = board
        self.enums = enums

    def eval(self, expr: Expr) -> Value:
        if isinstance(expr, Literal):
            return expr.value
        if isinstance(expr, Name):
            return self.name(expr.name)
        if isinstance(expr, Unary):
            return self.unary(expr.op, self.eval(expr.operand))
        if isinstance(expr, Binary):
            return self.binary(expr.op, self.eval(expr.left), self.eval(expr.right))
        if isinstance(expr, Compare):
            return self.compare(expr)
        if isinstance(expr, Conditional):
            test = self.eval(expr.test)
            valid = (isinstance(test, str) and test != "") or (
                not isinstance(test, str) and self.as_double(test) != 0.0
            )
            return self.eval(expr.then if valid else expr.orelse)
        return self.assign(expr)

    def name(self, name: str) -> Value:
        if name in self.enums:
            return float(self.enums[name])
        try:
            return self.board.get(name)
        except KeyError:
            raise ScriptRuntimeError(
                f"variable not found: {name!r} (no blackboard entry holds a value)"
            ) from None

    def as_double(self, value: Value) -> float:
        number = _number(value)
        if number is not None:
            return float(number)
        if isinstance(value, str):
            if value in ("true", "false"):
                return 1.0 if value == "true" else 0.0
            if value in self.enums:
                return float(self.enums[value])
            try:
                return parse_double(value)
            except ValueError:
                pass
        raise ScriptRuntimeError(f"{to_text(value)!r} is not a number")

    def unary(self, op: str, value: Value) -> Value:
        number = _number(value)
        if number is None:
            raise ScriptRuntimeError(f"operator {op!r} does not apply to {to_text(value)!r}")
        if op == "-":
            return -float(number)
        if op == "!":
            return float(not number)
        return float(~self.integer(number))

    def integer(self, number: Number) -> int:
        if not math.isfinite(number) or number != int(number):
            raise ScriptRuntimeError("bitwise operators need integer operands")
        if not _INT64[0] <= number <= _INT64[1]:
            raise ScriptRuntimeError("number out of range for a bitwise operation")
        return int(number)

    def binary(self, op: str, left: Value, right: Value) -> Value:
        lnum, rnum = _number(left), _number(right)
        if lnum is not None and rnum is not None:
            if op in _ARITHMETIC:
                return _ARITHMETIC[op](float(lnum), float(rnum))
            if op in ("&", "|", "^"):
                li, ri = self.integer(lnum), self.integer(rnum)
                return float(li & ri if op == "&" else li | ri if op == "|" else li ^ ri)
            if op in ("&&", "||"):
                return float(bool(lnum) and bool(rnum) if op == "&&" else bool(lnum or rnum))
        if isinstance(left, str) and isinstance(right, str) and op in ("+", ".."):
            return bounded_text(left, right)
        if op == ".." and (isinstance(left, str) or isinstance(right, str)):
            return bounded_text(to_text(left), to_text(right))
        raise ScriptRuntimeError(
            f"operation not permitted: {to_text(left)!r} {op} {to_text(right)!r}"
        )

    def compare(self, expr: Compare) -> Value:
        left = self.eval(expr.operands[0])
        for op, operand in zip(expr.ops, expr.operands[1:], strict=True):
            right = self.eval(operand)
            if isinstance(left, str) and isinstance(right, str):
                holds = _COMPARE[op](left, right)
            else:
                lv, rv = self.as_double(left), self.as_double(right)
                holds = (
                    _COMPARE[op](lv, rv)
                    if op not in ("==", "!=")
                    else ((abs(lv - rv) <= _EPSILON) == (op == "=="))
                )
            if not holds:
                return 0.0
            left = right
        return 1.0

    def assign(self, expr: Assign) -> Value:
        entry = self.board.entry(expr.target)
        if entry is None:
            if expr.op != ":=":
                raise ScriptRuntimeError(
                    f"blackboard entry {expr.target!r} does not exist yet; create it with "
                    f"{expr.target} := ..."
                )
            entry = self.board.create(expr.target)
        value = self.eval(expr.value)
        if expr.op in (":=", "="):
            self.store(entry, value, expr.target)
            return value
        if entry.value is None:
            raise ScriptRuntimeError(f"the left operand of {expr.op!r} is not initialized")
        current = entry.value
        if isinstance(current, str) and isinstance(value, str) and expr.op == "+=":
            result: Value = bounded_text(current, value)
        else:
            lnum, rnum = _number(current), _number(value)
            if lnum is None or rnum is None:
                raise ScriptRuntimeError(f"{expr.op!r} needs numbers, not {to_text(current)!r}")
            result = _ARITHMETIC[expr.op[0]](float(lnum), float(rnum))
        self.store(entry, result, expr.target)
        return result

    def store(self, entry: Entry, value: Value, key: str) -> None:
        """Assign as BT.CPP's script does (``Any::copyInto``): an empty entry takes a number
        as it is, text is parsed into the entry's type, a number is cast to the type of the
        number the entry holds, and never written into text."""
        held = entry.value
        number = isinstance(value, (bool, int, float))
        if number and held is None:
            entry.value = value
            entry.seq += 1
            return
        if number and not isinstance(held, (str, tuple)):
            self.cast(entry, value, key)
            return
        if entry.sealed and isinstance(value, str):
            raise ScriptRuntimeError(
                f"cannot assign text to blackboard entry {key!r}, which a SetBlackboard "
                "wrote (BT.CPP then types it Any, which no text parses into); assign a number, or "
                "use another entry"
            )
        if isinstance(value, str) and held is not None and not isinstance(held, (str, tuple)):
            try:  # text into a number: BT.CPP's StringToDouble
                value = parse_double(value)
            except ValueError:
                raise ScriptRuntimeError(
                    f"cannot assign {value!r} to blackboard entry {key!r}, which holds the "
                    f"number {to_text(held)}: text that is not a number does not convert"
                ) from None
            self.cast(entry, value, key)
            return
        if isinstance(held, str) and number:
            # BT.CPP's Any::copyInto: text is parsed into a number entry, never the reverse
            raise ScriptRuntimeError(
                f"cannot assign {to_text(value)} to blackboard entry {key!r}, which holds "
                f"text ({entry.value!r}): BT.CPP does not convert a number to text; assign "
                f"text ('{to_text(value)}') or use another entry"
            )
        try:
            assign(entry, value, key)
        except ValueError as error:
            raise ScriptRuntimeError(str(error)) from None

    def cast(self, entry: Entry, value: Value, key: str) -> None:
        """A number into an entry holding a number: cast to the held number's type."""
        held = entry.value
        if isinstance(held, int) and not isinstance(held, bool):
            if not is_long(value):
                raise ScriptRuntimeError(
                    f"cannot store {to_text(value)!r} in blackboard entry {key!r}, which holds "
                    f"int: {to_text(value)} is not a whole number of 64 bits"
                )
            value = int(value)  # type: ignore[arg-type]
        elif isinstance(held, float):
            value = float(value)  # type: ignore[arg-type]
        entry.value = value
        entry.seq += 1


def bounded_text(left: str, right: str) -> str:
    """``left + right``, refused past :data:`MAX_TEXT_CHARS` (a ``s := s .. s`` in a loop
    doubles each round: 30 rounds are a gigabyte)."""
    size = len(left) + len(right)
    if size > MAX_TEXT_CHARS:
        raise ScriptRuntimeError(
            f"joining text of {len(left):,} and {len(right):,} characters makes {size:,}, past "
            f"the {MAX_TEXT_CHARS:,} a script value may hold (does a loop join a value to "
            "itself?)"
        )
    return left + right


def _divide(left: float, right: float) -> float:
    if right == 0.0:
        return math.nan if left == 0.0 or math.isnan(left) else math.copysign(math.inf, left)
    return left / right


#: The longest text a script may build: far past any name or message a tree needs.
MAX_TEXT_CHARS = 1_000_000
_ARITHMETIC: Mapping[str, Callable[[float, float], float]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _divide,
}
_COMPARE: Mapping[str, Callable[[object, object], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,  # type: ignore[operator]
    ">": lambda a, b: a > b,  # type: ignore[operator]
    "<=": lambda a, b: a <= b,  # type: ignore[operator]
    ">=": lambda a, b: a >= b,  # type: ignore[operator]
}
