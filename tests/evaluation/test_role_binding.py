"""Binding a ground truth's roles to a model's scene: by the facts, by what the setting says
each role is, and never through an object id that happens to be a role's name."""

from __future__ import annotations

from pytest_logicenv.evaluation.ground_truth import Truth, ground
from pytest_logicenv.evaluation.role_binding import MAX_NODES, Roles, bind
from pytest_logicenv.logic.facts import evaluate, parse_fact, parse_facts
from pytest_logicenv.logic.plan import plan_from_json
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
from pytest_logicenv.sim.world import WorldState

ROOM = Room("r", "Kitchen", ((0, 0), (4, 0), (4, 4), (0, 4)))


def shelves_scene() -> Scene:
    """Two shelves, the bottom one listed first; the book is on the top one."""
    return Scene(
        "s",
        rooms=(ROOM,),
        objects=(
            SceneObject("low", "Shelf", room="r", attrs={"level": "bottom"}),
            SceneObject("high", "Shelf", room="r", attrs={"level": "top"}),
            SceneObject("book", "Book", room="r", parent="high"),
        ),
    )


SHELVES = parse_facts(
    [
        {"exists": "Shelf", "as": "bottom_shelf", "attrs": {"level": "bottom"}},
        {"exists": "Shelf", "as": "top_shelf", "attrs": {"level": "top"}},
    ],
    "setting",
)
TYPES = {"bottom_shelf": "Shelf", "top_shelf": "Shelf"}


def test_a_role_takes_the_object_its_attributes_describe_not_the_first_free_one() -> None:
    roles = Roles.of(SHELVES, TYPES)
    on_top = parse_facts([{"on": ["Book", "top_shelf"]}], "path")
    on_bottom = parse_facts([{"on": ["Book", "bottom_shelf"]}], "path")
    assert bind(on_top, shelves_scene(), roles) == {"top_shelf": "high"}
    assert bind(on_bottom, shelves_scene(), roles) is None
    # Without the setting's attributes any shelf would do: the bottom one holds no book.
    assert bind(on_bottom, shelves_scene(), Roles(TYPES)) == {"bottom_shelf": "high"}


def test_an_object_without_the_attribute_may_still_be_the_role() -> None:
    """A model's bowl with no ``kind`` is the fruit bowl when no bowl says it is."""
    scene = Scene("s", rooms=(ROOM,), objects=(SceneObject("bowl", "Bowl", room="r"),))
    setting = parse_facts([{"exists": "Bowl", "as": "fruit_bowl", "attrs": {"kind": "fruit"}}], "s")
    facts = parse_facts([{"exists": "fruit_bowl"}], "path")
    assert bind(facts, scene, Roles.of(setting, {"fruit_bowl": "Bowl"})) == {"fruit_bowl": "bowl"}


def test_the_search_is_bounded() -> None:
    objects = tuple(SceneObject(f"b{i}", "Box", room="r") for i in range(40))
    scene = Scene("s", rooms=(ROOM,), objects=objects)
    types = {f"r{i}": "Box" for i in range(6)}
    impossible = parse_facts([{"in": [f"r{i}", f"r{i + 1}"]} for i in range(5)], "path")
    assert bind(impossible, scene, Roles(types)) is None  # gives up after MAX_NODES steps
    assert MAX_NODES == 20_000


PLATE_PLAN = plan_from_json(
    {
        "format": "logicenv-plan/1",
        "task": "Put the apple on the plate on the table.",
        "setting": [
            {"exists": "DiningTable", "as": "table"},
            {"exists": "Plate", "as": "plate", "where": {"on": "table"}},
            {"exists": "Apple", "as": "apple"},
        ],
        "subtasks": [
            {
                "name": "apple",
                "factors": [
                    {
                        "id": "apple",
                        "question": "Is there an apple?",
                        "domain": ["yes"],
                        "realization": {"yes": [{"exists": "apple"}]},
                    }
                ],
                "tree": {
                    "query": "apple",
                    "branches": {
                        "yes": {
                            "action": "Put it on the plate.",
                            "goal": [{"on": ["apple", "plate"]}],
                        }
                    },
                },
            }
        ],
    },
    "plate plan",
)


def model_scene() -> Scene:
    """A model's scene: its plate on the counter has the id ``plate``; the plate on the
    table (the ground truth's plate) it calls ``dish``; the apple is on its ``plate``."""
    return Scene(
        "m",
        rooms=(ROOM,),
        objects=(
            SceneObject("counter", "CounterTop", room="r"),
            SceneObject("plate", "Plate", role="plate", room="r", parent="counter"),
            SceneObject("table", "DiningTable", role="table", room="r"),
            SceneObject("dish", "Plate", role="dish", room="r", parent="table"),
            SceneObject("apple", "Apple", role="apple", room="r", parent="plate"),
        ),
    )


def test_an_id_equal_to_a_role_name_stands_for_nothing_in_a_judged_scene() -> None:
    grounded = ground(Truth.of(PLATE_PLAN), model_scene())
    judged = grounded.scene
    assert {o.id: o.role for o in judged.objects if o.role} == {
        "table": "table",
        "dish": "plate",
        "apple": "apple",
    }
    goal = parse_fact({"on": ["apple", "plate"]})
    assert not evaluate(goal, judged)  # the apple is on the model's "plate", not the plate
    assert evaluate(goal, model_scene())  # in a scene of its own, an id is a name
    # The simulator resolves names the same way: the policy's "plate" is the bound one.
    assert [o.id for o in WorldState.from_scene(judged).candidates("plate")] == ["dish"]
    assert [o.id for o in WorldState.from_scene(model_scene()).candidates("plate")] == ["plate"]
