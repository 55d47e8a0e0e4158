"""What stands on a stove stands on its burners: the layout puts it there and the independent
checker agrees (issue 21: a pot "on" the stove was laid out through its burner part, and every
scene broke Table 1)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from infeasible_plans import CHICKEN_ON_STOVE, POT_ON_STOVE

from pytest_logicenv.logic.plan import plan_from_json
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.part_geometry import BOARD
from pytest_logicenv.scenes.physics import check_scene
from pytest_logicenv.scenes.physics.objects import bottom, top
from pytest_logicenv.scenes.realization import generate_scene
from pytest_logicenv.scenes.scene_model import Scene

pytest_plugins = ["pytester"]


def _scenes(document: dict[str, object]) -> list[tuple[str, Scene]]:
    plan = plan_from_json(document)
    return [
        (t.id, generate_scene(plan, t, seed=seed))
        for t in select(plan, "minimal").trajectories
        for seed in (0, 7919)
    ]


@pytest.mark.parametrize(
    ("document", "role"), [(POT_ON_STOVE, "pot"), (CHICKEN_ON_STOVE, "chicken")]
)
def test_what_stands_on_a_stove_stands_on_its_burners(
    document: dict[str, object], role: str
) -> None:
    for situation, scene in _scenes(document):
        assert check_scene(scene).passed, situation
        thing = scene.object(role)
        if thing.parent == "stove":
            burners = [o for o in scene.objects if o.part_of == "stove" and o.type == "StoveBurner"]
            assert burners
            assert bottom(thing) == pytest.approx(top(burners[0]))
            assert bottom(thing) == pytest.approx(top(scene.object("stove")) + BOARD)


def test_the_checker_still_rejects_a_pot_sunk_through_the_burners() -> None:
    (situation, scene), *_ = [(s, sc) for s, sc in _scenes(POT_ON_STOVE) if sc.object("pot").parent]
    pot = scene.object("pot")
    x, y, z = pot.position
    sunk = replace(pot, position=(x, y - BOARD, z))
    broken = replace(scene, objects=tuple(sunk if o.id == "pot" else o for o in scene.objects))
    problems = " ".join(str(v) for v in check_scene(broken).violations)
    assert "objects[pot]: collides with 'stove_stove_burner" in problems, situation


@pytest.mark.slow
def test_a_plan_with_a_pot_on_the_stove_runs_through_the_plugin(pytester: pytest.Pytester) -> None:
    pytester.makefile(".json", plan=json.dumps(POT_ON_STOVE))
    pytester.makepyfile(
        test_pot=f"""
import pytest
from pytest_logicenv.sim.controls import sequence
from pytest_logicenv.sim.leaves import GoTo, PickUp, PutOn

@pytest.mark.logic_env({POT_ON_STOVE["task"]!r}, plan="plan.json")
def test_pot(logic_env):
    logic_env.run(lambda: sequence("Pot", GoTo("pot"), PickUp("pot"), GoTo("stove"),
                                   PutOn("pot", "stove")))
"""
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
