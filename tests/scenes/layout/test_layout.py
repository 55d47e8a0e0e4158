"""The Z3 layout: relations met or relaxed with a record, hard constraints, bad input."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import ROOT
from hypothesis import example, given, settings
from hypothesis import strategies as st
from layout_rooms import (
    CHAIR,
    CUP,
    LIVING_ROOM,
    NARROW,
    PAINTING,
    SOFA,
    STAND,
    TABLE,
    assert_valid,
    keys,
    rel,
    room,
    spec_with,
    thing,
)
from synthetic import synthetic_spec

from pytest_logicenv.errors import LayoutError
from pytest_logicenv.logic.plan import load_plan
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.design import design_scene
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.layout.contradictions import NEVER_TOGETHER
from pytest_logicenv.scenes.scene_json import scene_to_json
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    RELATION_KINDS,
    UNARY_RELATION_KINDS,
    WALL_HEIGHT,
    DoorSpec,
    Room,
    SceneObject,
    SceneSpec,
    SpatialRelation,
    WindowSpec,
)

# --------------------------------------------------------------------------- relations met

SATISFIABLE = {
    "edge": rel("edge", "sofa"),
    "center": rel("center", "table"),
    "corner": rel("corner", "chair"),
    "middle": rel("middle", "table"),
    "mounted_on_wall": rel("mounted_on_wall", "painting"),
    "in": rel("in", "cup", "table"),
    "on_top_of": rel("on_top_of", "book", "table"),
    "near": rel("near", "chair", "table"),
    "far": rel("far", "chair", "sofa"),
    "above": rel("above", "painting", "sofa"),
    "in_front_of": rel("in_front_of", "table", "sofa"),
    "side_of": rel("side_of", "chair", "sofa"),
    "center_aligned": rel("center_aligned", "table", "sofa"),
    "face_to": rel("face_to", "sofa", "stand"),
}


def test_every_relation_kind_has_a_case() -> None:
    assert set(SATISFIABLE) == set(RELATION_KINDS)


@pytest.mark.parametrize("kind", sorted(SATISFIABLE))
def test_each_relation_is_met_when_it_can_be(kind: str) -> None:
    relation = SATISFIABLE[kind]
    objects = LIVING_ROOM
    if kind == "in":
        objects = tuple(replace(o, relation="in") if o.id == "cup" else o for o in objects)
    scene = solve_layout(spec_with(relation, objects=objects), seed=3)
    assert_valid(scene)
    assert keys(scene.provenance.kept) == {(relation.kind, relation.subject, relation.target)}
    assert scene.provenance.dropped == ()


def test_face_to_and_in_front_of_mean_what_they_say() -> None:
    # Independent of both checker and solver: read the geometry off the scene.
    scene = solve_layout(
        spec_with(rel("face_to", "sofa", "stand"), rel("in_front_of", "table", "sofa")), seed=5
    )
    sofa, stand, table = (scene.object(i) for i in ("sofa", "stand", "table"))
    front = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}[sofa.rotation]
    axis = 0 if front[0] else 2
    sign = front[0] or front[1]
    assert sign * (stand.position[axis] - sofa.position[axis]) > 0  # the stand is ahead
    assert sign * (table.position[axis] - sofa.position[axis]) > 0  # so is the table
    other = 2 - axis
    half = (sofa.size[0] if axis == 2 else sofa.size[2]) / 2
    assert abs(table.position[other] - sofa.position[other]) <= half


def test_objects_stack_on_their_supports() -> None:
    scene = solve_layout(spec_with(), seed=1)
    table, cup = scene.object("table"), scene.object("cup")
    assert cup.position[1] - cup.size[1] / 2 == pytest.approx(table.size[1])
    assert abs(cup.position[0] - table.position[0]) < table.size[0] / 2 + table.size[2] / 2
    painting = scene.object("painting")
    assert 0 <= painting.position[1] - painting.size[1] / 2 < WALL_HEIGHT
    assert_valid(scene)


# --------------------------------------------------------------------------- relaxation

# (relation that must give way, task-critical relation it contradicts)
CONFLICTS = [
    (rel("edge", "table"), rel("center", "table")),
    (rel("center", "table"), rel("edge", "table")),
    (rel("near", "chair", "table"), rel("far", "chair", "table")),
    (rel("far", "chair", "table"), rel("near", "chair", "table")),
    (rel("above", "painting", "sofa"), rel("far", "painting", "sofa")),
    (rel("in_front_of", "table", "sofa"), rel("side_of", "table", "sofa")),
    (rel("side_of", "table", "sofa"), rel("in_front_of", "table", "sofa")),
    (rel("center_aligned", "chair", "sofa"), rel("side_of", "chair", "sofa")),
    (rel("face_to", "sofa", "stand"), rel("side_of", "stand", "sofa")),
]


@pytest.mark.parametrize(("weak", "strong"), CONFLICTS, ids=lambda r: str(r))
def test_a_contradicted_relation_is_dropped_and_recorded(
    weak: SpatialRelation, strong: SpatialRelation
) -> None:
    weak = replace(weak, priority=PRIORITY_ENRICHMENT, reason="looks nice")
    # Listed first, so the order of declaration does not decide.
    scene = solve_layout(spec_with(weak, strong), seed=2)
    assert_valid(scene)
    assert scene.provenance.kept == (strong,)
    (dropped,) = scene.provenance.dropped
    assert (dropped.kind, dropped.subject, dropped.target) == (weak.kind, weak.subject, weak.target)
    assert str(strong) in dropped.reason
    assert "looks nice" in dropped.reason
    assert any(str(weak) in note for note in scene.provenance.notes)


def test_between_equal_priorities_the_later_relation_gives_way() -> None:
    first = rel("near", "chair", "table", PRIORITY_ENRICHMENT)
    second = rel("far", "chair", "table", PRIORITY_ENRICHMENT)
    scene = solve_layout(spec_with(first, second), seed=0)
    assert scene.provenance.kept == (first,)
    assert keys(scene.provenance.dropped) == {("far", "chair", "table")}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (rel("near", "chair", "table"), rel("far", "table", "chair")),
        (rel("above", "painting", "sofa"), rel("far", "painting", "sofa")),
        (rel("in_front_of", "table", "sofa"), rel("side_of", "table", "sofa")),
        (rel("edge", "table"), rel("middle", "table")),
        (rel("middle", "chair"), rel("corner", "chair")),
    ],
    ids=str,
)
def test_task_critical_relations_that_contradict_are_an_error_before_solving(
    first: SpatialRelation, second: SpatialRelation
) -> None:
    with pytest.raises(LayoutError) as caught:
        solve_layout(spec_with(first, second), seed=0)
    assert str(caught.value) == (
        "scene design 'test': 1 problem\n"
        f"  [contradiction] relations[1] {second}: contradicts relations[0] {first}: no layout "
        "meets both; both are task-critical, so drop one or lower its priority"
    )


def test_relations_that_can_hold_together_are_all_kept() -> None:
    relations = tuple(
        SATISFIABLE[k]
        for k in ("edge", "face_to", "in_front_of", "center_aligned", "above", "side_of", "near")
    )
    relations = tuple(replace(r, subject="chair") if r.kind == "side_of" else r for r in relations)
    scene = solve_layout(spec_with(*relations), seed=4)
    assert_valid(scene)
    assert scene.provenance.dropped == ()


@pytest.mark.parametrize("seed", range(6))
def test_relations_between_the_floor_and_the_walls_are_met(seed: int) -> None:
    # The sofa is placed by the floor's problem, the picture and the switch by the walls':
    # when the sofa stands where nothing on a wall can be above or near it, the objects are
    # solved together.
    switch = thing("switch", (0.1, 0.15, 0.03), relation="wall")
    spec = spec_with(
        rel("above", "painting", "sofa"),
        rel("near", "switch", "chair"),
        objects=(*LIVING_ROOM, switch),
    )
    scene = solve_layout(spec, seed=seed)
    assert_valid(scene)
    assert scene.provenance.dropped == ()


@pytest.mark.parametrize("seed", [77, 94])
def test_an_object_solved_early_keeps_room_for_its_neighbours(seed: int) -> None:
    # Found by Hypothesis: far(teddybear_7, sofa_1) fails on the coffee table's top, so the
    # bear is solved with the floor; the box and the mug sharing the top must come along, or
    # the bear may be put where they no longer fit.
    spec = synthetic_spec(7, rooms=1, seed=178, relations=False)
    spec = replace(
        spec,
        relations=(
            rel("edge", "sofa_1", priority=PRIORITY_ENRICHMENT),
            rel("far", "teddybear_7", "sofa_1", PRIORITY_ENRICHMENT),
            rel("near", "tomato_6", "sofa_1", PRIORITY_ENRICHMENT),
            rel("above", "painting_3", "coffeetable_2", PRIORITY_ENRICHMENT),
            rel("center", "sofa_1", priority=PRIORITY_ENRICHMENT),
        ),
    )
    assert_valid(solve_layout(spec, seed=seed))


def test_relations_across_rooms() -> None:
    spec = SceneSpec(
        "two",
        rooms=(room("living"), room("kitchen", x0=5.0)),
        objects=(SOFA, replace(CHAIR, room="kitchen")),
        doors=(DoorSpec("door", ("living", "kitchen")),),
        relations=(rel("far", "sofa", "chair"), rel("near", "sofa", "chair")),
    )
    scene = solve_layout(spec, seed=0)
    assert_valid(scene)
    assert keys(scene.provenance.kept) == {("far", "sofa", "chair")}
    assert "different rooms" in scene.provenance.dropped[0].reason


# --------------------------------------------------------------------------- floor plan


def test_walls_come_from_the_rooms_and_the_shared_wall_holds_the_door() -> None:
    spec = SceneSpec(
        "two",
        rooms=(room("living"), room("kitchen", x0=5.0, width=3.0, depth=3.0)),
        objects=(SOFA,),
        doors=(DoorSpec("inner", ("living", "kitchen")), DoorSpec("front", ("living", "exterior"))),
        windows=(WindowSpec("east", "kitchen", side="east"),),
    )
    scene = solve_layout(spec, seed=0)
    assert_valid(scene)
    walls = {w.id: w for w in scene.walls}
    inner = next(d for d in scene.doors if d.id == "inner")
    assert set(walls[inner.wall].rooms) == {"living", "kitchen"}
    assert walls[inner.wall].start[0] == walls[inner.wall].end[0] == 5.0
    assert max(walls[inner.wall].start[1], walls[inner.wall].end[1]) == 3.0  # only the shared part
    front = next(d for d in scene.doors if d.id == "front")
    assert walls[front.wall].rooms == ("living",)
    (window,) = scene.windows
    assert walls[window.wall].start[0] == walls[window.wall].end[0] == 8.0


def test_an_l_shaped_room_keeps_objects_out_of_its_notch() -> None:
    l_room = Room("living", "LivingRoom", ((0, 0), (5, 0), (5, 2), (2.5, 2), (2.5, 4), (0, 4)))
    spec = SceneSpec(
        "l",
        rooms=(l_room,),
        objects=(SOFA, TABLE, CHAIR, STAND, PAINTING, thing("rug", (1.5, 0.01, 1.5))),
        relations=(rel("edge", "sofa"), rel("edge", "stand")),
    )
    for seed in range(3):
        assert_valid(solve_layout(spec, seed=seed))


@pytest.mark.parametrize("seed", range(3))
def test_corner_and_middle_in_an_l_shaped_room(seed: int) -> None:
    # The L's inner corner at (2.5, 2) is no corner to stand in; its notch is no middle.
    l_room = Room("living", "LivingRoom", ((0, 0), (5, 0), (5, 2), (2.5, 2), (2.5, 4), (0, 4)))
    spec = SceneSpec(
        "l",
        rooms=(l_room,),
        objects=(SOFA, TABLE, CHAIR, thing("plant", (0.4, 0.8, 0.4))),
        relations=(rel("corner", "chair"), rel("corner", "plant"), rel("middle", "table")),
    )
    scene = solve_layout(spec, seed=seed)
    assert_valid(scene)
    assert scene.provenance.dropped == ()


def test_rooms_off_the_grid() -> None:
    odd = Room(
        "living", "LivingRoom", ((0.013, 0.02), (3.333, 0.02), (3.333, 2.977), (0.013, 2.977))
    )
    spec = SceneSpec(
        "odd",
        rooms=(odd,),
        objects=(SOFA, TABLE, CUP, PAINTING),
        doors=(DoorSpec("door", ("living", "exterior")),),
        relations=(rel("edge", "sofa"), rel("above", "painting", "sofa")),
    )
    scene = solve_layout(spec, seed=0)
    assert_valid(scene)
    assert scene.provenance.dropped == ()


def test_what_hangs_on_a_wall_mounted_holder_moves_with_it() -> None:
    holder = thing("holder", (0.5, 0.05, 0.12), receptacle=True, relation="wall")
    towel = SceneObject("towel", "Towel", size=(0.4, 0.5, 0.05), parent="holder")
    scene = solve_layout(spec_with(objects=(SOFA, holder, towel)), seed=0)
    assert_valid(scene)


def test_an_apple_may_rise_above_a_bowl_but_not_out_of_a_box() -> None:
    bowl = SceneObject(
        "bowl", "Bowl", size=(0.25, 0.08, 0.25), parent="table", properties=("receptacle",)
    )
    apple = SceneObject("apple", "Apple", size=(0.1, 0.1, 0.1), parent="bowl", relation="in")
    scene = solve_layout(spec_with(objects=(TABLE, bowl, apple)), seed=0)
    assert_valid(scene)
    box = replace(bowl, id="box", properties=("receptacle", "openable"))
    boxed = replace(apple, parent="box", task=True)
    with pytest.raises(LayoutError, match=r"objects\[apple\].*could then not be closed"):
        solve_layout(spec_with(objects=(TABLE, box, boxed)), seed=0)


def test_the_one_model_baseline_gives_a_valid_scene_too() -> None:
    spec = spec_with(
        rel("edge", "sofa"), rel("in_front_of", "table", "sofa"), rel("above", "painting", "sofa")
    )
    scene = solve_layout(spec, seed=0, decompose=False)
    assert_valid(scene)
    assert scene.provenance.dropped == ()


# --------------------------------------------------------------------------- seeds


def test_same_seed_same_scene_other_seeds_move_things() -> None:
    spec = synthetic_spec(20, rooms=1, seed=0)
    first = solve_layout(spec, seed=7)
    assert solve_layout(spec, seed=7) == first
    assert scene_to_json(solve_layout(spec, seed=7)) == scene_to_json(first)
    others = [solve_layout(spec, seed=s) for s in (8, 9)]
    assert any(o.objects != first.objects for o in others)
    assert first.provenance.seed == 7


# --------------------------------------------------------------------------- bad input


def test_unknown_object_in_a_relation_is_named() -> None:
    with pytest.raises(
        LayoutError, match=r"relations\[0\] near\(chair, ghost\).*'ghost'.*not an object"
    ):
        solve_layout(spec_with(rel("near", "chair", "ghost")))


def test_a_relation_naming_a_window_says_relations_name_objects() -> None:
    with pytest.raises(LayoutError, match="relations name objects, not doors or windows"):
        solve_layout(spec_with(rel("near", "chair", "window")))


def test_one_object_in_two_places_is_a_contradiction() -> None:
    with pytest.raises(LayoutError, match=r"\[contradiction\].*'cup' rests on 'table'.*in 'sofa'"):
        solve_layout(spec_with(rel("in", "cup", "sofa")))
    with pytest.raises(LayoutError, match=r"'chair' rests on the floor.*on 'table'"):
        solve_layout(spec_with(rel("on_top_of", "chair", "table")))
    with pytest.raises(LayoutError, match=r"'chair' rests on the floor but this relation hangs it"):
        solve_layout(spec_with(rel("mounted_on_wall", "chair")))


def test_in_a_non_receptacle_is_rejected() -> None:
    with pytest.raises(LayoutError, match=r"'chair' \(Chair\) is not a receptacle"):
        solve_layout(spec_with(rel("in", "cup", "chair")))
    apple = SceneObject("apple", "Apple", size=(0.1, 0.1, 0.1), parent="chair")
    with pytest.raises(LayoutError, match=r"objects\[apple\].*not a receptacle"):
        solve_layout(spec_with(objects=(CHAIR, apple)))


def test_malformed_relations_and_supports_are_listed_together() -> None:
    spec = spec_with(
        rel("levitates", "chair"),
        rel("edge", "chair", "sofa"),
        rel("near", "chair"),
        rel("near", "chair", "chair"),
        objects=(*LIVING_ROOM, SceneObject("ghost_child", "Cup", parent="nowhere")),
    )
    with pytest.raises(LayoutError) as caught:
        solve_layout(spec)
    message = str(caught.value)
    for expected in (
        "unknown kind",
        "edge takes one object",
        "near needs a target",
        "relates an object to itself",
        "parent 'nowhere' is not an object",
        "5 problems",
    ):
        assert expected in message


def task(*objects: SceneObject) -> tuple[SceneObject, ...]:
    return tuple(replace(o, task=True) for o in objects)


def test_a_room_too_small_for_its_task_objects_names_them_and_the_space() -> None:
    small = SceneSpec("tiny", rooms=(room(width=2.0, depth=1.4),), objects=task(*LIVING_ROOM[:4]))
    with pytest.raises(LayoutError) as caught:
        solve_layout(small)
    assert str(caught.value) == (
        "scene design 'tiny': 1 problem\n"
        "  [fit] objects[sofa]: the task objects on the floor of room 'living' need 2.83 m² "
        "(sofa (1.60 x 0.90 m), table (1.00 x 0.60 m), chair (0.50 x 0.50 m), stand (1.20 x "
        "0.45 m)) but room 'living' has 1.64 m² of free floor (2.80 m² less 0.00 m² the doors "
        "sweep, 0.16 m² for the agent's start and 1.00 m² of walkways to its task objects); "
        "enlarge it, use smaller objects or move some elsewhere"
    )


def test_task_objects_that_fit_by_area_but_not_together_name_the_floor() -> None:
    with pytest.raises(
        LayoutError,
        match=r"cannot place the floor of room .living..*bed \(2.40 x 1.60 m\), wardrobe",
    ):
        solve_layout(replace(NARROW, objects=task(*NARROW.objects)))


def test_a_task_object_bigger_than_its_room_or_support() -> None:
    sofa = replace(SOFA, task=True)
    with pytest.raises(LayoutError, match=r"objects\[sofa\]: 1.60 x 0.90 m does not fit in room"):
        solve_layout(SceneSpec("s", rooms=(room(width=1.0, depth=1.0),), objects=(sofa,)))
    big = SceneSpec("b", rooms=(room(),), objects=(TABLE, replace(sofa, parent="table", room="")))
    with pytest.raises(
        LayoutError, match=r"objects\[sofa\]: its 1.60 x 0.90 m footprint does not fit on 'table'"
    ):
        solve_layout(big)


def test_enrichment_too_big_for_its_room_or_support_is_left_out_saying_why() -> None:
    scene = solve_layout(SceneSpec("s", rooms=(room(width=1.0, depth=1.0),), objects=(SOFA,)))
    (sofa,) = scene.provenance.dropped_objects
    assert sofa.reason.startswith("1.60 x 0.90 m does not fit in room 'living' (1.00 x 1.00 m)")
    big = SceneSpec("b", rooms=(room(),), objects=(TABLE, replace(SOFA, parent="table", room="")))
    scene = solve_layout(big)
    assert [o.id for o in scene.objects] == ["table"]
    assert "footprint does not fit on 'table'" in scene.provenance.dropped_objects[0].reason


def test_an_object_exactly_as_wide_as_its_room_fits() -> None:
    # 24 cells of 5 cm are 1.2 m, though 24 * 0.05 is 1.2000000000000002 in floating point.
    alcove = Room("alcove", "LivingRoom", ((0, 0), (1.2, 0), (1.2, 3), (0, 3)))
    bench = thing("bench", (1.2, 0.5, 2.5), room="alcove")
    assert_valid(solve_layout(SceneSpec("snug", rooms=(alcove,), objects=(bench,))))


def test_an_object_taller_than_the_walls_is_rejected() -> None:
    # The checker would find it through the ceiling; the layout says so before solving.
    pole = thing("pole", (0.3, WALL_HEIGHT + 0.2, 0.3), task=True)
    with pytest.raises(LayoutError, match=r"objects\[pole\]: 2.70 m is taller than the wall"):
        solve_layout(SceneSpec("tall", rooms=(room(),), objects=(pole,)))


def test_a_picture_wider_than_any_wall_is_rejected() -> None:
    # A cross-shaped hall 6 m across, each of its twelve walls 2 m long.
    arms = ((2, 0), (4, 0), (4, 2), (6, 2), (6, 4), (4, 4), (4, 6), (2, 6), (2, 4), (0, 4))
    cross = Room("living", "Hallway", (*arms, (0, 2), (2, 2)))
    mural = thing("mural", (3.0, 1.0, 0.03), relation="wall", task=True)
    with pytest.raises(
        LayoutError,
        match=r"objects\[mural\]: 3.00 m wide does not fit on any wall of room 'living' "
        r"\(the longest is 2.00 m\)",
    ):
        solve_layout(SceneSpec("wide", rooms=(cross,), objects=(mural,)))


def test_furniture_keeps_out_of_the_sweep_of_a_door_leaf() -> None:
    # A corridor 1.2 m wide whose only door (1.0 m) leads to the next room: a 3.1 m cabinet
    # across the corridor would leave 0.9 m in front of the door, and the opening leaf,
    # 1.0 m wide, would hit it.
    corridor = Room("corridor", "Hallway", ((0, 0), (1.2, 0), (1.2, 4), (0, 4)))
    hall = Room("hall", "Hallway", ((0, 4), (1.2, 4), (1.2, 8), (0, 8)))
    cabinet = thing("cabinet", (1.15, 1.0, 3.1), room="corridor", task=True)
    spec = SceneSpec(
        "sweep",
        rooms=(corridor, hall),
        objects=(cabinet,),
        doors=(DoorSpec("door", ("corridor", "hall"), width=1.0),),
        agent_room="hall",
    )
    with pytest.raises(LayoutError, match=r"room 'corridor' has .* less 1.00 m² the doors sweep"):
        solve_layout(spec)
    placed = solve_layout(replace(spec, objects=(replace(cabinet, size=(1.15, 1.0, 2.9)),)))
    assert placed.object("cabinet").footprint[3] <= 4 - 1.0 + 1e-9
    assert_valid(placed)


@pytest.mark.parametrize(
    ("plan", "trajectory"),
    [
        # The solver's start for the agent was a pocket between a plant, a bin and two walls.
        ("living_room_pillow_toy", "sofa_pillow=yes-toy=no-wipes=yes"),
        # The book lay in a corner closed off by the sofa, a toy box and the TV stand.
        ("clean_living_room", "toy_type=doll-book=yes-wipe=yes"),
    ],
)
def test_the_agent_can_walk_to_every_task_object(plan: str, trajectory: str) -> None:
    loaded = load_plan(ROOT / "example_agents" / "plans" / f"{plan}.json")
    chosen = next(t for t in select(loaded).trajectories if t.id == trajectory)
    scene = solve_layout(design_scene(loaded, chosen, seed=0), seed=0)
    assert_valid(scene)  # the checker walks the agent there on its own
    assert scene.agent is not None
    assert solve_layout(design_scene(loaded, chosen, seed=0), seed=0) == scene


def test_doors_and_windows_can_pin_their_wall_and_offset() -> None:
    spec = SceneSpec(
        "pinned",
        rooms=(room("living"), room("kitchen", x0=5.0, width=3.0, depth=3.0)),
        objects=(SOFA, TABLE),
        doors=(
            DoorSpec("front", ("living", "exterior"), width=1.0, side="south", offset=1.0),
            DoorSpec("inner", ("living", "kitchen"), wall="wall|living|kitchen|0", offset=0.37),
        ),
        windows=(WindowSpec("window", "living", side="north", offset=2.5),),
    )
    for seed in range(3):
        scene = solve_layout(spec, seed=seed)
        assert_valid(scene)
        walls = {w.id: w for w in scene.walls}
        doors = {d.id: d for d in scene.doors}
        front, inner = doors["front"], doors["inner"]
        assert walls[front.wall].start[1] == walls[front.wall].end[1] == 0.0
        assert front.offset == 1.0
        assert (inner.wall, inner.offset) == ("wall|living|kitchen|0", 0.37)
        (window,) = scene.windows
        assert walls[window.wall].start[1] == walls[window.wall].end[1] == 4.0
        assert window.offset == 2.5


@pytest.mark.parametrize(
    ("door", "message"),
    [
        (
            DoorSpec("d", ("living", "exterior"), side="south", offset=4.5),
            r"doors\[d\]: no wall fits side 'south' and offset 4.5 m \(it must leave 0.1 m to both "
            r"ends of the wall with its 0.9 m width\): the walls it may go in: wall\|living\|0 "
            r"\(5.00 m, south\)",
        ),
        (
            DoorSpec("d", ("living", "exterior"), wall="wall|living|9"),
            r"doors\[d\]: no wall fits wall 'wall\|living\|9'",
        ),
        (DoorSpec("d", ("living", "exterior"), side="up"), r"side 'up' must be one of north"),
        (DoorSpec("d", ("living", "exterior"), offset=-1), r"offset -1 m must be at least 0"),
    ],
)
def test_pins_that_no_wall_takes_are_named(door: DoorSpec, message: str) -> None:
    spec = SceneSpec("pins", rooms=(room(),), objects=(SOFA,), doors=(door,))
    with pytest.raises(LayoutError, match=message):
        solve_layout(spec)


def test_task_objects_behind_walls_without_doors_are_refused_before_solving() -> None:
    cup = replace(CUP, id="mug", parent=None, room="kitchen", task=True)
    spec = SceneSpec(
        "walled",
        rooms=(room("living"), room("kitchen", x0=5.0)),
        objects=(SOFA, cup),
        agent_room="living",
    )
    with pytest.raises(
        LayoutError,
        match=r"no doors lead from the agent's room 'living' to 'kitchen', where the agent "
        r"must reach mug",
    ):
        solve_layout(spec)
    door = DoorSpec("door", ("living", "kitchen"))
    assert_valid(solve_layout(replace(spec, doors=(door,))))


def test_a_door_between_rooms_that_do_not_touch() -> None:
    spec = SceneSpec(
        "apart",
        rooms=(room("living"), room("kitchen", x0=6.0)),
        objects=(SOFA,),
        doors=(DoorSpec("door", ("living", "kitchen")),),
    )
    with pytest.raises(
        LayoutError, match=r"doors\[door\]: rooms 'living' and 'kitchen' share no wall"
    ):
        solve_layout(spec)


def test_overlapping_and_slanted_rooms_are_rejected() -> None:
    overlapping = SceneSpec("o", rooms=(room("living"), room("kitchen", x0=4.0)), objects=())
    with pytest.raises(LayoutError, match=r"rooms\[living\]: overlaps room 'kitchen'"):
        solve_layout(overlapping)
    slanted = Room("living", "LivingRoom", ((0, 0), (4, 0), (3, 3), (0, 3)))
    with pytest.raises(LayoutError, match="not axis-aligned"):
        solve_layout(SceneSpec("s", rooms=(slanted,), objects=()))


def test_a_window_on_a_side_without_an_exterior_wall() -> None:
    spec = SceneSpec(
        "w",
        rooms=(room("living"), room("kitchen", x0=5.0)),
        objects=(),
        windows=(WindowSpec("w", "living", side="east"),),
    )
    with pytest.raises(
        LayoutError, match=r"windows\[w\]: room 'living' has no exterior wall on its east side"
    ):
        solve_layout(spec)


# --------------------------------------------------------------------------- properties


@settings(max_examples=25)
@given(
    objects=st.integers(1, 30),
    rooms=st.integers(1, 3),
    design=st.integers(0, 10**6),
    seed=st.integers(0, 10**6),
)
# A watch on a chest of drawers under the window rose above the sill, in front of the glass.
@example(objects=24, rooms=1, design=801, seed=362879)
def test_every_solved_synthetic_design_passes_the_checker(
    objects: int, rooms: int, design: int, seed: int
) -> None:
    spec = synthetic_spec(objects, rooms=rooms, seed=design)
    assert_valid(solve_layout(spec, seed=seed))


@st.composite
def random_relations(draw: st.DrawFn) -> SceneSpec:
    """A synthetic design with arbitrary relations among its objects, many contradictory."""
    spec = synthetic_spec(
        draw(st.integers(2, 14)),
        rooms=draw(st.integers(1, 2)),
        seed=draw(st.integers(0, 999)),
        relations=False,
    )
    ids = [o.id for o in spec.objects]
    soft = [k for k in RELATION_KINDS if k not in ("in", "on_top_of", "mounted_on_wall")]
    relations: dict[tuple[str, str, str | None], SpatialRelation] = {}
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(soft))
        subject = draw(st.sampled_from(ids))
        target = (
            None
            if kind in UNARY_RELATION_KINDS
            else draw(st.sampled_from([i for i in ids if i != subject]))
        )
        priority = draw(st.sampled_from((PRIORITY_ENRICHMENT, PRIORITY_TASK)))
        if any(
            frozenset({kind, k}) in NEVER_TOGETHER and {subject, target} == {s, t}
            for k, s, t in relations
        ):
            priority = PRIORITY_ENRICHMENT  # two task-critical ones would be an error
        relations.setdefault(
            (kind, subject, target), SpatialRelation(kind, subject, target, priority)
        )
    return replace(spec, relations=tuple(relations.values()))


@pytest.mark.slow
@settings(max_examples=40)
@given(spec=random_relations(), seed=st.integers(0, 100))
def test_random_relations_are_kept_only_when_they_hold(spec: SceneSpec, seed: int) -> None:
    scene = solve_layout(spec, seed=seed)
    assert_valid(scene)  # the checker re-verifies every kept relation
    for dropped in scene.provenance.dropped:
        assert dropped.reason.startswith("dropped: ")
        blockers = [r for r in scene.provenance.kept if str(r) in dropped.reason]
        # Never dropped for the sake of a less important relation.
        assert all(r.priority >= dropped.priority for r in blockers)


@settings(max_examples=10)
@given(objects=st.integers(1, 20), seed=st.integers(0, 10**6))
def test_same_input_same_scene(objects: int, seed: int) -> None:
    spec = synthetic_spec(objects, rooms=2, seed=seed)
    assert solve_layout(spec, seed=seed) == solve_layout(spec, seed=seed)
