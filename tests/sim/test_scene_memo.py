"""``sim.scene_memo``: what a run makes of a scene alone, made once per scene object."""

from __future__ import annotations

from dataclasses import replace

from sim_scenes import kitchen

from pytest_logicenv.sim import scene_memo
from pytest_logicenv.sim.scene_memo import per_scene


def test_a_value_is_made_once_per_scene_object_and_an_equal_copy_gets_its_own() -> None:
    scene, made = kitchen(), []

    def make(s: object) -> int:
        made.append(s)
        return len(made)

    assert per_scene("test", scene, make) == per_scene("test", scene, make) == 1
    assert per_scene("test", replace(scene), make) == 2  # equal, but another object
    assert per_scene("other kind", scene, make) == 3


def test_what_is_kept_is_bounded() -> None:
    scenes = [replace(kitchen(), id=f"s{i}") for i in range(scene_memo.KEPT_SCENES + 5)]
    for scene in scenes:
        per_scene("bounded", scene, lambda s: s.id)
    assert len(scene_memo._KEPT["bounded"]) == scene_memo.KEPT_SCENES
    assert per_scene("bounded", scenes[-1], lambda s: "made again") == scenes[-1].id
