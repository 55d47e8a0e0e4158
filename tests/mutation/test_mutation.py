"""Policy mutation: each operator makes the fault it models, in py_trees policies and their
BehaviorTree.CPP twins alike; mutants run like policies; equivalent and duplicate mutants are
discarded and counted; the operators' tables keep step with the simulator's actions."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import py_trees
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sim_scenes import kitchen

from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Leaf, Plan, Subtask
from pytest_logicenv.mutation import OPERATORS, factory, mutants_of, run_mutants
from pytest_logicenv.mutation.operators import ESTABLISHES, MAKES, NEEDS
from pytest_logicenv.mutation.scores import OPERATOR_ORDER, score_policy
from pytest_logicenv.mutation.tree import label
from pytest_logicenv.sim import leaves
from pytest_logicenv.sim.actions import ACTIONS
from pytest_logicenv.sim.bt import parse_bt_xml
from pytest_logicenv.sim.controls import fallback, sequence
from pytest_logicenv.sim.leaves import (
    AgentBehaviour,
    Close,
    Exists,
    GoTo,
    IsClosed,
    IsOpen,
    Open,
    PickUp,
    PutOn,
)
from pytest_logicenv.sim.runner import run_policy

SCENE = kitchen()
GOAL = parse_facts([{"on": ["apple", "counter"]}], "goal")
PLAN = Plan(
    "fetch the apple",
    (Subtask("apple", (), Leaf("Put the apple on the counter.", GOAL)),),
    setting=parse_facts(
        [
            {"exists": "Fridge", "as": "fridge"},
            {"exists": "Apple", "as": "apple", "where": {"in": "fridge"}},
            {"exists": "Mug", "as": "mug"},
            {"exists": "Mug", "as": "cup"},
            {"exists": "CounterTop", "as": "counter"},
        ],
        "setting",
    ),
)


def fetch() -> py_trees.behaviour.Behaviour:
    return sequence(
        "Fetch",
        GoTo("fridge"),
        Open("fridge"),
        Exists("apple", in_="fridge"),
        PickUp("apple"),
        Close("fridge"),
        GoTo("counter"),
        PutOn("apple", "counter"),
    )


FETCH_XML = parse_bt_xml(
    """
<root BTCPP_format="4">
  <BehaviorTree ID="Fetch">
    <Sequence name="Fetch">
      <GoTo target="fridge"/>
      <Open target="fridge"/>
      <Exists object="apple" in="fridge"/>
      <PickUp object="apple"/>
      <Close target="fridge"/>
      <SubTree ID="Place" item="apple" place="counter"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Place">
    <Sequence name="Place">
      <GoTo target="{place}"/><PutOn object="{item}" target="{place}"/>
    </Sequence>
  </BehaviorTree>
</root>""",
    tree="Fetch",
)


def _run(policy: Any) -> Any:
    return run_policy(policy, SCENE, goal=GOAL)


def _outcomes(policy: Any) -> list[tuple[str, str, str]]:
    found = mutants_of(policy, PLAN)
    return sorted((m.mutation.operator, m.mutation.change, _run(m).kind) for m in found.mutants)


def test_each_operator_makes_the_fault_it_models() -> None:
    found = mutants_of(fetch, PLAN)
    made = {m.mutation.id: (m.mutation.change, _run(m).kind) for m in found.mutants}
    assert made["drop-open@1"] == (
        "skips Open(fridge) before PickUp(apple) from fridge",
        "lackbranch",  # the apple is out of sight: Exists(apple, in=fridge) fails
    )
    assert made["delete-needed@3"] == (
        "skips PickUp(apple), which PutOn(apple, counter) needs (held apple)",
        "counterfactual",
    )
    assert made["delete-goal-action@6"] == (
        "skips PutOn(apple, counter), the last action making apple on counter true",
        "unreachable",
    )
    assert made["swap-sequence@root~3"] == (
        "runs Close(fridge) before PickUp(apple)",
        "counterfactual",
    )
    assert made["negate-condition@2"] == (
        "takes the other branch: not Exists(apple, in=fridge)",
        "lackbranch",
    )
    assert {m.mutation.operator: m.mutation.fault for m in found.mutants} == {
        "drop-open": "counterfactual",
        "delete-needed": "counterfactual",
        "delete-goal-action": "unreachable",
        "swap-sequence": "counterfactual",
        "negate-condition": "unreachable",
    }
    assert _run(fetch).kind == "pass"


def test_a_fallback_loses_each_branch_and_a_step_is_retargeted_to_a_role_of_its_type() -> None:
    def either() -> py_trees.behaviour.Behaviour:
        return fallback(
            "Either", sequence("Mug", IsOpen("fridge"), GoTo("mug")), GoTo("cup"), GoTo("milk")
        )

    found = mutants_of(either, PLAN)
    changes = {m.mutation.id: m.mutation.change for m in found.mutants}
    assert changes["remove-branch@0"] == "lacks branch 1 of 3: Mug"
    assert changes["remove-branch@2"] == "lacks branch 3 of 3: GoTo(milk)"
    assert changes["retarget@0~cup"] == "does Mug on cup instead of mug (1 action)"
    assert changes["retarget@1~mug"] == "does GoTo(cup) on mug instead of cup (1 action)"


def test_a_bt_cpp_twin_has_the_same_mutants_with_the_same_outcomes() -> None:
    py, xml = _outcomes(fetch), _outcomes(FETCH_XML)
    assert len(py) == len(xml) > 10
    assert Counter(op for op, _, _ in py) == Counter(op for op, _, _ in xml)
    # The twin's last two actions sit in a subtree of their own: its swaps read otherwise.
    assert {(op, change, kind) for op, change, kind in py if op != "swap-sequence"} == {
        (op, change, kind) for op, change, kind in xml if op != "swap-sequence"
    }


def test_a_selector_is_retargeted_to_another_room_the_plan_has() -> None:
    from pytest_logicenv.sim.leaves import Select

    plan = Plan("shut", (), rooms=("Study", "Bedroom"))

    def shut() -> py_trees.behaviour.Behaviour:
        study = Select("Window", room="Study")
        return sequence("Shut", GoTo(study), Close(study))

    [mutant] = [m for m in mutants_of(shut, plan).mutants if m.mutation.operator == "retarget"]
    assert mutant.mutation.change == (
        "does Shut on Window in the Bedroom instead of Window in the Study (2 actions)"
    )
    assert [leaf.ports["target"] for leaf in mutant().children] == [
        Select("Window", room="Bedroom")
    ] * 2


def test_a_selector_denotes_the_roles_its_room_whole_and_attributes_allow() -> None:
    from pytest_logicenv.mutation.task_knowledge import TaskFacts
    from pytest_logicenv.sim.leaves import Select

    setting = [
        {"exists": "Desk", "as": "study_desk", "where": {"room": "Study"}},
        {"exists": "Desk", "as": "bedroom_desk", "where": {"room": "Bedroom"}},
        {"exists": "Drawer", "as": "study_drawer", "where": {"part_of": "study_desk"}},
        {"exists": "Window", "as": "study_window", "where": {"room": "Study"}},
        {"exists": "Window", "as": "bedroom_window", "where": {"room": "Bedroom"}},
        {"exists": "Window", "as": "skylight", "attrs": {"kind": "roof"}},
        {"exists": "Book", "as": "book", "where": {"in": "study_drawer"}},
    ]
    plan = Plan("study", (), setting=parse_facts(setting, "setting"), rooms=("Study", "Bedroom"))
    facts = TaskFacts.of(plan)
    study_window = Select("Window", room="Study")
    assert facts.denoted(study_window) == {"Window", "study_window", "skylight"}
    assert facts.denoted(Select("Window", attrs={"kind": "wall"})) == {
        "Window",
        "study_window",
        "bedroom_window",
    }
    assert facts.denoted(Select("Drawer", part_of="Desk", room="Study")) == {
        "Drawer",
        "study_drawer",  # in the study through the desk it is a part of
    }
    assert facts.denoted(Select("Drawer", room="Bedroom")) == {"Drawer"}
    assert facts.denoted(Select("Drawer", part_of="Sofa")) == {"Drawer"}
    assert facts.denoted(Select("book", room="Bedroom")) == {"book"}  # a role is itself
    assert facts.rooms_of("book") == {"Study"}


def test_subtree_ports_are_retargeted_as_the_value_they_had_when_the_tree_was_built() -> None:
    policy = parse_bt_xml(
        """
<root BTCPP_format="4">
  <BehaviorTree ID="Main"><SubTree ID="Take" item="mug"/></BehaviorTree>
  <BehaviorTree ID="Take">
    <Sequence><GoTo target="{item}"/><PickUp object="{item}"/></Sequence>
  </BehaviorTree>
</root>""",
        tree="Main",
    )
    [mutant] = [m for m in mutants_of(policy, PLAN).mutants if m.mutation.operator == "retarget"]
    assert mutant.mutation.change == "does Sequence on cup instead of mug (2 actions)"
    outcome = _run(mutant)
    assert [(step.name, step.objects) for step in outcome.trace] == [
        ("GoTo", ("cup",)),
        ("PickUp", ("cup",)),
    ]


def test_mutants_that_change_nothing_the_simulator_sees_are_discarded_and_counted() -> None:
    def checks_then_goes() -> py_trees.behaviour.Behaviour:
        twice = sequence("Twice", GoTo("mug"), GoTo("mug"))
        return sequence("Go", IsOpen("fridge"), IsClosed("lunchbox"), twice)

    found = mutants_of(checks_then_goes, PLAN)
    assert [m.change for m in found.equivalent] == [
        "runs IsClosed(lunchbox) before IsOpen(fridge)",  # two reads: the same either way
        "runs GoTo(mug) before GoTo(mug)",  # identical neighbours: the same tree
    ]
    assert all("GoTo(mug) before GoTo(mug)" not in m.mutation.change for m in found.mutants)


def test_a_mutant_another_operator_made_already_is_a_duplicate() -> None:
    def same_either_way() -> py_trees.behaviour.Behaviour:
        return fallback("Same", GoTo("milk"), GoTo("milk"))

    found = mutants_of(same_either_way, PLAN)
    assert [m.mutation.id for m in found.mutants] == ["remove-branch@0"]
    assert found.duplicates == 1  # removing the second branch gives the same tree


@pytest.mark.parametrize(
    "decorator",
    [
        lambda child: py_trees.decorators.Inverter("Not", child),
        lambda child: py_trees.decorators.Retry("Thrice", child, 3),
    ],
)
def test_a_duplicate_under_a_py_trees_decorator_is_still_a_duplicate(decorator: Any) -> None:
    def guarded() -> py_trees.behaviour.Behaviour:
        same = fallback("Same", GoTo("milk"), GoTo("milk"))
        return sequence("Guarded", decorator(IsOpen("fridge")), same)

    found = mutants_of(guarded, PLAN)
    assert [m.mutation.id for m in found.mutants if m.mutation.operator == "remove-branch"] == [
        "remove-branch@1.0"
    ]
    assert found.duplicates == 1  # each build's decorator is another object, with one shape


class Waves(AgentBehaviour):
    def update(self) -> py_trees.common.Status:
        return py_trees.common.Status.SUCCESS


def test_a_policy_with_nothing_to_mutate_says_so() -> None:
    found = mutants_of(Waves, PLAN)
    assert found.nothing
    result = run_mutants(found, "pass", _run)
    assert result["nothing"].startswith("has nothing to mutate")
    assert score_policy("t.py::test", "Waves", [("s", result)]).score is None


def test_a_root_given_as_is_cannot_be_mutated_and_says_how_to_fix_that() -> None:
    found = mutants_of(fetch(), PLAN)
    assert found.nothing
    assert run_mutants(found, "pass", _run)["nothing"] == (
        "cannot be mutated: it is one tree, given as is; give a function that builds it "
        "(a factory) so that each mutant gets a fresh tree"
    )


def test_the_operators_tables_keep_step_with_the_simulators_actions() -> None:
    assert list(OPERATORS) == list(OPERATOR_ORDER)
    for table in (ESTABLISHES, NEEDS, MAKES):
        assert set(table) <= set(ACTIONS)
    for name, pairs in [*ESTABLISHES.items(), *NEEDS.items()]:
        assert {port for _, port in pairs} <= set(ACTIONS[name].ports), name
    assert set(MAKES) | {"GoTo"} == set(ACTIONS)  # every action but walking changes a fact
    for operator in OPERATORS.values():
        assert operator.fault in ("counterfactual", "unreachable", "lackbranch")


# --------------------------------------------------------------------------- properties

REFS = ("fridge", "apple", "mug", "cup", "counter", "milk", "lunchbox", "Mug")
ACTION_NAMES = ("GoTo", "PickUp", "PutOn", "PutIn", "Open", "Close", "Drop")


@st.composite
def policies(draw: st.DrawFn, depth: int = 2) -> Any:
    """A random tree of our leaves under sequences and fallbacks (as a factory)."""
    spec = draw(_specs(depth))

    def build(item: Any = spec) -> py_trees.behaviour.Behaviour:
        if item[0] == "action":
            _, name, refs = item
            ports = dict(zip(ACTIONS[name].ports, refs, strict=False))
            return ACTIONS_BY_NAME[name](**ports)
        if item[0] == "condition":
            return IsOpen(item[1])
        make = sequence if item[0] == "sequence" else fallback
        return make(item[0], *(build(child) for child in item[1]))

    return build


ACTIONS_BY_NAME = {name: getattr(leaves, name) for name in ACTION_NAMES}


def _specs(depth: int) -> st.SearchStrategy[Any]:
    leaf = st.one_of(
        st.tuples(
            st.just("action"),
            st.sampled_from(ACTION_NAMES),
            st.lists(st.sampled_from(REFS), min_size=2, max_size=2),
        ),
        st.tuples(st.just("condition"), st.sampled_from(REFS)),
    )
    if depth == 0:
        return leaf
    children = st.lists(_specs(depth - 1), min_size=1, max_size=4)
    return st.one_of(leaf, st.tuples(st.sampled_from(["sequence", "fallback"]), children))


@settings(max_examples=60, deadline=None)
@given(policies())
def test_every_mutant_builds_and_runs_to_an_outcome_and_equivalent_ones_run_the_same(
    policy: Any,
) -> None:
    found = mutants_of(policy, PLAN)
    for mutant in found.mutants:
        assert _run(mutant).kind in ("pass", "counterfactual", "unreachable", "lackbranch", "error")
    original = _run(policy)
    for mutation in found.equivalent:
        from pytest_logicenv.mutation import MutantPolicy

        twin = _run(MutantPolicy(factory(policy), mutation))
        assert twin.kind == original.kind
        assert [s for s in twin.trace if s.kind != "condition"] == [
            s for s in original.trace if s.kind != "condition"
        ]


@pytest.mark.parametrize("policy", [fetch, FETCH_XML])
def test_every_node_a_mutation_names_is_labelled_as_it_reads(policy: Any) -> None:
    root = factory(policy)()
    assert label(root) == "Fetch"
    for mutant in mutants_of(policy, PLAN).mutants:
        assert mutant.mutation.node
        assert not re.search(r"<[A-Z]\w*", mutant.mutation.node)  # no XML tag in a report
