"""The run record, fixture to report: it survives its JSON wire form (as xdist ships it), and
the report judges each declared fault per test function and policy."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from pytest_logicenv.report.records import PolicyRun, RunRecord, policy_label
from pytest_logicenv.report.report_model import fault_checks
from pytest_logicenv.report.terminal import missed_fault
from pytest_logicenv.sim.bt import parse_bt_xml
from pytest_logicenv.sim.outcome import FAULTS, KINDS

faults = st.none() | st.sampled_from(FAULTS)
policy_runs = st.builds(PolicyRun, st.text(min_size=1), faults, st.none() | st.sampled_from(KINDS))
records = st.builds(
    RunRecord,
    st.text(),
    st.text(),
    st.text(),
    st.text(),
    faults,
    st.lists(policy_runs, max_size=4).map(tuple),
)


@given(records)
def test_a_record_survives_its_json_wire_form(record: RunRecord) -> None:
    assert RunRecord.from_json(json.loads(json.dumps(record.to_json()))) == record


def item(trajectory: str, *runs: PolicyRun, expect_fault: str | None = None) -> RunRecord:
    return RunRecord(
        "t.py::test_x", f"t.py::test_x[{trajectory}]", "/e", trajectory, expect_fault, runs
    )


def test_two_policies_of_one_function_are_judged_apart() -> None:
    records = [
        item(
            "a=1",
            PolicyRun("closes", "counterfactual", "pass"),
            PolicyRun("forgets", "unreachable", "unreachable"),
            PolicyRun("correct", None, "pass"),
        ),
        item(
            "a=2",
            PolicyRun("closes", "counterfactual", "counterfactual"),
            PolicyRun("forgets", "unreachable", "pass"),
            PolicyRun("correct", None, "pass"),
        ),
    ]
    checks = fault_checks(records)
    assert [(c.label, c.expect_fault, c.hits, len(c.scenes)) for c in checks] == [
        ("t.py::test_x (closes)", "counterfactual", 1, 2),
        ("t.py::test_x (forgets)", "unreachable", 1, 2),
    ]


def test_a_function_with_one_policy_is_named_by_the_function_alone() -> None:
    records = [item("a=1", PolicyRun("p", "lackbranch", "pass"))]
    [check] = fault_checks(records)
    assert check.label == "t.py::test_x"
    assert missed_fault(check) == (
        "t.py::test_x: expect_fault='lackbranch' was not revealed in its 1 scenes: the policy "
        "passed in every one, so either it does not have this fault or no environment has the "
        "situation that shows it"
    )


def test_an_item_that_ran_no_policy_is_a_scene_without_outcome_of_the_markers_fault() -> None:
    records = [
        item("a=1", PolicyRun("p", "lackbranch", "lackbranch"), expect_fault="lackbranch"),
        item("a=2", expect_fault="lackbranch"),  # skipped before its run
    ]
    [check] = fault_checks(records)
    assert (check.policy, check.scenes) == ("p", (("lackbranch",), ()))
    [never] = fault_checks([item("a=2", expect_fault="lackbranch")])
    assert "its policy never ran to an outcome" in missed_fault(never)


def test_a_run_that_never_reached_an_outcome_still_counts_its_scene() -> None:
    [check] = fault_checks([item("a=1", PolicyRun("missing.xml", "counterfactual", None))])
    assert check.scenes == ((),)
    assert not check.revealed


def test_policy_labels_are_the_same_in_every_scene() -> None:
    def correct_policy() -> None: ...

    xml = (
        '<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main">'
        '<GoTo target="window"/></BehaviorTree></root>'
    )
    assert policy_label(correct_policy) == (
        "test_policy_labels_are_the_same_in_every_scene.<locals>.correct_policy"
    )
    assert policy_label(parse_bt_xml(xml, "policies/reset.xml")) == "reset.xml:Main"
    assert policy_label("policies/reset.xml") == "policies/reset.xml"
