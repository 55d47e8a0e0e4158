"""Running policies: outcome classes, explanations, isolation between runs, bad input."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from pathlib import Path

import py_trees
import pytest
from sim_scenes import kitchen

from pytest_logicenv.errors import FactError, PolicyError, PolicyFault, RunFileError
from pytest_logicenv.logic.facts import parse_fact
from pytest_logicenv.scenes.scene_model import Provenance
from pytest_logicenv.sim.bt import parse_bt_xml
from pytest_logicenv.sim.leaves import (
    AgentBehaviour,
    Check,
    Clean,
    Exists,
    GoTo,
    IsClosed,
    Open,
    PickUp,
    PutIn,
    PutOn,
)
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.runner import run_policy, vocabulary
from pytest_logicenv.sim.selectors import Select

Status = py_trees.common.Status
Behaviour = py_trees.behaviour.Behaviour


def seq(*children: Behaviour, name: str = "seq") -> Behaviour:
    return py_trees.composites.Sequence(name, memory=True, children=list(children))


def fetch_apple() -> Behaviour:
    return seq(
        GoTo("fridge"), Open("fridge"), PickUp("apple"), GoTo("counter"), PutOn("apple", "counter")
    )


GOAL = [{"on": ["apple", "counter"]}]


def test_a_policy_that_reaches_the_goal_passes() -> None:
    outcome = run_policy(fetch_apple, kitchen(), goal=GOAL)
    assert (outcome.kind, outcome.ok, outcome.status, outcome.ticks) == ("pass", True, "SUCCESS", 1)
    assert [str(s) for s in outcome.actions][-1] == "PutOn(apple, counter) ok"
    assert outcome.headline() == "Pass: the policy returned SUCCESS and every goal fact holds"
    outcome.assert_ok()


def test_breaking_causal_order_is_counterfactual() -> None:
    def policy() -> Behaviour:
        return seq(GoTo("fridge"), PickUp("apple"))

    outcome = run_policy(policy, kitchen(), goal=GOAL)
    assert outcome.kind == "counterfactual"
    assert outcome.violation is not None
    assert outcome.violation.precondition == "visible"
    assert outcome.explain().splitlines() == [
        "Counterfactual: PickUp(apple) broke a precondition: the agent can see apple",
        "broken precondition [visible]: the agent can see apple; "
        "but apple is inside fridge; fridge is closed",
        "trace: GoTo(fridge) ok, PickUp(apple) -> apple is inside fridge; fridge is closed",
    ]


def test_acting_on_an_object_the_situation_lacks_is_lackbranch() -> None:
    def policy() -> Behaviour:
        return seq(GoTo("counter"), PickUp("wet_wipes"), GoTo("stain"), Clean("stain", "wet_wipes"))

    situation = (("There is a wet wipe on the table?", "NO"),)
    outcome = run_policy(policy, kitchen(), situation=situation)
    assert outcome.kind == "lackbranch"
    assert outcome.status == "STOPPED"
    assert outcome.explain().splitlines()[:2] == [
        "Lackbranch: PickUp(wet_wipes) acts on wet_wipes, which this situation does not contain",
        "situation: There is a wet wipe on the table? = NO",
    ]


def test_success_with_a_false_goal_fact_is_unreachable() -> None:
    def policy() -> Behaviour:
        return seq(GoTo("fridge"), Open("fridge"), PickUp("apple"))

    outcome = run_policy(policy, kitchen(), goal=[*GOAL, {"state": "fridge", "open": True}])
    assert outcome.kind == "unreachable"
    assert outcome.false_goals == (parse_fact(GOAL[0]),)
    # The policy wrote apple, never the plan's role counter: the goal names it by its type.
    assert 'goal not met: "apple on CounterTop"' in outcome.explain()
    assert outcome.headline().endswith("but 1 goal fact is false")


def test_failure_is_lackbranch() -> None:
    def policy() -> Behaviour:
        return seq(Exists("Banana"), GoTo("counter"))

    outcome = run_policy(policy, kitchen())
    assert (outcome.kind, outcome.status) == ("lackbranch", "FAILURE")
    assert outcome.headline() == (
        "Lackbranch: the policy returned FAILURE in a situation it has no branch for"
    )
    assert outcome.trace[-1].kind == "condition"


def test_a_policy_that_never_ends_hits_the_tick_budget() -> None:
    def policy() -> Behaviour:
        return seq(IsClosed("fridge"), py_trees.behaviours.Running("forever"))

    outcome = run_policy(policy, kitchen(), max_ticks=40)
    assert (outcome.kind, outcome.status, outcome.ticks) == ("lackbranch", "RUNNING", 40)
    assert "did not finish within 40 ticks" in outcome.headline()


class Explodes(AgentBehaviour):
    def update(self) -> py_trees.common.Status:
        self.agent.go_to("counter")
        raise ZeroDivisionError("the user's leaf divided by zero")


def test_an_exception_in_a_user_leaf_is_an_error_of_that_run_only() -> None:
    root = seq(Explodes(), GoTo("fridge"))
    outcome = run_policy(root, kitchen())
    assert outcome.kind == "error"
    assert outcome.error is not None
    assert "ZeroDivisionError: the user's leaf divided by zero" in outcome.error
    assert "test_runner.py" in outcome.error
    assert "py_trees" not in outcome.error
    assert outcome.headline() == (
        "Error: the policy raised ZeroDivisionError: the user's leaf divided by zero"
    )
    assert [str(s) for s in outcome.trace] == ["GoTo(counter) ok"]
    # The next run is unaffected.
    assert run_policy(fetch_apple, kitchen(), goal=GOAL).ok


def test_an_exception_in_the_factory_is_an_error() -> None:
    def factory() -> Behaviour:
        raise RuntimeError("no robot today")

    outcome = run_policy(factory, kitchen())
    assert outcome.kind == "error"
    assert "RuntimeError: no robot today" in (outcome.error or "")


def test_a_policy_error_catching_except_exception_cannot_hide_a_fault() -> None:
    class Careless(AgentBehaviour):
        def update(self) -> py_trees.common.Status:
            # A policy that swallows its errors must not swallow the fault.
            with contextlib.suppress(Exception):
                self.agent.pick_up("apple")
            return Status.SUCCESS

    assert run_policy(lambda: Careless(), kitchen()).kind == "counterfactual"


def test_an_invalid_status_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class Forgetful(AgentBehaviour):
        def update(self) -> py_trees.common.Status:
            return None  # type: ignore[return-value]

    monkeypatch.setattr(py_trees.logging, "level", py_trees.logging.Level.ERROR)
    outcome = run_policy(lambda: seq(Forgetful()), kitchen())
    assert outcome.kind == "error"
    assert outcome.headline() == (
        "Error: the tree ended INVALID: some behaviour's update() returned something that is "
        "not a py_trees Status"
    )


class Counter(AgentBehaviour):
    """Counts its runs on the blackboard, as a careless user might."""

    def __init__(self) -> None:
        super().__init__("Counter")
        self.board = self.attach_blackboard_client("counter")
        self.board.register_key("runs", access=py_trees.common.Access.WRITE)

    def update(self) -> py_trees.common.Status:
        runs = self.board.runs if self.board.exists("runs") else 0
        self.board.runs = runs + 1
        return Status.SUCCESS if self.board.runs == 1 else Status.FAILURE


def test_the_blackboard_is_restored_after_every_run() -> None:
    keys_before = set(py_trees.blackboard.Blackboard.storage)
    clients_before = dict(py_trees.blackboard.Blackboard.clients)
    first = run_policy(Counter, kitchen())
    second = run_policy(Counter, kitchen())
    assert first.kind == second.kind == "pass"
    assert set(py_trees.blackboard.Blackboard.storage) == keys_before
    assert py_trees.blackboard.Blackboard.clients == clients_before


def test_a_root_reused_across_runs_starts_afresh_each_time() -> None:
    root = seq(Exists("mug"), py_trees.behaviours.Running("busy"), name="reused")
    first = run_policy(root, kitchen(), max_ticks=3)
    second = run_policy(root, kitchen(), max_ticks=3)
    assert first == second
    assert root.status == Status.RUNNING  # left as the run ended; the next run resets it


def test_runs_are_deterministic() -> None:
    outcomes = [run_policy(fetch_apple, kitchen(), goal=GOAL).to_json() for _ in range(3)]
    assert outcomes[0] == outcomes[1] == outcomes[2]


def test_the_situation_defaults_to_the_scene_provenance() -> None:
    scene = dataclasses.replace(
        kitchen(), provenance=Provenance(conditions=(("wipe", "no"), ("toy", "doll")))
    )
    outcome = run_policy(lambda: Exists("Banana"), scene)
    assert outcome.situation == (("wipe", "no"), ("toy", "doll"))
    assert "situation: wipe = no; toy = doll" in outcome.explain()


def test_the_explanation_shows_the_first_and_last_steps_of_a_long_trace() -> None:
    def policy() -> Behaviour:
        return seq(*(GoTo(t) for t in ["counter", "fridge"] * 6), Exists("Banana"))

    trace_line = run_policy(policy, kitchen()).explain().splitlines()[-1]
    assert trace_line.startswith(
        "trace: GoTo(counter) ok, GoTo(fridge) ok, GoTo(counter) ok, ... (2 more steps) ..., "
        "GoTo(fridge) ok, GoTo(counter) ok"
    )
    assert trace_line.endswith("GoTo(fridge) ok, Exists(Banana)? no")
    assert trace_line.count(",") == 3 + 8


def test_the_trace_names_the_object_any_true_chose() -> None:
    def policy() -> Behaviour:
        return seq(GoTo(Select("Milk", any=True)), PickUp(Select("Milk", any=True)))

    outcome = run_policy(policy, kitchen())
    assert "PickUp(Milk (any one: milk)) ok" in str(outcome.trace[-1])


def test_to_json_is_plain_json() -> None:
    outcome = run_policy(
        lambda: seq(GoTo("counter"), PutIn("mug", "toaster")),
        kitchen(),
        goal=GOAL,
        situation=[("Q", "A")],
    )
    data = json.loads(json.dumps(outcome.to_json()))
    assert data["kind"] == "counterfactual"
    assert data["violation"]["precondition"] == "holding"
    assert data["goal"] == GOAL
    assert data["situation"] == [["Q", "A"]]
    assert data["trace"][-1] == {
        "tick": 1,
        "kind": "action",
        "name": "PutIn",
        "args": ["mug", "toaster"],
        "ok": False,
        "detail": "the agent holds nothing",
        "objects": ["mug", "toaster"],
        "room": "kitchen",
        "spot": "counter",
    }
    assert data["explanation"] == outcome.explain()
    assert Outcome.from_json(data) == outcome


def test_a_run_file_that_is_not_an_outcome_names_what_is_wrong() -> None:
    with pytest.raises(RunFileError, match=r"not a policy run as Outcome\.to_json writes it"):
        Outcome.from_json({"kind": "pass", "trace": [{"tick": 1}]})
    with pytest.raises(RunFileError, match="unknown outcome kind 'won'"):
        Outcome.from_json({"kind": "won"})


def test_assert_ok_raises_a_policy_fault_with_the_explanation() -> None:
    outcome = run_policy(lambda: Exists("Banana"), kitchen())
    with pytest.raises(PolicyFault) as caught:
        outcome.assert_ok()
    assert isinstance(caught.value, AssertionError)
    assert caught.value.outcome is outcome
    assert str(caught.value) == outcome.explain()
    shown = caught.traceback.filter(caught)
    assert all(entry.frame.code.name != "assert_ok" for entry in shown)


def test_an_expected_fault_is_ok_and_any_other_is_not() -> None:
    lack = run_policy(lambda: Exists("Banana"), kitchen()).expecting("lackbranch")
    assert (lack.kind, lack.ok) == ("lackbranch", True)
    assert lack.headline().startswith("Lackbranch (expected): ")
    lack.assert_ok()
    other = run_policy(lambda: PickUp("mug"), kitchen()).expecting("lackbranch")
    assert (other.kind, other.ok) == ("counterfactual", False)
    assert "expected fault: lackbranch" in other.explain()
    with pytest.raises(ValueError, match="not a fault class"):
        lack.expecting("pass")


# --------------------------------------------------------------------------- bad input


def test_names_that_resolve_nowhere_are_rejected_before_the_run() -> None:
    known = vocabulary([kitchen()], [parse_fact({"exists": "WetWipes", "as": "wet_wipes"})])
    policy = parse_bt_xml(
        '<root><BehaviorTree ID="T"><Sequence><GoTo target="wet_wipes"/>'
        '<PickUp object="wet_wipse"/></Sequence></BehaviorTree></root>',
        "tidy.xml",
    )
    with pytest.raises(PolicyError, match=r"tidy.xml:1 <PickUp>: 'wet_wipse' names no object"):
        run_policy(policy, kitchen(), known=known)
    with pytest.raises(PolicyError, match=r"^tree/Check: 'Banan' names no object"):
        run_policy(seq(Check({"absent": "Banan"}), name="tree"), kitchen(), known=known)
    # Legitimately absent here, named elsewhere in the task: a lackbranch, not bad input.
    assert run_policy(lambda: GoTo("wet_wipes"), kitchen(), known=known).kind == "lackbranch"
    assert run_policy(lambda: GoTo("Kitchen"), kitchen(), known=known).kind == "pass"


def test_a_factory_must_return_a_behaviour() -> None:
    with pytest.raises(PolicyError, match="returned str, not a py_trees behaviour"):
        run_policy(lambda: "tree", kitchen())  # type: ignore[arg-type, return-value]
    with pytest.raises(PolicyError, match="a policy is a py_trees behaviour"):
        run_policy(42, kitchen())  # type: ignore[arg-type]


def test_leaves_built_with_bad_ports_are_policy_errors() -> None:
    with pytest.raises(PolicyError, match="PutIn port 'target': '' is not an object reference"):
        run_policy(lambda: PutIn("mug", ""), kitchen())
    with pytest.raises(PolicyError, match="unknown fact"):
        Check({"up": "mug"})


def test_bad_goal_facts_max_ticks_and_policy_files(tmp_path: Path) -> None:
    with pytest.raises(FactError, match=r"goal\[0\]"):
        run_policy(fetch_apple, kitchen(), goal=[{"up": "apple"}])
    with pytest.raises(PolicyError, match="max_ticks must be at least 1"):
        run_policy(fetch_apple, kitchen(), max_ticks=0)
    with pytest.raises(PolicyError, match=r"missing\.xml: cannot read the policy file"):
        run_policy(tmp_path / "missing.xml", kitchen())


def test_an_unbound_leaf_says_how_to_run_it() -> None:
    with pytest.raises(PolicyError, match="not bound to a run"):
        GoTo("mug").tick_once()


def test_the_outcome_kind_is_checked() -> None:
    with pytest.raises(ValueError, match="unknown outcome kind 'fault'"):
        Outcome("fault")


class FetchApple(AgentBehaviour):
    """A user's own leaf doing in Python what ``fetch_apple`` does with library leaves."""

    def update(self) -> py_trees.common.Status:
        agent = self.agent
        agent.go_to("fridge")
        agent.open("fridge")
        if not agent.sees("apple"):
            return Status.FAILURE
        agent.pick_up("apple")
        agent.go_to("counter")
        agent.put_on("apple", "counter")
        assert (agent.holding, agent.room, agent.next_to) == (None, "kitchen", "counter")
        return Status.SUCCESS


def test_a_users_own_leaf_acts_through_the_agent_api_like_the_library_leaves() -> None:
    by_user = run_policy(FetchApple, kitchen(), goal=GOAL)
    by_leaves = run_policy(fetch_apple, kitchen(), goal=GOAL)
    assert by_user.kind == "pass"
    assert by_user.trace == by_leaves.trace


def test_every_unknown_name_is_listed_with_the_closest_valid_one() -> None:
    from pytest_logicenv.errors import PolicyError
    from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
    from pytest_logicenv.sim.controls import sequence
    from pytest_logicenv.sim.leaves import GoTo, PickUp
    from pytest_logicenv.sim.runner import run_policy

    room = Room("r", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3)))
    wipes = SceneObject("w1", "WetWipes", role="wet_wipes", room="r", properties=("pickupable",))
    scene = Scene("s", rooms=(room,), objects=(wipes,))
    with pytest.raises(PolicyError) as caught:
        run_policy(
            lambda: sequence("Typos", GoTo("wet_wipse"), PickUp("mopp")),
            scene,
            known={"mop"},
        )
    lines = str(caught.value).splitlines()
    assert "'wet_wipse' names no object" in lines[0]
    assert lines[0].endswith("(did you mean 'wet_wipes'?)")
    assert "'mopp' names no object" in lines[1]
    assert lines[1].endswith("(did you mean 'mop'?)")
    assert lines[2].startswith("check the spelling")
