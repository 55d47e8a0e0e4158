"""The lookups of a world by what never changes in a run: ids, types, roles, properties, parts.

An object's id, type, role, properties and the whole it is a part of are fixed when the world
is built from its scene, so :class:`SceneIndex` is built once per scene and shared by every
world copied from it (``docs/explanation/benchmarks.md`` has the measurements). What an
object rests on changes; :class:`Children` keeps that lookup, copied on write: a world copy
shares it until one of the two moves something. Every answer lists objects in scene order, as
a scan of the whole world would.

>>> index = SceneIndex.of([("b", "Book", "book", (), None), ("s", "Sofa", None, (), None)])
>>> index.named("Book", frozenset()), index.named("s", frozenset()), index.named("x", frozenset())
(('b',), ('s',), ())
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pytest_logicenv.logic.facts import is_type_ref

#: What the index reads of one object: id, type, role, properties, the id of its whole.
Identity = tuple[str, str, "str | None", Iterable[str], "str | None"]


@dataclass(frozen=True)
class SceneIndex:
    """Object ids by type, role, property and whole, each in scene order (``order``)."""

    order: dict[str, int]
    by_type: dict[str, tuple[str, ...]]
    by_role: dict[str, tuple[str, ...]]
    by_property: dict[str, tuple[str, ...]]
    parts: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, objects: Sequence[Identity]) -> SceneIndex:
        by_type: dict[str, list[str]] = {}
        by_role: dict[str, list[str]] = {}
        by_property: dict[str, list[str]] = {}
        parts: dict[str, list[str]] = {}
        for obj_id, type_, role, properties, part_of in objects:
            by_type.setdefault(type_, []).append(obj_id)
            if role is not None:
                by_role.setdefault(role, []).append(obj_id)
            for prop in properties:
                by_property.setdefault(prop, []).append(obj_id)
            if part_of is not None:
                parts.setdefault(part_of, []).append(obj_id)
        order = {obj[0]: position for position, obj in enumerate(objects)}
        return cls(order, _frozen(by_type), _frozen(by_role), _frozen(by_property), _frozen(parts))

    def named(self, ref: str, roles: frozenset[str]) -> tuple[str, ...]:
        """The ids ``ref`` names, as the facts ``matches`` reads it: its type for a type
        reference, else its role, or its id unless ``ref`` is a declared role."""
        if is_type_ref(ref):
            return self.by_type.get(ref, ())
        found = self.by_role.get(ref, ())
        if ref in roles or ref not in self.order or ref in found:
            return found
        return self.sorted((*found, ref))

    def of_types(self, types: Iterable[str]) -> tuple[str, ...]:
        """The ids of the objects of any of ``types``."""
        return self.sorted(obj for kind in types for obj in self.by_type.get(kind, ()))

    def sorted(self, ids: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted(ids, key=self.order.__getitem__))


def _frozen(lists: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    return {key: tuple(value) for key, value in lists.items()}


class Children:
    """What rests on or in each object (parent id -> child ids, in scene order), shared by
    world copies until one of them writes: then it copies the mapping (of parents, not of
    objects) and changes its own."""

    __slots__ = ("_by_parent", "_order", "_own")

    def __init__(self, by_parent: dict[str, tuple[str, ...]], order: dict[str, int]) -> None:
        self._by_parent, self._order, self._own = by_parent, order, True

    @classmethod
    def of(cls, parents: Iterable[tuple[str, str | None]], order: dict[str, int]) -> Children:
        found: dict[str, list[str]] = {}
        for obj_id, parent in parents:
            if parent is not None:
                found.setdefault(parent, []).append(obj_id)
        return cls(_frozen(found), order)

    def of_parent(self, parent: str) -> tuple[str, ...]:
        return self._by_parent.get(parent, ())

    def share(self) -> Children:
        """A copy sharing this mapping; the next write of either copies it first."""
        self._own = False
        twin = Children(self._by_parent, self._order)
        twin._own = False
        return twin

    def move(self, obj_id: str, old: str | None, new: str | None) -> None:
        """``obj_id`` now rests on ``new`` (``None``: on nothing), no longer on ``old``."""
        if old == new:
            return
        if not self._own:
            self._by_parent, self._own = dict(self._by_parent), True
        if old is not None:
            kept = tuple(child for child in self._by_parent.get(old, ()) if child != obj_id)
            if kept:
                self._by_parent[old] = kept
            else:
                self._by_parent.pop(old, None)
        if new is not None:
            siblings = (*self._by_parent.get(new, ()), obj_id)
            self._by_parent[new] = tuple(sorted(siblings, key=self._order.__getitem__))
