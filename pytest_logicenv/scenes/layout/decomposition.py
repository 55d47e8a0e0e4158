"""The layout as a sequence of small problems, and which relations each one solves.

In dependency order: the floor of each room; the top and the inside of each receptacle,
outward from the floor (its size bounds what goes on or in it, so it is placed first); the
walls of each room; then what rests on wall-mounted objects. A relation is solved in the later
problem of the two objects it links, except that :func:`gather_linked` moves the objects of
*gathered* relations (with what they rest on) into the earlier problem, so that they are
solved together (see :func:`wall_floor_links` and :func:`stranded_relations`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from pytest_logicenv.scenes.layout.fit_checks import floor_budget
from pytest_logicenv.scenes.layout.groups import anchor_groups
from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.leave_out import Ranking
from pytest_logicenv.scenes.layout.relations import SUPPORT_RELATIONS
from pytest_logicenv.scenes.layout.room_grid import RoomPlan
from pytest_logicenv.scenes.scene_model import SceneSpec, SpatialRelation

Items = Mapping[str, Item]
#: Relations with their index in the design.
Indexed = list[tuple[int, SpatialRelation]]


@dataclass(frozen=True)
class Problem:
    """The items one Z3 problem places, named for messages."""

    label: str
    items: tuple[str, ...]
    #: What to do when the objects do not fit (the end of the error message).
    advice: str = "enlarge the rooms or move objects elsewhere"
    #: The room whose floor it places (one of the floor's groups), else None.
    floor_of: str | None = None


def problems_in_order(
    items: Items,
    spec: SceneSpec,
    plans: Mapping[str, RoomPlan],
    decompose: bool,
    ranking: Ranking,
) -> list[Problem]:
    """The small problems in dependency order (or one problem for everything)."""
    if not decompose:
        return [Problem("the whole house (one model)", tuple(items))]
    problems = [
        group
        for room in spec.rooms
        for group in _floor_groups(room.id, items, spec, plans[room.id], ranking)
    ]
    problems += _surface_problems((i.id for i in items.values() if i.kind == "floor"), items)
    problems += [_wall_problem(room.id, items) for room in spec.rooms]
    problems += _surface_problems((i.id for i in items.values() if i.kind == "wall"), items)
    return [problem for problem in problems if problem.items]


def _floor_problem(room: str, items: Items) -> Problem:
    ids = tuple(i.id for i in items.values() if i.kind in ("floor", "agent") and i.room == room)
    return Problem(
        f"the floor of room {room!r}",
        ids,
        "they do not fit together with the doors' clearances (as deep as each door "
        "is wide) and the agent's start; enlarge the room or move objects to another "
        "room",
        floor_of=room,
    )


def _floor_groups(
    room: str, items: Items, spec: SceneSpec, plan: RoomPlan, ranking: Ranking
) -> list[Problem]:
    """The floor of ``room`` in anchor groups (one problem, when it is not crowded)."""
    floor = _floor_problem(room, items)
    taken = sum(items[i].obj.size[0] * items[i].obj.size[2] for i in floor.items)
    free = floor_budget(spec, plan, items, ranking).free
    crowding = taken / free if free > 0 else float("inf")
    groups = anchor_groups(floor.items, spec, ranking, crowding)
    if len(groups) == 1:
        return [floor]
    return [
        replace(floor, label=f"{floor.label} (group {n + 1} of {len(groups)})", items=group)
        for n, group in enumerate(groups)
    ]


def _wall_problem(room: str, items: Items) -> Problem:
    ids = tuple(i.id for i in items.values() if i.kind == "wall" and i.room == room)
    return Problem(
        f"the walls of room {room!r}",
        ids,
        "they do not fit on the stretches of wall that doors, windows and furniture "
        "against the walls leave free; hang fewer or move furniture",
    )


def _surface_problems(roots: Iterable[str], items: Items) -> list[Problem]:
    """The tops and insides of the ``roots`` and of all they hold, a level at a time."""
    problems: list[Problem] = []
    frontier = list(roots)
    while frontier:
        next_frontier: list[str] = []
        for parent_id in frontier:
            for kind in ("on", "in"):
                ids = tuple(
                    i.id for i in items.values() if i.parent == parent_id and i.kind == kind
                )
                if ids:
                    problems.append(_surface_problem(parent_id, kind, ids, items))
                    next_frontier.extend(ids)
        frontier = next_frontier
    return problems


def _surface_problem(parent_id: str, kind: str, ids: tuple[str, ...], items: Items) -> Problem:
    where = "the top of" if kind == "on" else "the inside of"
    room = items[parent_id].room
    size = items[parent_id].obj.size
    return Problem(
        f"{where} {parent_id!r} in room {room!r}",
        ids,
        f"they do not fit together {kind} {parent_id!r} "
        f"({size[0]:.2f} x {size[2]:.2f} m); use a larger support or "
        "put some of them elsewhere",
    )


# --------------------------------------------------------------------------- gathering


def gather_linked(
    steps: Sequence[Problem], items: Items, relations: Sequence[SpatialRelation]
) -> list[Problem]:
    """Move the objects each relation links into one problem, the earliest of theirs (with
    the supports they rest on, and what shares their support): a picture ``above`` the sofa is
    then hung while the sofa is placed, not after it (when the sofa may stand where no picture
    can be above it)."""
    members = [list(step.items) for step in steps]
    step_of = {item_id: n for n, step in enumerate(steps) for item_id in step.items}
    linked = [
        (items[r.subject], items[r.target])
        for r in relations
        if r.target is not None
        and r.kind not in SUPPORT_RELATIONS
        and items[r.subject].room == items[r.target].room
    ]
    moved = True
    while moved:
        moved = False
        for a, b in linked:
            first = min(step_of[a.id], step_of[b.id])
            for link in (*a.chain, *b.chain):
                if step_of[link] <= first:
                    continue
                for other in _moving_with(link, members[step_of[link]], items):
                    members[step_of[other]].remove(other)
                    members[first].append(other)
                    step_of[other] = first
                moved = True
    return [
        replace(step, items=tuple(sorted(ids, key=lambda i: items[i].order)))
        for step, ids in zip(steps, members, strict=True)
        if ids
    ]


def _moving_with(link: str, members: Sequence[str], items: Items) -> list[str]:
    """``link`` and, of its problem's ``members``, what rests on the same receptacle the same
    way: they must be packed together."""
    source = items[link]
    return [
        other
        for other in members
        if other == link
        or (
            source.kind in ("on", "in")
            and items[other].parent == source.parent
            and items[other].kind == source.kind
        )
    ]


def wall_floor_links(spec: SceneSpec, items: Items) -> dict[int, SpatialRelation]:
    """The relations gathered from the start: those between something on a wall and something
    standing on the floor in the same room (a picture above the sofa, a switch near the desk:
    the furniture must stand where that is possible)."""
    return {
        index: relation
        for index, relation in enumerate(spec.relations)
        if relation.target is not None
        and relation.kind not in SUPPORT_RELATIONS
        and {items[items[relation.subject].root].kind, items[items[relation.target].root].kind}
        == {"wall", "floor"}
        and items[relation.subject].room == items[relation.target].room
    }


def stranded_relations(
    spec: SceneSpec,
    steps: Sequence[Problem],
    items: Items,
    dropped: Mapping[int, SpatialRelation],
    left_out: Collection[str],
) -> dict[int, SpatialRelation]:
    """The dropped relations between objects of two problems in the same room: gathered, they
    may hold (so they are only dropped if they cannot be met even so). Not those between two
    groups of one floor (the groups are there to keep each problem small), nor those naming
    an object left out."""
    step_of = {item_id: n for n, step in enumerate(steps) for item_id in step.items}

    def both_floor(a: str, b: str) -> bool:
        first, second = steps[step_of[a]].floor_of, steps[step_of[b]].floor_of
        return first is not None and first == second

    return {
        index: spec.relations[index]
        for index, relation in dropped.items()
        if relation.target is not None
        and relation.subject not in left_out
        and relation.target not in left_out
        and step_of[relation.subject] != step_of[relation.target]
        and items[relation.subject].room == items[relation.target].room
        and not both_floor(relation.subject, relation.target)
    }


def assign_relations(steps: Sequence[Problem], spec: SceneSpec) -> dict[int, Indexed]:
    """The relations each problem (by its number) solves: those whose later object it places."""
    step_of = {item_id: n for n, step in enumerate(steps) for item_id in step.items}
    assigned: dict[int, Indexed] = {}
    for index, relation in enumerate(spec.relations):
        names = [relation.subject] + ([relation.target] if relation.target else [])
        assigned.setdefault(max(step_of[n] for n in names), []).append((index, relation))
    return assigned
