"""Evaluating facts on a world: anything that implements the small :class:`World` protocol.

A generated Scene and the simulator's world state both implement it, so "the scene realizes
the trajectory" and "the goal holds" are the same code.

>>> from dataclasses import dataclass, field
>>> @dataclass
... class Thing:
...     id: str
...     type: str
...     role: str | None = None
...     room: str = "kitchen"
...     parent: str | None = None
...     relation: str | None = "on"
...     states: dict[str, bool] = field(default_factory=dict)
...     attrs: dict[str, str] = field(default_factory=dict)
>>> @dataclass
... class Room:
...     entities: list[Thing]
...     def room_type(self, room_id: str) -> str | None:
...         return "Kitchen"
...     def near(self, first_id: str, second_id: str) -> bool:
...         return False
>>> world = Room([Thing("t", "Table"), Thing("a", "Apple", parent="t")])
>>> from pytest_logicenv.logic.facts.fact_json import parse_fact
>>> evaluate(parse_fact({"on": ["Apple", "Table"]}), world)
True
>>> evaluate(parse_fact({"exists": "Apple", "where": {"on": "Floor"}}), world)
False
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Protocol

from pytest_logicenv.logic.facts.fact_model import (
    FLOOR,
    INNER_PARTS,
    Absent,
    And,
    Attr,
    Exists,
    Fact,
    Held,
    Not,
    Or,
    Related,
    State,
    Where,
    is_type_ref,
    not_a_fact,
)


class ObjectView(Protocol):
    """What the evaluator reads of one object: Scene objects and simulator objects both fit."""

    @property
    def id(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def role(self) -> str | None: ...
    @property
    def room(self) -> str: ...
    @property
    def parent(self) -> str | None:
        """Id of the object this one rests on or in; ``None`` on the floor or a wall."""
        ...

    @property
    def relation(self) -> str | None:
        """``"on"``/``"in"`` its parent (``"on"`` with no parent: the floor), ``"wall"``
        (mounted), ``"held"`` (by the agent), ``"part"`` (a part of another object: an object
        view may then have ``part_of``, that object's id, which ``where.part_of`` reads)."""
        ...

    @property
    def states(self) -> Mapping[str, bool]: ...
    @property
    def attrs(self) -> Mapping[str, str]: ...


class World(Protocol):
    """Anything facts can be evaluated on."""

    @property
    def entities(self) -> Iterable[ObjectView]:
        """Every object facts can name, windows and doors included."""
        ...

    def room_type(self, room_id: str) -> str | None:
        """The type (``Kitchen``, ...) of a room id, or ``None`` when unknown."""
        ...

    def near(self, first_id: str, second_id: str) -> bool:
        """Whether two objects are close enough to count as ``near``."""
        ...


def role_names(world: object) -> frozenset[str]:
    """The names ``world`` declares to be roles only (its ``roles``, if it has any): such a
    name is bound to an object explicitly, by the object's role, and never stands for an
    object whose id it happens to be. A scene judged against a plan it was not made from
    declares the plan's roles, so a model's object ``plate`` is not the plan's role
    ``plate`` unless bound to it."""
    return frozenset(getattr(world, "roles", ()))


class IndexedWorld(World, Protocol):
    """A world that looks its objects up itself (the simulator's, by its index): the
    evaluator then reads only the objects a fact names, not every object."""

    def named(self, ref: str) -> Sequence[ObjectView]:
        """The objects ``ref`` names (as :func:`matches` reads it), in the world's order."""
        ...

    def object_by_id(self, obj_id: str) -> ObjectView | None: ...


class _Snapshot:
    """A world's objects read once, and indexed by id, for evaluating several facts (an
    :class:`IndexedWorld` is asked instead)."""

    __slots__ = ("_by_id", "_index", "_named", "_objects", "roles", "world")

    def __init__(self, world: World) -> None:
        self.world, self.roles = world, role_names(world)
        self._objects: list[ObjectView] | None = None
        self._index: dict[str, ObjectView] | None = None
        self._named: dict[str, Sequence[ObjectView]] = {}
        indexed = callable(getattr(world, "named", None)) and hasattr(world, "object_by_id")
        self._by_id = world.object_by_id if indexed else None  # type: ignore[attr-defined]

    @classmethod
    def of(cls, world: World) -> _Snapshot:
        return cls(world)

    @property
    def objects(self) -> list[ObjectView]:
        if self._objects is None:
            self._objects = list(self.world.entities)
        return self._objects

    def get(self, obj_id: str) -> ObjectView | None:
        if self._by_id is not None:
            found: ObjectView | None = self._by_id(obj_id)
            return found
        if self._index is None:
            self._index = {obj.id: obj for obj in self.objects}
        return self._index.get(obj_id)

    def named(self, ref: str) -> Sequence[ObjectView]:
        """The objects ``ref`` names, in the world's order."""
        found = self._named.get(ref)
        if found is None:
            if self._by_id is not None:
                found = self.world.named(ref)  # type: ignore[attr-defined]
            else:
                found = [obj for obj in self.objects if matches(obj, ref, self.roles)]
            self._named[ref] = found
        return found

    def matches(self, obj: ObjectView, ref: str) -> bool:
        return matches(obj, ref, self.roles)


def matches(obj: ObjectView, ref: str, roles: Collection[str] = ()) -> bool:
    """Whether ``obj`` is what ``ref`` names: its type for a type reference; its role for a
    name in ``roles`` (the world's declared roles, :func:`role_names`); else its role or id
    (a hand-written scene's policy may name an object by its id)."""
    if is_type_ref(ref):
        return obj.type == ref
    return obj.role == ref or (obj.id == ref and ref not in roles)


def evaluate(fact: Fact, world: World) -> bool:
    """Whether ``fact`` holds in ``world``.

    References with several matching objects are read existentially: ``{"in": ["Toy",
    "Box"]}`` holds when some toy is in some box. Use roles to be precise.
    """
    return _holds(fact, _Snapshot.of(world))


def evaluate_all(facts: Iterable[Fact], world: World) -> bool:
    """Whether every fact holds (an empty list holds)."""
    snapshot = _Snapshot.of(world)
    return all(_holds(fact, snapshot) for fact in facts)


def false_facts(facts: Iterable[Fact], world: World) -> list[Fact]:
    """The facts of ``facts`` that do not hold in ``world``, in order."""
    snapshot = _Snapshot.of(world)
    return [fact for fact in facts if not _holds(fact, snapshot)]


def _holds(fact: Fact, snap: _Snapshot) -> bool:
    match fact:
        case Exists(ref, _, where, attrs, states):
            return _some_fits(snap, ref, where, attrs, states)
        case Absent(ref, where, attrs, states):
            return not _some_fits(snap, ref, where, attrs, states)
        case Related("near", subject, target):
            return _some_near(snap, subject, target)
        case Related(relation, subject, target):
            return any(_rests(obj, relation, target, snap) for obj in snap.named(subject))
        case Held(ref):
            return any(obj.relation == "held" for obj in snap.named(ref))
        case State(ref, states):
            return any(_has_states(obj, states) for obj in snap.named(ref))
        case Attr(ref, attrs):
            return any(_has_attrs(obj, attrs) for obj in snap.named(ref))
        case And(items):
            return all(_holds(item, snap) for item in items)
        case Or(items):
            return any(_holds(item, snap) for item in items)
        case Not(item):
            return not _holds(item, snap)
    not_a_fact(fact)


def selected(fact: Exists | Absent, world: World) -> list[ObjectView]:
    """The objects an ``exists``/``absent`` fact is about: those its reference names that
    meet its ``where``, ``attrs`` and ``states``, in the world's order. The simulator binds
    action targets with it, so a selector means what the same qualifiers mean in a fact."""
    snap = _Snapshot.of(world)
    return [
        obj for obj in snap.named(fact.ref) if _fits(snap, obj, fact.where, fact.attrs, fact.states)
    ]


def _some_fits(
    snap: _Snapshot,
    ref: str,
    where: Where,
    attrs: Mapping[str, str],
    states: Mapping[str, bool],
) -> bool:
    """Whether some object that ``ref`` names is ``where`` with ``attrs`` and ``states``."""
    return any(_fits(snap, obj, where, attrs, states) for obj in snap.named(ref))


def _fits(
    snap: _Snapshot,
    obj: ObjectView,
    where: Where,
    attrs: Mapping[str, str],
    states: Mapping[str, bool],
) -> bool:
    """Whether ``obj`` (one the fact's reference names) meets its qualifiers."""
    return _is_where(snap, obj, where) and _has_attrs(obj, attrs) and _has_states(obj, states)


def _some_near(snap: _Snapshot, subject: str, target: str) -> bool:
    return any(
        snap.world.near(a.id, b.id)
        for a in snap.named(subject)
        for b in snap.named(target)
        if b.id != a.id
    )


def _is_where(snap: _Snapshot, obj: ObjectView, where: Where) -> bool:
    """Whether ``obj`` meets every qualifier of ``where``; a new qualifier is tested here."""
    if where.on is not None and not _rests(obj, "on", where.on, snap):
        return False
    if where.in_ is not None and not _rests(obj, "in", where.in_, snap):
        return False
    if where.part_of is not None and not _part_of(obj, where.part_of, snap):
        return False
    return where.room is None or _in_room(snap.world, obj, where.room)


def _part_of(obj: ObjectView, whole: str, snap: _Snapshot) -> bool:
    """Whether ``obj`` is a part of something ``whole`` names, or a part of a part of it.
    An object without a ``part_of`` field is a part of nothing (windows and doors, say)."""
    seen = {obj.id}
    owner_id: str | None = getattr(obj, "part_of", None)
    while owner_id is not None and owner_id not in seen:
        owner = snap.get(owner_id)
        if owner is None:
            return False
        if snap.matches(owner, whole):
            return True
        seen.add(owner_id)
        owner_id = getattr(owner, "part_of", None)
    return False


def _rests(obj: ObjectView, relation: str, target: str, snap: _Snapshot) -> bool:
    """Whether ``obj`` rests ``relation`` (on/in) something that ``target`` names."""
    if target in (FLOOR, "floor"):
        return relation == "on" and obj.parent is None and obj.relation == "on"
    if obj.relation != relation or obj.parent is None:
        return False
    parent = snap.get(obj.parent)
    if parent is None:
        return False
    if snap.matches(parent, target):
        return True
    whole = snap.get(getattr(parent, "part_of", None) or "")
    inside = relation == "in" and whole is not None and INNER_PARTS.get(whole.type) == parent.type
    return inside and whole is not None and snap.matches(whole, target)


def _in_room(world: World, obj: ObjectView, room: str) -> bool:
    """Whether ``obj`` is in ``room`` (an id or type); a door is in both rooms it joins (an
    object view may have ``rooms``, every room it is in)."""
    rooms = getattr(obj, "rooms", None) or (obj.room,)
    return any(r == room or world.room_type(r) == room for r in rooms)


def _has_attrs(obj: ObjectView, attrs: Mapping[str, str]) -> bool:
    return all(obj.attrs.get(name) == value for name, value in attrs.items())


def _has_states(obj: ObjectView, states: Mapping[str, bool]) -> bool:
    return all(obj.states.get(name, False) == flag for name, flag in states.items())
