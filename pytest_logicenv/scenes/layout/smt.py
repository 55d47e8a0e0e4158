"""The solver's integer grid and the SMT-LIB terms the layout is written in.

Terms are built as SMT-LIB text and parsed by Z3 in one go per problem: constructing them
through the z3 Python API costs more than solving.
A term is an int (a bool for a condition) once its value is known, so that whatever the
earlier problems fixed folds away before Z3 sees it:

>>> all_of(le(1, 2), le("x0", 3))
'(<= x0 3)'
>>> any_of(eq(2, 2), "b0")
True
>>> lin_sum([(2, "x0"), (1, 3), (-1, "z0")])
'(+ (* 2 x0) (* (- 1) z0) 3)'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from pytest_logicenv.scenes.scene_model import FINE_GRID

#: Metres per grid cell on the floor and the walls (furniture, doors, windows, pictures).
GRID = 0.05
#: Collision boxes, rooms and obstacles are in FINE_GRID cells; a GRID cell is this many.
SCALE = round(GRID / FINE_GRID)
#: Metres per height unit.
HEIGHT_UNIT = 0.01
#: Slack when rounding metres to whole cells, against floating-point error.
EPS = 1e-9

#: An integer term: an int once known, SMT-LIB text while unknown.
Lin: TypeAlias = int | str
#: A condition: a bool once decided, SMT-LIB text otherwise.
Cond: TypeAlias = bool | str


def _num(value: int) -> str:
    return str(value) if value >= 0 else f"(- {-value})"


def _text(value: Lin) -> str:
    return value if isinstance(value, str) else _num(value)


def lin_sum(terms: Iterable[tuple[int, Lin]]) -> Lin:
    """``sum(coefficient * term)``, folded to an int when every term is known."""
    const = 0
    parts = []
    for coefficient, term in terms:
        if coefficient == 0:
            continue
        if isinstance(term, int):
            const += coefficient * term
        elif coefficient == 1:
            parts.append(term)
        else:
            parts.append(f"(* {_num(coefficient)} {term})")
    if not parts:
        return const
    if const:
        parts.append(_num(const))
    return parts[0] if len(parts) == 1 else f"(+ {' '.join(parts)})"


def plus(first: Lin, second: Lin) -> Lin:
    return lin_sum(((1, first), (1, second)))


def _join(operator: str, conds: Iterable[Cond], neutral: bool) -> Cond:
    """``conds`` joined by ``operator`` ("and" with neutral True, "or" with False), folding the
    known ones: a neutral one drops out, the other decides."""
    terms = []
    for cond in conds:
        if cond is neutral:
            continue
        if cond is (not neutral):
            return not neutral
        terms.append(cond)
    if not terms:
        return neutral
    return terms[0] if len(terms) == 1 else f"({operator} {' '.join(map(str, terms))})"


def all_of(*conds: Cond) -> Cond:
    return _join("and", conds, True)


def any_of(*conds: Cond) -> Cond:
    return _join("or", conds, False)


def negate(cond: Cond) -> Cond:
    return (not cond) if isinstance(cond, bool) else f"(not {cond})"


def implies(cond: Cond, then: Cond) -> Cond:
    return any_of(negate(cond), then)


def flag_is(cond: Cond, value: bool) -> Cond:
    """``cond`` has the truth value ``value``."""
    if isinstance(cond, bool):
        return cond == value
    return cond if value else f"(not {cond})"


def ite(cond: Cond, if_true: int, if_false: int) -> Lin:
    """``if_true`` when ``cond`` holds, else ``if_false``."""
    if isinstance(cond, bool):
        return if_true if cond else if_false
    return if_true if if_true == if_false else f"(ite {cond} {_num(if_true)} {_num(if_false)})"


def le(low: Lin, high: Lin) -> Cond:
    """``low <= high``, decided now when both are known."""
    if isinstance(low, int) and isinstance(high, int):
        return low <= high
    return f"(<= {_text(low)} {_text(high)})"


def eq(first: Lin, second: Lin) -> Cond:
    if isinstance(first, int) and isinstance(second, int):
        return first == second
    return f"(= {_text(first)} {_text(second)})"


@dataclass(frozen=True)
class Length:
    """A real length in metres, ``units * unit + offset``, with ``units`` a solver integer."""

    units: Lin
    offset: float
    unit: float = GRID


def at_most(terms: Sequence[tuple[int, Length]], bound: float) -> Cond:
    """``sum(sign * length) <= bound`` (metres), exactly, as one integer constraint in the
    finest unit among the terms (the others are whole multiples of it)."""
    unit = min(length.unit for _, length in terms)
    units = lin_sum((sign * round(length.unit / unit), length.units) for sign, length in terms)
    offset = sum(sign * length.offset for sign, length in terms)
    return le(units, math.floor((bound - offset) / unit + EPS))


def below(low: Length, high: Length, by: float = 0.0) -> Cond:
    """``low <= high + by``."""
    return at_most([(1, low), (-1, high)], by)


def within(value: Length, low: Length, high: Length) -> Cond:
    return all_of(below(low, value), below(value, high))


@dataclass(frozen=True)
class CellBox:
    """A box: floor ``[x0, x1) x [z0, z1)`` in :data:`FINE_GRID` cells, heights ``[y0, y1)``
    in height units."""

    x0: Lin
    x1: Lin
    z0: Lin
    z1: Lin
    y0: Lin
    y1: Lin

    def apart(self, other: CellBox) -> Cond:
        """The two boxes share no volume."""
        return any_of(
            le(self.x1, other.x0),
            le(other.x1, self.x0),
            le(self.z1, other.z0),
            le(other.z1, self.z0),
            le(self.y1, other.y0),
            le(other.y1, self.y0),
        )

    def meets(self, other: CellBox) -> bool:
        """Whether two *known* boxes share volume."""
        return not self.apart(other)
