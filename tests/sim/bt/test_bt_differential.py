"""Differential tests: random BT.CPP documents ticked by our engine and by real BehaviorTree.CPP
4.8 (``behaviortreepy``) side by side must agree on the load verdict and, tick by tick, on the
root status, the leaves' callbacks and the root blackboard (see ``btcpp_twin``). A disagreement
shrinks to a small document; the smallest ones found are kept in ``tests/data/bt/differential``
and each rule they pin is also asserted on our engine alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT
from hypothesis import HealthCheck, given, settings

pytest.importorskip("behaviortreepy", reason="the BT.CPP oracle is in the dev extra")

import btcpp_trees
import btcpp_twin

CORPUS = ROOT / "tests" / "data" / "bt" / "differential"
FILES = sorted(CORPUS.glob("*.xml"))
_SETTINGS = dict(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def agree(xml: str) -> None:
    difference = btcpp_twin.differences(xml)
    assert difference is None, f"{difference}\n{xml}"


@settings(max_examples=150, **_SETTINGS)  # type: ignore[arg-type]
@given(btcpp_trees.documents(depth=3))
def test_random_trees_tick_as_bt_cpp_ticks_them(xml: str) -> None:
    agree(xml)


@pytest.mark.slow
@settings(max_examples=2000, **_SETTINGS)  # type: ignore[arg-type]
@given(btcpp_trees.documents(depth=4))
def test_two_thousand_deeper_trees_tick_as_bt_cpp_ticks_them(xml: str) -> None:
    agree(xml)


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_the_regression_corpus_agrees_with_bt_cpp(path: Path) -> None:
    agree(path.read_text(encoding="utf-8"))


def ours(name: str) -> btcpp_twin.Outcome:
    return btcpp_twin.run_ours((CORPUS / f"{name}.xml").read_text(encoding="utf-8"))


def test_rule1_a_completed_node_ticks_without_its_pre_conditions() -> None:
    ticks = ours("rule1_preconditions_only_when_idle").ticks
    assert ticks[1][1] == (("c1_S", "tick"), ("a3_R", "halted"), ("a2_R", "start"))


def test_rule2_a_stateful_leaf_holding_success_is_not_called_again() -> None:
    ticks = ours("rule2_stateful_leaf_holds_its_status").ticks
    assert [log for _, log, _ in ticks[:2]] == [
        (("a1_S", "start"), ("a2_R", "start")),
        (("a2_R", "running"),),
    ]


def test_rule3_a_number_into_text_is_a_tick_error() -> None:
    outcome = ours("rule3_no_number_into_text")
    assert [status for status, _, _ in outcome.ticks] == ["error"]
    assert "cannot assign 2 to blackboard entry 'x', which holds text ('1')" in outcome.detail


def test_rule4_halting_an_entry_updated_decorator_leaves_its_child_running() -> None:
    ticks = ours("rule4_entry_updated_halt_leaves_its_child").ticks
    assert [log for _, log, _ in ticks[:2]] == [
        (("c1_SF", "tick"), ("a2_R", "start")),
        (("c1_SF", "tick"),),
    ]


def test_rule5_repeat_reads_its_count_once_per_tick() -> None:
    assert [t[0] for t in ours("rule5_repeat_reads_its_count_once_per_tick").ticks] == ["SUCCESS"]


def test_rule6_entries_hold_64_bit_integers_and_set_blackboard_empties_untyped_text() -> None:
    assert ours("rule6_int64_entries").ticks[0][2][1] == ("x", "5000000000")
    emptied = ours("rule6_set_blackboard_text_empties_untyped")
    assert emptied.ticks[0][0] == "error"
    assert "variable not found: 't'" in emptied.detail


def test_load_verdicts_are_bt_cpp_s() -> None:
    assert "more than one async child" in ours("load_reactive_sequence_two_async").detail
    switch = ours("load_switch_on_int_entry").detail
    assert "entry 'x' was declared int; a port of type str cannot use it too" in switch
    assert ours("load_parallel_counts").ticks[0][0] == "SUCCESS"  # never ticked: no error
    assert ours("load_reads_what_nothing_writes").ticks[0][0] == "error"
