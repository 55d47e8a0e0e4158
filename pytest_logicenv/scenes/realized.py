"""What a scene for one situation must make true, and whether it does: a scene that does not
realize its trajectory's conditions is invalid.

The check uses the same facts evaluator the simulator uses for goals. A scene that does not
realize its conditions (and the plan's setting) raises a
:class:`~pytest_logicenv.errors.SceneError` that lists every false fact; it is never used
silently. It is its own module so that reading a cached entry, which checks its scenes, loads
none of what builds them (the designer, the layout solver and z3).

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> from pytest_logicenv.logic.facts import parse_facts
>>> scene = Scene("s", rooms=(Room("r", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3))),),
...               objects=(SceneObject("book", "Book", room="r", role="book"),))
>>> unrealized(scene, parse_facts([{"exists": "Book", "where": {"on": "Floor"}},
...                                {"absent": "Book"}], "facts"))
['no Book']
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import Fact, describe, false_facts
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.scene_model import Scene


def trajectory_facts(plan: Plan, trajectory: Trajectory | None) -> tuple[Fact, ...]:
    """The facts a scene for ``trajectory`` must make true: the plan's setting, then the
    realization facts of each of its conditions. A condition without facts is an error."""
    facts = list(plan.setting)
    if trajectory is None:
        return tuple(facts)
    missing = []
    for factor_id, value in trajectory.conditions:
        try:
            factor = plan.factor(factor_id)
        except KeyError:
            raise SceneError(
                f"trajectory {trajectory.id!r} names factor {factor_id!r}, which the plan "
                "does not have; select the trajectories again from this plan"
            ) from None
        realization = factor.realizations.get(value, ())
        if not realization:
            missing.append(f"{factor_id}={value}")
        facts.extend(realization)
    if missing:
        raise SceneError(
            f"trajectory {trajectory.id!r}: no realization facts for {', '.join(missing)}; "
            "a scene can only be built for conditions the plan says how to make true "
            "(add 'realization' facts to those factor values in the plan)"
        )
    return tuple(facts)


def unrealized(scene: Scene, facts: Sequence[Fact]) -> list[str]:
    """The facts of ``facts`` that ``scene`` does not make true, described in words."""
    return [describe(fact) for fact in false_facts(facts, scene)]


def require_realized(scene: Scene, plan: Plan, trajectory: Trajectory | None) -> Scene:
    """Return ``scene`` if it realizes the plan's setting and ``trajectory``'s conditions;
    otherwise raise a :class:`SceneError` naming the scene and every false fact."""
    wrong = unrealized(scene, trajectory_facts(plan, trajectory))
    if wrong:
        situation = trajectory.id if trajectory is not None else "the setting"
        raise SceneError(
            f"scene {scene.id!r} does not realize {situation}: "
            + "; ".join(wrong)
            + ". It is invalid and will not be used; regenerate it "
            "(pytest --logicenv-regenerate) or fix the plan's realization facts"
        )
    return scene
