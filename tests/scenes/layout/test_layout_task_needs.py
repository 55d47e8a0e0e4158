"""Relations the task needs are never relaxed: an error naming them, or the rest makes way."""

from __future__ import annotations

import pytest

from pytest_logicenv.errors import LayoutError
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    DoorSpec,
    Room,
    SceneObject,
    SceneSpec,
    SpatialRelation,
)


def design(
    width: float, depth: float, *objects: SceneObject, relations: tuple[SpatialRelation, ...]
) -> SceneSpec:
    room = Room("living", "LivingRoom", ((0, 0), (width, 0), (width, depth), (0, depth)))
    door = DoorSpec("door", ("living", "exterior"), width=0.8)
    return SceneSpec("d", rooms=(room,), objects=objects, doors=(door,), relations=relations)


def box(obj_id: str, size: tuple[float, float, float], task: bool = True) -> SceneObject:
    return SceneObject(obj_id, obj_id.capitalize(), room="living", size=size, task=task)


TABLE = box("table", (1.0, 0.7, 1.0))
CHAIR = box("chair", (0.5, 0.9, 0.5))
DESK = box("desk", (1.2, 0.75, 0.6))


def far(priority: int = PRIORITY_TASK) -> SpatialRelation:
    return SpatialRelation("far", "chair", "table", priority)


def test_a_far_pair_the_room_is_too_small_for_is_an_error_naming_the_size_it_needs() -> None:
    with pytest.raises(LayoutError) as raised:
        solve_layout(design(2.5, 2.5, TABLE, CHAIR, relations=(far(),)))
    assert str(raised.value).splitlines() == [
        "scene design 'd': 1 problem",
        "  [fit] relations[0] far(chair, table): chair (0.50 x 0.50 m) and table (1.00 x "
        "1.00 m) cannot stand 1.5 m apart in room 'living' (2.50 x 2.50 m): the layout keeps "
        "far objects that far apart along the room's length or width, which takes 3.00 m; "
        "make the room at least 3.00 m long or put them in different rooms; or, should the "
        "task not need it, give it a priority below 10 and the layout meets it where it can",
    ]


def test_a_task_object_in_the_middle_of_a_room_too_small_for_it_is_an_error() -> None:
    middle = SpatialRelation("middle", "table", None, PRIORITY_TASK)
    with pytest.raises(LayoutError, match=r"relations\[0\] middle\(table\): table .* at least "):
        solve_layout(design(1.8, 3.0, TABLE, relations=(middle,)))


def test_a_decoration_relation_that_cannot_hold_stays_best_effort() -> None:
    scene = solve_layout(design(2.5, 2.5, TABLE, CHAIR, relations=(far(PRIORITY_ENRICHMENT),)))
    (dropped,) = scene.provenance.dropped
    assert dropped.kind == "far"
    assert dropped.reason.startswith("dropped: cannot hold")


def test_a_task_relation_the_solver_cannot_meet_is_an_error_naming_it() -> None:
    # A desk and the chair in front of it need 1.1 m of depth; the room has 1.0 m.
    front = SpatialRelation("in_front_of", "chair", "desk", PRIORITY_TASK)
    with pytest.raises(LayoutError) as raised:
        solve_layout(design(3.0, 1.0, DESK, CHAIR, relations=(front,)))
    assert str(raised.value) == (
        "scene design 'd': in_front_of(chair, desk) on the floor of room 'living': cannot "
        "hold with these sizes, supports, doors and walls. The task needs it: enlarge the "
        "room or move other objects elsewhere; or, should the task not need it, give it a "
        "priority below 10 and the layout meets it where it can"
    )


def test_decoration_makes_way_for_a_relation_the_task_needs() -> None:
    # With the sofa along a wall, 1.05 m of depth is left: too little for the chair in
    # front of the desk. Without the sofa the room has what the task needs.
    sofa = box("sofa", (3.0, 0.8, 0.6), task=False)
    front = SpatialRelation("in_front_of", "chair", "desk", PRIORITY_TASK)
    scene = solve_layout(design(3.0, 1.65, sofa, DESK, CHAIR, relations=(front,)))
    assert [str(r) for r in scene.provenance.kept] == ["in_front_of(chair, desk)"]
    assert [o.id for o in scene.objects] == ["desk", "chair"]
    (left_out,) = scene.provenance.dropped_objects
    assert left_out.id == "sofa"
    assert left_out.reason.endswith("with in_front_of(chair, desk), which the task needs")


def test_a_task_critical_relation_between_objects_that_may_be_left_out_is_relaxable() -> None:
    # The task cannot need a relation without needing its objects (the synthetic designs
    # rank a quarter of their relations so, between enrichment objects).
    table, chair = (box(o.id, o.size, task=False) for o in (TABLE, CHAIR))
    scene = solve_layout(design(2.5, 2.5, table, chair, relations=(far(),)))
    assert [r.kind for r in scene.provenance.dropped] == ["far"]
