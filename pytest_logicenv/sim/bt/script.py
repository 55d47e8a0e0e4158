"""BT.CPP's script language, parsed: what ``Script``, ``ScriptCondition``, ``Precondition`` and
the ``_skipIf``/``_onSuccess``/... attributes run.

A script is expressions separated by ``;``. From the loosest binding to the tightest:

=============================  ============================================================
``:=  =  +=  -=  *=  /=``      assignment (``:=`` creates the entry, ``=`` needs it to exist)
``c ? a : b``                  the conditional
``||  &&``                     logic, one level, left to right (as BT.CPP parses them)
``==  !=  <  >  <=  >=``       comparisons, chainable (``0 < x <= 5``)
``..``                         string concatenation
``+ -``, ``* /``, unary ``-``  arithmetic
``| ^``, ``&``, ``~  !``       bitwise and logical not
=============================  ============================================================

Arithmetic and bitwise operators do not mix without parentheses (BT.CPP's grammar groups
them apart). Operands: names (blackboard entries or registered enums; ``@name`` is the root
blackboard), ``'text'`` or ``"text"``, integers (``42``, ``0x2A``), reals (``1.5``, ``2e3``),
``true`` and ``false``. Anything else (a function call, ``%``, ``[]``, ``++``) is a
:class:`ScriptSyntaxError` naming the construct and its column.

>>> script = parse_script("A := 1; B := A < 3 && ready ? 'go' : 'wait'")
>>> script.assigned, script.reads
(('A', 'B'), ('A', 'ready'))
>>> parse_script("count % 2")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
pytest_logicenv.sim.bt.script.ScriptSyntaxError: column 7: '%' is not an operator of BT.CPP...
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pytest_logicenv.bounded import shown

#: Operators by binding, loosest first, within one operand group.
ASSIGN_OPS = (":=", "=", "+=", "-=", "*=", "/=")
COMPARE_OPS = ("==", "!=", "<=", ">=", "<", ">")
LOGIC_OPS = ("||", "&&")
_INT64_MAX = 2**63 - 1
_MATH = {"+": 2, "-": 2, "*": 3, "/": 3}
_BITS = {"|": 1, "^": 1, "&": 2}
_CONCAT = {"..": 1}

_TOKEN = re.compile(
    r"""(?P<space>[ \t\r\n]+|\\\n)
      |(?P<real>[0-9]+(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+))
      |(?P<hex>0[xX][0-9A-Fa-f]+)
      |(?P<int>[0-9]+)
      |(?P<string>'[^']*'|"[^"]*")
      |(?P<name>(?:[^\W\d]|@)\w*)
      |(?P<op>:=|\+=|-=|\*=|/=|==|!=|<=|>=|&&|\|\||\.\.|[-+*/<>=&|^~!?:();])""",
    re.X,
)
_UNSUPPORTED = {
    "%": "'%' is not an operator of BT.CPP's script language",
    "[": "indexing with '[...]' is not part of BT.CPP's script language",
    "{": "'{...}' is not part of BT.CPP's script language (write the entry name bare: x, not {x})",
    ",": "',' is not part of BT.CPP's script language (separate expressions with ';')",
    ".": "'.' (member access) is not part of BT.CPP's script language",
}


class ScriptSyntaxError(ValueError):
    """A script BT.CPP would not parse; ``column`` is 1-based."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(f"column {column}: {message}")
        self.column = column


@dataclass(frozen=True)
class Literal:
    value: str | int | float


@dataclass(frozen=True)
class Name:
    name: str


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary:
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Compare:
    ops: tuple[str, ...]
    operands: tuple[Expr, ...]


@dataclass(frozen=True)
class Conditional:
    test: Expr
    then: Expr
    orelse: Expr


@dataclass(frozen=True)
class Assign:
    op: str
    target: str
    value: Expr


Expr = Literal | Name | Unary | Binary | Compare | Conditional | Assign


@dataclass(frozen=True)
class Script:
    """A parsed script: its text and its expressions, evaluated in order."""

    text: str
    exprs: tuple[Expr, ...]

    @property
    def assigned(self) -> tuple[str, ...]:
        """Entry names the script assigns, in order of appearance."""
        return tuple(dict.fromkeys(name for kind, name in _names(self.exprs) if kind == "set"))

    @property
    def reads(self) -> tuple[str, ...]:
        """Names the script reads (entries or enums), in order of appearance."""
        return tuple(dict.fromkeys(name for kind, name in _names(self.exprs) if kind == "get"))


def _names(exprs: tuple[Expr, ...]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    stack: list[Expr] = list(reversed(exprs))
    while stack:
        expr = stack.pop()
        if isinstance(expr, Name):
            found.append(("get", expr.name))
        elif isinstance(expr, Assign):
            if expr.op != ":=" and expr.op != "=":
                found.append(("get", expr.target))
            stack.append(expr.value)
            found.append(("set", expr.target))
        elif isinstance(expr, Unary):
            stack.append(expr.operand)
        elif isinstance(expr, Binary):
            stack += [expr.right, expr.left]
        elif isinstance(expr, Compare):
            stack += reversed(expr.operands)
        elif isinstance(expr, Conditional):
            stack += [expr.orelse, expr.then, expr.test]
    return found


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    column: int


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            char = text[position]
            message = _UNSUPPORTED.get(char, f"unexpected character {char!r}")
            raise ScriptSyntaxError(position + 1, message)
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append(_Token(kind, match.group(), position + 1))
        position = match.end()
    tokens.append(_Token("end", "", len(text) + 1))
    return tokens


def parse_script(text: str) -> Script:
    """Parse ``text``; :class:`ScriptSyntaxError` if BT.CPP's grammar refuses it."""
    parser = _Parser(_tokenize(text))
    exprs = parser.statements()
    if not exprs:
        raise ScriptSyntaxError(1, "the script is empty")
    return Script(text, tuple(exprs))


class _Parser:
    """Recursive descent over BT.CPP's precedence levels."""

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.index = 0

    @property
    def token(self) -> _Token:
        return self.tokens[self.index]

    def take(self) -> _Token:
        token = self.token
        self.index += 1
        return token

    def at(self, *ops: str) -> bool:
        return self.token.kind == "op" and self.token.text in ops

    def expect(self, op: str) -> None:
        if not self.at(op):
            raise self.error(f"expected {op!r}")
        self.take()

    def error(self, message: str) -> ScriptSyntaxError:
        found = self.token.text or "the end of the script"
        return ScriptSyntaxError(self.token.column, f"{message}, found {found!r}")

    def statements(self) -> list[Expr]:
        exprs: list[Expr] = []
        while self.token.kind != "end":
            if self.at(";"):
                self.take()
                continue
            exprs.append(self.assignment())
            if self.token.kind != "end" and not self.at(";"):
                raise self.error("expected ';' or the end of the script")
        return exprs

    def assignment(self) -> Expr:
        start = self.token
        left = self.conditional()
        if not self.at(*ASSIGN_OPS):
            return left
        op = self.take().text
        if not isinstance(left, Name):
            raise ScriptSyntaxError(start.column, f"the left side of {op!r} must be an entry name")
        right = self.conditional()
        if self.at(*ASSIGN_OPS):
            raise self.error("one assignment per expression (separate them with ';')")
        return Assign(op, left.name, right)

    def conditional(self) -> Expr:
        test = self.logical()
        if not self.at("?"):
            return test
        self.take()
        then = self.assignment()
        self.expect(":")
        return Conditional(test, then, self.logical())

    def logical(self) -> Expr:
        left = self.comparison()
        while self.at(*LOGIC_OPS):
            op = self.take().text
            left = Binary(op, left, self.comparison())
        return left

    def comparison(self) -> Expr:
        operands = [self.group()]
        ops: list[str] = []
        while self.at(*COMPARE_OPS):
            ops.append(self.take().text)
            operands.append(self.group())
        return Compare(tuple(ops), tuple(operands)) if ops else operands[0]

    def group(self) -> Expr:
        """One operand group: arithmetic (with ``..``) or bitwise, not both."""
        start = self.token
        kinds: set[str] = set()
        expr = self.binary(0, kinds)
        if "bits" in kinds and kinds & {"math", "concat"}:
            raise ScriptSyntaxError(
                start.column,
                "arithmetic and bitwise operators cannot be mixed without parentheses",
            )
        return expr

    def binary(self, level: int, kinds: set[str]) -> Expr:
        left = self.prefix(kinds)
        while True:
            op = self.token.text if self.token.kind == "op" else ""
            table = _CONCAT if op in _CONCAT else _MATH if op in _MATH else _BITS
            precedence = table.get(op, 0) + (10 if table is _MATH else 0)
            if op not in table or precedence <= level:
                return left
            kinds.add("concat" if table is _CONCAT else "math" if table is _MATH else "bits")
            self.take()
            left = Binary(op, left, self.binary(precedence, kinds))

    def prefix(self, kinds: set[str]) -> Expr:
        if self.at("-", "~", "!"):
            op = self.take().text
            kinds.add("math" if op == "-" else "bits")
            return Unary(op, self.atom())
        return self.atom()

    def atom(self) -> Expr:
        token = self.take()
        if token.kind == "op" and token.text == "(":
            inner = self.assignment()
            self.expect(")")
            return inner
        if token.kind == "name":
            if self.at("("):
                raise ScriptSyntaxError(
                    token.column,
                    f"function calls ({token.text}(...)) are not part of BT.CPP's script language",
                )
            if token.text in ("true", "false"):
                return Literal(1 if token.text == "true" else 0)
            return Name(token.text)
        if token.kind == "string":
            return Literal(token.text[1:-1])
        if token.kind in ("int", "hex", "real"):
            return self.number(token)
        self.index -= 1
        previous = self.tokens[self.index - 1] if self.index else None
        if token.text in "+-" and previous is not None and previous.text == token.text:
            raise ScriptSyntaxError(
                previous.column,
                f"'{token.text * 2}' is not part of BT.CPP's script language "
                f"(write x {token.text}= 1)",
            )
        raise self.error("expected a value, a name or '('")

    def number(self, token: _Token) -> Literal:
        follow = self.token
        if follow.kind == "name" and follow.column == token.column + len(token.text):
            raise ScriptSyntaxError(token.column, f"invalid suffix on number {token.text!r}")
        if token.kind == "real":
            return Literal(float(token.text))
        base = 16 if token.kind == "hex" else 10
        digits = (token.text[2:] if base == 16 else token.text).lstrip("0") or "0"
        # the length first: int() refuses 5,000 digits with its own error
        if len(digits) > 20 or int(digits, base) > _INT64_MAX:
            raise ScriptSyntaxError(
                token.column,
                f"integer {shown(token.text)} is out of range (BT.CPP reads 64-bit integers)",
            )
        return Literal(int(digits, base))
