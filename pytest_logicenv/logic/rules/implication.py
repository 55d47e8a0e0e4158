"""When one conjunction of facts implies another: a sound, simple check over the facts language.

Used to find factor values no scene tells apart: if every scene that makes ``A`` true makes
``B`` true too, a scene made for ``A`` also counts for ``B``. The check is *sound* (it never
says "implies" wrongly) and deliberately simple: each literal of ``B`` must follow from one
literal of ``A`` by one of these steps, read as the evaluator reads facts (types
existentially, roles as one object):

* the same fact;
* the same ``exists``/``state``/``attr`` with more qualifiers: an object on the floor is an
  object; an open, locked window is an open window;
* a broader ``absent``: no book at all means no book on the floor;
* and the contrapositives (``not`` of the narrower from ``not`` of the broader), and
  ``absent`` against ``not exists`` of the objects it forbids.

What needs reasoning across literals (an ``or``, two facts together) is not found.

>>> from pytest_logicenv.logic.facts import parse_facts
>>> book = parse_facts([{"exists": "Book"}], "yes")
>>> on_floor = parse_facts([{"exists": "Book", "where": {"on": "Floor"}}], "no")
>>> implies(on_floor, book), implies(book, on_floor)
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pytest_logicenv.logic.facts import Absent, And, Attr, Exists, Fact, Not, State, Where

#: A fact that holds (True) or must not hold (False).
Literal = tuple[Fact, bool]


def literals(facts: Sequence[Fact]) -> list[Literal]:
    """The conjunction's literals: ``and`` flattened, ``not`` peeled (``or`` is left whole)."""
    found: list[Literal] = []
    stack: list[Literal] = [(fact, True) for fact in reversed(facts)]
    while stack:
        fact, positive = stack.pop()
        if isinstance(fact, Not):
            stack.append((fact.item, not positive))
        elif isinstance(fact, And) and positive:
            stack.extend((item, True) for item in reversed(fact.items))
        else:
            found.append((fact, positive))
    return found


def implies(first: Sequence[Fact], second: Sequence[Fact]) -> bool:
    """Whether every world where all of ``first`` holds makes all of ``second`` hold (as far
    as the steps above tell)."""
    given = literals(first)
    return all(any(follows(a, b) for a in given) for b in literals(second))


def unimplied(first: Sequence[Fact], second: Sequence[Fact]) -> list[Literal]:
    """The literals of ``first`` that no literal of ``second`` implies: what ``first`` asks
    beyond ``second``."""
    given = literals(second)
    return [a for a in literals(first) if not any(follows(b, a) for b in given)]


def follows(given: Literal, wanted: Literal) -> bool:
    """Whether the literal ``wanted`` holds wherever ``given`` does."""
    (a, pa), (b, pb) = given, wanted
    if pa and pb:
        return _narrower(a, b)
    if not pa and not pb:
        return _narrower(b, a)
    if pa and not pb:  # no such object at all, so not this one; this one, so not none of it
        return (isinstance(a, Absent) and isinstance(b, Exists) and forbids(a, b)) or (
            isinstance(a, Exists) and isinstance(b, Absent) and forbids(b, a)
        )
    return False


def _narrower(a: Fact, b: Fact) -> bool:
    """Whether the positive fact ``a`` implies the positive fact ``b``."""
    if a == b:
        return True
    if isinstance(a, Exists) and isinstance(b, Exists):
        return (
            a.ref == b.ref
            and b.as_ in (None, a.as_)
            and _within(b.where, a.where)
            and _sub(b.attrs, a.attrs)
            and _sub(b.states, a.states)
        )
    if isinstance(a, Absent) and isinstance(b, Absent):  # forbidding more forbids less
        return (
            a.ref == b.ref
            and _within(a.where, b.where)
            and _sub(a.attrs, b.attrs)
            and _sub(a.states, b.states)
        )
    if isinstance(a, State) and isinstance(b, State):
        return a.ref == b.ref and _sub(b.states, a.states)
    if isinstance(a, Attr) and isinstance(b, Attr):
        return a.ref == b.ref and _sub(b.attrs, a.attrs)
    return False


def forbids(absent: Absent, exists: Exists) -> bool:
    """Whether every object ``exists`` asks for is one ``absent`` forbids."""
    return (
        absent.ref == exists.ref
        and _within(absent.where, exists.where)
        and _sub(absent.attrs, exists.attrs)
        and _sub(absent.states, exists.states)
    )


def _within(broad: Where, narrow: Where) -> bool:
    """Whether each qualifier ``broad`` sets, ``narrow`` sets to the same."""
    pairs = (
        (broad.on, narrow.on),
        (broad.in_, narrow.in_),
        (broad.room, narrow.room),
        (broad.part_of, narrow.part_of),
    )
    return all(mine is None or mine == theirs for mine, theirs in pairs)


def _sub(small: Mapping[str, object], big: Mapping[str, object]) -> bool:
    return small.items() <= big.items()
