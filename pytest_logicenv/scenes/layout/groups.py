"""A crowded floor in small problems: anchor groups, most important first.

Z3's effort on a floor grows much faster than its objects, so a crowded floor (see
:data:`CROWDED`) is placed a group at a time, each a problem of its own with the groups before
it fixed (the measurements: ``docs/explanation/layout.md``, "Why these numbers"). The first
group holds the essential items (the task objects, what holds them, the agent's start); every
group grows from its *anchor*, the most important item not yet grouped, through the relations
that link it to others (a sofa, then the coffee table in front of it, the armchair facing it,
...) and, when those run out, the next items in priority order. A relation between two groups is
solved with the later one, the earlier group's objects fixed.

>>> from pytest_logicenv.scenes.layout.items import build_items
>>> from pytest_logicenv.scenes.layout.leave_out import rank_items
>>> from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec, SpatialRelation
>>> things = tuple(SceneObject(f"o{n}", "Box", room="r") for n in range(6))
>>> spec = SceneSpec("s", rooms=(Room("r", "Den", ((0, 0), (5, 0), (5, 5), (0, 5))),),
...                  objects=things, relations=(SpatialRelation("near", "o4", "o1"),))
>>> items = build_items(spec)
>>> anchor_groups(list(items), spec, rank_items(items), crowding=1.0, size=4)  # o4 joins o1
[('o0', 'o1', 'o4', 'agent'), ('o2', 'o3', 'o5')]
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.scenes.layout.leave_out import Ranking
from pytest_logicenv.scenes.scene_model import SceneSpec

#: Items per problem on a crowded floor: fewer drop more relations, more take longer
#: (measured: docs/explanation/layout.md, "Why these numbers").
GROUP_SIZE = 8
#: A floor is split into groups when it holds more than ``2 * GROUP_SIZE`` items, or more than
#: ``GROUP_SIZE`` whose footprints cover more than this share of its free floor: one problem
#: keeps more relations, but a crowded one may take Z3 its whole budget to find it cannot
#: hold all.
CROWDED = 0.5
#: Relations that restate supports link nothing on the floor.
_SUPPORTS = ("in", "on_top_of", "mounted_on_wall")


def anchor_groups(
    ids: Sequence[str],
    spec: SceneSpec,
    ranking: Ranking,
    crowding: float = 0.0,
    size: int = GROUP_SIZE,
) -> list[tuple[str, ...]]:
    """``ids`` (one floor's items, covering ``crowding`` of its free floor) in groups of about
    ``size``, in the order to solve them; each group in the order of ``ids``. A floor that
    needs no split (see :data:`CROWDED`) is one group."""
    if len(ids) <= size or (len(ids) <= 2 * size and crowding <= CROWDED):
        return [tuple(ids)]
    members = set(ids)
    links: dict[str, set[str]] = {i: set() for i in ids}
    for relation in spec.relations:
        target = relation.target
        if relation.kind in _SUPPORTS or target is None:
            continue
        if relation.subject in members and target in members:
            links[relation.subject].add(target)
            links[target].add(relation.subject)
    left = ranking.order(ids)
    groups: list[list[str]] = []
    while left:
        group = [i for i in left if not ranking.droppable(i)] if not groups else []
        group = group or [left[0]]
        _grow(group, left, links, ranking, size)
        left = [i for i in left if i not in group]
        groups.append(group)
    position = {item_id: n for n, item_id in enumerate(ids)}
    return [tuple(sorted(group, key=position.__getitem__)) for group in groups]


def _grow(
    group: list[str], left: Sequence[str], links: dict[str, set[str]], ranking: Ranking, size: int
) -> None:
    """Add to ``group``, up to ``size`` items, what its members are linked to (nearest links
    and most important first) and, when that runs out, the next of ``left`` (and so on from
    there)."""
    frontier = list(group)
    while len(group) < size:
        if frontier:
            linked = ranking.order(
                i for i in links[frontier.pop(0)] if i not in group and i in left
            )
            added = linked[: size - len(group)]
        else:
            added = next(([i] for i in left if i not in group), [])
            if not added:
                return
        group += added
        frontier += added
