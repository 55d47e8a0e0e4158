"""The world state: built from a scene, read by the facts evaluator like a scene."""

from __future__ import annotations

from dataclasses import replace

from sim_scenes import kitchen, obj, scene, square

from pytest_logicenv.logic.facts import evaluate, parse_fact
from pytest_logicenv.scenes.scene_model import Door, Scene, Window
from pytest_logicenv.sim.actions import execute
from pytest_logicenv.sim.world import WorldState


def test_a_fresh_world_answers_facts_exactly_as_its_scene_does() -> None:
    source = kitchen()
    world = WorldState.from_scene(source)
    facts = [
        {"exists": "Apple", "where": {"in": "Fridge"}},
        {"on": ["mug", "counter"]},
        {"on": ["stain", "Floor"]},
        {"near": ["mug", "toaster"]},
        {"near": ["mug", "statue"]},
        {"state": "fridge", "open": False},
        {"absent": "Banana"},
        {"exists": "Stain", "where": {"room": "Kitchen"}, "states": {"dirty": True}},
    ]
    for data in facts:
        fact = parse_fact(data)
        assert evaluate(fact, world) == evaluate(fact, source), data


def test_windows_and_doors_are_entities_with_an_open_state() -> None:
    world = WorldState.from_scene(
        Scene(
            "with door",
            rooms=(square("kitchen", "Kitchen"), square("hall", "Hallway", x=5)),
            doors=(Door("d1", "wall", ("kitchen", "hall"), 1.0, open=False),),
            windows=(Window("w1", "wall", "kitchen", 1.0, role="window"),),
        )
    )
    assert {o.type for o in world.entities} == {"Window", "Door"}
    assert evaluate(parse_fact({"state": "Door", "open": False}), world)
    assert evaluate(parse_fact({"state": "window", "open": False}), world)
    assert world.objects["w1"].has("openable")


def test_only_the_outermost_closed_receptacle_hides_and_open_ones_do_not() -> None:
    world = WorldState.from_scene(kitchen())
    apple, lunchbox = world.objects["apple"], world.objects["lunchbox"]
    assert world.enclosure(apple) is world.objects["fridge"]
    assert not world.is_visible(apple)
    world.set_state(world.objects["fridge"], "open", True)
    assert world.is_visible(apple)
    assert world.is_visible(lunchbox)


def test_the_agent_reaches_its_spot_and_everything_on_it() -> None:
    world = WorldState.from_scene(kitchen())
    assert not world.reachable(world.objects["mug"])
    assert execute(world, "GoTo", {"target": "knife"}) is None  # knife is on the counter
    assert world.agent.spot == "counter"
    assert world.reachable(world.objects["mug"])
    assert world.reachable(world.objects["counter"])
    assert not world.reachable(world.objects["stain"])


def test_held_objects_are_near_what_the_agent_stands_at() -> None:
    world = WorldState.from_scene(kitchen())
    for call in (("GoTo", "mug"), ("PickUp", "mug"), ("GoTo", "statue")):
        port = "target" if call[0] == "GoTo" else "object"
        assert execute(world, call[0], {port: call[1]}) is None
    assert world.near("mug", "statue")
    assert not world.near("mug", "toaster")


def test_the_visible_view_is_cached_until_the_world_changes() -> None:
    world = WorldState.from_scene(kitchen())
    first = world.visible()
    assert world.visible() is first
    execute(world, "GoTo", {"target": "fridge"})
    assert world.visible() is not first


def test_a_dropped_object_is_near_where_it_was_dropped() -> None:
    # Carried across the kitchen and dropped beside the statue, the mug lies there: near the
    # statue, no longer near the toaster on the counter it came from.
    world = WorldState.from_scene(kitchen())
    for action, port, ref in (
        ("GoTo", "target", "mug"),
        ("PickUp", "object", "mug"),
        ("GoTo", "target", "statue"),
        ("Drop", "object", "mug"),
    ):
        assert execute(world, action, {port: ref}) is None
    assert world.near("mug", "statue")
    assert not world.near("mug", "toaster")
    # Walking to it means walking to the statue it lies beside.
    assert execute(world, "GoTo", {"target": "toaster"}) is None
    assert execute(world, "GoTo", {"target": "mug"}) is None
    assert world.agent.spot == "statue"
    assert world.reachable(world.objects["mug"])


def test_an_object_dropped_where_the_agent_started_lies_there() -> None:
    # Handed the tray at its start (0.5, 0.5), the agent drops it there, 3 m from the statue
    # the tray stood beside.
    world = WorldState.from_scene(kitchen())
    assert world.near("tray", "statue")
    world.hold(world.objects["tray"])
    assert execute(world, "Drop", {"object": "tray"}) is None
    assert not world.near("tray", "statue")


def test_wall_mounted_objects_are_near_as_in_the_scene() -> None:
    # One evaluator serves scenes and worlds: a picture hung above the sofa is near it in both.
    source = scene(
        obj("sofa", "Sofa", "receptacle", size=(2.0, 0.8, 0.9), at=(2.5, 0.5)),
        obj("picture", "Painting", relation="wall", size=(0.8, 0.6, 0.02), at=(2.5, 0.01)),
        obj("stool", "Stool", size=(0.4, 0.5, 0.4), at=(2.5, 4.5)),
    )
    world = WorldState.from_scene(source)
    for pair in (["picture", "sofa"], ["sofa", "picture"], ["picture", "stool"]):
        fact = parse_fact({"near": pair})
        assert evaluate(fact, world) == evaluate(fact, source), pair
    assert evaluate(parse_fact({"near": ["picture", "sofa"]}), world)


def test_only_the_closed_doors_on_the_way_bar_it() -> None:
    closet = Door("closet_door", "w", ("kitchen", "closet"), 1.0, open=False)
    hall = Door("hall_door", "w", ("pantry", "hall"), 1.0, open=True)
    source = kitchen()
    world = WorldState.from_scene(
        replace(
            source,
            rooms=(*source.rooms, square("closet", "Closet", x=-5), square("hall", "Hall", x=10)),
            doors=(*source.doors, closet, hall),
        )
    )
    assert [door.id for door in world.closed_way(["hall"]) or []] == ["pantry_door"]
    assert world.closed_way(["kitchen"]) is None
    world.set_state(world.objects["pantry_door"], "open", True)
    assert world.closed_way(["hall"]) is None
    assert [door.id for door in world.closed_way(["closet"]) or []] == ["closet_door"]
