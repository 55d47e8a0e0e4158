"""BT.CPP v4's decorators and Nav2's, tick by tick (BT.CPP's ``src/decorators``, Nav2's plugins)."""

from __future__ import annotations

import pytest
from bt_helpers import build, run, ticked

from pytest_logicenv.errors import PolicyError

S, F, R, K = "SUCCESS", "FAILURE", "RUNNING", "SKIPPED"


@pytest.mark.parametrize(
    ("decorator", "results", "expected"),
    [
        ("Inverter", "RS", [R, F]),
        ("Inverter", "F", [S]),
        ("ForceSuccess", "RF", [R, S]),
        ("ForceFailure", "S", [F]),
        ("KeepRunningUntilFailure", "SSF", [R, R, F]),
    ],
)
def test_status_changing_decorators(decorator: str, results: str, expected: list[str]) -> None:
    body = f'<{decorator}><Step results="{results}"/></{decorator}>'
    assert ticked(body, len(expected))[0] == expected


def test_repeat_takes_one_tick_per_round_of_a_synchronous_child_and_stops_at_failure() -> None:
    assert ticked('<Repeat num_cycles="3"><Step/></Repeat>', 3)[0] == [R, R, S]
    assert ticked('<Repeat num_cycles="3"><Step results="SF"/></Repeat>', 2)[0] == [R, F]
    assert ticked('<Repeat num_cycles="-1"><Step/></Repeat>', 5)[0] == [R] * 5


def test_a_running_child_round_continues_in_the_same_tick() -> None:
    # a round that finishes after RUNNING does not yield: the next round starts at once
    statuses, log = ticked('<Repeat num_cycles="2"><Step results="RSS"/></Repeat>', 2)
    assert (statuses, log) == ([R, S], ["Step", "Step", "Step"])


def test_retry_until_successful_retries_failures_up_to_num_attempts() -> None:
    assert ticked('<RetryUntilSuccessful num_attempts="3"><Step results="F"/>'
                  "</RetryUntilSuccessful>", 3)[0] == [R, R, F]  # fmt: skip
    assert ticked('<RetryUntilSuccessful num_attempts="3"><Step results="FS"/>'
                  "</RetryUntilSuccessful>", 2)[0] == [R, S]  # fmt: skip
    assert ticked('<RetryUntilSuccessful num_attempts="0"><Step/></RetryUntilSuccessful>', 1)[
        0
    ] == [F]


def test_run_once_skips_or_repeats_the_first_result() -> None:
    assert ticked('<RunOnce><Step results="RF"/></RunOnce>', 3)[0] == [R, F, K]
    assert ticked('<RunOnce then_skip="false"><Step results="F"/></RunOnce>', 2)[0] == [F, F]


def test_precondition_checks_its_script_when_the_child_starts_only() -> None:
    body = (
        '<Sequence><Script code="go := true"/>'
        '<Precondition if="go" else="FAILURE"><Sequence><Script code="go := false"/>'
        '<Step results="RS"/></Sequence></Precondition></Sequence>'
    )
    assert ticked(body, 2)[0] == [R, S]
    no = '<Precondition if="1 &gt; 2" else="SKIPPED"><Step/></Precondition>'
    assert ticked(no, 1) == ([K], [])


def test_timeout_halts_a_child_still_running_after_msec() -> None:
    statuses, log = ticked('<Timeout msec="300"><Step name="A" results="R"/></Timeout>', 4)
    assert statuses == [R, R, R, F]
    assert log == ["A", "A", "A", "A halted"]
    assert ticked('<Timeout msec="300"><Step results="RS"/></Timeout>', 2)[0] == [R, S]


def test_delay_waits_delay_msec_before_ticking_the_child() -> None:
    statuses, log = ticked('<Delay delay_msec="200"><Step name="A"/></Delay>', 3)
    assert (statuses, log) == ([R, R, S], ["A"])


def test_delay_and_timeout_start_again_after_their_child_completes() -> None:
    # BT.CPP's delay_node resets when the child completes, not only when halted
    repeat = '<Repeat num_cycles="2"><Delay delay_msec="200"><Step name="A"/></Delay></Repeat>'
    assert ticked(repeat, 5) == ([R, R, R, R, S], ["A", "A"])
    restarted = (
        '<Sequence><Delay delay_msec="200"><Step name="A"/></Delay>'
        '<Step name="B" results="F"/></Sequence>'
    )
    assert ticked(restarted, 6) == ([R, R, F, R, R, F], ["A", "B", "A", "B"])
    # Timeout, likewise, times each run of its child from its start
    timed = '<Repeat num_cycles="2"><Timeout msec="300"><Step results="RRSRRS"/></Timeout></Repeat>'
    assert ticked(timed, 5)[0] == [R, R, R, R, S]


def test_loops_pop_their_queue_into_value_one_item_per_round() -> None:
    body = (
        '<Sequence><LoopInt queue="1;2;3" value="{n}"><Script code="sum := sum + n"/></LoopInt>'
        '<ScriptCondition code="sum == 6"/></Sequence>'
    )
    assert ticked(body, 4, blackboard={"sum": 0})[0] == [R, R, R, S]
    empty = '<LoopString queue="" if_empty="FAILURE" value="{x}"><Step/></LoopString>'
    assert ticked(empty, 1) == ([F], [])


def test_skip_unless_updated_ticks_the_child_once_per_write() -> None:
    body = (
        '<Sequence><Script code="n := n + 1" _skipIf="n &gt; 0"/>'
        '<SkipUnlessUpdated entry="n"><Step name="A"/></SkipUnlessUpdated></Sequence>'
    )
    root = build(body, blackboard={"n": 0})
    assert run(root, 3) == [S, K, K]  # every child skipped: the Sequence is skipped
    from bt_helpers import Step

    assert Step.log == ["A"]


def test_an_entry_never_written_or_missing_is_not_updated_as_in_bt_cpp() -> None:
    # BT.CPP's last-seen count starts at 0, an unwritten entry's count: not updated
    first = (
        '<Sequence><SkipUnlessUpdated entry="{n}"><Step name="A"/></SkipUnlessUpdated>'
        '<Script code="n := 1"/></Sequence>'
    )
    assert ticked(first, 3) == ([S, S, S], ["A", "A"])  # the first tick skips A
    missing = '<WaitValueUpdate entry="nothing"><Step name="A"/></WaitValueUpdate>'
    assert ticked(missing, 2) == ([R, R], [])  # was a PolicyRuntimeError
    assert ticked('<WasEntryUpdated entry="nothing"/>', 1)[0] == [F]
    # a SubTree's literal port is a first write, as BT.CPP sets it
    watch = (
        '<BehaviorTree ID="W"><SkipUnlessUpdated entry="n"><Step/></SkipUnlessUpdated>'
        "</BehaviorTree>"
    )
    assert ticked('<SubTree ID="W" n="5"/>', 2, watch) == ([S, K], ["Step"])


def test_subtree_wraps_the_called_tree_and_halts_it_with_its_caller() -> None:
    body = '<ReactiveSequence><Step name="C" results="SF"/><SubTree ID="Work"/></ReactiveSequence>'
    work = '<BehaviorTree ID="Work"><Step name="W" results="R"/></BehaviorTree>'
    statuses, log = ticked(body, 2, work)
    assert statuses == [R, F]
    assert log == ["C", "W", "C", "W halted"]


def test_nav2_recovery_node_retries_after_each_successful_recovery() -> None:
    body = (
        '<RecoveryNode number_of_retries="2"><Step name="Nav" results="FFS"/>'
        '<Step name="Clear"/></RecoveryNode>'
    )
    statuses, log = ticked(body, 1)
    assert statuses == [S]
    assert log == ["Nav", "Clear", "Nav", "Clear", "Nav"]
    give_up = '<RecoveryNode><Step name="Nav" results="F"/><Step name="Clear"/></RecoveryNode>'
    assert ticked(give_up, 1) == ([F], ["Nav", "Clear", "Nav"])


def test_nav2_controls_pass_skipped_children_on_as_nav2_does() -> None:
    skip = ' _skipIf="true"'
    recovery = f'<RecoveryNode><Step name="Nav"{skip}/><Step name="Clear"/></RecoveryNode>'
    assert ticked(recovery, 1) == ([K], [])  # skipped, the recovery not tried
    no_recovery = (
        '<RecoveryNode number_of_retries="3"><Step name="Nav" results="F"/>'
        f'<Step name="Clear"{skip}/></RecoveryNode>'
    )
    assert ticked(no_recovery, 1) == ([F], ["Nav"])
    skipped = f'<RoundRobin><Step name="A"{skip}/><Step name="B"{skip}/></RoundRobin>'
    assert ticked(skipped, 1) == ([K], [])
    passed_over = f'<RoundRobin><Step name="A"{skip}/><Step name="B" results="FS"/></RoundRobin>'
    assert ticked(passed_over, 2) == ([F, S], ["B", "B"])
    pipeline = f'<PipelineSequence><Step name="A"{skip}/><Step name="B"{skip}/></PipelineSequence>'
    assert ticked(pipeline, 1) == ([K], [])


def test_nav2_pipeline_sequence_reticks_earlier_children_while_a_later_one_runs() -> None:
    body = (
        '<PipelineSequence><Step name="Plan" results="SRS"/><Step name="Follow" results="RRS"/>'
        "</PipelineSequence>"
    )
    statuses, log = ticked(body, 3)
    assert statuses == [R, R, S]
    assert log == ["Plan", "Follow", "Plan", "Follow", "Plan", "Follow"]


def test_nav2_rate_controller_ticks_its_child_hz_times_a_second() -> None:
    body = (
        '<PipelineSequence><RateController hz="5"><Step name="Plan"/></RateController>'
        '<Step name="Follow" results="R"/></PipelineSequence>'
    )
    _, log = ticked(body, 5)
    assert log.count("Plan") == 3  # ticks 1, 3 and 5: every 2 ticks of 100 ms at 5 Hz
    assert log.count("Follow") == 5
    # so slow a rate that its period is infinite: the child runs once, not an OverflowError
    slow = '<RateController hz="1e-310"><Step name="Plan" results="R"/></RateController>'
    assert ticked(slow, 3) == ([R, R, R], ["Plan", "Plan", "Plan"])


def test_nav2_round_robin_and_single_trigger() -> None:
    body = '<RoundRobin><Step name="A" results="F"/><Step name="B"/></RoundRobin>'
    assert ticked(body, 2) == ([S, S], ["A", "B", "A", "B"])
    assert ticked("<SingleTrigger><Step/></SingleTrigger>", 2)[0] == [S, S]  # reset in between
    assert ticked('<Sequence><SingleTrigger><Step/></SingleTrigger><Step results="R"/>'
                  "</Sequence>", 1)[0] == [R]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<Inverter><Step/><Step/></Inverter>", "<Inverter>: takes 1 child node(s), it has 2"),
        ('<Timeout msec="-5"><Step/></Timeout>', "'-5' is out of range for unsigned"),
        ('<Precondition if="a +"><Step/></Precondition>', "if='a +': column 4: expected a value"),
        ('<RunOnce then_skip="maybe"><Step/></RunOnce>', "'maybe' is not a bool"),
        ("<RecoveryNode><Step/></RecoveryNode>", "takes 2 child node(s), it has 1"),
    ],
)
def test_bad_decorators_are_refused_when_loaded(body: str, message: str) -> None:
    with pytest.raises(PolicyError) as caught:
        build(body)
    assert message in str(caught.value)
