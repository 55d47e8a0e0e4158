"""Binding a ground truth's roles to the objects of a scene it did not make, by their facts.

A role is the object its facts describe, never merely the first free object of its type: the
judge searches the bindings (backtracking, distinct objects for distinct roles, each fact
checked as soon as every role it names is bound, at most :data:`MAX_NODES` steps) for one
under which the facts hold. Each role also keeps what the setting says of *which* object it
is (its room, its attributes, what it is a part of: :func:`identity_of`), whatever a path
says of where it is or what state it is in: the study window is never the kitchen's, the
top shelf never one whose level is ``bottom``. Attributes are matched exactly where some
binding allows it, else only where the object has a value of its own for them.

The bound world declares the ground truth's roles (the facts ``role_names``), so a model's
object id that happens to be a role's name stands for nothing unless bound to it.

>>> from pytest_logicenv.logic.facts import parse_facts
>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> room = Room("r", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> scene = Scene("s", rooms=(room,), objects=(
...     SceneObject("red_box", "ToyBox", room="r", attrs={"colour": "white"}),
...     SceneObject("box_b", "ToyBox", room="r", attrs={"colour": "red"}),
...     SceneObject("teddy", "Toy", room="r", parent="box_b", relation="in")))
>>> setting = parse_facts([{"exists": "ToyBox", "as": "red_box", "attrs": {"colour": "red"}}],
...                       "setting")
>>> roles = Roles.of(setting, {"red_box": "ToyBox"})
>>> bind(parse_facts([{"in": ["Toy", "red_box"]}], "facts"), scene, roles)
{'red_box': 'box_b'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pytest_logicenv.logic.facts import (
    FLOOR,
    Attr,
    Exists,
    Fact,
    ObjectView,
    Where,
    World,
    evaluate_all,
    is_type_ref,
    references,
)

#: Search steps per binding at most: plans bind a handful of roles to a few objects each.
MAX_NODES = 20_000


@dataclass(frozen=True)
class Roles:
    """The ground truth's roles: each one's type, the facts that say which object it is
    (room, whole) and the attributes the setting gives it."""

    types: Mapping[str, str]
    identity: Mapping[str, tuple[Fact, ...]] = field(default_factory=dict)
    attrs: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, setting: Sequence[Fact], types: Mapping[str, str]) -> Roles:
        identity, attrs = identity_of(setting, types)
        return cls(dict(types), identity, attrs)

    def fits(self, role: str, obj: ObjectView, *, strict: bool) -> bool:
        """Whether ``obj`` may be ``role`` by type and attributes: ``strict``, every attribute
        the setting gives it; else none different (an object that has no value for an
        attribute, as a model's bowl without ``kind``, is not another one)."""
        if obj.type != self.types[role]:
            return False
        wanted = self.attrs.get(role, {})
        if strict:
            return all(obj.attrs.get(k) == v for k, v in wanted.items())
        return all(obj.attrs.get(k, v) == v for k, v in wanted.items())


def identity_of(
    setting: Sequence[Fact], types: Mapping[str, str]
) -> tuple[dict[str, tuple[Fact, ...]], dict[str, dict[str, str]]]:
    """Per role, what the setting says of which object it is: the room and whole of its
    ``exists ... as`` (as facts), and its attributes (of that fact and its ``attr`` facts);
    not where it rests nor its states, which a path may change."""
    facts: dict[str, list[Fact]] = {}
    attrs: dict[str, dict[str, str]] = {}
    for fact in setting:
        role = fact.as_ if isinstance(fact, Exists) else None
        if isinstance(fact, Exists) and role is not None and role in types:
            where = Where(room=fact.where.room, part_of=fact.where.part_of)
            if not where.is_empty():
                facts.setdefault(role, []).append(Exists(role, None, where))
            attrs.setdefault(role, {}).update(fact.attrs)
        elif isinstance(fact, Attr) and fact.ref in types:
            attrs.setdefault(fact.ref, {}).update(fact.attrs)
    return {role: tuple(found) for role, found in facts.items()}, attrs


@dataclass(frozen=True)
class _Seen:
    """An object of the scene seen under a ground-truth role (``None``: under none)."""

    obj: ObjectView
    role: str | None

    @property
    def id(self) -> str:
        return self.obj.id

    @property
    def type(self) -> str:
        return self.obj.type

    @property
    def room(self) -> str:
        return self.obj.room

    @property
    def parent(self) -> str | None:
        return self.obj.parent

    @property
    def relation(self) -> str | None:
        return self.obj.relation

    @property
    def states(self) -> Mapping[str, bool]:
        return self.obj.states

    @property
    def attrs(self) -> Mapping[str, str]:
        return self.obj.attrs

    @property
    def part_of(self) -> str | None:
        return getattr(self.obj, "part_of", None)


@dataclass(frozen=True)
class _Bound:
    """A world whose objects carry the roles of a binding, and no others; every ground-truth
    role is declared a role, so no id stands for one."""

    world: World
    entities: tuple[_Seen, ...]
    roles: frozenset[str]

    def room_type(self, room_id: str) -> str | None:
        return self.world.room_type(room_id)

    def near(self, first_id: str, second_id: str) -> bool:
        return self.world.near(first_id, second_id)


def bound_world(world: World, binding: Mapping[str, str], roles: Iterable[str]) -> _Bound:
    """``world`` with the roles of ``binding`` on their objects, ``roles`` declared."""
    role_of = {object_id: role for role, object_id in binding.items()}
    seen = tuple(_Seen(obj, role_of.get(obj.id)) for obj in world.entities)
    return _Bound(world, seen, frozenset(roles))


def is_role(ref: str) -> bool:
    return not is_type_ref(ref) and ref not in (FLOOR, "floor")


@dataclass(frozen=True)
class _Check:
    """A fact, checked once every role it names is decided; ``owner``: an identity fact of
    that role, checked only when the role is bound to an object."""

    fact: Fact
    needs: frozenset[str]
    owner: str | None = None


def bind(
    facts: Sequence[Fact],
    world: World,
    roles: Roles,
    fixed: Mapping[str, str] | None = None,
    also: Iterable[str] = (),
) -> dict[str, str] | None:
    """Roles -> object ids under which every fact (and every bound role's identity) holds in
    ``world``, extending ``fixed`` and binding ``also`` too; ``None``: under no binding found
    within the bound. A role no object can take names nothing (its ``exists`` facts fail, its
    ``absent`` ones hold)."""
    fixed = dict(fixed or {})
    facts = [_about_role(fact, roles) for fact in facts]
    names = _names(facts, roles, fixed, also)
    checks = [_Check(f, frozenset(_roles_in(f, roles))) for f in facts]
    checks += [
        _Check(f, frozenset(_roles_in(f, roles)) | {role}, role)
        for role in (*names, *fixed)
        for f in roles.identity.get(role, ())
    ]
    for strict in (True, False):
        options = {role: _options(world, roles, role, fixed, strict) for role in names}
        order = sorted(names, key=lambda role: (len(options[role]), role))
        found = _Search(world, roles, checks, order, options).run(fixed)
        if found is not None:
            return found
    return None


def _about_role(fact: Fact, roles: Roles) -> Fact:
    """``exists T as r ...`` read as what it says of the object bound to ``r``: some other
    ``T`` where ``r`` should be does not make it hold."""
    if isinstance(fact, Exists) and fact.as_ is not None and fact.as_ in roles.types:
        return Exists(fact.as_, None, fact.where, fact.attrs, fact.states)
    return fact


def _names(
    facts: Sequence[Fact], roles: Roles, fixed: Mapping[str, str], also: Iterable[str]
) -> list[str]:
    """The roles to bind: ``also`` and those the facts name, and those their identities name
    in turn."""
    todo = [*also, *(r for f in facts for r in _roles_in(f, roles))]
    names: set[str] = set()
    while todo:
        role = todo.pop()
        if role in names or role in fixed:
            continue
        names.add(role)
        todo += [r for f in roles.identity.get(role, ()) for r in _roles_in(f, roles)]
    return sorted(names)


def _roles_in(fact: Fact, roles: Roles) -> list[str]:
    return [ref for ref in references(fact) if is_role(ref) and ref in roles.types]


def _options(
    world: World, roles: Roles, role: str, fixed: Mapping[str, str], strict: bool
) -> list[str | None]:
    """The objects ``role`` may be, then none."""
    taken = set(fixed.values())
    found: list[str | None] = [
        o.id for o in world.entities if o.id not in taken and roles.fits(role, o, strict=strict)
    ]
    return [*found, None]


@dataclass
class _Search:
    world: World
    roles: Roles
    checks: list[_Check]
    order: list[str]
    options: Mapping[str, list[str | None]]
    steps: int = 0

    def run(self, fixed: Mapping[str, str]) -> dict[str, str] | None:
        decided = dict[str, str | None](fixed)
        found = self._extend(decided, 0)
        return None if found is None else {r: o for r, o in found.items() if o is not None}

    def _extend(self, decided: dict[str, str | None], depth: int) -> dict[str, str | None] | None:
        if not self._holds(decided, depth):
            return None
        if depth == len(self.order):
            return dict(decided)
        role = self.order[depth]
        taken = {o for o in decided.values() if o is not None}
        for choice in self.options[role]:
            self.steps += 1
            if self.steps > MAX_NODES:
                return None
            if choice is not None and choice in taken:
                continue
            found = self._extend({**decided, role: choice}, depth + 1)
            if found is not None:
                return found
        return None

    def _holds(self, decided: Mapping[str, str | None], depth: int) -> bool:
        """Whether the checks decided by the role just chosen (or, at depth 0, by the fixed
        roles alone) hold."""
        newest = self.order[depth - 1] if depth else None
        due = [
            c.fact
            for c in self.checks
            if c.needs <= decided.keys()
            and (newest in c.needs if newest else True)
            and (c.owner is None or decided[c.owner] is not None)
        ]
        binding = {r: o for r, o in decided.items() if o is not None}
        return evaluate_all(due, bound_world(self.world, binding, self.roles.types))
