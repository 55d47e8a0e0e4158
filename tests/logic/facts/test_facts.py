"""The facts language: parsing, rendering and evaluation on a scene."""

from __future__ import annotations

import pytest

from pytest_logicenv.errors import FactError
from pytest_logicenv.logic.facts import describe, evaluate, false_facts, parse_fact, to_json
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject, Window

ROOM = Room("living", "LivingRoom", ((0, 0), (5, 0), (5, 5), (0, 5)))


def scene() -> Scene:
    return Scene(
        "s",
        rooms=(ROOM,),
        objects=(
            SceneObject(
                "sofa_1", "Sofa", role="sofa", room="living", position=(1, 0.4, 1), size=(2, 0.8, 1)
            ),
            SceneObject(
                "box_1",
                "ToyBox",
                role="red_box",
                room="living",
                attrs={"colour": "red"},
                position=(4, 0.2, 4),
            ),
            SceneObject(
                "doll_1",
                "Toy",
                role="toy",
                room="living",
                attrs={"kind": "doll"},
                position=(1.5, 0.1, 2),
            ),
            SceneObject(
                "book_1",
                "Book",
                room="living",
                parent="sofa_1",
                relation="on",
                position=(1, 0.9, 1),
            ),
            SceneObject("stain_1", "Stain", role="stain", room="living", states={"dirty": True}),
        ),
        windows=(Window("window_1", "w0", "living", 1.0, open=True),),
    )


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"exists": "Toy", "where": {"on": "Floor"}, "attrs": {"kind": "doll"}}, True),
        ({"exists": "Toy", "where": {"on": "Floor"}, "attrs": {"kind": "car"}}, False),
        ({"absent": "WetWipes"}, True),
        ({"absent": "Book", "where": {"on": "Floor"}}, True),
        ({"exists": "Book", "where": {"on": "sofa"}}, True),
        ({"on": ["Book", "Sofa"]}, True),
        ({"in": ["toy", "red_box"]}, False),
        ({"on": ["toy", "Floor"]}, True),
        ({"near": ["toy", "sofa"]}, True),
        ({"near": ["red_box", "sofa"]}, False),
        ({"state": "stain", "dirty": True}, True),
        ({"state": "Window", "open": True}, True),
        ({"attr": "red_box", "colour": "red"}, True),
        ({"exists": "Toy", "where": {"room": "LivingRoom"}}, True),
        ({"exists": "Toy", "where": {"room": "Kitchen"}}, False),
        ({"held": "toy"}, False),
        ({"and": [{"absent": "Mop"}, {"exists": "Sofa"}]}, True),
        ({"or": [{"exists": "Mop"}, {"exists": "Fridge"}]}, False),
        ({"not": {"exists": "Mop"}}, True),
        ({"exists": "Stain", "states": {"dirty": True}}, True),
    ],
)
def test_evaluate_on_a_scene(data: dict[str, object], expected: bool) -> None:
    fact = parse_fact(data)
    assert evaluate(fact, scene()) is expected
    assert parse_fact(to_json(fact)) == fact


def test_state_aliases_are_canonical() -> None:
    assert to_json(parse_fact({"state": "light", "on": True})) == {
        "state": "light",
        "toggled": True,
    }


def test_describe_reads_like_english() -> None:
    assert (
        describe(parse_fact({"absent": "WetWipes", "where": {"on": "table"}}))
        == "no WetWipes on table"
    )
    assert describe(parse_fact({"state": "window", "open": False})) == "window is not open"
    assert describe(parse_fact({"not": {"in": ["toy", "box"]}})) == "not (toy in box)"


def test_false_facts_lists_what_does_not_hold() -> None:
    facts = [parse_fact({"exists": "Sofa"}), parse_fact({"in": ["toy", "red_box"]})]
    assert false_facts(facts, scene()) == [facts[1]]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a fact must be a non-empty JSON object"),
        ({"exists": ""}, "expected an object type or role name"),
        (
            {"exists": "Toy", "where": {"under": "bed"}},
            "'where' accepts 'on', 'in', 'room' and 'part_of'",
        ),
        ({"exists": "Toy", "as": "Toy"}, "write it in lower case, e.g. 'toy'"),
        ({"exists": "Toy", "colour": "red"}, "remove ['colour']"),
        ({"state": "window", "ajar": True}, "unknown state 'ajar'; known states: open"),
        ({"state": "window", "open": "yes"}, "must be true or false"),
        ({"state": "window"}, "needs at least one state"),
        ({"in": ["toy"]}, "takes a pair [subject, target]"),
        ({"and": []}, "takes a non-empty list of facts"),
        ({"touching": ["a", "b"]}, "a fact starts with one of exists, absent"),
    ],
)
def test_malformed_facts_say_how_to_fix_them(data: object, message: str) -> None:
    with pytest.raises(FactError) as caught:
        parse_fact(data, "goal[0]")
    assert str(caught.value).startswith("goal[0]")
    assert message in str(caught.value)


def _furnished() -> Scene:
    """A TV stand with a drawer holding a remote, and a counter whose sink has a basin."""
    room = Room("living", "LivingRoom", ((0, 0), (5, 0), (5, 5), (0, 5)))
    return Scene(
        "parts",
        rooms=(room,),
        objects=(
            SceneObject("tv_stand", "TVStand", role="tv_stand", room="living"),
            SceneObject(
                "tv_stand_drawer_1", "Drawer", room="living", relation="part", part_of="tv_stand"
            ),
            SceneObject(
                "remote", "RemoteControl", room="living", parent="tv_stand_drawer_1", relation="in"
            ),
            SceneObject("counter", "CounterTop", room="living"),
            SceneObject("sink", "Sink", room="living", relation="part", part_of="counter"),
            SceneObject("basin", "SinkBasin", room="living", relation="part", part_of="sink"),
        ),
    )


@pytest.mark.parametrize(
    ("data", "holds"),
    [
        ({"exists": "Drawer", "where": {"part_of": "tv_stand"}}, True),
        ({"exists": "Drawer", "where": {"part_of": "TVStand"}}, True),
        ({"exists": "Drawer", "where": {"part_of": "Dresser"}}, False),
        ({"exists": "SinkBasin", "where": {"part_of": "CounterTop"}}, True),  # a part of a part
        ({"exists": "RemoteControl", "where": {"in": "Drawer"}}, True),
        ({"exists": "RemoteControl", "where": {"part_of": "TVStand"}}, False),  # in, not a part
        ({"exists": "Drawer", "where": {"on": "Floor"}}, False),  # a part is not on the floor
        ({"absent": "Cabinet", "where": {"part_of": "tv_stand"}}, True),
    ],
)
def test_part_of_reaches_the_parts_of_an_object(data: dict[str, object], holds: bool) -> None:
    assert evaluate(parse_fact(data), _furnished()) is holds


def test_part_of_reads_and_writes() -> None:
    fact = parse_fact({"exists": "Drawer", "as": "drawer", "where": {"part_of": "tv_stand"}})
    assert describe(fact) == "a Drawer (drawer) of tv_stand"
    assert to_json(fact) == {"exists": "Drawer", "as": "drawer", "where": {"part_of": "tv_stand"}}
