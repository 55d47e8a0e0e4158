"""Scenes judged against a ground-truth plan they were not made from (``logicenv eval
--planner llm``), as the paper measures LogCov and JI.

A model's plan names its objects by its own roles (``doll_box``), the ground truth by others
(``red_box``). A ground-truth decision path is **covered** by a scene when the realization
facts of its conditions hold there for *some* binding of the ground truth's roles to the
scene's objects of the roles' types, distinct objects for distinct roles (:func:`binding`);
the setting is the fixed context, not what the path is about, so a fruit bowl that stands on
the table rather than the counter still holds the apple the path asks for. A scene
**realizes** the ground-truth situation made of, per subtask, the longest path it covers
(:func:`ground`), and is given the ground truth's roles (bound by those facts together, then
each remaining role to an object of its type, one that meets the setting's facts if any), so
that the task's own policies, written against the ground truth, run in it with its goals and
situation.

>>> from pytest_logicenv.logic.facts import parse_facts
>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> room = Room("r", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> scene = Scene("s", rooms=(room,), objects=(
...     SceneObject("box_a", "ToyBox", room="r", attrs={"colour": "white"}),
...     SceneObject("box_b", "ToyBox", room="r", attrs={"colour": "red"}),
...     SceneObject("teddy", "Toy", room="r", parent="box_b", relation="in")))
>>> facts = parse_facts([{"exists": "ToyBox", "as": "red_box", "attrs": {"colour": "red"}},
...                      {"in": ["Toy", "red_box"]}], "facts")
>>> binding(facts, scene, {"red_box": "ToyBox"})
{'red_box': 'box_b'}
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from pytest_logicenv.logic.facts import (
    FLOOR,
    Fact,
    ObjectView,
    World,
    bound_roles,
    evaluate_all,
    is_type_ref,
    references,
)
from pytest_logicenv.logic.plan import Plan, located_facts
from pytest_logicenv.logic.trajectories import (
    DecisionPath,
    Trajectory,
    make_trajectory,
    plan_paths,
    select,
)
from pytest_logicenv.scenes.scene_model import Scene

#: Bindings tried per question at most: plans bind a handful of roles to a few objects each.
MAX_BINDINGS = 20_000


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
    """A world whose objects carry the roles of a binding, and no others."""

    world: World
    entities: tuple[_Seen, ...]

    def room_type(self, room_id: str) -> str | None:
        return self.world.room_type(room_id)

    def near(self, first_id: str, second_id: str) -> bool:
        return self.world.near(first_id, second_id)


def _bound(world: World, roles: Mapping[str, str]) -> _Bound:
    role_of = {object_id: role for role, object_id in roles.items()}
    return _Bound(world, tuple(_Seen(obj, role_of.get(obj.id)) for obj in world.entities))


def role_types(plan: Plan) -> dict[str, str]:
    """Every role the plan binds, with its type (the first binding's)."""
    found: dict[str, str] = {}
    for _, fact in located_facts(plan):
        for role, type_name in bound_roles(fact).items():
            found.setdefault(role, type_name)
    return found


def binding(facts: Sequence[Fact], world: World, types: Mapping[str, str]) -> dict[str, str] | None:
    """Roles -> object ids under which every fact holds in ``world`` (``None``: under none).
    A role is bound to an object of its type in ``types``; a role no object can take names
    nothing (its ``exists`` facts fail, its ``absent`` ones hold)."""
    roles = sorted(
        {ref for fact in facts for ref in references(fact) if _is_role(ref) and ref in types}
    )
    objects = list(world.entities)
    options = [[o.id for o in objects if o.type == types[role]] or [""] for role in roles]
    for count, choice in enumerate(itertools.product(*options)):
        if count == MAX_BINDINGS:
            break
        taken = [object_id for object_id in choice if object_id]
        if len(set(taken)) < len(taken):
            continue  # two roles, two objects
        roles_now = {role: oid for role, oid in zip(roles, choice, strict=True) if oid}
        if evaluate_all(facts, _bound(world, roles_now)):
            return roles_now
    return None


def _is_role(ref: str) -> bool:
    return not is_type_ref(ref) and ref not in (FLOOR, "floor")


def path_facts(plan: Plan, paths: Iterable[DecisionPath]) -> list[Fact]:
    """The realizations of the paths' conditions."""
    facts: list[Fact] = []
    for path in paths:
        for factor_id, value in path.conditions:
            facts += plan.factor(factor_id).realizations.get(value, ())
    return facts


def covered_paths(plan: Plan, scene: Scene) -> set[str]:
    """The keys of the plan's decision paths whose facts hold in ``scene``."""
    types = role_types(plan)
    return {
        path.key
        for group in plan_paths(plan)
        for path in group
        if binding(path_facts(plan, (path,)), scene, types) is not None
    }


@dataclass(frozen=True)
class Grounded:
    """A scene read against the ground truth: the ground-truth paths it covers, the
    situation it realizes (``None`` when some subtask has no path it covers, ``missing``
    naming those) and the scene with the ground truth's roles."""

    scene: Scene
    covered: frozenset[str]
    trajectory: Trajectory | None
    missing: tuple[str, ...] = ()


def ground(plan: Plan, scene: Scene) -> Grounded:
    """``scene`` read against ``plan``, the ground truth."""
    covered = covered_paths(plan, scene)
    chosen, missing = [], []
    for subtask, group in zip(plan.subtasks, plan_paths(plan), strict=True):
        held = [path for path in group if path.key in covered]
        if held:
            chosen.append(max(held, key=lambda path: len(path.steps)))
        else:
            missing.append(subtask.name)
    if missing:
        return Grounded(scene, frozenset(covered), None, tuple(missing))
    types = role_types(plan)
    facts = path_facts(plan, chosen)
    roles = binding([*plan.setting, *facts], scene, types) or binding(facts, scene, types)
    if roles is None:  # each path holds alone, not all at once
        return Grounded(scene, frozenset(covered), None, ("all subtasks at once",))
    roles = _complete(roles, plan, scene, types)
    return Grounded(_with_roles(scene, roles), frozenset(covered), make_trajectory(chosen))


def _complete(
    roles: Mapping[str, str], plan: Plan, scene: Scene, types: Mapping[str, str]
) -> dict[str, str]:
    """``roles`` with every other role of the plan bound to a free object of its type, one
    that meets the setting's facts about it (and the roles bound so far) if there is one."""
    bound = dict(roles)
    for role in sorted(set(types) - set(bound)):
        free = [
            o.id for o in scene.entities if o.type == types[role] and o.id not in bound.values()
        ]
        checkable = [
            fact
            for fact in plan.setting
            if role in references(fact) and _role_free(fact, bound, role)
        ]
        fitting = [
            oid for oid in free if evaluate_all(checkable, _bound(scene, {**bound, role: oid}))
        ]
        if fitting or free:
            bound[role] = (fitting or free)[0]
    return bound


def _role_free(fact: Fact, bound: Mapping[str, str], role: str) -> bool:
    """Whether every role ``fact`` names is bound already, or is ``role``."""
    return all(r in bound or r == role for r in references(fact) if _is_role(r))


def _with_roles(scene: Scene, roles: Mapping[str, str]) -> Scene:
    """The scene with the ground truth's roles on the objects bound to them, and no other
    roles (a model's role may be a name the ground truth gives another object)."""
    role_of = {object_id: role for role, object_id in roles.items()}
    return replace(
        scene,
        objects=tuple(replace(o, role=role_of.get(o.id)) for o in scene.objects),
        windows=tuple(replace(w, role=role_of.get(w.id)) for w in scene.windows),
    )


def log_cov(plan: Plan, grounded: Sequence[Grounded]) -> float:
    """LogCov against the ground truth: the share of its paths some scene covers."""
    every = [path.key for group in plan_paths(plan) for path in group]
    covered = set().union(*(g.covered for g in grounded)) if grounded else set()
    return 100.0 * sum(key in covered for key in every) / len(every) if every else 100.0


def jaccard(plan: Plan, grounded: Sequence[Grounded]) -> float:
    """JI: the situations the scenes realize against the ground truth's minimal selection,
    situations compared by their conditions; a scene that realizes none counts as one no
    selection has."""
    from pytest_logicenv.logic.trajectories import jaccard_index

    truth = [frozenset(t.conditions) for t in select(plan, "minimal").trajectories]
    made: list[object] = [
        frozenset(g.trajectory.conditions) if g.trajectory is not None else ("none", i)
        for i, g in enumerate(grounded)
    ]
    return jaccard_index(made, truth)
