"""Parts: objects that belong to another and come with it (the drawers of a dresser).

How AI2-THOR does it, and so how we do. In AI2-THOR a piece of furniture and its drawers,
cabinets, shelves or basin are one asset (a Unity prefab): the parent is a SimObject and each
part a SimObject nested in it, with its own type, properties and state (a drawer opens, a
basin is a receptacle, a stove knob toggles the burner it controls). ProcTHOR's house JSON
therefore lists only the parent (``assetId`` ``Dresser_205_1``); AI2-THOR spawns the parts
with it and names them after it (``<parent id>___<n>``; an iTHOR sink's basin is
``Sink|...|SinkBasin``). A part has no position of its own in the house: it moves with its
parent, and things rest in it (an apple in a drawer) as in any receptacle.

We keep that shape. A part is a scene object of its own type (so facts, conditions and
actions name it like any object: ``{"exists": "Drawer", "where": {"part_of": "tv_stand"}}``)
whose ``part_of`` is its parent's id; it has no layout of its own (its pose is its parent's,
at a fixed offset, ``scenes/part_geometry.py``) and is exported inside its parent's asset. What a
type
is made of is :data:`PARTS` below: AI2-THOR's data does not say how many drawers each asset
has, so the counts are ours, kept small (one to four of each). ``optional`` parts come only
when a fact or a room asks for them (a kitchen's sink is set into a counter; a bathroom's
stands on its own; a cabinet in a bedroom is its dresser's, desk's or nightstand's).

>>> [(p.type, p.count) for p in PARTS["Dresser"]]
[('Drawer', 3), ('Cabinet', 2)]
>>> sorted(part_types())[:4]
['BathtubBasin', 'Cabinet', 'Drawer', 'Faucet']
>>> parent_types("Drawer")
('CounterTop', 'Desk', 'Dresser', 'SideTable', 'TVStand')
>>> part_problems({"Trophy": (PartSpec("Cup"),), "Cup": (PartSpec("Trophy"),)})["Trophy"]
'its parts lead back to it (Trophy -> Cup -> Trophy): nothing is made of itself; drop a part'
>>> part_problems(PARTS)
{}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PartSpec:
    """``count`` parts of type ``type``; ``attrs`` gives each its attributes (a shelf its
    ``level``) in order; an ``optional`` part comes only when asked for, in ``rooms`` (any room
    when empty)."""

    type: str
    count: int = 1
    attrs: tuple[Mapping[str, str], ...] = field(default_factory=tuple)
    optional: bool = False
    rooms: tuple[str, ...] = ()

    def attrs_of(self, index: int) -> Mapping[str, str]:
        """The attributes of the part at ``index`` (0-based)."""
        return self.attrs[index] if index < len(self.attrs) else {}


#: Most parts one object brings with it, its parts' parts included: the largest of ours is a
#: stove's eight, so a type file's ``{"Drawer": 8}`` nested ten deep (8**10) is refused.
MAX_PARTS_PER_OBJECT = 64

#: Parts AI2-THOR spawns as assets of their own rather than inside their whole's: ProcTHOR's
#: sink-with-faucet group puts a Faucet asset on its sink.
OWN_ASSET_PARTS = frozenset({"Faucet"})

_LEVELS = ({"level": "top"}, {"level": "middle"}, {"level": "bottom"})
# Left and right as a person standing in front of the whole, facing it, says them.
_SIDES = ({"position": "left"}, {"position": "right"})
# A kitchen's base cabinets are its lower ones; a wall cabinet's, its upper ones.
_LOWER = tuple({**side, "level": "lower"} for side in _SIDES)
_UPPER = tuple({**side, "level": "upper"} for side in _SIDES)
#: Attributes that name a part's slot in its whole (a drawer's ``position``, a shelf's
#: ``level``): a part has one only as a slot of its whole gives it.
SLOT_ATTRS = ("position", "level")
_CORNERS = (
    {"position": "front_left"},
    {"position": "front_right"},
    {"position": "back_left"},
    {"position": "back_right"},
)

#: What each type is made of. Stove burners are controlled by the knob with the same
#: ``position``, as AI2-THOR's ``controlledObjects`` pairs them.
PARTS: Mapping[str, tuple[PartSpec, ...]] = {
    "CounterTop": (
        PartSpec("Cabinet", 2, _LOWER),
        PartSpec("Drawer", 2, _SIDES),
        PartSpec("Sink", 1, optional=True, rooms=("Kitchen",)),
    ),
    # A bedroom's cabinets are its dresser's, desk's or nightstand's (AI2-THOR's bedrooms have
    # cabinets, ProcTHOR's have no counters): they come when a fact asks for one.
    "Dresser": (PartSpec("Drawer", 3, _LEVELS), PartSpec("Cabinet", 2, _SIDES, optional=True)),
    "Desk": (PartSpec("Drawer", 1), PartSpec("Cabinet", 1, optional=True)),
    "TVStand": (PartSpec("Cabinet", 2, _SIDES), PartSpec("Drawer", 1)),
    "SideTable": (PartSpec("Drawer", 1), PartSpec("Cabinet", 1, optional=True)),
    # The cabinet under a sink comes when a fact asks for it: a vanity's, or the one below a
    # kitchen sink set into its counter.
    "Sink": (
        PartSpec("SinkBasin"),
        PartSpec("Faucet"),
        PartSpec("Cabinet", 1, ({"position": "under_sink", "level": "lower"},), optional=True),
    ),
    # Hung on a wall (custom.py's WallCabinet): a kitchen's upper cabinets.
    "WallCabinet": (PartSpec("Cabinet", 2, _UPPER),),
    "Bathtub": (PartSpec("BathtubBasin"), PartSpec("Faucet")),
    "Stove": (PartSpec("StoveBurner", 4, _CORNERS), PartSpec("StoveKnob", 4, _CORNERS)),
    "ShelvingUnit": (PartSpec("Shelf", 3, _LEVELS),),
}


#: Controls and what they switch, as AI2-THOR's ``controlledObjects`` pair them: a stove knob
#: switches the burner of the same stove at the same ``position``.
CONTROLS: Mapping[str, str] = {"StoveKnob": "StoveBurner"}


def part_types(parts: Mapping[str, tuple[PartSpec, ...]] = PARTS) -> frozenset[str]:
    """Types that are always parts of something (a drawer, a faucet): never on their own.
    A type that is only an optional part (a sink) also stands alone."""
    always = {p.type for specs in parts.values() for p in specs if not p.optional}
    return frozenset(always)


def parent_types(name: str, parts: Mapping[str, tuple[PartSpec, ...]] = PARTS) -> tuple[str, ...]:
    """The types ``name`` can be a part of, sorted."""
    return tuple(
        sorted(parent for parent, specs in parts.items() if any(p.type == name for p in specs))
    )


def part_attrs(
    name: str, parts: Mapping[str, tuple[PartSpec, ...]] = PARTS
) -> dict[str, tuple[str, ...]]:
    """The attribute values parts of type ``name`` take (``{"level": ("top", ...)}``)."""
    found: dict[str, list[str]] = {}
    for specs in parts.values():
        for spec in specs:
            if spec.type != name:
                continue
            for attrs in spec.attrs:
                for key, value in attrs.items():
                    values = found.setdefault(key, [])
                    if value not in values:
                        values.append(value)
    return {key: tuple(values) for key, values in found.items()}


def part_problems(parts: Mapping[str, tuple[PartSpec, ...]]) -> dict[str, str]:
    """What is wrong with what types are made of: a type that is (through its parts) a part
    of itself, or one that brings more than :data:`MAX_PARTS_PER_OBJECT` parts, each with
    why; empty when nothing is. Without recursion, so a chain of any length is fine."""
    problems: dict[str, str] = {}
    for name in parts:
        cycle = _cycle_from(name, parts)
        if cycle is not None:
            problems[name] = (
                f"its parts lead back to it ({' -> '.join(cycle)}): nothing is made of itself; "
                "drop a part"
            )
    if problems:
        return problems
    for name, total in _part_totals(parts).items():
        if total > MAX_PARTS_PER_OBJECT and name in parts:
            problems[name] = (
                f"it brings {total} parts with it, its parts' parts included (at most "
                f"{MAX_PARTS_PER_OBJECT}); give fewer parts or smaller counts"
            )
    return problems


def _cycle_from(start: str, parts: Mapping[str, tuple[PartSpec, ...]]) -> list[str] | None:
    """A path of part types from ``start`` back to ``start``, if there is one."""
    seen: set[str] = set()
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    while stack:
        name, path = stack.pop()
        for spec in parts.get(name, ()):
            if spec.type == start:
                return [*path, start]
            if spec.type not in seen:
                seen.add(spec.type)
                stack.append((spec.type, [*path, spec.type]))
    return None


def _part_totals(parts: Mapping[str, tuple[PartSpec, ...]]) -> dict[str, int]:
    """How many parts an object of each type brings, its parts' parts included (no cycles:
    :func:`_cycle_from` found none), leaves first."""
    totals: dict[str, int] = {}
    order: list[str] = []
    stack = [(name, False) for name in parts]
    while stack:
        name, expanded = stack.pop()
        if name in totals or (not expanded and name in order):
            continue
        if expanded:
            totals[name] = sum(
                spec.count * (1 + totals.get(spec.type, 0)) for spec in parts.get(name, ())
            )
            continue
        order.append(name)
        stack.append((name, True))
        stack.extend((spec.type, False) for spec in parts.get(name, ()) if spec.type not in totals)
    return totals
