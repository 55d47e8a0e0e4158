"""The layout at its limits: what it leaves out when a room is full, and how it says so."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from types import SimpleNamespace

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from layout_rooms import LIVING_ROOM, NARROW, assert_valid, rel, room
from synthetic import synthetic_spec

from pytest_logicenv.errors import LayoutError, LayoutTimeout
from pytest_logicenv.llm.planner import example_plan
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.design import (
    Enrichment,
    EnrichmentObject,
    EnrichmentRelation,
    design_scene,
)
from pytest_logicenv.scenes.layout import budget, solve_layout
from pytest_logicenv.scenes.layout.clearing import clear_the_way
from pytest_logicenv.scenes.layout.decomposition import Problem
from pytest_logicenv.scenes.layout.leave_out import Ranking
from pytest_logicenv.scenes.layout.relaxation import Relaxation
from pytest_logicenv.scenes.layout.room_grid import derive_walls, make_plan
from pytest_logicenv.scenes.physics import check_scene
from pytest_logicenv.scenes.scene_json import scene_from_json, scene_to_json
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    AgentStart,
    DoorSpec,
    Provenance,
    Room,
    Scene,
    SceneObject,
    SceneSpec,
    SpatialRelation,
)

pytest_plugins = ["pytester"]

# --------------------------------------------------------------------------- a full room


def test_a_room_too_small_for_its_enrichment_holds_what_fits_and_records_the_rest() -> None:
    small = SceneSpec("tiny", rooms=(room(width=2.0, depth=1.4),), objects=LIVING_ROOM)
    scene = solve_layout(small, seed=1)
    assert_valid(scene)
    placed = {o.id for o in scene.objects}
    left_out = {d.id: d.reason for d in scene.provenance.dropped_objects}
    assert placed | set(left_out) == {o.id for o in LIVING_ROOM}
    assert placed
    assert left_out
    assert not placed & set(left_out)
    assert "sofa" in placed  # the first and largest gets the room
    for item_id, reason in left_out.items():
        assert any(words in reason for words in ("is full", "no room for", "which was left out")), (
            item_id,
            reason,
        )
    assert any(item_id in note for note in scene.provenance.notes for item_id in left_out)


def test_enrichment_that_fits_by_area_but_not_together_leaves_the_later_out() -> None:
    crowded = replace(NARROW, relations=(rel("near", "wardrobe", "bed", PRIORITY_ENRICHMENT),))
    scene = solve_layout(crowded)
    assert_valid(scene)
    assert [o.id for o in scene.objects] == ["bed"]
    (wardrobe,) = scene.provenance.dropped_objects
    assert (wardrobe.id, wardrobe.type, wardrobe.room) == ("wardrobe", "Wardrobe", "living")
    assert wardrobe.reason.startswith("no room for its 1.20 x 0.60 m footprint on the floor of")
    (near,) = scene.provenance.dropped
    assert "'wardrobe' was left out" in near.reason
    # The scene's JSON keeps the record.
    assert scene_from_json(scene_to_json(scene)) == scene


def test_a_more_important_object_is_placed_before_a_less_important_one() -> None:
    bed, wardrobe = NARROW.objects
    scene = solve_layout(replace(NARROW, objects=(bed, replace(wardrobe, priority=5))))
    assert [o.id for o in scene.objects] == ["wardrobe"]
    assert [d.id for d in scene.provenance.dropped_objects] == ["bed"]


# --------------------------------------------------------------------------- out of time


def test_a_layout_out_of_time_returns_what_it_placed() -> None:
    # 1 ms: every problem after the first is out of time and places only what the task needs.
    spec = synthetic_spec(40, rooms=1, seed=0)
    scene = solve_layout(spec, timeout_ms=1)
    assert_valid(scene)
    left_out = {d.id: d.reason for d in scene.provenance.dropped_objects}
    assert {o.id for o in scene.objects} | set(left_out) == {o.id for o in spec.objects}
    assert any("the layout's budget ran out before" in why for why in left_out.values())


def test_a_timeout_before_the_task_objects_are_placed_says_what_stopped_it_and_the_floor() -> None:
    # Twelve task objects on 87% of the free floor: no pre-check proves they cannot go
    # together, and Z3 does not find where they go within a 1 ms budget and the grace.
    room = Room("living", "LivingRoom", ((0, 0), (5, 0), (5, 5), (0, 5)))
    boxes = tuple(
        SceneObject(f"b{n}", "Box", room="living", size=(0.9, 0.5, 1.7), task=True)
        for n in range(12)
    )
    door = DoorSpec("door", ("living", "exterior"))
    spec = SceneSpec("dense", rooms=(room,), objects=boxes, doors=(door,))
    with pytest.raises(LayoutTimeout) as raised:
        solve_layout(spec, timeout_ms=1)
    message = str(raised.value)
    assert re.fullmatch(
        r"scene design 'dense': the layout gave up after \d+\.\d s placing the floor of room "
        r"'living': its budget \(timeout_ms=1, and 1000 ms of grace for what the task needs\) "
        r"ran out before Z3 found where b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11 go; "
        r"they take 18\.36 m² \(87%\): room 'living' has 21\.03 m² of free floor \(25\.00 m² "
        r"less 0\.81 m² the doors sweep, 0\.16 m² for the agent's start and 3\.00 m² of walkways "
        r"to its task objects\)\. Give them more room \(a larger room, smaller objects, or some "
        r"of them in another room or receptacle\); a larger timeout_ms gives Z3 longer to look",
        message,
    ), message


class GivingUp:
    """A stand-in for a Z3 solver that gives up on any check assuming more than ``most``
    literals (true ones: those assumed false leave objects out) and meets any other."""

    def __init__(self, most: int) -> None:
        self.most = most

    def set(self, key: str, value: int) -> None:
        pass

    def check(self, *literals: z3.BoolRef) -> z3.CheckSatResult:
        assumed = [literal for literal in literals if not z3.is_not(literal)]
        return z3.unknown if len(assumed) > self.most else z3.sat

    def model(self) -> object:
        return object()


def relax_giving_up(timeout_ms: int, urgent: str = "") -> tuple[object, list[str]]:
    state = SimpleNamespace(ctx=z3.Context(), clock=budget.Clock(timeout_ms))
    relaxation = Relaxation(state, Problem("p", ()), GivingUp(most=2), [])  # type: ignore[arg-type]
    given_up: list[str] = []
    kept = relaxation.relax(
        ["a", "b", "c", "d"],
        rank=lambda name: (ord(name),),
        give_up=lambda name, blockers: given_up.append(name),
        urgent=lambda name: name == urgent,
    )
    return kept, given_up


def test_when_z3_gives_up_on_everything_at_once_the_best_partial_answer_is_kept() -> None:
    # Added one at a time, most important first, while time is left: not none of them.
    assert relax_giving_up(20_000) == (["a", "b"], ["c", "d"])


def test_past_the_deadline_only_what_the_task_needs_is_still_tried() -> None:
    assert relax_giving_up(0, urgent="d") == (["d"], ["a", "b", "c"])


# --------------------------------------------------------------------------- out of reach

ROOM = Room("hall", "Hallway", ((0, 0), (4, 0), (4, 2), (0, 2)))


def thing(obj_id: str, x: float, z: float, size: float, **fields: object) -> SceneObject:
    dims = (size, 0.8, size)
    return SceneObject(obj_id, "Box", room="hall", size=dims, position=(x, 0.4, z), **fields)  # type: ignore[arg-type]


def test_enrichment_closing_off_a_task_object_is_left_out_and_recorded() -> None:
    # Two crates across the hall part the two toys: no start reaches both.
    near = SpatialRelation("near", "north_crate", "south_crate")
    scene = Scene(
        "shut",
        rooms=(ROOM,),
        objects=(
            thing("south_crate", 2.0, 0.5, 1.0),
            thing("north_crate", 2.0, 1.5, 1.0, priority=3),
            thing("west_toy", 0.3, 1.0, 0.3, task=True),
            thing("east_toy", 3.7, 1.0, 0.3, task=True),
        ),
        agent=AgentStart("hall", (0.5, 0.3)),
        relations=(near,),
        provenance=Provenance(kept=(near,)),
    )
    assert not check_scene(scene).passed  # one toy is out of reach
    plan = make_plan(ROOM, 0)
    ranking = Ranking(
        essential=frozenset({"west_toy", "east_toy"}),
        priority={"south_crate": 1, "north_crate": 3, "west_toy": 10, "east_toy": 10},
        orders={"south_crate": 0, "north_crate": 1, "west_toy": 2, "east_toy": 3},
    )
    cleared = clear_the_way(scene, {"hall": plan}, derive_walls([plan]), ranking)
    assert cleared is not None
    cleared_scene, agent = cleared
    # The less important crate goes: the way through its half of the hall is enough.
    assert [o.id for o in cleared_scene.objects] == ["north_crate", "west_toy", "east_toy"]
    (left_out,) = cleared_scene.provenance.dropped_objects
    assert (left_out.id, left_out.priority) == ("south_crate", 1)
    assert "closed off the agent's way" in left_out.reason
    assert cleared_scene.provenance.kept == ()
    assert "was left out" in cleared_scene.provenance.dropped[0].reason
    assert check_scene(replace(cleared_scene, agent=agent)).passed


# --------------------------------------------------------------------------- properties


@st.composite
def crowded_designs(draw: st.DrawFn) -> SceneSpec:
    """A synthetic design in a room shrunk to a fraction of its size, one floor object a task
    object: often more than the room can hold."""
    spec = synthetic_spec(draw(st.integers(8, 40)), rooms=1, seed=draw(st.integers(0, 999)))
    scale = draw(st.sampled_from((0.5, 0.6, 0.7, 0.85)))
    (room_,) = spec.rooms
    polygon = tuple((x * scale, z * scale) for x, z in room_.polygon)
    floor = [o.id for o in spec.objects if o.parent is None and o.relation == "on"]
    task = draw(st.sampled_from(floor))
    objects = tuple(replace(o, task=o.id == task) for o in spec.objects)
    return replace(spec, rooms=(replace(room_, polygon=polygon),), objects=objects)


def _solved(spec: SceneSpec, seed: int) -> Scene | LayoutError:
    try:
        return solve_layout(spec, seed=seed)
    except LayoutError as error:
        return error


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(spec=crowded_designs(), seed=st.integers(0, 50))
def test_a_crowded_room_holds_its_task_objects_and_records_what_it_leaves_out(
    spec: SceneSpec, seed: int
) -> None:
    scene = _solved(spec, seed)
    if isinstance(scene, LayoutError):  # only the task object may make the design impossible
        task = next(o.id for o in spec.objects if o.task)
        assert task in str(scene) or "reach" in str(scene), str(scene)
        return
    assert_valid(scene)
    placed = {o.id for o in scene.objects}
    left_out = {d.id for d in scene.provenance.dropped_objects}
    assert placed | left_out == {o.id for o in spec.objects}
    assert not placed & left_out
    assert all(o.id in placed for o in spec.objects if o.task)
    for relation in scene.relations:  # every relation naming what is left out is dropped
        if {relation.subject, relation.target} & left_out:
            assert relation in [replace(r, reason="") for r in scene.provenance.dropped] or any(
                (r.kind, r.subject, r.target) == (relation.kind, relation.subject, relation.target)
                for r in scene.provenance.dropped
            )


# --------------------------------------------------------------------------- through the designer


def test_a_designers_request_for_every_placement_is_met_in_the_scene() -> None:
    # The words an LLM designer uses for where things go, through the designer and the layout.
    request = Enrichment(
        objects=(
            EnrichmentObject("tv_stand", "TVStand", "living_room"),
            EnrichmentObject("plant", "HousePlant", "living_room"),
            EnrichmentObject("ottoman", "Ottoman", "living_room"),
            EnrichmentObject("armchair", "ArmChair", "living_room"),
        ),
        relations=(
            EnrichmentRelation("edge", "tv_stand"),
            EnrichmentRelation("corner", "plant"),
            EnrichmentRelation("middle", "ottoman"),
            EnrichmentRelation("face_to", "armchair", "tv_stand"),
            EnrichmentRelation("center_aligned", "ottoman", "sofa"),
        ),
        made_by="llm:test",
    )
    plan = example_plan()
    trajectory = select(plan, "minimal").trajectories[0]
    spec = design_scene(plan, trajectory, seed=0, enrichment=request)
    scene = solve_layout(spec, seed=0)
    assert_valid(scene)
    kept = {str(r) for r in scene.provenance.kept if r.reason == "llm:test"}
    assert kept == {
        "edge(tv_stand)",
        "corner(plant)",
        "middle(ottoman)",
        "face_to(armchair, tv_stand)",
        "center_aligned(ottoman, sofa)",
    }


# --------------------------------------------------------------------------- parts


BEDROOM = SceneSpec(
    "parts",
    rooms=(Room("r", "Bedroom", ((0, 0), (3.4, 0), (3.4, 2), (0, 2))),),
    objects=(
        SceneObject("bed", "Bed", room="r", size=(2.4, 0.5, 1.6), properties=("receptacle",)),
        SceneObject("dresser", "Dresser", room="r", size=(1.2, 0.9, 0.5)),
        SceneObject(
            "drawer",
            "Drawer",
            room="r",
            relation="part",
            part_of="dresser",
            size=(1.0, 0.25, 0.45),
            properties=("receptacle", "openable"),
        ),
        SceneObject(
            "sock",
            "Sock",
            room="r",
            parent="drawer",
            relation="in",
            size=(0.1, 0.05, 0.2),
            properties=("pickupable",),
        ),
    ),
    doors=(DoorSpec("door", ("r", "exterior"), side="west", offset=0.1),),
)


def test_what_is_left_out_takes_its_parts_and_their_contents_with_it() -> None:
    # The bed and the dresser do not fit together; the dresser is the later.
    scene = solve_layout(BEDROOM)
    assert_valid(scene)
    assert [o.id for o in scene.objects] == ["bed"]
    reasons = {d.id: d.reason for d in scene.provenance.dropped_objects}
    assert set(reasons) == {"dresser", "drawer", "sock"}
    assert reasons["sock"] == "it is part of, or rests in a part of, 'dresser', which was left out"


def test_a_task_object_in_a_drawer_keeps_its_dresser() -> None:
    objects = tuple(replace(o, task=o.id == "sock") for o in BEDROOM.objects)
    scene = solve_layout(replace(BEDROOM, objects=objects))
    assert_valid(scene)
    assert [o.id for o in scene.objects] == ["dresser", "drawer", "sock"]
    assert [d.id for d in scene.provenance.dropped_objects] == ["bed"]


@pytest.mark.parametrize("decompose", [True, False])
def test_what_rests_on_an_object_left_out_is_left_out_too(decompose: bool) -> None:
    # In one model of everything the cup is solved with its wardrobe: it must go with it.
    bed, wardrobe = NARROW.objects
    wardrobe = replace(wardrobe, properties=("receptacle",))
    cup = SceneObject("cup", "Cup", size=(0.1, 0.12, 0.1), parent="wardrobe")
    scene = solve_layout(replace(NARROW, objects=(bed, wardrobe, cup)), decompose=decompose)
    assert_valid(scene)
    assert [o.id for o in scene.objects] == ["bed"]
    reasons = {d.id: d.reason for d in scene.provenance.dropped_objects}
    assert set(reasons) == {"wardrobe", "cup"}


# --------------------------------------------------------------------------- the designer's


SLABS = """
[types.Slab]
properties = ["static"]
size = [1.7, 0.5, 0.9]
rooms = ["LivingRoom"]
stand_in = "Statue"
"""


def _slab_project(pytester: pytest.Pytester, slabs: int) -> None:
    """A living room task with ``slabs`` big task objects of a user's type."""
    window = {
        "id": "window",
        "question": "Is the window open?",
        "domain": ["yes", "no"],
        "realization": {
            "yes": [{"state": "window", "open": True}],
            "no": [{"state": "window", "open": False}],
        },
    }
    plan = {
        "format": "logicenv-plan/1",
        "task": "In the living room: close the window if it is open.",
        "rooms": ["LivingRoom"],
        "setting": [{"exists": "Window", "as": "window"}]
        + [{"exists": "Slab", "as": f"s{i}"} for i in range(slabs)],
        "subtasks": [
            {
                "name": "window",
                "factors": [window],
                "tree": {
                    "query": "window",
                    "branches": {
                        "yes": {"action": "Close it.", "goal": []},
                        "no": {"action": "Do nothing.", "goal": []},
                    },
                },
            }
        ],
    }
    pytester.makefile(".json", plan=json.dumps(plan))
    pytester.makefile(".toml", types=SLABS)
    pytester.makepyfile(
        test_slabs="import pytest\n\n"
        "@pytest.mark.logic_env('close the window', plan='plan.json')\n"
        "def test_slabs(logic_env):\n    pass\n"
    )
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\nlogicenv_types = types.toml\n")


def test_a_room_too_full_for_the_designers_furniture_leaves_it_out_and_records_it(
    pytester: pytest.Pytester,
) -> None:
    _slab_project(pytester, 14)
    pytester.runpytest().assert_outcomes(passed=2)
    for path in sorted(pytester.path.glob("cache/*/scenes/window=*[!s].json")):
        if path.stem.endswith(".house"):
            continue
        provenance = json.loads(path.read_text())["provenance"]
        dropped = provenance["dropped_objects"]
        assert dropped
        assert not any(d["id"].startswith("s") and d["id"][1:].isdigit() for d in dropped)
        assert all(
            f"left out {d['id']} (priority 1): " in " ".join(provenance["notes"]) for d in dropped
        )
        assert any("would need more than 10 m a side with it" in d["reason"] for d in dropped)


def test_a_room_too_small_for_the_task_objects_alone_blames_only_them(
    pytester: pytest.Pytester,
) -> None:
    _slab_project(pytester, 40)
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*room living_room would need * m for the 40 floor objects the task's facts require "
            "(largest: s0 (1.7 x 0.9 m), s1 (1.7 x 0.9 m), s2 (1.7 x 0.9 m)), with everything the "
            "designer added left out; the limit is 10 m a side: put fewer of them in this room, or "
            "spread them over more rooms*"
        ]
    )
    assert "sofa" not in result.stdout.str()
