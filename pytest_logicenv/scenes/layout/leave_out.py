"""Which objects the layout may leave out when a room cannot hold everything, and in what order.

A layout does its best: when not everything fits, it places a maximal subset in priority order
and records what it left out. *Essential* items are never left out: each task object, what it
rests on down to the floor or a wall, and the agent's start; one of them that cannot be placed
is an error naming it. The others go by their *effective priority*: the object's own
:attr:`~pytest_logicenv.scenes.scene_model.SceneObject.priority`, raised to that of anything resting
on it (leaving a shelf out leaves out what stands on it); the earlier in the design among
equals. :attr:`Ranking.key` sorts the most important first.

>>> from pytest_logicenv.scenes.layout.items import build_items
>>> from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec
>>> spec = SceneSpec(
...     "demo",
...     rooms=(Room("den", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3))),),
...     objects=(
...         SceneObject("lamp", "FloorLamp", room="den"),
...         SceneObject("shelf", "Shelf", room="den", properties=("receptacle",)),
...         SceneObject("vase", "Vase", parent="shelf", priority=5),
...         SceneObject("book", "Book", parent="shelf", task=True),
...     ),
... )
>>> ranking = rank_items(build_items(spec))
>>> sorted(ranking.essential)
['agent', 'book', 'shelf']
>>> ranking.order(["lamp", "vase", "shelf", "book"])
['shelf', 'book', 'vase', 'lamp']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.scene_model import PRIORITY_TASK, SpatialRelation


@dataclass(frozen=True)
class Ranking:
    """The essential items, and every item's effective priority and rank."""

    essential: frozenset[str]
    priority: Mapping[str, int]
    orders: Mapping[str, int]

    def key(self, item_id: str) -> tuple[int, int, int]:
        """Sorts the most important first: essential, then by priority, then design order."""
        return (item_id not in self.essential, -self.priority[item_id], self.orders[item_id])

    def order(self, ids: Iterable[str]) -> list[str]:
        return sorted(ids, key=self.key)

    def droppable(self, item_id: str) -> bool:
        return item_id not in self.essential

    def needs(self, relation: SpatialRelation) -> bool:
        """Whether the task needs the relation (it is never relaxed): task-critical
        (:data:`~pytest_logicenv.scenes.scene_model.PRIORITY_TASK` or more) between essential
        objects. One of that priority naming an object that may be left out ranks first
        among the relaxable ones instead: the task cannot need it without its objects."""
        names = (relation.subject, relation.target)
        return relation.priority >= PRIORITY_TASK and all(
            name in self.essential for name in names if name is not None
        )


def rank_items(
    items: Mapping[str, Item], carried: Mapping[str, tuple[bool, int]] | None = None
) -> Ranking:
    """The ranking of a design's items (:func:`~.items.build_items`). ``carried`` says, of the
    items that parts go with (a dresser and its drawers, see :mod:`~.part_split`), whether a task
    object rides with them and the highest priority that does."""
    carried = carried or {}
    essential = {
        link
        for item in items.values()
        if item.obj.task or item.kind == "agent" or carried.get(item.id, (False, 0))[0]
        for link in item.chain
    }
    priority = {
        item_id: max(item.obj.priority, carried.get(item_id, (False, 0))[1])
        for item_id, item in items.items()
    }
    for item in items.values():
        for ancestor in item.chain[:-1]:
            priority[ancestor] = max(priority[ancestor], item.obj.priority)
    for item_id in essential:
        priority[item_id] = max(priority[item_id], PRIORITY_TASK)
    orders = {item_id: item.order for item_id, item in items.items()}
    return Ranking(frozenset(essential), priority, orders)
