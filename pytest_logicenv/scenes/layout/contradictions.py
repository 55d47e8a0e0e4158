"""Relations no layout can meet together, found before solving.

Some pairs of relations on the same objects contradict each other by definition, whatever the
sizes and the room: ``near`` and ``far``, ``above`` and ``far``, ``in_front_of`` and
``side_of`` (of one object to another), ``middle`` and ``edge`` or ``corner`` (for an object
on the floor). Two task-critical ones are an error (:func:`contradiction_problems`: the task
needs both); otherwise the less important one is dropped before solving (:func:`precluded`),
with no time spent finding out.

>>> from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec, SpatialRelation
>>> spec = SceneSpec("s", rooms=(Room("r", "Den", ((0, 0), (4, 0), (4, 4), (0, 4))),),
...     objects=(SceneObject("a", "Box", room="r"), SceneObject("b", "Box", room="r")),
...     relations=(SpatialRelation("near", "a", "b"), SpatialRelation("far", "b", "a")))
>>> precluded(spec)
{1: (SpatialRelation(kind='far', subject='b', target='a', priority=1, reason=''), \
'contradicts near(a, b): no layout meets both')}
"""

from __future__ import annotations

from collections.abc import Mapping

from pytest_logicenv.errors import Violation
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_TASK,
    SceneObject,
    SceneSpec,
    SpatialRelation,
)

#: Kinds no two objects (or one object on the floor) meet together, whatever the layout: near
#: means at most 1 m apart and far at least 1.5 m; above puts one over the other (0 m apart);
#: in front of puts the subject's centre across the target's width, beside it outside; the
#: middle keeps 0.5 m from the walls, the edge and the corner 0.15 m at most.
NEVER_TOGETHER = (
    frozenset({"near", "far"}),
    frozenset({"above", "far"}),
    frozenset({"in_front_of", "side_of"}),
    frozenset({"edge", "middle"}),
    frozenset({"corner", "middle"}),
)


def _contradictions(
    spec: SceneSpec, objects: Mapping[str, SceneObject]
) -> list[tuple[int, SpatialRelation, int, SpatialRelation]]:
    """Pairs of relations (with their indices) that no layout can meet together."""
    found = []
    for i, first in enumerate(spec.relations):
        for j in range(i + 1, len(spec.relations)):
            second = spec.relations[j]
            if frozenset({first.kind, second.kind}) not in NEVER_TOGETHER:
                continue
            same_pair = {first.subject, first.target} == {second.subject, second.target}
            ordered = (first.subject, first.target) == (second.subject, second.target)
            if first.target is None:
                on_floor = objects[first.subject].parent is None
                same_pair = same_pair and on_floor
            if first.kind in ("in_front_of", "side_of"):
                same_pair = ordered
            if same_pair and not _rooms_apart(first, objects):
                found.append((i, first, j, second))
    return found


def contradiction_problems(spec: SceneSpec, objects: Mapping[str, SceneObject]) -> list[Violation]:
    """Task-critical relations that contradict each other: the task needs both."""
    return [
        Violation(
            "contradiction",
            f"relations[{j}] {second}",
            f"contradicts relations[{i}] {first}: no layout meets both; both are "
            "task-critical, so drop one or lower its priority",
        )
        for i, first, j, second in _contradictions(spec, objects)
        if min(first.priority, second.priority) >= PRIORITY_TASK
    ]


def precluded(spec: SceneSpec) -> dict[int, tuple[SpatialRelation, str]]:
    """The relations to drop before solving, by index, with the reason: of two that no layout
    meets together (one of them not task-critical), the less important (the later among
    equals)."""
    objects = {obj.id: obj for obj in spec.objects}
    out: dict[int, tuple[SpatialRelation, str]] = {}
    for i, first, j, second in _contradictions(spec, objects):
        if i in out or j in out:
            continue
        if first.priority < second.priority:
            out[i] = first, f"contradicts {second}: no layout meets both"
        else:
            out[j] = second, f"contradicts {first}: no layout meets both"
    return out


def _rooms_apart(relation: SpatialRelation, objects: Mapping[str, SceneObject]) -> bool:
    """Whether the relation's objects are in different rooms (then only ``far`` holds, and
    the layout drops the rest saying so)."""
    if relation.target is None:
        return False
    return _room(relation.subject, objects) != _room(relation.target, objects)


def _room(object_id: str, objects: Mapping[str, SceneObject]) -> str:
    """The room of what the object rests on, down to the floor or a wall."""
    obj, seen = objects[object_id], {object_id}
    while obj.parent is not None and obj.parent in objects and obj.parent not in seen:
        seen.add(obj.parent)
        obj = objects[obj.parent]
    return obj.room
