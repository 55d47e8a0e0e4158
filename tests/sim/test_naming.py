"""Explanations name objects as the policy wrote them, and still say which one."""

from __future__ import annotations

from pytest_logicenv.scenes.scene_model import Scene, SceneObject
from pytest_logicenv.sim.naming import policy_names, renamed
from pytest_logicenv.sim.outcome import Step

TWO_WINDOWS = Scene(
    "s", objects=(SceneObject("window_1", "Window"), SceneObject("window_2", "Window"))
)


def _step(reference: str, object_id: str) -> Step:
    return Step(1, "action", "Close", (reference,), True, objects=(object_id,))


def test_an_any_choice_among_several_keeps_the_label_beside_the_policys_name() -> None:
    names = policy_names(TWO_WINDOWS, (_step("Window (any one)", "window_2"),))
    assert renamed("window_2 is open; but window_2 is closed", names) == (
        "Window (window_2) is open; but Window (window_2) is closed"
    )


def test_an_any_choice_of_the_only_one_of_its_type_reads_as_the_policy_wrote_it() -> None:
    scene = Scene("s", objects=(SceneObject("window_1", "Window"),))
    names = policy_names(scene, (_step("Window (any one)", "window_1"),))
    assert renamed("window_1 is open", names) == "Window is open"


def test_one_reference_bound_to_two_objects_names_each_apart() -> None:
    trace = (_step("Window", "window_1"), _step("Window", "window_2"))
    names = policy_names(TWO_WINDOWS, trace)
    assert renamed("window_1 and window_2", names) == "Window (window_1) and Window (window_2)"


def test_a_reference_bound_to_one_object_is_the_policys_own_word() -> None:
    names = policy_names(TWO_WINDOWS, (_step("window", "window_1"),))
    assert renamed("window_1 is open; window_2 too", names) == (
        "window is open; Window (window_2) too"
    )
