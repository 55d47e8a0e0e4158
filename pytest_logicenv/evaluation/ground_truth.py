"""Scenes judged against a ground-truth plan they were not made from (``logicenv eval
--planner llm``), as the paper measures LogCov and JI.

A model's plan names its objects by its own roles (``doll_box``), the ground truth by others
(``red_box``). A ground-truth decision path is **covered** by a scene when the realization
facts of its conditions hold there for some binding of the ground truth's roles to the
scene's objects (:func:`~pytest_logicenv.evaluation.role_binding.bind`: by the facts, each
role the object the setting says it is, in its room with its attributes). Where the
setting only places things (a fruit bowl on the counter rather than the table), a path does
not depend on it. A scene **realizes** the ground-truth situation made of, per subtask, the
longest path it covers (:func:`ground`), and is given the ground truth's roles (bound by
those facts and the setting together where they hold together, every other role by its
identity), so that the task's own policies, written against the ground truth, run in it.

A type the ground truth uses but the scene's plan could not (a user's type the plan was made
without) is read in the type the judge accepts in its place (:mod:`.type_stand_ins`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from pytest_logicenv.evaluation.role_binding import Roles, bind, is_role
from pytest_logicenv.logic.facts import Fact, bound_roles, references
from pytest_logicenv.logic.plan import Plan, located_facts
from pytest_logicenv.logic.trajectories import (
    DecisionPath,
    Trajectory,
    make_trajectory,
    plan_paths,
)
from pytest_logicenv.scenes.scene_model import Scene


def role_types(plan: Plan) -> dict[str, str]:
    """Every role the plan binds, with its type (the first binding's)."""
    found: dict[str, str] = {}
    for _, fact in located_facts(plan):
        for role, type_name in bound_roles(fact).items():
            found.setdefault(role, type_name)
    return found


@dataclass(frozen=True)
class Truth:
    """The ground truth as the judge reads it: the plan, its roles, and the scene type it
    accepts for a ground-truth type (``{"Watermelon": "Apple"}``)."""

    plan: Plan
    roles: Roles
    stand_ins: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, plan: Plan, stand_ins: Mapping[str, str] | None = None) -> Truth:
        return cls(plan, Roles.of(plan.setting, role_types(plan)), dict(stand_ins or {}))

    def read(self, scene: Scene) -> Scene:
        """``scene`` with each accepted stand-in retyped as the ground-truth type it stands
        for, when the scene has none of that type itself."""
        present = {obj.type for obj in scene.objects}
        alias = {s: t for t, s in self.stand_ins.items() if t not in present}
        if not alias:
            return scene
        objects = tuple(replace(o, type=alias.get(o.type, o.type)) for o in scene.objects)
        return replace(scene, objects=objects)


def path_facts(plan: Plan, paths: Iterable[DecisionPath]) -> list[Fact]:
    """The realizations of the paths' conditions."""
    facts: list[Fact] = []
    for path in paths:
        for factor_id, value in path.conditions:
            facts += plan.factor(factor_id).realizations.get(value, ())
    return facts


def covered_paths(truth: Truth, scene: Scene) -> set[str]:
    """The keys of the ground truth's decision paths whose facts hold in ``scene`` (read
    with the stand-ins), each role the object its identity says."""
    return {
        path.key
        for group in plan_paths(truth.plan)
        for path in group
        if bind(path_facts(truth.plan, (path,)), scene, truth.roles) is not None
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


def ground(truth: Truth, scene: Scene) -> Grounded:
    """``scene`` read against the ground truth."""
    scene = truth.read(scene)
    covered = frozenset(covered_paths(truth, scene))
    chosen, missing = [], []
    for subtask, group in zip(truth.plan.subtasks, plan_paths(truth.plan), strict=True):
        held = [path for path in group if path.key in covered]
        if held:
            chosen.append(max(held, key=lambda path: len(path.steps)))
        else:
            missing.append(subtask.name)
    if missing:
        return Grounded(scene, covered, None, tuple(missing))
    facts = path_facts(truth.plan, chosen)
    setting = list(truth.plan.setting)
    roles = bind([*setting, *facts], scene, truth.roles) or bind(facts, scene, truth.roles)
    if roles is None:  # each path holds alone, not all at once
        return Grounded(scene, covered, None, ("all subtasks at once",))
    roles = _complete(truth, scene, roles)
    return Grounded(_with_roles(scene, roles, truth), covered, make_trajectory(chosen))


def _complete(truth: Truth, scene: Scene, roles: Mapping[str, str]) -> dict[str, str]:
    """``roles`` with every other role bound too: by the setting's facts about the roles
    left where they hold, else by each one's identity alone."""
    rest = sorted(set(truth.roles.types) - set(roles))
    about = [f for f in truth.plan.setting if set(_roles(f)) & set(rest)]
    found = bind(about, scene, truth.roles, roles, rest) or bind(
        [], scene, truth.roles, roles, rest
    )
    return dict(found) if found is not None else dict(roles)


def _roles(fact: Fact) -> list[str]:
    return [ref for ref in references(fact) if is_role(ref)]


def _with_roles(scene: Scene, roles: Mapping[str, str], truth: Truth) -> Scene:
    """The scene with the ground truth's roles on the objects bound to them, no other roles,
    and the ground truth's role names declared roles, so no id of the scene stands for one
    (a model's object ``plate`` is not the role ``plate`` unless bound to it)."""
    role_of = {object_id: role for role, object_id in roles.items()}
    return replace(
        scene,
        objects=tuple(replace(o, role=role_of.get(o.id)) for o in scene.objects),
        windows=tuple(replace(w, role=role_of.get(w.id)) for w in scene.windows),
        roles=tuple(sorted(truth.roles.types)),
    )


def log_cov(plan: Plan, grounded: Sequence[Grounded]) -> float:
    """LogCov against the ground truth: the share of its paths some scene covers."""
    every = [path.key for group in plan_paths(plan) for path in group]
    covered = set().union(*(g.covered for g in grounded)) if grounded else set()
    return 100.0 * sum(key in covered for key in every) / len(every) if every else 100.0
