"""Actions: every precondition, when broken, gives its violation and changes nothing; every
effect does what it says."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sim_scenes import kitchen, obj, scene, snapshot, square

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.logic.facts import evaluate, parse_fact
from pytest_logicenv.scenes.scene_model import Window, footprint_gap
from pytest_logicenv.sim.actions import ACTIONS, EVERY_PORT, action_table, execute
from pytest_logicenv.sim.world import HELD, WorldState, nearest_part

Call = tuple[str, dict[str, str]]


def go(target: str) -> Call:
    return ("GoTo", {"target": target})


def pick(item: str) -> Call:
    return ("PickUp", {"object": item})


def toggle(target: str) -> Call:
    return ("ToggleOn", {"target": target})


# The agent holds the mug at the sink, whose faucet runs.
AT_RUNNING_SINK = [go("counter"), pick("mug"), go("sink"), toggle("faucet")]


def run(world: WorldState, calls: Sequence[Call]) -> None:
    for action, args in calls:
        violation = execute(world, action, args)
        assert violation is None, f"setup step {action}{args} failed: {violation}"


# (action, setup calls that must succeed, the call's arguments, the precondition it breaks)
BROKEN: list[tuple[str, list[Call], dict[str, str], str]] = [
    ("GoTo", [], {"target": "banana"}, "exists"),
    ("GoTo", [], {"target": "apple"}, "visible"),
    ("PickUp", [], {"object": "Banana"}, "exists"),
    ("PickUp", [go("fridge")], {"object": "apple"}, "visible"),
    ("PickUp", [], {"object": "mug"}, "next_to"),
    ("PickUp", [go("statue")], {"object": "statue"}, "pickupable"),
    ("PickUp", [go("counter"), pick("mug")], {"object": "knife"}, "hand_free"),
    ("PutOn", [go("counter")], {"object": "mug", "target": "counter"}, "holding"),
    ("PutOn", [go("counter"), pick("mug")], {"object": "mug", "target": "mug"}, "distinct"),
    ("PutOn", [go("counter"), pick("mug")], {"object": "mug", "target": "apple"}, "visible"),
    ("PutOn", [go("counter"), pick("mug")], {"object": "mug", "target": "tray"}, "next_to"),
    (
        "PutOn",
        [go("counter"), pick("mug"), go("lamp")],
        {"object": "mug", "target": "lamp"},
        "receptacle",
    ),
    ("PutOn", [go("counter"), pick("mug")], {"object": "mug", "target": "toaster"}, "compatible"),
    (
        "PutOn",
        [go("counter"), pick("mug"), go("tray")],
        {"object": "mug", "target": "tray"},
        "room",
    ),
    ("PutIn", [go("counter")], {"object": "cup", "target": "mug"}, "holding"),
    ("PutIn", [go("counter"), pick("cup")], {"object": "cup", "target": "cup"}, "distinct"),
    ("PutIn", [go("counter"), pick("cup")], {"object": "cup", "target": "lunchbox"}, "visible"),
    ("PutIn", [go("counter"), pick("cup")], {"object": "cup", "target": "tray"}, "next_to"),
    ("PutIn", [go("counter"), pick("cup")], {"object": "cup", "target": "knife"}, "receptacle"),
    (
        "PutIn",
        [go("counter"), pick("cup"), go("fridge")],
        {"object": "cup", "target": "fridge"},
        "open",
    ),
    (
        "PutIn",
        [go("counter"), pick("cup")],
        {"object": "cup", "target": "coffee_machine"},
        "compatible",
    ),
    ("PutIn", [go("counter"), pick("mug")], {"object": "mug", "target": "cup"}, "room"),
    ("Open", [go("fridge")], {"target": "lunchbox"}, "visible"),
    ("Open", [], {"target": "fridge"}, "next_to"),
    ("Open", [go("counter")], {"target": "counter"}, "openable"),
    ("Open", [go("fridge"), ("Open", {"target": "fridge"})], {"target": "fridge"}, "not_open"),
    ("Close", [go("fridge")], {"target": "lunchbox"}, "visible"),
    ("Close", [], {"target": "fridge"}, "next_to"),
    ("Close", [go("counter")], {"target": "counter"}, "openable"),
    ("Close", [go("fridge")], {"target": "fridge"}, "open"),
    ("ToggleOn", [go("fridge")], {"target": "apple"}, "visible"),
    ("ToggleOn", [], {"target": "lamp"}, "next_to"),
    ("ToggleOn", [go("counter")], {"target": "counter"}, "toggleable"),
    ("ToggleOn", [go("lamp"), ("ToggleOn", {"target": "lamp"})], {"target": "lamp"}, "not_toggled"),
    ("ToggleOff", [go("fridge")], {"target": "apple"}, "visible"),
    ("ToggleOff", [], {"target": "lamp"}, "next_to"),
    ("ToggleOff", [go("counter")], {"target": "counter"}, "toggleable"),
    ("ToggleOff", [go("lamp")], {"target": "lamp"}, "toggled"),
    (
        "Clean",
        [go("counter"), pick("sponge"), go("fridge")],
        {"target": "apple", "tool": "sponge"},
        "visible",
    ),
    ("Clean", [], {"target": "stain", "tool": "sponge"}, "next_to"),
    ("Clean", [go("stain")], {"target": "stain", "tool": "sponge"}, "holding"),
    (
        "Clean",
        [go("counter"), pick("knife"), go("stain")],
        {"target": "stain", "tool": "knife"},
        "cleaning_tool",
    ),
    (
        "Clean",
        [
            go("counter"),
            pick("sponge"),
            go("stain"),
            ("Clean", {"target": "stain", "tool": "sponge"}),
        ],
        {"target": "stain", "tool": "sponge"},
        "dirty",
    ),
    ("Clean", [go("counter"), pick("sponge")], {"target": "stain", "tool": "Mop"}, "exists"),
    ("Fill", [go("fridge")], {"target": "apple"}, "visible"),
    ("Fill", [], {"target": "mug"}, "next_to"),
    ("Fill", [go("counter")], {"target": "knife"}, "fillable"),
    ("Fill", [go("counter")], {"target": "milk"}, "fillable"),
    ("Fill", [*AT_RUNNING_SINK, ("Fill", {"target": "mug"})], {"target": "mug"}, "not_filled"),
    ("Fill", [go("counter")], {"target": "mug"}, "running_water"),
    ("Fill", [go("counter"), pick("mug"), go("sink")], {"target": "mug"}, "running_water"),
    ("Wet", [], {"target": "cloth"}, "next_to"),
    ("Wet", [go("counter")], {"target": "mug"}, "wettable"),
    ("Wet", [go("counter"), pick("cloth")], {"target": "cloth"}, "running_water"),
    (
        "Wet",
        [go("counter"), pick("cloth"), go("sink"), toggle("faucet"), ("Wet", {"target": "cloth"})],
        {"target": "cloth"},
        "not_wet",
    ),
    ("Empty", [go("fridge")], {"target": "apple"}, "visible"),
    ("Empty", [go("counter")], {"target": "milk"}, "holding"),
    ("Empty", [go("counter"), pick("mug")], {"target": "mug"}, "filled"),
    ("Open", [go("counter"), toggle("microwave")], {"target": "microwave"}, "appliance_off"),
    (
        "ToggleOn",
        [go("counter"), ("Open", {"target": "microwave"})],
        {"target": "microwave"},
        "appliance_closed",
    ),
    (
        "Clean",
        [go("counter"), pick("cloth"), go("stain")],
        {"target": "stain", "tool": "cloth"},
        "wet_tool",
    ),
    ("Refill", [], {"target": "soap", "source": "refill"}, "next_to"),
    (
        "Refill",
        [go("counter"), pick("refill")],
        {"target": "mug", "source": "refill"},
        "can_be_used_up",
    ),
    (
        "Refill",
        [go("counter"), pick("refill"), ("Refill", {"target": "soap", "source": "refill"})],
        {"target": "soap", "source": "refill"},
        "used_up",
    ),
    ("Refill", [go("counter")], {"target": "soap", "source": "refill"}, "holding"),
    ("Refill", [go("counter"), pick("mug")], {"target": "soap", "source": "mug"}, "refill_source"),
    ("Pour", [go("counter")], {"object": "milk", "target": "mug"}, "holding"),
    ("Pour", [go("counter"), pick("cup")], {"object": "cup", "target": "mug"}, "filled"),
    ("Pour", [go("counter"), pick("milk")], {"object": "milk", "target": "milk"}, "distinct"),
    ("Pour", [go("counter"), pick("milk")], {"object": "milk", "target": "apple"}, "visible"),
    ("Pour", [go("counter"), pick("milk")], {"object": "milk", "target": "tray"}, "next_to"),
    ("Pour", [go("counter"), pick("milk")], {"object": "milk", "target": "knife"}, "fillable"),
    (
        "Pour",
        [
            *AT_RUNNING_SINK,
            ("Fill", {"target": "mug"}),
            go("counter"),
            ("PutOn", {"object": "mug", "target": "counter"}),
            pick("milk"),
        ],
        {"object": "milk", "target": "mug"},
        "not_filled",
    ),
    ("EmptyInto", [go("counter")], {"object": "milk", "target": "sink"}, "holding"),
    ("EmptyInto", [go("counter"), pick("cup")], {"object": "cup", "target": "sink"}, "filled"),
    ("EmptyInto", [go("counter"), pick("milk")], {"object": "milk", "target": "milk"}, "distinct"),
    ("EmptyInto", [go("counter"), pick("milk")], {"object": "milk", "target": "tray"}, "next_to"),
    ("EmptyInto", [go("counter"), pick("milk")], {"object": "milk", "target": "mug"}, "drain"),
    (
        "Slice",
        [go("counter"), pick("knife"), go("fridge")],
        {"target": "apple", "tool": "knife"},
        "visible",
    ),
    ("Slice", [], {"target": "bread", "tool": "knife"}, "next_to"),
    ("Slice", [go("counter"), pick("knife")], {"target": "mug", "tool": "knife"}, "sliceable"),
    (
        "Slice",
        [go("counter"), pick("knife"), ("Slice", {"target": "bread", "tool": "knife"})],
        {"target": "bread", "tool": "knife"},
        "not_sliced",
    ),
    ("Slice", [go("counter")], {"target": "bread", "tool": "knife"}, "holding"),
    (
        "Slice",
        [go("counter"), pick("sponge")],
        {"target": "bread", "tool": "sponge"},
        "cutting_tool",
    ),
    ("Drop", [], {"object": "mug"}, "holding"),
    ("GoTo", [], {"target": "jar"}, "way"),
    ("GoTo", [go("counter")], {"target": "Pantry"}, "way"),
]


@pytest.mark.parametrize(
    ("action", "setup", "args", "code"),
    BROKEN,
    ids=[f"{a}-{code}-{i}" for i, (a, _, _, code) in enumerate(BROKEN)],
)
def test_a_broken_precondition_is_reported_and_changes_nothing(
    action: str, setup: list[Call], args: dict[str, str], code: str
) -> None:
    world = WorldState.from_scene(kitchen())
    run(world, setup)
    before = snapshot(world)
    violation = execute(world, action, args)
    assert violation is not None
    assert violation.precondition == code, str(violation)
    assert violation.action == action
    assert dict(violation.arguments) == args
    assert violation.kind == ("lackbranch" if code == "exists" else "counterfactual")
    assert violation.requirement
    assert violation.facts
    assert snapshot(world) == before


def test_every_precondition_of_every_action_has_a_breaking_case() -> None:
    tested = {(action, code) for action, _, _, code in BROKEN}
    declared = {
        (name, precondition.code)
        for name, spec in ACTIONS.items()
        for precondition in spec.preconditions
    }
    assert declared <= tested, f"untested preconditions: {sorted(declared - tested)}"


def test_violations_name_the_facts_that_broke_them() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [go("fridge")])
    violation = execute(world, "PickUp", {"object": "apple"})
    assert violation is not None
    assert violation.facts == ("apple is inside fridge", "fridge is closed")
    assert str(violation) == (
        "PickUp(apple) needs the agent can see apple, but apple is inside fridge; fridge is closed"
    )
    assert violation.to_json() == {
        "action": "PickUp",
        "arguments": {"object": "apple"},
        "objects": {"object": "apple"},
        "precondition": "visible",
        "requirement": "the agent can see apple",
        "facts": ["apple is inside fridge", "fridge is closed"],
        "absent": None,
        "kind": "counterfactual",
    }
    missing = execute(world, "PickUp", {"object": "WetWipes"})
    assert missing is not None
    assert missing.absent == "WetWipes"
    assert missing.facts == ("no WetWipes in this scene",)
    holding = execute(world, "Drop", {"object": "mug"})
    assert holding is not None
    assert holding.facts == ("the agent holds nothing",)


@pytest.mark.parametrize(
    ("action", "args", "message"),
    [
        ("Pickup", {"object": "mug"}, "unknown action 'Pickup'; did you mean 'PickUp'?"),
        (
            "PutIn",
            {"object": "mug"},
            "PutIn needs port 'target' (ports: object, target, or the target as in= (in_= in "
            "Python))",
        ),
        ("PickUp", {"object": "mug", "to": "x"}, "PickUp has no port 'to'; its ports are: object"),
        ("PickUp", {"object": "{item}"}, "'{item}' is not an object reference"),
        ("PickUp", {"object": " mug"}, "' mug' is not an object reference"),
        ("PutOn", {"object": "mug", "target": "Floor"}, "Floor is not an object an action can use"),
    ],
)
def test_malformed_calls_are_policy_errors(action: str, args: dict[str, str], message: str) -> None:
    world = WorldState.from_scene(kitchen())
    with pytest.raises(PolicyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        execute(world, action, args)


# --------------------------------------------------------------------------- effects


def holds(world: WorldState, fact: dict[str, object]) -> bool:
    return evaluate(parse_fact(fact), world)


def test_pick_up_holds_the_object_and_put_places_it() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [go("mug"), pick("mug")])
    assert world.agent.held == "mug"
    assert world.objects["mug"].relation == HELD
    assert holds(world, {"held": "mug"})
    assert holds(world, {"held": "Mug"})
    assert not holds(world, {"on": ["mug", "counter"]})
    run(world, [go("fridge"), ("Open", {"target": "fridge"})])
    run(world, [("PutIn", {"object": "mug", "target": "fridge"})])
    assert world.agent.held is None
    assert holds(world, {"in": ["mug", "fridge"]})
    run(world, [("Close", {"target": "fridge"})])
    assert holds(world, {"in": ["mug", "fridge"]})  # the truth still has it
    assert not evaluate(parse_fact({"exists": "mug"}), world.visible())  # the agent cannot see it


def test_opening_a_receptacle_shows_what_is_inside() -> None:
    world = WorldState.from_scene(kitchen())
    hidden = parse_fact({"exists": "Apple", "where": {"in": "fridge"}})
    assert not evaluate(hidden, world.visible())
    run(world, [go("fridge"), ("Open", {"target": "fridge"})])
    assert evaluate(hidden, world.visible())
    assert world.objects["fridge"].states["open"] is True
    # the lunchbox in the fridge is visible now, but it is closed: nothing in it would be
    run(world, [("Open", {"target": "lunchbox"}), pick("apple")])
    assert world.agent.held == "apple"


def test_toggling_a_heat_source_cooks_and_an_object_specific_one_fills() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [go("counter"), pick("bread"), ("PutIn", {"object": "bread", "target": "toaster"})])
    run(world, [("ToggleOn", {"target": "toaster"})])
    assert world.objects["bread"].states.get("cooked") is True
    run(world, [pick("mug"), ("PutIn", {"object": "mug", "target": "coffee_machine"})])
    assert not world.objects["mug"].states.get("filled")
    run(world, [("ToggleOn", {"target": "coffee_machine"})])
    assert world.objects["mug"].states["filled"] is True
    assert holds(world, {"state": "coffee_machine", "toggled": True})
    run(world, [("ToggleOff", {"target": "coffee_machine"})])
    assert world.objects["coffee_machine"].states["toggled"] is False


def test_putting_into_a_heat_source_that_is_on_cooks_at_once() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [go("counter"), ("ToggleOn", {"target": "toaster"}), pick("bread")])
    run(world, [("PutIn", {"object": "bread", "target": "toaster"})])
    assert world.objects["bread"].states["cooked"] is True


def test_clean_pour_empty_slice() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [go("counter"), pick("sponge"), go("stain")])
    run(world, [("Clean", {"target": "stain", "tool": "sponge"})])
    assert holds(world, {"state": "stain", "dirty": False})
    run(world, [go("counter"), ("PutOn", {"object": "sponge", "target": "counter"})])
    run(world, [pick("milk"), ("Pour", {"object": "milk", "target": "mug"})])
    assert world.objects["mug"].states["filled"] is True
    assert world.objects["milk"].states["filled"] is False
    run(world, [("Drop", {"object": "milk"}), pick("mug"), ("Empty", {"target": "mug"})])
    assert world.objects["mug"].states["filled"] is False
    run(world, [("Drop", {"object": "mug"}), pick("knife")])
    run(world, [("Slice", {"target": "bread", "tool": "knife"})])
    assert holds(world, {"state": "bread", "sliced": True})


def test_a_running_faucet_fills_what_is_held_at_it_or_lies_in_its_basin() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [*AT_RUNNING_SINK, ("Fill", {"target": "mug"})])
    assert world.objects["mug"].states["filled"] is True
    # What goes into the basin of a running faucet fills by itself (AI2-THOR's physics), and
    # it does not matter whether the faucet or the cup came first.
    run(world, [("PutIn", {"object": "mug", "target": "sink"}), go("counter"), pick("cup")])
    run(world, [go("sink"), ("ToggleOff", {"target": "faucet"})])
    run(world, [("PutIn", {"object": "cup", "target": "sink"})])
    assert not world.objects["cup"].states.get("filled")
    run(world, [toggle("faucet")])
    assert world.objects["cup"].states["filled"] is True


def test_a_cloth_wets_at_a_running_faucet_and_then_cleans() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [go("counter"), pick("cloth"), go("sink"), toggle("faucet")])
    run(world, [("Wet", {"target": "cloth"}), go("stain")])
    run(world, [("Clean", {"target": "stain", "tool": "cloth"})])
    assert world.objects["stain"].states["dirty"] is False


def test_running_water_washes_a_dirty_dish_in_the_basin() -> None:
    world = WorldState.from_scene(kitchen())
    world.set_state(world.objects["cup"], "dirty", True)
    run(world, [go("counter"), pick("cup"), go("sink"), toggle("faucet")])
    assert world.objects["cup"].states["dirty"] is True  # held: only Fill and Wet touch it
    run(world, [("PutIn", {"object": "cup", "target": "sink"})])
    assert world.objects["cup"].states["dirty"] is False


def test_an_appliance_runs_closed_and_opens_off() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [go("counter"), toggle("microwave"), ("ToggleOff", {"target": "microwave"})])
    run(world, [("Open", {"target": "microwave"}), ("Close", {"target": "microwave"})])
    # A laptop opens and toggles too, but holds nothing: the appliance rule leaves it alone.
    base = kitchen()
    laptop_like = [
        dataclasses.replace(o, properties=("openable", "toggleable")) if o.id == "microwave" else o
        for o in base.objects
    ]
    world = WorldState.from_scene(dataclasses.replace(base, objects=tuple(laptop_like)))
    run(world, [go("counter"), toggle("microwave"), ("Open", {"target": "microwave"})])


def test_a_used_up_object_is_refilled_from_a_refill_container() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [go("counter"), pick("refill"), ("Refill", {"target": "soap", "source": "refill"})])
    assert holds(world, {"state": "soap", "used_up": False})


def test_a_dropped_object_lies_on_the_floor_within_reach() -> None:
    world = WorldState.from_scene(kitchen())
    run(world, [go("counter"), pick("mug"), ("Drop", {"object": "mug"})])
    assert holds(world, {"on": ["mug", "Floor"]})
    run(world, [pick("mug"), go("stain"), ("Drop", {"object": "mug"}), go("counter")])
    violation = execute(world, "PickUp", {"object": "mug"})
    assert violation is not None
    assert violation.precondition == "next_to"


def test_go_to_a_room_and_carry_an_object_between_rooms() -> None:
    study = square("study", "Study")
    living = square("living_room", "LivingRoom", x=5)
    world = WorldState.from_scene(
        scene(
            obj("desk", "Desk", "receptacle", room="study", size=(1.2, 0.8, 0.6)),
            obj("lamp", "DeskLamp", "pickupable", "toggleable", room="study", parent="desk"),
            obj("sofa", "Sofa", "receptacle", room="living_room", size=(2, 0.9, 0.9)),
            rooms=(living, study),
            agent_room="living_room",
        )
    )
    run(world, [go("Study")])
    assert (world.agent.room, world.agent.spot) == ("study", None)
    run(world, [go("lamp"), pick("lamp"), go("sofa")])
    assert world.objects["lamp"].room == "living_room"
    run(world, [("PutOn", {"object": "lamp", "target": "sofa"})])
    assert holds(world, {"exists": "DeskLamp", "where": {"on": "sofa", "room": "LivingRoom"}})


def test_a_closed_door_bars_the_way_until_the_agent_opens_it() -> None:
    world = WorldState.from_scene(kitchen())
    violation = execute(world, "GoTo", {"target": "jar"})
    assert violation is not None
    assert str(violation) == (
        "GoTo(jar) needs an open way from kitchen to pantry, but pantry_door is closed"
    )
    # The door is reached from the kitchen side, and opened there.
    run(world, [go("pantry_door"), ("Open", {"target": "pantry_door"})])
    assert world.agent.room == "kitchen"
    run(world, [go("jar"), pick("jar"), go("Kitchen")])
    assert (world.agent.room, world.objects["jar"].room) == ("kitchen", "kitchen")
    # Shut in the pantry, the agent opens the door from its side.
    run(world, [go("Pantry"), go("pantry_door"), ("Close", {"target": "pantry_door"})])
    assert world.agent.room == "pantry"
    assert execute(world, "GoTo", {"target": "counter"}) is not None
    run(world, [("Open", {"target": "pantry_door"}), go("counter")])


def test_windows_open_and_close_like_objects() -> None:
    window = Window("window_1", "wall_1", "kitchen", 1.0, open=True, role="window")
    world = WorldState.from_scene(scene(obj("sink", "Sink", "receptacle"), windows=(window,)))
    assert holds(world, {"state": "window", "open": True})
    run(world, [go("window"), ("Close", {"target": "window"})])
    assert holds(world, {"state": "Window", "open": False})


def test_object_specific_receptacles_take_one_object() -> None:
    world = WorldState.from_scene(
        scene(
            obj("holder", "TowelHolder", "receptacle", accepts=("Towel",), size=(0.6, 0.1, 0.1)),
            obj("towel", "Towel", "pickupable", size=(0.5, 0.05, 0.3)),
            obj("towel2", "Towel", "pickupable", size=(0.5, 0.05, 0.3), at=(1.2, 1.0)),
        )
    )
    run(world, [go("towel"), pick("towel"), go("holder")])
    run(world, [("PutOn", {"object": "towel", "target": "holder"})])
    run(world, [go("towel2"), pick("towel2"), go("holder")])
    violation = execute(world, "PutOn", {"object": "towel2", "target": "holder"})
    assert violation is not None
    assert (violation.precondition, violation.facts) == ("room", ("towel is already on holder",))


def test_a_type_reference_binds_to_an_object_that_meets_the_preconditions() -> None:
    world = WorldState.from_scene(
        scene(
            obj("red", "ToyBox", "receptacle", attrs={"colour": "red"}, size=(0.6, 0.4, 0.4)),
            obj("white", "ToyBox", "receptacle", size=(0.6, 0.4, 0.4), at=(4, 4)),
            obj("toy", "Toy", "pickupable", size=(0.2, 0.2, 0.2), at=(4, 3.5)),
        )
    )
    run(world, [go("toy"), pick("toy"), go("white")])
    run(world, [("PutIn", {"object": "Toy", "target": "ToyBox"})])
    assert world.objects["toy"].parent == "white"


def test_the_violation_reported_is_of_the_candidate_that_got_furthest() -> None:
    world = WorldState.from_scene(
        scene(
            obj("small", "Box", "receptacle", size=(0.1, 0.1, 0.1)),
            obj("far", "Box", "receptacle", size=(0.6, 0.4, 0.4), at=(4, 4)),
            obj("toy", "Toy", "pickupable", size=(0.2, 0.2, 0.2), at=(1, 1.2)),
        )
    )
    run(world, [go("toy"), pick("toy"), go("small")])
    violation = execute(world, "PutIn", {"object": "toy", "target": "Box"})
    assert violation is not None
    assert violation.precondition == "room"  # "small" got past next_to; "far" did not


def _long_counter(*, laid_out: bool = True) -> WorldState:
    """A 3 m counter with a toaster at its left end and a soap bottle at its right end (laid
    out: on the counter; by hand: left at (1, 1), nowhere near it)."""
    left, right = ((0.3, 4.0), (2.8, 4.0)) if laid_out else ((1.0, 1.0), (1.0, 1.0))
    counter = obj("counter", "CounterTop", "receptacle", size=(3.0, 0.9, 0.6), at=(1.5, 4.0))
    toaster = obj("toaster", "Toaster", "receptacle", parent="counter", size=(0.3, 0.2, 0.2),
                  at=left)  # fmt: skip
    soap = obj("soap", "SoapBottle", "pickupable", parent="counter", size=(0.08, 0.2, 0.08),
               at=right)  # fmt: skip
    return WorldState.from_scene(scene(counter, toaster, soap))


def test_an_object_along_the_counter_beyond_reach_needs_its_own_go_to() -> None:
    """AI2-THOR reaches 1.5 m: at the toaster, the soap 2.3 m along the counter is not."""
    world = _long_counter()
    run(world, [go("toaster")])
    violation = execute(world, "PickUp", {"object": "soap"})
    assert violation is not None
    assert violation.precondition == "next_to"
    assert violation.facts == (
        "the agent is next to counter",
        "soap is 2.3 m from where the agent stands (at toaster); AI2-THOR reaches 1.5 m: "
        "GoTo(soap) first",
    )
    run(world, [go("soap"), pick("soap")])
    # Going to the counter itself reaches what is on it, all along it.
    run(world, [go("counter"), ("PutOn", {"object": "soap", "target": "counter"}), pick("soap")])


def test_what_the_agent_puts_down_lies_where_it_stands() -> None:
    world = _long_counter()
    run(world, [go("soap"), pick("soap"), go("toaster")])
    run(world, [("PutOn", {"object": "soap", "target": "counter"})])
    assert world.objects["soap"].box == world.objects["toaster"].box  # at the toaster
    run(world, [pick("soap")])
    run(world, [("PutIn", {"object": "soap", "target": "toaster"})])
    assert world.objects["soap"].box == world.objects["toaster"].box
    run(world, [go("counter"), pick("soap"), ("Drop", {"object": "soap"}), go("soap")])
    assert world.agent.stand == world.objects["counter"].box


def test_objects_a_scene_built_by_hand_left_off_their_support_are_reached_at_it() -> None:
    """Without consistent positions the distance rule does not apply: the rule before it."""
    world = _long_counter(laid_out=False)
    assert world.objects["soap"].box is None
    run(world, [go("toaster"), pick("soap")])


@given(
    st.tuples(*[st.floats(-5, 5, allow_nan=False)] * 4),
    st.tuples(*[st.floats(-5, 5, allow_nan=False)] * 4),
)
def test_the_nearest_part_of_a_box_is_in_it_and_as_far_as_the_box(
    box: tuple[float, float, float, float], point: tuple[float, float, float, float]
) -> None:
    box = (min(box[0], box[2]), min(box[1], box[3]), max(box[0], box[2]), max(box[1], box[3]))
    point = (min(point[0], point[2]), min(point[1], point[3]), max(point[0], point[2]),
             max(point[1], point[3]))  # fmt: skip
    part = nearest_part(box, point)
    assert box[0] <= part[0] <= part[2] <= box[2]
    assert box[1] <= part[1] <= part[3] <= box[3]
    assert footprint_gap(point, part) == pytest.approx(footprint_gap(point, box), abs=1e-9)


# --------------------------------------------------------------------------- invariants

NAMES = ["counter", "fridge", "apple", "lunchbox", "milk", "mug", "cup", "knife", "sponge"]
NAMES += ["bread", "toaster", "coffee_machine", "stain", "lamp", "statue", "tray", "Kitchen"]
NAMES += ["jar", "pantry_door", "Pantry", "sink", "faucet", "cloth", "microwave", "soap"]
NAMES += ["refill", "Mug", "Cup"]


def calls() -> st.SearchStrategy[Call]:
    name = st.sampled_from(NAMES)
    return st.sampled_from(sorted(ACTIONS)).flatmap(
        lambda action: st.fixed_dictionaries({port: name for port in ACTIONS[action].ports}).map(
            lambda args: (action, args)
        )
    )


@settings(max_examples=200)
@given(st.lists(calls(), max_size=40))
def test_any_sequence_of_actions_keeps_the_world_consistent(sequence: list[Call]) -> None:
    world = WorldState.from_scene(kitchen())
    for action, args in sequence:
        before = snapshot(world)
        if execute(world, action, args) is not None:
            assert snapshot(world) == before
        held = [o for o in world.objects.values() if o.relation == HELD]
        assert [o.id for o in held] == ([world.agent.held] if world.agent.held else [])
        for item in world.objects.values():
            assert item.id not in {a.id for a in world.ancestors(item)}
            if item.parent is not None:
                assert item.room == world.objects[item.parent].room
            if item.relation == HELD:
                assert item.room == world.agent.room


# --------------------------------------------------------------------------- the table


def test_the_table_lists_every_rule_with_its_outcome() -> None:
    rows = {row.action: row for row in action_table()}
    assert set(ACTIONS) < set(rows)
    for name, spec in ACTIONS.items():
        codes = [code for code, _, _ in rows[name].preconditions]
        assert codes == [rule.code for rule in spec.preconditions]
        assert rows[name].effects
    binding = rows[EVERY_PORT].preconditions
    assert [(code, outcome) for code, _, outcome in binding] == [
        ("exists", "lackbranch"),
        ("visible", "counterfactual"),
        ("unambiguous", "error"),
    ]
