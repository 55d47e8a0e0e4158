"""The witness search: a sequence of the simulator's own actions that reaches every goal fact,
replayed green; or a verdict that names the goal fact and what blocks it, within its budget."""

from __future__ import annotations

import time

from pytest_logicenv.logic.facts import Fact, parse_facts
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject, Window
from pytest_logicenv.sim.world import WorldState
from pytest_logicenv.witness import (
    BUDGET,
    FOUND,
    IMPOSSIBLE,
    RULES,
    STEPS,
    TIME,
    WALL,
    Budget,
    find_witness,
    replay,
    witness_from_json,
)
from pytest_logicenv.witness.state_search import Limits, search

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
    # Proved by the rules no action changes, before any search: no budget can run out.
    assert result.stopped_by == RULES
    assert result.states == 0
    (blocker,) = result.blockers
    assert blocker.fact == "blanket in basket"
    text = str(blocker)
    assert "PutIn(blanket, basket) needs basket has room for blanket" in text
    assert "blanket (0.9 x 0.1 x 0.6 m) is larger than basket (0.35 x 0.2 x 0.3 m)" in text
    assert result.explain().startswith("proved impossible")


def test_a_basket_made_full_is_not_proved_impossible_by_the_rules() -> None:
    """The proof is sound: room a receptacle has while something is in it is no rule no
    action changes (the book can be taken out), so only the search answers."""
    book = _obj("book", "Book", "pickupable", parent="hamper", relation="in", size=(0.6, 0.6, 0.6))
    hamper = _obj("hamper", "LaundryHamper", "receptacle", size=(0.6, 0.7, 0.6))
    goal = parse_facts([{"in": ["blanket", "hamper"]}], "goal")
    result = find_witness(_bedroom(hamper, book), goal)
    assert result.verdict == FOUND
    assert "PickUp(book)" in result.sequence
    assert replay(_bedroom(hamper, book), result, goal).kind == "pass"


def test_what_nothing_can_pick_up_is_proved_never_held() -> None:
    goal = parse_facts([{"in": ["bed", "basket"]}], "goal")
    result = find_witness(_bedroom(), goal)
    assert (result.verdict, result.stopped_by) == (IMPOSSIBLE, RULES)
    assert "nothing can pick up bed" in str(result.blockers[0])


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


def test_contradictory_goals_in_three_thousand_objects_are_proved_at_once() -> None:
    goal = parse_facts(
        [{"state": "window", "open": True}, {"state": "window", "open": False}], "goal"
    )
    window = Window("window", "bedroom_wall_0", "bedroom", 1.0, role="window")
    scene = _bedroom(*_cups(3000))
    scene = Scene("w", rooms=(ROOM,), objects=scene.objects, windows=(window,))
    result = find_witness(scene, goal, Budget(max_steps=40, max_ms=300))
    assert (result.verdict, result.stopped_by) == (IMPOSSIBLE, RULES)
    (blocker,) = result.blockers
    assert str(blocker).endswith(
        "asks the opposite state of another goal fact: never together with the other goal facts"
    )


def _cups(count: int) -> tuple[SceneObject, ...]:
    return tuple(_obj(f"cup_{i}", "Cup", "pickupable", size=(0.1, 0.1, 0.1)) for i in range(count))


def test_a_scene_of_three_thousand_objects_stops_at_its_time_budget() -> None:
    # The hamper is full of what nothing can take out: no rule no action changes says so,
    # and the search of 3,000 cups cannot end before its budget does.
    anvil = _obj("anvil", "Anvil", parent="hamper", relation="in", size=(0.6, 0.7, 0.6))
    hamper = _obj("hamper", "LaundryHamper", "receptacle", size=(0.6, 0.7, 0.6))
    goal = parse_facts([{"in": ["blanket", "hamper"]}], "goal")
    scene = _bedroom(hamper, anvil, *_cups(3000))
    result = find_witness(scene, goal, Budget(max_steps=40, max_ms=300))
    assert result.verdict == BUDGET
    assert result.stopped_by in (TIME, WALL)
    assert result.explain().startswith("no witness within 40 steps / 300 ms (stopped by ")
    assert "blanket in hamper" in result.explain()


def test_a_search_starved_of_cpu_stops_at_its_wall_clock_cap() -> None:
    """The budget counts CPU time (the same witness on a loaded machine); a wall-clock cap,
    a multiple of it, still ends a search that gets no CPU at all."""
    scene, goal = _eight_books()
    start = WorldState.from_scene(scene)
    frozen_cpu = lambda: 0.0  # noqa: E731 - a clock that never advances
    limits = Limits(60, 1000, wall_deadline=time.monotonic() - 1)
    found = search(start, goal, limits, clock=frozen_cpu)
    assert (found.calls, found.stopped_by) == (None, WALL)


def test_a_goal_of_thirty_two_calls_is_found_and_replays_green() -> None:
    scene, goal = _eight_books()
    result = find_witness(scene, goal)
    assert result.verdict == FOUND
    assert len(result.calls) >= 24  # at least a pick-up, a walk and a put per book
    assert replay(scene, result, goal).kind == "pass"


def test_a_goal_longer_than_the_step_budget_says_so() -> None:
    scene, goal = _eight_books()
    result = find_witness(scene, goal, Budget(max_steps=6, max_ms=1000))
    assert result.verdict == BUDGET
    assert result.stopped_by in (STEPS, TIME, WALL)
    assert "no witness within 6 steps" in result.explain()


def _eight_books() -> tuple[Scene, list[Fact]]:
    books = tuple(_obj(f"book_{i}", "Book", "pickupable", size=(0.2, 0.05, 0.3)) for i in range(8))
    shelf = _obj("shelf", "Shelf", "receptacle", size=(3.0, 2.0, 3.0))
    goal = parse_facts([{"on": [f"book_{i}", "shelf"]} for i in range(8)], "goal")
    return _bedroom(*books, shelf), goal


def test_a_goal_naming_thousands_of_objects_is_left_to_the_search_within_its_budget() -> None:
    """``Cup in Box`` over 3,000 cups and 40 full boxes: too many pairs to prove anything
    about, so the search answers, within its budget."""
    boxes = tuple(_obj(f"box_{i}", "Box", "receptacle", size=(0.2, 0.2, 0.2)) for i in range(40))
    lids = tuple(
        _obj(f"lid_{i}", "Lid", parent=f"box_{i}", relation="in", size=(0.2, 0.2, 0.2))
        for i in range(40)
    )
    goal = parse_facts([{"in": ["Cup", "Box"]}], "goal")
    result = find_witness(_bedroom(*boxes, *lids, *_cups(3000)), goal, Budget(40, 300))
    assert result.verdict == BUDGET
    assert result.stopped_by in (TIME, WALL)
