"""A design request from outside the designer: what it adds, and every way it can be wrong."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_logicenv.errors import EnrichmentError
from pytest_logicenv.llm.planner import example_plan
from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory, select
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.design import (
    Enrichment,
    EnrichmentObject,
    EnrichmentRelation,
    RoomMaterials,
    design_scene,
)
from pytest_logicenv.scenes.design.draft import WENT_WITH
from pytest_logicenv.scenes.physics import check_scene
from pytest_logicenv.scenes.realization import generate_scene
from pytest_logicenv.scenes.scene_model import PRIORITY_ENRICHMENT, PRIORITY_TASK, SceneSpec

CATALOG = default_catalog()
PLAN = example_plan()  # the paper's Clean Living Room, with its facts
DOLL, NO_BOOK, NO_TOY = select(PLAN, "minimal").trajectories
TASK_IDS = {"sofa", "table", "mop", "red_box", "white_box", "stain", "toy", "book", "wipes"}

GOOD = Enrichment(
    objects=(
        EnrichmentObject("tv_stand", "TVStand", "living_room"),
        EnrichmentObject("tv", "Television", support="tv_stand"),
        EnrichmentObject("armchair", "ArmChair", "LivingRoom"),
        EnrichmentObject("painting", "Painting", support="wall"),
        EnrichmentObject("cushion", "Pillow", support="sofa"),
    ),
    relations=(
        EnrichmentRelation("edge", "tv_stand"),
        EnrichmentRelation("face_to", "tv_stand", "sofa"),
        EnrichmentRelation("near", "armchair", "table"),
        EnrichmentRelation("above", "painting", "sofa"),
        EnrichmentRelation("on_top_of", "tv", "tv_stand"),
    ),
    materials=(RoomMaterials("living_room", "DarkWoodFloors", "DrywallBeige"),),
    made_by="llm:test",
)


def design(request: Enrichment, trajectory: Trajectory = DOLL, plan: Plan = PLAN) -> SceneSpec:
    return design_scene(plan, trajectory, seed=0, catalog=CATALOG, enrichment=request)


def problems(request: Enrichment, trajectory: Trajectory = DOLL) -> list[str]:
    with pytest.raises(EnrichmentError) as caught:
        design(request, trajectory)
    assert str(caught.value).startswith("the design request: ")
    return [str(v) for v in caught.value.violations]


def test_a_request_replaces_the_templates_and_keeps_the_task_objects() -> None:
    spec = design(GOOD)
    by_id = {obj.id: obj for obj in spec.objects}
    whole = {name for name, obj in by_id.items() if obj.part_of is None}
    assert whole == TASK_IDS | {"tv_stand", "tv", "armchair", "painting", "cushion"}
    # The TV stand comes with its parts, as AI2-THOR's do.
    assert {by_id[n].type for n in by_id if by_id[n].part_of == "tv_stand"} == {"Drawer", "Cabinet"}
    assert (by_id["tv"].parent, by_id["tv"].relation) == ("tv_stand", "on")
    assert (by_id["cushion"].parent, by_id["painting"].relation) == ("sofa", "wall")
    assert {by_id[name].room for name in ("armchair", "tv", "cushion")} == {"living_room"}
    assert not any(by_id[name].task for name in ("tv_stand", "tv", "armchair"))
    requested = [r for r in spec.relations if r.reason == "llm:test"]
    assert sorted(str(r) for r in requested) == [
        "above(painting, sofa)",
        "edge(tv_stand)",
        "face_to(tv_stand, sofa)",
        "near(armchair, table)",
    ]
    assert all(PRIORITY_ENRICHMENT <= r.priority < PRIORITY_TASK for r in requested)
    assert max(r.priority for r in spec.relations if r.subject == "mop") == PRIORITY_TASK
    room = spec.rooms[0]
    assert (room.floor_material, room.wall_material) == ("DarkWoodFloors", "DrywallBeige")
    assert spec.provenance.designer == "llm:test"
    assert design(GOOD) == spec  # deterministic


def test_an_empty_request_gives_the_task_objects_alone() -> None:
    spec = design(Enrichment())
    assert {obj.id for obj in spec.objects} == TASK_IDS
    assert design_scene(PLAN, DOLL, seed=0) != spec  # the templates add more


def test_a_requested_design_lays_out_and_passes_the_checker() -> None:
    scene = generate_scene(PLAN, DOLL, seed=0, catalog=CATALOG, enrichment=GOOD)
    assert check_scene(scene).passed
    assert {str(r) for r in scene.provenance.kept} >= {"edge(tv_stand)", "above(painting, sofa)"}


def test_every_bad_item_is_named_with_why_at_once() -> None:
    request = Enrichment(
        objects=(
            EnrichmentObject("rug", "Carpet"),
            EnrichmentObject("lamp", "FloorLamp"),
            EnrichmentObject("pot", "Pot", support="lamp"),
            EnrichmentObject("novel", "Book"),
            EnrichmentObject("sofa", "ArmChair"),
            EnrichmentObject("Big Plant", "HousePlant"),
            EnrichmentObject("frame", "Painting", support="floor"),
            EnrichmentObject("kettle", "Kettle", room="Garage"),
        ),
        relations=(
            EnrichmentRelation("near", "lamp", "ghost"),
            EnrichmentRelation("hover", "lamp"),
            EnrichmentRelation("edge", "lamp", "sofa"),
            EnrichmentRelation("near", "pot", "sofa"),  # pot is left out: not reported again
        ),
        materials=(RoomMaterials("living_room", floor="Lava"),),
    )
    found = problems(request, NO_BOOK)
    expected = [
        r"\[material\] materials\[0\] living_room: unknown floor material 'Lava'",
        r"\[type\] objects\[0\] rug: unknown object type 'Carpet'; the closest catalog types: ",
        r"\[name\] objects\[4\] sofa: 'sofa' already names a task object",
        r"\[name\] objects\[5\] Big Plant: a name is lower-case letters",
        r"\[room\] objects\[7\] kettle: no room 'Garage' in this scene; its rooms: "
        r"living_room \(LivingRoom\)",
        r"\[support\] objects\[2\] pot: lamp cannot hold it: a FloorLamp is not a receptacle",
        r"\[support\] objects\[6\] frame: a Painting hangs on a wall: give it the support 'wall'",
        r"\[absent\] objects\[3\] novel: the task requires 'no Book on Floor' in this situation",
        r"\[relation\] relations\[0\] near\(lamp, ghost\): names 'ghost', which no object of "
        r"this scene is called; the objects: ",
        r"\[relation\] relations\[1\] hover\(lamp\): unknown kind 'hover'; the kinds: edge, ",
        r"\[relation\] relations\[2\] edge\(lamp, sofa\): edge relates one object",
    ]
    assert len(found) == len(expected), "\n".join(found)
    for line, pattern in zip(found, expected, strict=True):
        assert re.match(pattern, line), (line, pattern)


def test_what_the_situation_is_about_is_not_added_again() -> None:
    # A teddy bear stands in for a toy: another toy would blur toy=no.
    [found] = problems(Enrichment(objects=(EnrichmentObject("bear", "TeddyBear"),)), NO_TOY)
    assert found.startswith("[type] objects[0] bear: the task's conditions are about TeddyBear")


@pytest.mark.parametrize(
    ("relations", "message"),
    [
        (
            # The paper's example: a pen in the drawer and on the bed.
            [EnrichmentRelation("on_top_of", "tv", "armchair")],
            "[contradiction] relations[0] on_top_of(tv, armchair): tv rests on tv_stand; this "
            "relation puts it on armchair, and an object has one place",
        ),
        (
            [EnrichmentRelation("in", "book", "red_box")],
            "[contradiction] relations[0] in(book, red_box): book rests on the floor, as the "
            "task requires ('a Book (book) on Floor'); this relation puts it in red_box",
        ),
        (
            [EnrichmentRelation("in", "tv", "tv_stand")],
            "[contradiction] relations[0] in(tv, tv_stand): things go on a TVStand: use on_top_of",
        ),
        (
            [
                EnrichmentRelation("near", "armchair", "sofa"),
                EnrichmentRelation("far", "sofa", "armchair"),
            ],
            "[contradiction] relations[1] far(sofa, armchair): contradicts relations[0] "
            "near(armchair, sofa): no object is near and far",
        ),
        (
            [EnrichmentRelation("edge", "armchair"), EnrichmentRelation("center", "armchair")],
            "[contradiction] relations[1] center(armchair): contradicts relations[0] "
            "edge(armchair): no object is edge and center",
        ),
        (
            [EnrichmentRelation("mounted_on_wall", "armchair")],
            "[contradiction] relations[0] mounted_on_wall(armchair): armchair rests on the "
            "floor, not on a wall",
        ),
        (
            [EnrichmentRelation("center", "painting")],
            "[contradiction] relations[0] center(painting): center places what stands",
        ),
        (
            [EnrichmentRelation("near", "armchair", "armchair")],
            "[contradiction] relations[0] near(armchair, armchair): an object cannot be related "
            "to itself",
        ),
        (
            [EnrichmentRelation("near", "armchair", "sofa", priority=PRIORITY_TASK)],
            "[relation] relations[0] near(armchair, sofa): priority 10 must be from 1 to 9",
        ),
    ],
)
def test_contradictions_are_caught_before_any_layout(
    relations: list[EnrichmentRelation], message: str
) -> None:
    objects = (
        EnrichmentObject("tv_stand", "TVStand"),
        EnrichmentObject("tv", "Television", support="tv_stand"),
        EnrichmentObject("armchair", "ArmChair"),
        EnrichmentObject("painting", "Painting", support="wall"),
    )
    [found] = problems(Enrichment(objects=objects, relations=tuple(relations)))
    assert found.startswith(message), found


def test_only_far_relates_objects_of_different_rooms() -> None:
    plan = Plan(
        "two rooms",
        (),
        setting=parse_facts([{"exists": "Sofa", "as": "sofa"}], "setting"),
        rooms=("LivingRoom", "Kitchen"),
    )
    request = Enrichment(
        objects=(EnrichmentObject("fridge", "Fridge", "kitchen"),),
        relations=(
            EnrichmentRelation("far", "fridge", "sofa"),
            EnrichmentRelation("near", "fridge", "sofa"),
        ),
    )
    with pytest.raises(EnrichmentError) as caught:
        design_scene(plan, None, enrichment=request)
    [found] = [str(v) for v in caught.value.violations]
    assert found == (
        "[contradiction] relations[1] near(fridge, sofa): fridge is in kitchen and sofa in "
        "living_room: of the relations, only 'far' holds between rooms"
    )


def test_a_task_object_the_facts_leave_free_goes_where_the_request_says() -> None:
    plan = Plan(
        "a mug somewhere",
        (),
        setting=parse_facts([{"exists": "Mug", "as": "mug"}], "setting"),
        rooms=("Kitchen",),
    )
    request = Enrichment(
        objects=(EnrichmentObject("counter", "CounterTop"),),
        relations=(EnrichmentRelation("on_top_of", "mug", "counter"),),
    )
    spec = design_scene(plan, None, enrichment=request)
    mug = next(obj for obj in spec.objects if obj.id == "mug")
    assert (mug.parent, mug.relation, mug.room, mug.task) == ("counter", "on", "kitchen", True)


# Mostly well-formed items, some wrong in each way, so that both outcomes are common.
NAMES = ("a", "b", "c", "d")
TYPES = ("SideTable", "Vase", "Pillow", "ArmChair", "FloorLamp") * 3 + ("Painting", "Carpet")
SUPPORTS = ("floor",) * 4 + ("sofa", "table", "a", "b", "wall", "ghost")
ROOMS = (None,) * 6 + ("living_room", "Kitchen")
RELATED = ("sofa", "table", "mop", "red_box") * 3 + ("a", "b", "ghost")
UNARY = st.builds(EnrichmentRelation, st.sampled_from(("edge", "center")), st.sampled_from(RELATED))
BINARY = st.builds(
    EnrichmentRelation,
    st.sampled_from(("near", "far", "above", "face_to", "side_of", "on_top_of")),
    st.sampled_from(RELATED),
    st.sampled_from(RELATED),
)
MALFORMED = st.builds(
    EnrichmentRelation,
    st.sampled_from(("warp", "near", "edge")),
    st.sampled_from(RELATED),
    st.sampled_from((None, *RELATED)),
)


@settings(max_examples=80)
@given(
    objects=st.lists(
        st.builds(
            EnrichmentObject,
            st.sampled_from(NAMES),
            st.sampled_from(TYPES),
            st.sampled_from(ROOMS),
            st.sampled_from(SUPPORTS),
        ),
        max_size=4,
        unique_by=lambda obj: obj.name,
    ),
    relations=st.lists(st.one_of(UNARY, BINARY, BINARY, BINARY, MALFORMED), max_size=3),
)
def test_any_request_is_designed_or_refused_naming_its_items(
    objects: list[EnrichmentObject], relations: list[EnrichmentRelation]
) -> None:
    """Whatever it asks, a request gives a design holding what it asked (or saying what was
    left out, and why), or an EnrichmentError whose every line names one of its items."""
    request = Enrichment(tuple(objects), tuple(relations))
    try:
        spec = design(request)
    except EnrichmentError as error:
        refused = error.violations
    else:
        refused = ()
    if refused:
        items = {"objects": objects, "relations": relations, "materials": []}
        for violation in refused:
            match = re.match(r"(\w+)\[(\d+)\]", violation.location)
            assert match is not None, violation
            assert int(match[2]) < len(items[match[1]]), violation
        return
    placed = {obj.id: obj for obj in spec.objects}
    for obj in objects:
        if obj.name in placed:
            assert placed[obj.name].type == obj.type
        else:  # no room for it on its support: a note says so
            assert any(obj.name in note for note in spec.provenance.notes), obj
    made = {(r.kind, r.subject, r.target) for r in spec.relations}
    for relation in relations:
        names = {relation.subject, relation.target} - {None}
        if relation.kind != "on_top_of" and names <= set(placed):
            assert (relation.kind, relation.subject, relation.target) in made, relation


def test_a_requested_object_left_out_takes_its_parts_with_it() -> None:
    """A side table on a side table has no room there: it is left out with its drawer, both
    recorded (Hypothesis found the drawer left behind naming a table gone: a KeyError)."""
    request = Enrichment(
        objects=(
            EnrichmentObject("b", "SideTable", support="floor"),
            EnrichmentObject("c", "SideTable", support="b"),
        ),
        relations=(),
    )
    spec = design(request)
    ids = {obj.id for obj in spec.objects}
    assert "b" in ids
    for obj in spec.objects:  # nothing rests on, or is a part of, an object that is gone
        assert {obj.parent, obj.part_of} - {None} <= ids, obj
    reasons = {d.id: d.reason for d in spec.provenance.dropped_objects}
    assert reasons.pop("c") == "no room for it on b"
    assert reasons  # c's drawer, gone with it
    assert set(reasons.values()) == {WENT_WITH}
    assert all(name.startswith("c_") and name not in ids for name in reasons)


def test_a_requested_object_no_asset_fits_on_is_left_out_with_what_rests_on_it() -> None:
    """No armchair fits on a side table: it is left out with the pillow on it, both recorded
    (Hypothesis found it kept for the pillow's sake, and the design failed with a SceneError)."""
    request = Enrichment(
        objects=(
            EnrichmentObject("a", "SideTable", support="floor"),
            EnrichmentObject("b", "ArmChair", support="a"),
            EnrichmentObject("c", "Pillow", support="b"),
        ),
        relations=(),
    )
    spec = design(request)
    ids = {obj.id for obj in spec.objects}
    assert ids >= TASK_IDS | {"a"}
    assert not ids & {"b", "c"}
    for obj in spec.objects:  # nothing rests on, or is a part of, an object that is gone
        assert {obj.parent, obj.part_of} - {None} <= ids, obj
    reasons = {d.id: d.reason for d in spec.provenance.dropped_objects}
    assert reasons == {
        "b": "no ArmChair asset fits on a (a SideTable of 1.02 x 0.65 m)",
        "c": WENT_WITH,
    }


def test_a_requested_object_no_asset_fits_on_is_refused_when_it_holds_a_task_object() -> None:
    """The example plan places every task object itself, so a request cannot put one on its
    own objects; a plan with a free book lets it: the armchair holding it cannot be left out."""
    plan = Plan(
        "a book somewhere",
        (),
        setting=parse_facts([{"exists": "Book", "as": "book"}], "setting"),
        rooms=("LivingRoom",),
    )
    request = Enrichment(
        objects=(
            EnrichmentObject("a", "SideTable", support="floor"),
            EnrichmentObject("b", "ArmChair", support="a"),
        ),
        relations=(EnrichmentRelation("on_top_of", "book", "b"),),
    )
    with pytest.raises(EnrichmentError) as caught:
        design_scene(plan, None, enrichment=request)
    assert str(caught.value).startswith("the design request: ")
    [found] = [str(v) for v in caught.value.violations]
    assert found == (
        "[support] objects[1] b: no ArmChair asset fits on a (a SideTable of 1.02 x 0.65 m); it "
        "holds the task's book, which cannot be left out: give b a larger support, or put book "
        "elsewhere"
    )
