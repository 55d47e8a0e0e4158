"""One scene through Table 1's three dimensions."""

from __future__ import annotations

from pytest_logicenv.scenes.physics.check_results import SceneCheck
from pytest_logicenv.scenes.physics.entity import check_entity
from pytest_logicenv.scenes.physics.floor_plan import check_floor_plan
from pytest_logicenv.scenes.physics.relation import check_relations
from pytest_logicenv.scenes.scene_model import Scene


def check_scene(scene: Scene) -> SceneCheck:
    """Check one scene on Table 1's three dimensions."""
    return SceneCheck(
        scene=scene.id,
        floor_plan=check_floor_plan(scene),
        entity=check_entity(scene),
        relation=check_relations(scene),
    )
