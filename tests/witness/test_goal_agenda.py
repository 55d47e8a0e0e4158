"""The goal agenda: an object is placed after an action changes its states (a dirty mug is
washed, then put away), and stays placed first where heat or cold changes them (a potato is
put in the pan that cooks it)."""

from __future__ import annotations

from committed_scenes import committed_scenes
from hypothesis import given
from hypothesis import strategies as st

from pytest_logicenv.logic.facts import Fact, Related, State
from pytest_logicenv.witness import find_witness
from pytest_logicenv.witness.blockers import Goal
from pytest_logicenv.witness.goal_agenda import ACTED, agenda

PUT_AWAY = Goal(Related("in", "mug", "cabinet"))
WASHED = Goal(State("mug", {"dirty": False, "filled": False}))
FAUCET_OFF = Goal(State("faucet", {"toggled": False}))


def test_a_mug_is_washed_before_it_is_put_away() -> None:
    assert agenda([PUT_AWAY, WASHED, FAUCET_OFF]) == (WASHED, PUT_AWAY, FAUCET_OFF)


def test_a_potato_stays_in_its_pan_before_it_is_cooked() -> None:
    in_pan, cooked = Goal(Related("in", "potato", "pan")), Goal(State("potato", {"cooked": True}))
    assert agenda([in_pan, cooked]) == (in_pan, cooked)


def test_the_states_actions_set_are_read_from_the_rules_table() -> None:
    assert {("dirty", False), ("filled", False), ("sliced", True)} <= ACTED
    assert ("cooked", True) not in ACTED


REFS = st.sampled_from(["mug", "can", "plant"])
FACTS: st.SearchStrategy[Fact] = st.one_of(
    st.builds(Related, st.just("in"), REFS, st.just("cabinet")),
    st.builds(
        State,
        REFS,
        st.dictionaries(st.sampled_from(["dirty", "filled", "cooked"]), st.booleans(), min_size=1),
    ),
)


@given(st.lists(FACTS.map(Goal), max_size=8))
def test_the_agenda_reorders_only_placements_after_acted_states(goals: list[Goal]) -> None:
    ordered = agenda(goals)
    assert sorted(map(repr, ordered)) == sorted(map(repr, goals))
    still = [goal for goal in goals if not isinstance(goal.fact, Related)]
    assert [goal for goal in ordered if not isinstance(goal.fact, Related)] == still
    for index, goal in enumerate(ordered):
        if isinstance(goal.fact, Related):
            later = ordered[index + 1 :]
            acted = [
                g for g in later if isinstance(g.fact, State) and g.fact.ref == goal.fact.subject
            ]
            assert all(not set(g.fact.states.items()) <= ACTED for g in acted)  # type: ignore[union-attr]


def test_the_committed_dirty_mug_scene_is_solved_without_taking_the_mug_out_again() -> None:
    item = next(
        item for item in committed_scenes() if item.name.endswith("mug_dirty=yes-can_empty=yes")
    )
    result = find_witness(item.scene, item.trajectory)
    put_away = [call for call in result.calls if str(call) == "PutIn(mug, cabinet)"]
    assert result.solved
    assert len(put_away) == 1, result.sequence
