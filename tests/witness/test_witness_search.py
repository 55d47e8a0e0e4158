"""The witness search: a sequence of the simulator's own actions that reaches every goal fact,
replayed green; or a verdict that names the goal fact and what blocks it, within its budget."""

from __future__ import annotations

from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject, Window
from pytest_logicenv.witness import (
    BUDGET,
    FOUND,
    IMPOSSIBLE,
    Budget,
    find_witness,
    replay,
    witness_from_json,
)

ROOM = Room("bedroom", "Bedroom", ((0, 0), (4, 0), (4, 4), (0, 4)))


def _obj(id_: str, type_: str, *props: str, **fields: object) -> SceneObject:
    return SceneObject(id_, type_, role=id_, room="bedroom", properties=props, **fields)  # type: ignore[arg-type]


def _bedroom(*extra: SceneObject) -> Scene:
    bed = _obj("bed", "Bed", "receptacle", size=(2.0, 0.6, 1.6))
    blanket = _obj(
        "blanket", "Blanket", "pickupable", parent="bed", relation="on", size=(0.9, 0.1, 0.6)
    )
    basket = _obj("basket", "Basket", "receptacle", "pickupable", size=(0.35, 0.2, 0.3))
    return Scene("bedroom", rooms=(ROOM,), objects=(bed, blanket, basket, *extra))


def test_a_witness_is_found_and_replays_green() -> None:
    scene = _bedroom(_obj("hamper", "LaundryHamper", "receptacle", size=(0.6, 0.7, 0.6)))
    goal = parse_facts([{"in": ["blanket", "hamper"]}], "goal")
    result = find_witness(scene, goal)
    assert result.verdict == FOUND
    assert result.sequence == "GoTo(blanket), PickUp(blanket), GoTo(hamper), PutIn(blanket, hamper)"
    assert result.explain().startswith("a passing sequence: GoTo(blanket), PickUp(blanket)")
    assert replay(scene, result, goal).kind == "pass"
    assert witness_from_json(result.to_json(), "w").calls == result.calls


def test_a_blanket_larger_than_the_basket_is_proved_impossible_naming_the_sizes() -> None:
    goal = parse_facts([{"in": ["blanket", "basket"]}], "goal")
    result = find_witness(_bedroom(), goal)
    assert result.verdict == IMPOSSIBLE
    (blocker,) = result.blockers
    assert blocker.fact == "blanket in basket"
    text = str(blocker)
    assert "PutIn(blanket, basket) needs basket has room for blanket" in text
    assert "blanket (0.9 x 0.1 x 0.6 m) is larger than basket (0.35 x 0.2 x 0.3 m)" in text
    assert result.explain().startswith("proved impossible")


def test_contradictory_goals_end_in_a_verdict_not_a_hang() -> None:
    window = Window("window", "bedroom_wall_0", "bedroom", 1.0, role="window")
    scene = Scene("w", rooms=(ROOM,), windows=(window,))
    goal = parse_facts(
        [{"state": "window", "open": True}, {"state": "window", "open": False}], "goal"
    )
    result = find_witness(scene, goal)
    assert result.verdict == IMPOSSIBLE
    (blocker,) = result.blockers
    assert "never together with the other goal facts" in str(blocker)


def test_a_scene_of_three_thousand_objects_stops_at_its_time_budget() -> None:
    clutter = tuple(
        _obj(f"cup_{i}", "Cup", "pickupable", size=(0.1, 0.1, 0.1)) for i in range(3000)
    )
    goal = parse_facts([{"in": ["blanket", "basket"]}], "goal")
    result = find_witness(_bedroom(*clutter), goal, Budget(max_steps=40, max_ms=300))
    assert result.verdict == BUDGET
    assert result.stopped_by == "time"
    assert result.explain().startswith("no witness within 40 steps / 300 ms (stopped by time")


def test_a_goal_longer_than_the_step_budget_says_so() -> None:
    books = tuple(_obj(f"book_{i}", "Book", "pickupable", size=(0.2, 0.05, 0.3)) for i in range(8))
    shelf = _obj("shelf", "Shelf", "receptacle", size=(3.0, 2.0, 3.0))
    goal = parse_facts([{"on": [f"book_{i}", "shelf"]} for i in range(8)], "goal")
    result = find_witness(_bedroom(*books, shelf), goal, Budget(max_steps=6, max_ms=5000))
    assert result.verdict == BUDGET
    assert result.stopped_by in ("steps", "time")
    assert "no witness within 6 steps" in result.explain()
