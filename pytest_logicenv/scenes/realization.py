"""Realization: a generated scene must make its trajectory's conditions true, or it is invalid.

A scene is built for one situation (a trajectory): the designer plans it, the layout places
it, and this module checks the result with the same facts evaluator the simulator uses for
goals. A scene that does not realize its conditions (and the plan's setting) raises a
:class:`~pytest_logicenv.errors.SceneError` that lists every false fact; it is never used
silently.

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

from pytest_logicenv.errors import LayoutRejected, SceneError
from pytest_logicenv.logic.facts import Fact, describe, false_facts
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.catalog import Catalog
from pytest_logicenv.scenes.design import Enrichment, design_scene, trajectory_facts
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.physics import check_scene
from pytest_logicenv.scenes.scene_model import Scene, SceneSpec


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


def generate_scene(
    plan: Plan,
    trajectory: Trajectory | None,
    *,
    seed: int = 0,
    catalog: Catalog | None = None,
    enrichment: Enrichment | None = None,
) -> Scene:
    """Design, lay out and verify one scene: the whole scene-construction phase.

    ``enrichment`` is a design request that replaces the room templates (an LLM's, see
    ``llm_designer.py``). The scene is checked twice before anyone uses it (:func:`realize`).
    """
    spec = design_scene(plan, trajectory, seed=seed, catalog=catalog, enrichment=enrichment)
    return realize(spec, plan, trajectory, seed=seed)


def realize(spec: SceneSpec, plan: Plan, trajectory: Trajectory | None, *, seed: int = 0) -> Scene:
    """Lay out a design with ``seed`` and check the scene as every generated scene is checked:
    Table 1 by the independent checker, then realizing ``trajectory``'s facts. The layout
    solver is imported here, lazily: it imports z3."""
    scene = solve_layout(spec, seed=seed)
    physics = check_scene(scene)
    if not physics.passed:
        listed = "; ".join(str(v) for v in physics.violations[:5])
        raise LayoutRejected(
            f"scene {scene.id!r} breaks Table 1 ({len(physics.violations)} violation(s): "
            f"{listed}); it is invalid and will not be used"
        )
    return require_realized(scene, plan, trajectory)
