"""Realization: a scene generated for one situation (a trajectory), designed, laid out and
checked (:mod:`~pytest_logicenv.scenes.realized` says what it must make true).
"""

from __future__ import annotations

from pytest_logicenv.errors import LayoutRejected
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.catalog import Catalog
from pytest_logicenv.scenes.design import Enrichment, design_scene
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.physics import check_scene
from pytest_logicenv.scenes.realized import require_realized
from pytest_logicenv.scenes.scene_model import Scene, SceneSpec


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
