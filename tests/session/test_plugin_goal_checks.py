"""A hand-written plan whose goal no action reaches is its test's error, before any scene,
naming the leaf, the fact and what blocks it (issue 21, items 2 and 3)."""

from __future__ import annotations

import json

import pytest
from infeasible_plans import BLANKET, BLANKET_FIXED, document

pytest_plugins = ["pytester"]

TEST = """
import pytest

@pytest.mark.logic_env({task!r}, plan="plan.json")
def test_blanket(logic_env):
    assert logic_env.scene.rooms
"""


def test_a_hand_written_goal_no_action_reaches_is_the_tests_error(
    pytester: pytest.Pytester,
) -> None:
    plan = document("blanket", BLANKET)
    pytester.makefile(".json", plan=json.dumps(plan))
    pytester.makepyfile(test_blanket=TEST.format(task=plan["task"]))
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    assert (
        "plan.json (goals no sequence of actions can reach: fix them there; `logicenv plan "
        "--check " in out
    )
    assert (
        "  [goal] subtasks[0](chore).tree.branches.yes.goal[0]: nothing makes blanket (a "
        "Blanket) in basket: PutIn needs room: the smallest Blanket (0.90 x 0.60 m" in out
    )
    assert "types that take a 0.90 x 0.60 m Blanket in them: Pot, LaundryBasket" in out
    (pytester.path / "plan.json").write_text(json.dumps(document("blanket", BLANKET_FIXED)))
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)
