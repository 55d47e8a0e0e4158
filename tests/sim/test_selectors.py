"""Action targets with selectors, the binding rule (exists, visible, unambiguous) and parts."""

from __future__ import annotations

from typing import Any

import py_trees
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sim_scenes import obj, scene, square

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.scenes.scene_model import SceneObject, Window
from pytest_logicenv.sim.actions import ACTIONS, Target, execute, perform
from pytest_logicenv.sim.bt import XmlPolicy, parse_bt_xml
from pytest_logicenv.sim.controls import sequence
from pytest_logicenv.sim.leaves import Clean, GoTo, Open, PickUp, Pour, PutIn, PutOn, Select
from pytest_logicenv.sim.runner import run_policy
from pytest_logicenv.sim.world import WorldState


def two_rooms() -> WorldState:
    """A study and a living room, each with a window, a shelf and books."""
    study, living = square("study", "Study"), square("living_room", "LivingRoom", x=5)
    windows = (
        Window("window_s", "wall_s", "study", 1.0, open=True),
        Window("window_l", "wall_l", "living_room", 1.0, open=True),
    )
    return WorldState.from_scene(
        scene(
            obj("table", "DiningTable", "receptacle", room="study", size=(1.2, 0.8, 0.8)),
            obj("desk", "Desk", "receptacle", room="study", size=(1.2, 0.8, 0.6), at=(4, 4)),
            obj("hard", "Book", "pickupable", room="study", parent="table",
                attrs={"cover": "hard"}, size=(0.2, 0.05, 0.3)),
            obj("soft", "Book", "pickupable", room="study", parent="table",
                attrs={"cover": "soft"}, size=(0.2, 0.05, 0.3)),
            obj("plate_t", "Plate", "pickupable", "receptacle", room="study", parent="table"),
            obj("plate_d", "Plate", "pickupable", "receptacle", room="study", parent="desk"),
            obj("shelf_s", "Shelf", "receptacle", room="study", size=(1, 0.3, 0.4), at=(2, 4)),
            obj("shelf_l", "Shelf", "receptacle", room="living_room", size=(1, 0.3, 0.4),
                at=(7, 4)),
            rooms=(study, living),
            windows=windows,
            agent_room="study",
        )
    )  # fmt: skip


def test_a_type_that_names_several_objects_in_sight_is_ambiguous() -> None:
    world = two_rooms()
    violation = execute(world, "GoTo", {"target": "Window"})
    assert violation is not None
    assert (violation.precondition, violation.kind) == ("unambiguous", "error")
    listed = "window_s in study, window_l in living_room"
    assert violation.facts == (f"Window names 2 objects: {listed}",)
    assert "add a selector: room=" in violation.requirement


def test_selectors_say_which_object() -> None:
    world = two_rooms()
    assert execute(world, "GoTo", {"target": Select("Window", room="LivingRoom")}) is None
    assert world.agent.room == "living_room"
    assert execute(world, "GoTo", {"target": Select("Plate", on="desk")}) is None
    assert world.agent.spot == "desk"
    assert execute(world, "GoTo", {"target": "table"}) is None
    assert execute(world, "PickUp", {"object": Select("Book", attrs={"cover": "hard"})}) is None
    assert world.agent.held == "hard"
    shelf = Select("Shelf", room="study")
    assert execute(world, "GoTo", {"target": shelf}) is None
    assert execute(world, "PutOn", {"object": "Book", "target": shelf}) is None
    assert world.objects["hard"].parent == "shelf_s"


def test_the_object_at_hand_is_meant_for_an_action_that_needs_it_in_reach() -> None:
    world = two_rooms()
    assert execute(world, "GoTo", {"target": "desk"}) is None
    assert execute(world, "PickUp", {"object": "Plate"}) is None  # the desk's, not the table's
    assert world.agent.held == "plate_d"
    assert execute(world, "GoTo", {"target": "table"}) is None
    violation = execute(world, "PutOn", {"object": "plate_d", "target": "Book"})
    assert violation is not None
    assert violation.precondition == "unambiguous"  # two books at hand


def test_any_binds_the_first_candidate_that_meets_the_preconditions() -> None:
    world = two_rooms()
    assert execute(world, "GoTo", {"target": Select("Book", any=True)}) is None
    assert execute(world, "PickUp", {"object": Select("Book", any=True)}) is None
    assert world.agent.held == "hard"


def test_a_selector_that_matches_nothing_is_what_this_situation_lacks() -> None:
    world = two_rooms()
    violation = execute(world, "PickUp", {"object": Select("Book", attrs={"cover": "paper"})})
    assert violation is not None
    assert (violation.precondition, violation.kind) == ("exists", "lackbranch")
    assert violation.absent == "Book with cover=paper"
    assert violation.facts == (
        "no Book with cover=paper in this scene",
        "Book names 2 objects here: hard in study (on table, cover=hard), "
        "soft in study (on table, cover=soft)",
    )
    # A room this scene lacks lists the scene's rooms; states asked about are shown.
    violation = execute(world, "GoTo", {"target": Select("Window", room="Kitchen")})
    assert violation is not None
    assert violation.kind == "lackbranch"
    assert violation.facts == (
        "no Window in the Kitchen in this scene",
        "Window names 2 objects here: window_s in study, window_l in living_room",
        "no room 'Kitchen' in this scene; its rooms: study (Study), living_room (LivingRoom)",
    )
    violation = execute(world, "GoTo", {"target": Select("Window", states={"open": False})})
    assert violation is not None
    assert violation.facts[1] == (
        "Window names 2 objects here: window_s in study (open), window_l in living_room (open)"
    )


def test_objects_inside_a_closed_container_are_no_candidates() -> None:
    world = WorldState.from_scene(
        scene(
            obj("fridge", "Fridge", "receptacle", "openable", size=(0.8, 1.8, 0.7), at=(4, 4),
                states={"open": False}),
            obj("table", "DiningTable", "receptacle", size=(1.2, 0.8, 0.8)),
            obj("cold", "Apple", "pickupable", parent="fridge", relation="in"),
            obj("warm", "Apple", "pickupable", parent="table"),
        )
    )  # fmt: skip
    assert execute(world, "GoTo", {"target": "Apple"}) is None  # one apple in sight
    assert world.agent.spot == "table"
    assert execute(world, "GoTo", {"target": "fridge"}) is None
    violation = execute(world, "PickUp", {"object": Select("Apple", in_="fridge")})
    assert violation is not None
    assert (violation.precondition, violation.kind) == ("visible", "counterfactual")
    assert violation.facts == ("cold is inside fridge", "fridge is closed")


def test_parts_are_reached_through_their_whole_and_selected_by_it() -> None:
    world = WorldState.from_scene(
        scene(
            obj("stand", "TVStand", "receptacle", size=(1.2, 0.6, 0.4)),
            obj("dresser", "Dresser", "receptacle", size=(1.2, 0.9, 0.5), at=(4, 4)),
            obj("drawer_t", "Drawer", "receptacle", "openable", relation=None,
                states={"open": False}, part_of="stand"),
            obj("drawer_d", "Drawer", "receptacle", "openable", relation=None,
                states={"open": False}, part_of="dresser"),
            obj("remote", "RemoteControl", "pickupable", parent="drawer_t", relation="in"),
        )
    )  # fmt: skip
    drawer = Select("Drawer", part_of="TVStand")
    assert execute(world, "GoTo", {"target": drawer}) is None
    assert world.agent.spot == "stand"
    assert execute(world, "PickUp", {"object": "remote"}) is not None  # in the closed drawer
    assert execute(world, "Open", {"target": drawer}) is None
    assert execute(world, "PickUp", {"object": "remote"}) is None


def test_an_ambiguous_call_ends_the_run_as_an_error_that_lists_the_candidates() -> None:
    def policy() -> py_trees.behaviour.Behaviour:
        return GoTo("Window")

    outcome = run_policy(policy, two_rooms().scene)
    assert outcome.kind == "error"
    assert outcome.headline() == (
        "Error: GoTo(Window) is ambiguous: Window names 2 objects: window_s in study, "
        "window_l in living_room"
    )


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: GoTo("Window", rom="Study"), "unknown selector qualifier 'rom'"),
        (lambda: PickUp("Mug", states={"clean": True}), "unknown state 'clean'"),
        (lambda: PickUp("Mug", states={"isDirty": True}), "write 'dirty'"),
        (lambda: Open("Drawer", on="desk", in_="box"), "cannot be both on and in"),
        (lambda: PutIn("toy", Select("Box", part_of="{x}")), "'{x}' is not an object reference"),
        (lambda: PickUp("Mug", attrs={"size": 3}), "attribute 'size' must be a string"),
    ],
)
def test_malformed_selectors_are_policy_errors(build: object, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        build()  # type: ignore[operator]


# --------------------------------------------------------------------------- in BT.CPP XML


def xml(body: str, **blackboard: str) -> XmlPolicy:
    text = f'<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>{body}</Sequence>'
    return parse_bt_xml(text + "</BehaviorTree></root>", blackboard=blackboard or None)


def test_selectors_are_ports_in_xml() -> None:
    body = (
        '<GoTo target="table"/><PickUp object="Book" attrs="cover=hard"/>'
        '<GoTo target="Shelf" room="study"/>'
        '<PutOn object="Book" target="Shelf" target_room="study"/>'
    )
    world = two_rooms()
    outcome = run_policy(xml(body), world.scene, goal=[{"on": ["hard", "shelf_s"]}])
    assert outcome.kind == "pass", outcome.explain()
    assert [str(step) for step in outcome.trace][1:3] == [
        "PickUp(Book with cover=hard) ok",
        "GoTo(Shelf in the study) ok",
    ]


def test_xml_selectors_may_come_from_the_blackboard() -> None:
    policy = xml('<GoTo target="Window" room="{where}"/>', where="LivingRoom")
    outcome = run_policy(policy, two_rooms().scene)
    assert outcome.kind == "pass", outcome.explain()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '<GoTo target="Window" rom="Study"/>',
            "GoTo has no port 'rom'; did you mean 'room'\\? its ports are: target",
        ),
        ('<PickUp object="Book" attrs="cover"/>', "write key=value pairs"),
        ('<PickUp object="Book" states="clean=true"/>', "unknown state 'clean'"),
        ('<PickUp object="Book" any="maybe"/>', "must be true or false"),
        ('<PutOn object="Book" target="Shelf" target_part_of="{x}y"/>', "not an object"),
    ],
)
def test_bad_xml_selectors_are_load_errors(body: str, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        xml(body)


# --------------------------------------------------------------------------- the issue's calls


def study() -> WorldState:
    """A study with a window, a desk with a hard and a soft book and a plate, and a dining
    table; a living room with a window of its own."""
    study, living = square("study", "Study"), square("living_room", "LivingRoom", x=5)
    windows = (
        Window("window_s", "wall_s", "study", 1.0, open=True),
        Window("window_l", "wall_l", "living_room", 1.0, open=True),
    )
    return WorldState.from_scene(
        scene(
            obj("desk", "Desk", "receptacle", room="study", size=(1.2, 0.8, 0.6), at=(4, 4)),
            obj("table", "DiningTable", "receptacle", room="study", size=(1.2, 0.8, 0.8)),
            obj("hard", "Book", "pickupable", room="study", parent="desk",
                attrs={"cover": "hard"}, size=(0.2, 0.05, 0.3)),
            obj("soft", "Book", "pickupable", room="study", parent="desk",
                attrs={"cover": "soft"}, size=(0.2, 0.05, 0.3)),
            obj("plate", "Plate", "pickupable", "receptacle", room="study", parent="desk"),
            rooms=(study, living),
            windows=windows,
            agent_room="study",
        )
    )  # fmt: skip


ISSUE_CALLS = """
<GoTo target="Window" room="Study"/>
<GoTo target="Book" attrs="cover=hard"/>
<PickUp object="Book" attrs="cover=hard"/>
<GoTo target="DiningTable"/>
<PutOn object="Book" on="DiningTable"/>
<GoTo target="Plate"/>
<PickUp object="Plate"/>
<GoTo target="DiningTable"/>
<PutOn object="Plate" on="DiningTable"/>
"""


def issue_calls() -> py_trees.behaviour.Behaviour:
    hard = {"cover": "hard"}
    return sequence(
        "Issue",
        GoTo("Window", room="Study"),
        GoTo("Book", attrs=hard),
        PickUp("Book", attrs=hard),
        GoTo("DiningTable"),
        PutOn("Book", on="DiningTable"),
        GoTo("Plate"),
        PickUp("Plate"),
        GoTo("DiningTable"),
        PutOn("Plate", on="DiningTable"),
    )


@pytest.mark.parametrize("flavour", ["py_trees", "xml"])
def test_the_issues_calls_run_as_written_in_python_and_in_xml(flavour: str) -> None:
    policy = issue_calls if flavour == "py_trees" else xml(ISSUE_CALLS)
    goal = [{"on": ["hard", "table"]}, {"on": ["Plate", "DiningTable"]}]
    outcome = run_policy(policy, study().scene, goal=goal)
    assert outcome.kind == "pass", outcome.explain()
    assert [str(step) for step in outcome.trace][::4] == [
        "GoTo(Window in the Study) ok",
        "PutOn(Book, DiningTable) ok",
        "PutOn(Plate, DiningTable) ok",
    ]
    assert outcome.trace[0].room == "study"


def test_put_in_names_its_target_with_in_and_selects_its_object_with_the_rest() -> None:
    leaf = PutIn("Book", in_="Shelf", room="Study")
    assert leaf.ports == {"object": Select("Book", room="Study"), "target": "Shelf"}
    assert PutIn("Book", **{"in": "Shelf"}).ports["target"] == "Shelf"
    assert PutOn(Select("Plate", on="Desk"), on="DiningTable").ports == {
        "object": Select("Plate", on="Desk"),
        "target": "DiningTable",
    }
    # In XML, PutIn's in= names the target too; the book's own where-qualifier is object_in.
    tree = xml('<PutIn object="Book" on="desk" in="Shelf"/><PutIn object="Book" object_in="Box" '
               'target="Shelf"/>')()  # fmt: skip
    literal = [node.literal for node in tree.iterate() if hasattr(node, "literal")]
    assert literal == [
        {"object": Select("Book", on="desk"), "target": "Shelf"},
        {"object": Select("Book", in_="Box"), "target": "Shelf"},
    ]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: PutOn("Plate"),
            "PutOn('Plate') needs its target: write PutOn('Plate', on='...') or "
            "PutOn('Plate', '...')",
        ),
        (
            lambda: PutOn("Plate", "Table", on="Counter"),
            "PutOn('Plate', 'Table', on=...): on= names the target of PutOn; give it once: "
            "PutOn('Plate', on='Table') or PutOn('Plate', 'Table'); to say which Plate by where "
            "it is, select it: PutOn(Select('Plate', on=...), on='Table')",
        ),
        (lambda: PutIn("Book", "Shelf", in_="Box"), "in_= names the target of PutIn"),
        (lambda: Pour("can"), "Pour('can') needs its target: write Pour('can', '...')"),
        (lambda: Clean("mirror"), "Clean('mirror') needs its tool: write Clean('mirror', '...')"),
    ],
)
def test_a_leaf_without_its_target_names_the_call_to_write(build: object, message: str) -> None:
    with pytest.raises(PolicyError) as raised:
        build()  # type: ignore[operator]
    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '<PutOn object="Plate" target="Table" on="DiningTable"/>',
            'PutOn: give its target once, as target="..." or on="..." (got both: '
            "target='Table', on='DiningTable'); the object's own 'on' qualifier is object_on",
        ),
        (
            '<PutOn object="Plate"/>',
            "PutOn needs port 'target' (ports: object, target, or the target as on=)",
        ),
    ],
)
def test_xml_put_on_takes_its_target_once(body: str, message: str) -> None:
    with pytest.raises(PolicyError) as raised:
        xml(body)
    assert message in str(raised.value)


# --------------------------------------------------------------------------- the binding rule

REFS = ["Book", "Plate", "Shelf", "Window", "hard", "table", "desk", "Mug"]
ROOMS = [None, "study", "LivingRoom", "Kitchen"]


def selects() -> st.SearchStrategy[Select]:
    return st.builds(
        Select,
        st.sampled_from(REFS),
        on=st.sampled_from([None, "table", "desk", "Floor"]),
        room=st.sampled_from(ROOMS),
        attrs=st.sampled_from([{}, {"cover": "hard"}, {"cover": "soft"}]),
        any=st.booleans(),
    )


@settings(max_examples=150)
@given(st.sampled_from(["GoTo", "PickUp", "Open"]), selects())
def test_a_call_binds_an_object_its_selector_fits_or_says_why_not(
    action: str, select: Select
) -> None:
    world = two_rooms()
    execute(world, "GoTo", {"target": "table"})
    port = ACTIONS[action].ports[0]
    fitting = [o for o in world.objects.values() if select.fits(world, o)]
    done = perform(world, action, {port: select})
    violation = done.violation
    if violation is None or violation.precondition not in ("exists", "visible", "unambiguous"):
        (bound,) = done.objects
        assert bound in {o.id for o in fitting}
        assert len(fitting) == 1 or select.any or world.reachable(world.objects[bound])
    elif violation.precondition == "exists":
        assert not fitting
    elif violation.precondition == "unambiguous":
        assert len(fitting) > 1
        assert not select.any


def test_a_stove_knob_switches_its_burner_which_cooks_through_the_pan() -> None:
    world = WorldState.from_scene(
        scene(
            obj("stove", "Stove", "receptacle", size=(0.8, 0.9, 0.6)),
            obj("knob_l", "StoveKnob", "toggleable", relation=None,
                attrs={"position": "front_left"}, part_of="stove"),
            obj("knob_r", "StoveKnob", "toggleable", relation=None,
                attrs={"position": "front_right"}, part_of="stove"),
            obj("burner_l", "StoveBurner", "toggleable", "heat_source", "receptacle",
                relation=None, attrs={"position": "front_left"}, part_of="stove"),
            obj("burner_r", "StoveBurner", "toggleable", "heat_source", "receptacle",
                relation=None, attrs={"position": "front_right"}, part_of="stove"),
            obj("pan", "Pan", "receptacle", "pickupable", parent="burner_l"),
            obj("egg", "Egg", "cookable", "pickupable", parent="pan", relation="in"),
        )
    )  # fmt: skip
    knob = Select("StoveKnob", attrs={"position": "front_left"})
    assert execute(world, "GoTo", {"target": knob}) is None
    assert execute(world, "ToggleOn", {"target": knob}) is None
    assert world.objects["burner_l"].states["toggled"] is True
    assert not world.objects["burner_r"].states.get("toggled")
    assert world.objects["egg"].states["cooked"] is True
    assert execute(world, "ToggleOff", {"target": knob}) is None
    assert world.objects["burner_l"].states["toggled"] is False


# --------------------------------------------------------------------------- parts in scenes


def part(id: str, type: str, whole: str, *props: str, **fields: Any) -> SceneObject:
    """A part as the designer makes one: no parent, the relation ``part``."""
    return obj(id, type, *props, relation="part", part_of=whole, **fields)


def kitchen_with_parts() -> WorldState:
    return WorldState.from_scene(
        scene(
            obj("counter", "CounterTop", "receptacle", size=(2.0, 0.9, 0.6), at=(1, 4)),
            part("sink", "Sink", "counter", "receptacle"),
            part("basin", "SinkBasin", "sink", "receptacle", size=(0.5, 0.2, 0.4)),
            part("faucet", "Faucet", "sink", "toggleable", states={"toggled": False}),
            part("drawer", "Drawer", "counter", "receptacle", "openable",
                 states={"open": False}),
            obj("cloth", "Cloth", "pickupable", "cleaning_tool", "wettable", parent="drawer",
                relation="in", size=(0.2, 0.01, 0.2)),
            obj("cup", "Cup", "pickupable", "fillable", "receptacle", parent="counter",
                size=(0.08, 0.1, 0.08)),
            obj("dresser", "Dresser", "receptacle", size=(1.2, 0.9, 0.5), at=(4, 1)),
            part("dresser_drawer", "Drawer", "dresser", "receptacle", "openable",
                 states={"open": False}),
        )
    )  # fmt: skip


def test_a_faucet_part_fills_what_is_in_the_basin_of_its_sink() -> None:
    world = kitchen_with_parts()
    calls: list[tuple[str, dict[str, Target]]] = [
        ("GoTo", {"target": "faucet"}),  # a part is reached at its whole: the counter
        ("PickUp", {"object": "cup"}),
        ("PutIn", {"object": "cup", "target": "basin"}),
        ("ToggleOn", {"target": "faucet"}),
    ]
    for action, args in calls:
        assert execute(world, action, args) is None, (action, args)
    assert world.agent.spot == "counter"
    assert world.objects["cup"].states["filled"] is True


def test_a_sink_is_reached_at_the_sink_not_from_elsewhere_along_its_counter() -> None:
    """AI2-THOR reaches what is within 1.5 m; a counter runs for metres. Standing at the cup
    on the counter is not standing at the faucet: toggling or filling there is a fault."""
    world = kitchen_with_parts()
    assert execute(world, "GoTo", {"target": "cup"}) is None
    assert execute(world, "PickUp", {"object": "cup"}) is None
    toggle = execute(world, "ToggleOn", {"target": "faucet"})
    assert toggle is not None
    assert (toggle.precondition, toggle.kind) == ("next_to", "counterfactual")
    assert toggle.facts == (
        "the agent is next to counter, not at sink (faucet is reached only there)",
    )
    # At the faucet it runs; walked back along the counter, the held cup is not under it.
    for action, port, ref in (("GoTo", "target", "faucet"), ("ToggleOn", "target", "faucet")):
        assert execute(world, action, {port: ref}) is None
    assert execute(world, "GoTo", {"target": "counter"}) is None
    fill = execute(world, "Fill", {"target": "cup"})
    assert fill is not None
    assert fill.precondition == "running_water"
    assert fill.facts == ("cup is held by the agent away from every running faucet",)
    # The sink, its basin and what is in the basin all stand at the sink.
    for at in ("sink", "basin", "faucet"):
        assert execute(world, "GoTo", {"target": at}) is None
        assert world.agent.station == "sink"
        assert execute(world, "Fill", {"target": "cup"}) is None
        world.set_state(world.objects["cup"], "filled", False)
    assert execute(world, "PutIn", {"object": "cup", "target": "basin"}) is None
    assert execute(world, "GoTo", {"target": "drawer"}) is None
    assert not world.reachable(world.objects["cup"])  # in the basin: at the sink only
    assert execute(world, "GoTo", {"target": "cup"}) is None
    assert execute(world, "ToggleOff", {"target": "faucet"}) is None


def test_a_closed_drawer_part_hides_its_contents_until_opened() -> None:
    world = kitchen_with_parts()
    drawer = Select("Drawer", part_of="CounterTop")  # not the dresser's
    assert execute(world, "GoTo", {"target": drawer}) is None
    violation = execute(world, "PickUp", {"object": "cloth"})
    assert violation is not None
    assert violation.facts == ("cloth is inside drawer", "drawer is closed")
    assert execute(world, "Open", {"target": drawer}) is None
    assert execute(world, "PickUp", {"object": "Cloth"}) is None
    # A part of a part counts as a part of the whole, as in facts: the basin of the counter.
    assert execute(world, "GoTo", {"target": Select("SinkBasin", part_of="counter")}) is None
    assert execute(world, "ToggleOn", {"target": "faucet"}) is None
    assert execute(world, "Wet", {"target": "cloth"}) is None
    ambiguous = execute(world, "GoTo", {"target": "Drawer"})
    assert ambiguous is not None
    assert ambiguous.facts == (
        "Drawer names 2 objects: drawer in kitchen (part of counter), "
        "dresser_drawer in kitchen (part of dresser)",
    )


def test_parts_move_with_their_whole() -> None:
    world = kitchen_with_parts()
    world.move_agent("kitchen", world.objects["counter"])
    world.hold(world.objects["counter"])  # not a thing one carries, but a whole that moves
    world.move_agent("pantry", None)
    assert {world.objects[p].room for p in ("sink", "basin", "faucet", "drawer", "cloth")} == {
        "pantry"
    }


# --------------------------------------------------------------------------- conditions


def lamps() -> WorldState:
    """A study lamp that is off, a living-room lamp that is on, a desk with a drawer."""
    study, living = square("study", "Study"), square("living_room", "LivingRoom", x=5)
    return WorldState.from_scene(
        scene(
            obj("lamp_s", "DeskLamp", "toggleable", room="study", states={"toggled": False}),
            obj("lamp_l", "DeskLamp", "toggleable", room="living_room", at=(7, 1),
                states={"toggled": True}),
            obj("desk", "Desk", "receptacle", room="study", size=(1.2, 0.8, 0.6), at=(4, 4)),
            obj("drawer", "Drawer", "receptacle", "openable", room="study", part_of="desk",
                relation="part", states={"open": False}),
            obj("mug", "Mug", "pickupable", "fillable", room="study", at=(3, 3),
                states={"filled": True}),
            rooms=(study, living),
            agent_room="study",
        )
    )  # fmt: skip


def test_state_conditions_take_selectors_in_python() -> None:
    from pytest_logicenv.sim.leaves import Absent, Exists, IsClosed, IsToggledOn

    on_here = IsToggledOn(Select("DeskLamp", room="LivingRoom"))
    assert on_here.args == ("DeskLamp", "room=LivingRoom")
    world = lamps()
    from pytest_logicenv.logic.facts import evaluate

    assert evaluate(on_here.fact, world)
    assert not evaluate(IsToggledOn("DeskLamp", room="Study").fact, world)
    assert evaluate(IsClosed("Drawer", part_of="Desk").fact, world)
    assert evaluate(Exists("Drawer", part_of="Desk").fact, world)
    assert not evaluate(Exists("Drawer", part_of="Sofa").fact, world)
    assert evaluate(Exists("Mug", states={"filled": True}).fact, world)
    assert evaluate(Absent("Mug", states={"filled": False}).fact, world)
    with pytest.raises(PolicyError, match="unknown selector qualifier 'rom'"):
        IsToggledOn("DeskLamp", rom="Study")


def test_state_conditions_take_selectors_in_xml() -> None:

    policy = xml(
        '<IsToggledOn object="DeskLamp" room="LivingRoom"/>'
        '<Exists object="Drawer" part_of="Desk"/>'
        '<Exists object="Mug" states="filled=true"/>'
        '<Inverter><Exists object="Drawer" part_of="Sofa"/></Inverter>'
    )
    outcome = run_policy(policy, lamps().scene)
    assert outcome.kind == "pass", outcome.explain()
    study_lamp_on = run_policy(xml('<IsToggledOn object="DeskLamp" room="Study"/>'), lamps().scene)
    assert study_lamp_on.kind != "pass"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '<IsOpen object="Drawer" rom="Study"/>',
            "IsOpen has no port 'rom'; did you mean 'room'\\?",
        ),
        ('<Exists object="Drawer" part_off="Desk"/>', "did you mean 'part_of'\\?"),
        ('<Exists object="Mug" states="filled"/>', "write key=value pairs"),
    ],
)
def test_bad_condition_ports_are_load_errors_with_a_did_you_mean(body: str, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        xml(body)
