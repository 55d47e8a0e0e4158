"""What a goal fact left false is blamed on: the calls that could make it true and what
refused them, never a call that got further through rules of its own; and a tool hidden in
a closed drawer is thought of (the drawer opened) before the search runs out."""

from __future__ import annotations

from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
from pytest_logicenv.sim.world import WorldState
from pytest_logicenv.witness import FOUND, IMPOSSIBLE, Budget, find_witness, replay
from pytest_logicenv.witness.blockers import achieving_ports
from pytest_logicenv.witness.estimate import Estimate

KITCHEN = Room("kitchen", "Kitchen", ((0, 0), (4, 0), (4, 4), (0, 4)))
SLICED = parse_facts([{"state": "lemon", "sliced": True}], "goal")


def _obj(id_: str, type_: str, *props: str, **fields: object) -> SceneObject:
    return SceneObject(id_, type_, role=id_, room="kitchen", properties=props, **fields)  # type: ignore[arg-type]


def _kitchen(*extra: SceneObject) -> Scene:
    counter = _obj("counter", "CounterTop", "receptacle", size=(2.0, 0.9, 0.6))
    lemon = _obj(
        "lemon", "Lemon", "pickupable", "sliceable", parent="counter", size=(0.08, 0.08, 0.08)
    )
    machine = _obj(
        "coffee_machine",
        "CoffeeMachine",
        "receptacle",
        parent="counter",
        accepts=("Mug",),
        size=(0.3, 0.4, 0.3),
    )
    fork = _obj("fork", "Fork", "pickupable", parent="counter", size=(0.02, 0.02, 0.18))
    return Scene("kitchen", rooms=(KITCHEN,), objects=(counter, lemon, machine, fork, *extra))


def test_a_slice_goal_is_blamed_on_slice_not_on_putting_the_lemon_somewhere() -> None:
    """No cutting tool: the search exhausts the states. ``PutIn(lemon, coffee_machine)``
    gets further through its rules than any ``Slice`` (to the types the machine takes), but
    it never slices anything."""
    result = find_witness(_kitchen(), SLICED, Budget(max_steps=20, max_ms=20000))
    assert result.verdict == IMPOSSIBLE
    (blocker,) = result.blockers
    text = str(blocker)
    assert text.startswith("lemon is sliced: Slice(lemon, ")
    assert "needs fork is a cutting tool, but fork (Fork) is not a cutting tool" in text
    assert "PutIn" not in text
    assert "coffee_machine" not in text


def test_the_achieving_actions_come_from_the_declared_changes() -> None:
    assert achieving_ports(SLICED[0]) == {"Slice": (0,)}
    (inside,) = parse_facts([{"in": ["knife", "drawer"]}], "goal")
    assert achieving_ports(inside) == {"PutIn": (0,)}
    (held,) = parse_facts([{"held": "knife"}], "goal")
    assert achieving_ports(held) == {"PickUp": (0,)}


def test_a_knife_in_a_closed_drawer_is_found_by_opening_the_drawer_first() -> None:
    drawer = _obj(
        "drawer",
        "Drawer",
        "receptacle",
        "openable",
        part_of="counter",
        relation="part",
        states={"open": False},
        size=(0.5, 0.15, 0.5),
    )
    knife = _obj(
        "knife",
        "Knife",
        "pickupable",
        "cutting_tool",
        parent="drawer",
        relation="in",
        size=(0.03, 0.02, 0.25),
    )
    scene = _kitchen(drawer, knife)
    goal = parse_facts(
        [
            {"state": "lemon", "sliced": True},
            {"in": ["knife", "drawer"]},
            {"state": "drawer", "open": False},
        ],
        "goal",
    )
    # The knife the agent cannot see yet is the nearest tool of Slice(lemon, ?): calls on it
    # and on the drawer that hides it are tried first (the estimate took only what the agent
    # sees, and a kitchen of thirty objects ran out of time before opening the drawer).
    start = WorldState.from_scene(scene)
    estimate = Estimate(goal)
    estimate(start)
    assert {"knife", "drawer"} <= estimate.relevant_in(start)
    result = find_witness(scene, goal, Budget(max_steps=40, max_ms=10000))
    assert result.verdict == FOUND, result.explain()
    sequence = result.sequence
    assert sequence.index("Open(drawer)") < sequence.index("PickUp(knife)")
    assert "Slice(lemon, knife)" in sequence
    assert replay(scene, result, goal).kind == "pass"
