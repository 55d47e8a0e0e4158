"""BT.CPP v4's control nodes, tick by tick: which children are ticked, what is returned while
a child runs, and which running children are halted (``src/controls/*.cpp``)."""

from __future__ import annotations

import pytest
from bt_helpers import build, run, ticked

from pytest_logicenv.errors import PolicyError

S, F, R = "SUCCESS", "FAILURE", "RUNNING"


def test_sequence_resumes_the_running_child_and_restarts_after_a_failure() -> None:
    statuses, log = ticked(
        '<Sequence><Step name="A"/><Step name="B" results="RFR"/><Step name="C"/></Sequence>', 3
    )
    assert statuses == [R, F, R]
    assert log == ["A", "B", "B", "A", "B"]


def test_sequence_with_memory_retries_the_failed_child_and_yields_after_each_success() -> None:
    body = '<SequenceWithMemory><Step name="A"/><Step name="B" results="FS"/></SequenceWithMemory>'
    statuses, log = ticked(body, 3)
    assert statuses == [R, F, S]  # A succeeds at once: the node yields (BT.CPP's wake-up)
    assert log == ["A", "B", "B"]


def test_async_sequence_yields_after_each_child() -> None:
    statuses, log = ticked('<AsyncSequence><Step name="A"/><Step name="B"/></AsyncSequence>', 2)
    assert (statuses, log) == ([R, S], ["A", "B"])


def test_fallback_resumes_and_stops_at_the_first_success() -> None:
    body = '<Fallback><Step name="A" results="F"/><Step name="B" results="RS"/><Step name="C"/>'
    statuses, log = ticked(body + "</Fallback>", 2)
    assert (statuses, log) == ([R, S], ["A", "B", "B"])


def test_reactive_sequence_reticks_conditions_and_halts_the_running_child() -> None:
    body = '<ReactiveSequence><Step name="C" results="SSF"/><Step name="A" results="R"/>'
    statuses, log = ticked(body + "</ReactiveSequence>", 3)
    assert statuses == [R, R, F]
    assert log == ["C", "A", "C", "A", "C", "A halted"]


def test_reactive_fallback_halts_a_lower_priority_child_when_an_earlier_one_succeeds() -> None:
    body = '<ReactiveFallback><Step name="C" results="FFS"/><Step name="A" results="R"/>'
    statuses, log = ticked(body + "</ReactiveFallback>", 3)
    assert statuses == [R, R, S]
    assert log == ["C", "A", "C", "A", "C", "A halted"]


@pytest.mark.parametrize(
    ("ports", "results", "expected"),
    [
        ("", ("S", "RS"), [R, S]),  # success_count -1: all must succeed
        ('success_count="1"', ("S", "R"), [S]),
        ('failure_count="1"', ("F", "R"), [F]),
        ('success_count="2" failure_count="2"', ("F", "RS", "RS"), [R, S]),
    ],
)
def test_parallel_counts_successes_and_failures(
    ports: str, results: tuple[str, ...], expected: list[str]
) -> None:
    steps = "".join(
        f'<Step name="{n}" results="{r}"/>' for n, r in zip("ABC", results, strict=False)
    )
    statuses, _ = ticked(f"<Parallel {ports}>{steps}</Parallel>", len(expected))
    assert statuses == expected


def test_parallel_halts_the_children_still_running_when_it_is_done() -> None:
    body = '<Parallel success_count="1"><Step name="A" results="RS"/><Step name="B" results="R"/>'
    statuses, log = ticked(body + "</Parallel>", 2)
    assert statuses == [R, S]
    assert log == ["A", "B", "A", "B halted"]


def test_parallel_all_waits_for_every_child_and_counts_failures() -> None:
    body = '<ParallelAll max_failures="2"><Step name="A" results="F"/><Step name="B" results="RF"/>'
    statuses, log = ticked(body + "</ParallelAll>", 2)
    assert statuses == [R, F]
    assert log == ["A", "B", "B"]


def test_if_then_else_keeps_its_branch_while_it_runs() -> None:
    body = (
        '<IfThenElse><Step name="C" results="SF"/><Step name="Then" results="RS"/>'
        '<Step name="Else"/></IfThenElse>'
    )
    statuses, log = ticked(body, 3)
    assert statuses == [R, S, S]
    assert log == ["C", "Then", "Then", "C", "Else"]


def test_if_then_else_with_two_children_fails_when_the_condition_fails() -> None:
    assert ticked('<IfThenElse><Step results="F"/><Step/></IfThenElse>', 1)[0] == [F]


def test_while_do_else_reticks_the_condition_and_halts_the_other_branch() -> None:
    body = (
        '<WhileDoElse><Step name="C" results="SF"/><Step name="Do" results="R"/>'
        '<Step name="Else" results="R"/></WhileDoElse>'
    )
    statuses, log = ticked(body, 2)
    assert statuses == [R, R]
    assert log == ["C", "Do", "C", "Do halted", "Else"]


@pytest.mark.parametrize(("value", "branch"), [("1", "One"), ("2", "Two"), ("7", "Default")])
def test_switch_picks_the_matching_case_or_the_default(value: str, branch: str) -> None:
    body = (
        f'<Sequence><Script code="v := {value}"/>'
        '<Switch2 variable="{v}" case_1="1" case_2="2.0">'
        '<Step name="One"/><Step name="Two"/><Step name="Default"/></Switch2></Sequence>'
    )
    assert ticked(body, 1)[1] == [branch]


def test_switch_halts_the_running_case_when_the_variable_changes() -> None:
    # v is not the application's int: BT.CPP refuses an int entry for Switch's text port
    body = (
        '<Sequence><Script code="v := 0"/>'
        '<ReactiveSequence><Script code="v := v + 1" _skipIf="false"/>'
        '<Switch2 variable="{v}" case_1="1" case_2="2">'
        '<Step name="One" results="R"/><Step name="Two" results="R"/><Step name="D"/></Switch2>'
        "</ReactiveSequence></Sequence>"
    )
    root = build(body)
    run(root, 2)
    from bt_helpers import Step

    assert Step.log == ["One", "One halted", "Two"]


def test_a_control_whose_children_are_all_skipped_is_skipped() -> None:
    body = '<Sequence><Step _skipIf="true"/><Step _skipIf="true"/></Sequence>'
    root = build(body)
    root.tick_once()
    assert root.result.value == "SKIPPED"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<Sequence/>", "<Sequence>: needs at least 1 child node(s)"),
        ("<IfThenElse><Step/></IfThenElse>", "takes 2 or 3 child node(s), it has 1"),
        ("<Switch2 variable='x'><Step/></Switch2>", "takes 3 child node(s), it has 1"),
        ('<Parallel success_count="two"><Step/></Parallel>', "'two' is not an integer"),
    ],
)
def test_bad_controls_are_refused_when_loaded(body: str, message: str) -> None:
    with pytest.raises(PolicyError, match=r"t\.xml:1: ") as caught:
        build(body)
    assert message in str(caught.value)
