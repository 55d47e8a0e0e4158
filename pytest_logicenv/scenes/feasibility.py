"""Whether a plan can be made into scenes, checked before any scene is made.

The plan rules (:mod:`pytest_logicenv.logic.rules`) judge a plan's shape; the scene stages
judge its facts against the world model, and they run only after a plan is accepted. For a
plan an LLM derives, that is too late: the model must hear of a dirty Painting while it can
still fix it. :func:`world_violations` runs what the later stages would find, in this order,
each as :class:`~pytest_logicenv.errors.Violation` s located in the plan:

* **capabilities** (``capability``): every state a fact asks of an object is one its type can
  have (a Mirror can be dirty, a Painting cannot), every attribute value one its type has;
* **rooms** (``room``): every room a fact names is a room type and, when the task's rooms are
  given, one of them; in a task with several rooms, every object the setting and the
  realizations require has its room stated, or rests on, in or is a part of an object whose
  room is;
* **designs** (``design``): each decision path, alone with the setting, is designed by the
  procedural designer with the task objects only (no layout, a millisecond or two): supports
  that hold, parts that attach to a whole that has them, references that resolve, facts that
  do not contradict; then the situations the run's strategy selects, as scene building
  selects them, excluding combinations no design holds.

What needs the layout (whether everything fits in the room) is left to it.

>>> from pytest_logicenv.logic.plan import plan_from_paper
>>> from pytest_logicenv.logic.facts import parse_facts
>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> plan = plan_from_paper([{"Is the picture dirty?": {"YES": "Wipe it.", "NO": "Leave it."}}])
>>> plan = type(plan)(plan.task, plan.subtasks, parse_facts(
...     [{"exists": "Painting", "as": "picture", "states": {"dirty": True}}], "setting"))
>>> for violation in world_violations(plan, default_catalog()):
...     print(violation.code, violation.location)
capability setting[0]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pytest_logicenv.errors import LogicEnvError, SceneError, Violation
from pytest_logicenv.logic.facts import (
    FLOOR,
    Absent,
    And,
    Attr,
    Exists,
    Fact,
    Or,
    Related,
    State,
    Where,
    bound_roles,
    is_type_ref,
    walk,
)
from pytest_logicenv.logic.plan import Plan, located_facts
from pytest_logicenv.logic.trajectories import (
    DecisionPath,
    make_trajectory,
    plan_paths,
    select,
)
from pytest_logicenv.scenes.catalog import STATE_PROPERTY, Catalog, ObjectType
from pytest_logicenv.scenes.design import Enrichment, design_scene, room_type
from pytest_logicenv.vocabulary import a_or_an

#: Seeds a design is tried with before a situation counts as impossible, as scene building
#: tries them (an ``or`` fact takes another branch with another seed).
DESIGN_SEEDS = 3
_SEED_STRIDE = 7919
#: Types that are openings, placed between rooms or in walls, not objects with a room.
_NO_ROOM = frozenset({"Door", FLOOR})


def world_violations(
    plan: Plan, catalog: Catalog, *, strategy: str = "minimal", seed: int = 0
) -> list[Violation]:
    """Everything the scene stages would reject in ``plan``, before they run: capabilities
    and rooms first; the designs only when those hold (their errors would repeat them)."""
    found = [*capability_violations(plan, catalog), *room_violations(plan)]
    if found:
        return found
    return design_violations(plan, catalog, strategy=strategy, seed=seed)


# --------------------------------------------------------------------------- capabilities


def _role_types(plan: Plan) -> dict[str, str]:
    roles: dict[str, str] = {}
    for _, fact in located_facts(plan):
        for role, type_name in bound_roles(fact).items():
            roles.setdefault(role, type_name)
    return roles


def capability_violations(plan: Plan, catalog: Catalog) -> list[Violation]:
    """Every state and attribute value a fact asks of a type that cannot have it."""
    roles = _role_types(plan)
    found: dict[str, list[str]] = {}  # message -> its locations: each problem said once
    for location, fact in located_facts(plan):
        for item in walk(fact):
            asked = _asked_of(item)
            if asked is None:
                continue
            ref, states, attrs = asked
            name = ref if is_type_ref(ref) else roles.get(ref, "")
            if not catalog.has(name):
                continue  # an unknown type or role: the plan rules say so
            obj_type = catalog.type(name)
            for message in (
                *_state_problems(obj_type, ref, states, catalog),
                *_attr_problems(obj_type, ref, attrs),
            ):
                found.setdefault(message, []).append(location)
    return [
        Violation(
            "capability",
            locations[0],
            message + (f" (asked in {len(locations)} places)" if len(locations) > 1 else ""),
        )
        for message, locations in found.items()
    ]


def _asked_of(fact: Fact) -> tuple[str, Sequence[str], dict[str, str]] | None:
    """The reference a fact asks states or attributes of, and which."""
    if isinstance(fact, Exists | Absent):
        return fact.ref, tuple(fact.states), dict(fact.attrs)
    if isinstance(fact, State):
        return fact.ref, tuple(fact.states), {}
    if isinstance(fact, Attr):
        return fact.ref, (), dict(fact.attrs)
    return None


def _state_problems(
    obj_type: ObjectType, ref: str, states: Sequence[str], catalog: Catalog
) -> Iterator[str]:
    for state in states:
        needed = STATE_PROPERTY.get(state)
        if needed is None or obj_type.has(needed):
            continue
        able = sorted(t.name for t in catalog.types.values() if t.has(needed))
        shown = ", ".join(able[:10]) + (f" and {len(able) - 10} more" if len(able) > 10 else "")
        named = ref if ref == obj_type.name else f"{ref} ({a_or_an(obj_type.name)})"
        yield (
            f"{named} cannot be {state}: {a_or_an(obj_type.name)} is not {needed}; use a type that "
            f"can be ({shown}), or ask about something {a_or_an(obj_type.name)} can be"
        )


def _attr_problems(obj_type: ObjectType, ref: str, attrs: dict[str, str]) -> Iterator[str]:
    for name, value in attrs.items():
        allowed = obj_type.attrs.get(name)
        if allowed and value not in allowed:
            yield (
                f"{ref}: {a_or_an(obj_type.name)} has {name} {' or '.join(allowed)}, "
                f"not {value!r}; use one of them"
            )


# --------------------------------------------------------------------------- rooms


def room_violations(plan: Plan) -> list[Violation]:
    """Rooms that do not exist or are not the task's; in a task with several rooms, the
    objects whose room is not stated."""
    task_rooms = {kind for kind in map(_room_type, plan.rooms) if kind is not None}
    found = []
    for location, fact in located_facts(plan):
        for item in walk(fact):
            if isinstance(item, Exists | Absent) and item.where.room is not None:
                problem = _room_problem(item.where.room, task_rooms)
                if problem:
                    found.append(Violation("room", location, problem))
    if len(task_rooms) > 1 and not found:
        found += _rooms_not_stated(plan, sorted(task_rooms))
    return found


def _room_type(name: str) -> str | None:
    try:
        return room_type(name)
    except SceneError:
        return None


def _room_problem(name: str, task_rooms: set[str]) -> str:
    try:
        kind = room_type(name)
    except SceneError as error:
        return str(error)
    if task_rooms and kind not in task_rooms:
        return (
            f"room {name!r} is not one of the task's rooms ({', '.join(sorted(task_rooms))}); "
            "put the object in one of them"
        )
    return ""


@dataclass(frozen=True)
class _Placed:
    """A positive ``exists`` fact of the setting or a realization, where it is."""

    location: str
    fact: Exists


def _required(plan: Plan) -> list[_Placed]:
    """The objects the setting and the realizations require (``exists`` not under a
    ``not``), and the placements ``on``/``in`` facts add."""
    found = []
    for location, fact in located_facts(plan):
        if ".goal[" in location:
            continue
        found += [_Placed(location, item) for item in _positive(fact)]
    return found


def _positive(fact: Fact) -> Iterator[Exists]:
    """The objects a fact requires, not under a ``not``; an ``on``/``in`` fact places its
    subject as an ``exists`` with that ``where`` would."""
    if isinstance(fact, Exists):
        yield fact
    elif isinstance(fact, Related) and fact.relation == "on":
        yield Exists(fact.subject, None, Where(on=fact.target))
    elif isinstance(fact, Related) and fact.relation == "in":
        yield Exists(fact.subject, None, Where(in_=fact.target))
    elif isinstance(fact, And | Or):
        for item in fact.items:
            yield from _positive(item)


def _rooms_not_stated(plan: Plan, rooms: list[str]) -> list[Violation]:
    required = _required(plan)
    roomed: set[str] = set()
    changed = True
    while changed:  # a role has a room when it is given one, or rests where one is
        changed = False
        for placed in required:
            role = _role_of(placed.fact)
            if role is not None and role not in roomed and _has_room(placed.fact, roomed):
                roomed.add(role)
                changed = True
    found = []
    for placed in required:
        fact = placed.fact
        role = _role_of(fact)
        if fact.ref in _NO_ROOM or _has_room(fact, roomed) or role in roomed:
            continue
        if _rests_on_role(fact):
            continue  # it is where its support or whole is: that one is told
        found.append(
            Violation(
                "room",
                placed.location,
                f"this task has several rooms ({', '.join(rooms)}): say which one "
                f'{role or "a " + fact.ref} is in, e.g. "where": {{"room": "{rooms[0]}"}}, '
                "or put it on or in an object (or make it a part of one) whose room is stated",
            )
        )
    return found


def _rests_on_role(fact: Exists) -> bool:
    where = fact.where
    return any(
        ref is not None and not is_type_ref(ref) and ref != "floor"
        for ref in (where.on, where.in_, where.part_of)
    )


def _role_of(fact: Exists) -> str | None:
    if fact.as_ is not None:
        return fact.as_
    return None if is_type_ref(fact.ref) else fact.ref


def _has_room(fact: Exists, roomed: set[str]) -> bool:
    where = fact.where
    if where.room is not None:
        return True
    return any(ref in roomed for ref in (where.on, where.in_, where.part_of) if ref is not None)


# --------------------------------------------------------------------------- designs


def design_violations(
    plan: Plan, catalog: Catalog, *, strategy: str = "minimal", seed: int = 0
) -> list[Violation]:
    """The setting if no design holds it; else each decision path that no design holds
    (one violation per problem, naming the paths it stops); else, when every path alone is
    fine, a selection that no combination of designable situations makes."""
    problem = _design_problem(plan, None, catalog, seed)
    if problem is not None:
        return [Violation("design", "setting", f"no scene can hold the setting: {problem}")]
    stopped: dict[str, list[str]] = {}  # problem -> the paths it stops
    for group in plan_paths(plan):
        for path in group:
            problem = _design_problem(plan, (path,), catalog, seed)
            if problem is not None:
                stopped.setdefault(problem, []).append(path.key)
    if stopped:
        return [
            Violation(
                "design",
                f"path {keys[0]}",
                f"no scene can hold this situation: {problem}"
                + (f" (also paths {', '.join(keys[1:])})" if len(keys) > 1 else ""),
            )
            for problem, keys in stopped.items()
        ]
    return _selection_violations(plan, catalog, strategy, seed)


def _selection_violations(
    plan: Plan, catalog: Catalog, strategy: str, seed: int
) -> list[Violation]:
    """Whether ``strategy`` selects situations that cover every path with designable
    combinations, as scene building selects them."""
    failures: list[str] = []

    def feasible(combo: Sequence[DecisionPath]) -> bool:
        problem = _design_problem(plan, tuple(combo), catalog, seed)
        if problem is not None:
            failures.append(f"{make_trajectory(combo).id}: {problem}")
        return problem is None

    try:
        select(plan, strategy, feasible)
    except LogicEnvError as error:
        why = "; ".join(failures[:3])
        return [Violation("design", "plan", f"{error}{f' ({why})' if why else ''}")]
    return []


def _design_problem(
    plan: Plan, paths: tuple[DecisionPath, ...] | None, catalog: Catalog, seed: int
) -> str | None:
    """Why no design with the task objects alone holds these paths (``None``: the setting
    alone), or ``None`` when one does."""
    trajectory = None if paths is None else make_trajectory(paths)
    problem = None
    for attempt in range(DESIGN_SEEDS):
        try:
            design_scene(
                plan,
                trajectory,
                seed=seed + attempt * _SEED_STRIDE,
                catalog=catalog,
                enrichment=Enrichment(),
            )
        except LogicEnvError as error:
            problem = problem or str(error)
            continue
        return None
    return problem
