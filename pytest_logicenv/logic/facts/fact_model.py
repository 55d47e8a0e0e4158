"""The fact types: one frozen dataclass per form of the language, and its vocabulary.

A fact is a value: parsing makes one (:mod:`.fact_json`), and reading (:mod:`.walk`,
:mod:`.describe`) and evaluation (:mod:`.evaluate`) take it apart with one ``match`` case per
form. :data:`Fact` is the union of the forms; a new form joins it here.

>>> Exists("Toy", "toy", Where(on="Floor"))  # doctest: +NORMALIZE_WHITESPACE
Exists(ref='Toy', as_='toy', where=Where(on='Floor', in_=None, room=None, part_of=None),
       attrs={}, states={})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NoReturn, TypeAlias

#: The boolean object states the language knows, as the simulator and the scenes store them.
STATES: tuple[str, ...] = (
    "open",
    "toggled",
    "dirty",
    "filled",
    "sliced",
    "cooked",
    "used_up",
    "broken",
    "wet",
    # AI2-THOR's ObjectTemperature as two states: Hot, Cold, or neither (RoomTemp).
    "hot",
    "cold",
)
# Friendly spellings people (and LLMs) write, mapped to the canonical state name.
STATE_ALIASES: Mapping[str, str] = {
    "on": "toggled",
    "is_on": "toggled",
    "isOn": "toggled",
    "toggled_on": "toggled",
    "isOpen": "open",
    "isDirty": "dirty",
    "usedUp": "used_up",
    "isWet": "wet",
    "isHot": "hot",
    "warm": "hot",
    "isCold": "cold",
    "chilled": "cold",
}
#: States no object has together (AI2-THOR's temperature is Hot, Cold or RoomTemp).
EXCLUSIVE_STATES: tuple[frozenset[str], ...] = (frozenset({"hot", "cold"}),)
#: The reference that means "the floor of the object's room".
FLOOR = "Floor"
RELATIONS: tuple[str, ...] = ("on", "in", "near")


def is_type_ref(ref: str) -> bool:
    """Whether a reference names an object type (``Sofa``) rather than a role (``sofa``)."""
    return ref[:1].isupper()


def canonical_state(name: str) -> str | None:
    """The canonical state name for ``name`` (aliases allowed), or ``None`` if unknown."""
    name = STATE_ALIASES.get(name, name)
    return name if name in STATES else None


#: What is *in* a whole of these types is in its part of that type: in the sink is in its
#: basin (where the faucet's water falls), for facts and actions alike.
INNER_PARTS: Mapping[str, str] = {"Sink": "SinkBasin", "Bathtub": "BathtubBasin"}


@dataclass(frozen=True)
class Where:
    """Where an object must be: on or in a reference, in a room, and/or a part of a reference
    (``part_of``: the drawer of the TV stand; a part of a part counts, so a sink's basin is a
    part of the counter the sink is set in).

    Each field is one *qualifier* of an ``exists``/``absent`` fact's ``"where"``."""

    on: str | None = None
    in_: str | None = None
    room: str | None = None
    part_of: str | None = None

    def is_empty(self) -> bool:
        return self.on is None and self.in_ is None and self.room is None and self.part_of is None


@dataclass(frozen=True)
class Exists:
    """Some object of type (or role) ``ref`` matches ``where``, ``attrs`` and ``states``."""

    ref: str
    as_: str | None = None
    where: Where = field(default_factory=Where)
    attrs: Mapping[str, str] = field(default_factory=dict)
    states: Mapping[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Absent:
    """No object of type (or role) ``ref`` matches ``where``, ``attrs`` and ``states``."""

    ref: str
    where: Where = field(default_factory=Where)
    attrs: Mapping[str, str] = field(default_factory=dict)
    states: Mapping[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class Related:
    """``subject`` is ``on``/``in``/``near`` ``target``."""

    relation: str
    subject: str
    target: str


@dataclass(frozen=True)
class Held:
    """The agent holds ``ref``."""

    ref: str


@dataclass(frozen=True)
class State:
    """``ref`` is in every one of ``states``."""

    ref: str
    states: Mapping[str, bool]


@dataclass(frozen=True)
class Attr:
    """``ref`` has every one of ``attrs``."""

    ref: str
    attrs: Mapping[str, str]


@dataclass(frozen=True)
class And:
    items: tuple[Fact, ...]


@dataclass(frozen=True)
class Or:
    items: tuple[Fact, ...]


@dataclass(frozen=True)
class Not:
    item: Fact


Fact: TypeAlias = Exists | Absent | Related | Held | State | Attr | And | Or | Not


def not_a_fact(fact: NoReturn) -> NoReturn:
    """Ends a ``match`` over the forms: mypy flags any form the cases above it miss (the
    argument is then not ``NoReturn``), and at run time a non-fact is a ``TypeError``."""
    raise TypeError(f"not a fact: {fact!r}")  # pragma: no cover
