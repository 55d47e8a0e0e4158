"""The physics checker finds each kind of violation Table 1 names, on hand-broken scenes."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from sample_scenes import two_rooms

from pytest_logicenv.scenes import physics
from pytest_logicenv.scenes.physics import check_scene, phypr
from pytest_logicenv.scenes.scene_model import (
    AgentStart,
    Door,
    Provenance,
    Room,
    Scene,
    SceneObject,
    SpatialRelation,
    Wall,
    Window,
)

LIVING = Room("living", "LivingRoom", ((0, 0), (4, 0), (4, 3), (0, 3)))
KITCHEN = Room("kitchen", "Kitchen", ((4, 0), (7, 0), (7, 3), (4, 3)))
SHARED = Wall("shared", ("living", "kitchen"), (4, 0), (4, 3))
NORTH = Wall("north", ("living",), (0, 3), (4, 3))
SOUTH_KITCHEN = Wall("south_kitchen", ("kitchen",), (4, 0), (7, 0))


def at(
    obj_id: str, size: tuple[float, float, float], x: float, z: float, **fields: object
) -> SceneObject:
    """An object standing on (or ``bottom`` metres above) the floor of the living room."""
    bottom = float(fields.pop("bottom", 0.0))  # type: ignore[arg-type]
    fields.setdefault("room", "living")
    return SceneObject(
        obj_id, obj_id.capitalize(), size=size, position=(x, bottom + size[1] / 2, z), **fields
    )  # type: ignore[arg-type]


SOFA = at("sofa", (2.0, 0.8, 0.9), 2.0, 0.45, properties=("receptacle",))  # back on the south wall
TV = at("tv", (1.0, 0.5, 0.4), 2.0, 2.7, rotation=180, properties=("receptacle",))
TABLE = at("table", (1.0, 0.4, 0.6), 2.0, 1.5, properties=("receptacle",))
CUP = at("cup", (0.1, 0.1, 0.1), 2.4, 1.5, parent="table", bottom=0.4)  # at the rim
NOTE = at("note", (0.1, 0.01, 0.1), 2.0, 1.5, parent="table", bottom=0.4)  # in the middle
PAINTING = at("painting", (0.8, 0.6, 0.02), 0.01, 1.5, rotation=90, relation="wall", bottom=1.2)


def scene(*objects: SceneObject, **fields: object) -> Scene:
    base = Scene(
        "s",
        rooms=(LIVING, KITCHEN),
        walls=(SHARED, NORTH, SOUTH_KITCHEN),
        doors=(Door("door", "shared", ("living", "kitchen"), 1.0, 0.9, 2.0),),
        windows=(Window("window", "north", "living", 2.5, 1.0, 1.0, 0.9),),
        objects=objects or (SOFA, TV, TABLE, CUP, PAINTING),
        agent=AgentStart("living", (3.5, 2.5)),
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def only(result_scene: Scene, dimension: str, strict: bool = True) -> list[str]:
    """The violations found in ``dimension``; with ``strict``, there must be no others."""
    result = check_scene(result_scene)
    if strict:
        assert {v.code for v in result.violations} <= {dimension}, result.violations
    return [f"{v.location}: {v.message}" for v in result.violations if v.code == dimension]


def test_a_well_formed_scene_passes_every_dimension() -> None:
    result = check_scene(scene())
    assert result.passed, result.violations
    assert all(d.checks > 0 for d in result.dimensions[:2])


def test_the_hand_built_sample_scene_is_checked() -> None:
    # The export tests' sample passes; turned to face along its wall, 5 mm off it, its light
    # switch no longer hangs on the wall.
    sample = two_rooms()
    assert check_scene(sample).passed
    light = next(o for o in sample.objects if o.id == "light")
    askew = replace(light, rotation=0, position=(0.06, light.position[1], light.position[2]))
    result = check_scene(
        sample.with_objects([askew if o.id == "light" else o for o in sample.objects])
    )
    assert [v.location for v in result.violations] == ["objects[light]"]
    assert "not flush against a wall" in result.violations[0].message


# --------------------------------------------------------------------------- floor plan

FLOOR_PLAN_BREAKS: dict[str, tuple[Callable[[Scene], Scene], str]] = {
    "rooms overlap": (
        lambda s: replace(
            s, rooms=(LIVING, replace(KITCHEN, polygon=((3, 0), (7, 0), (7, 3), (3, 3))))
        ),
        "rooms[living]: overlaps room 'kitchen'",
    ),
    "polygon crosses itself": (
        lambda s: replace(
            s, rooms=(replace(LIVING, polygon=((0, 0), (4, 3), (4, 0), (0, 3))), KITCHEN)
        ),
        "crosses itself",
    ),
    "door not between its rooms": (
        lambda s: replace(s, doors=(Door("door", "north", ("living", "kitchen"), 0.05, 0.9, 2.0),)),
        "doors[door]: is not on the wall between 'living' and 'kitchen'",
    ),
    "outside door on an inner wall": (
        lambda s: replace(
            s, doors=(Door("door", "shared", ("living", "exterior"), 1.0, 0.9, 2.0),)
        ),
        "an outside door of 'living' must be on an exterior wall",
    ),
    "door past the wall's end": (
        lambda s: replace(s, doors=(Door("door", "shared", ("living", "kitchen"), 2.5, 0.9, 2.0),)),
        "spans 2.500..3.400 m along a wall 3.000 m long",
    ),
    "door taller than the wall": (
        lambda s: replace(s, doors=(Door("door", "shared", ("living", "kitchen"), 1.0, 0.9, 2.8),)),
        "does not stand on the floor within the 2.50 m wall",
    ),
    "door on a missing wall": (
        lambda s: replace(
            s, doors=(Door("door", "nowhere", ("living", "kitchen"), 1.0, 0.9, 2.0),)
        ),
        "its wall 'nowhere' is not in the scene",
    ),
    "window in an inner wall": (
        lambda s: replace(s, windows=(Window("window", "shared", "living", 1.0, 1.0, 1.0, 0.9),)),
        "windows[window]: must be in an exterior wall of 'living'",
    ),
    "window in another room's wall": (
        lambda s: replace(
            s, windows=(Window("window", "south_kitchen", "living", 1.0, 1.0, 1.0, 0.9),)
        ),
        "its opening (5.00, 0.00)-(6.00, 0.00) lies on the boundary of ['kitchen']",
    ),
    "window on the floor": (
        lambda s: replace(s, windows=(Window("window", "north", "living", 2.5, 1.0, 1.0, 0.0),)),
        "its sill at 0.00 m is not above the floor",
    ),
    "window above the wall": (
        lambda s: replace(s, windows=(Window("window", "north", "living", 2.5, 1.0, 1.8, 0.9),)),
        "its top at 2.70 m is above the 2.50 m wall",
    ),
    "openings overlap": (
        lambda s: replace(
            s,
            windows=(
                Window("window", "north", "living", 2.5, 1.0, 1.0, 0.9),
                Window("window_2", "north", "living", 3.0, 0.8, 1.0, 0.9),
            ),
        ),
        "walls[north]: openings window and window_2 overlap",
    ),
}


@pytest.mark.parametrize("name", sorted(FLOOR_PLAN_BREAKS))
def test_floor_plan_violations_are_found(name: str) -> None:
    breaker, expected = FLOOR_PLAN_BREAKS[name]
    # A self-crossing room also puts its objects outside it; the rest break the plan alone.
    found = only(breaker(scene()), "floor_plan", strict=name != "polygon crosses itself")
    assert any(expected in text for text in found), found


# --------------------------------------------------------------------------- entity

ENTITY_BREAKS: dict[str, tuple[tuple[SceneObject, ...], str]] = {
    "floating": (
        (replace(TABLE, position=(2.0, 0.5, 1.5)),),
        "objects[table]: floats: its bottom is at 0.300 m",
    ),
    "off its parent": (
        (TABLE, replace(CUP, position=(2.9, 0.45, 1.5))),
        "objects[cup]: is not on top of 'table'",
    ),
    "sunk into its parent": (
        (TABLE, replace(CUP, position=(2.2, 0.3, 1.5))),
        "bottom 0.250 m vs its top 0.400 m",
    ),
    "collision": (
        (SOFA, replace(TABLE, position=(2.0, 0.2, 1.0))),
        "objects[sofa]: collides with 'table' (they share 1.000 x 0.400 x 0.200 m)",
    ),
    "outside its room": (
        (replace(TABLE, position=(3.8, 0.2, 1.5)),),
        "objects[table]: its footprint x 3.300..4.300, z 1.200..1.800 is not inside room 'living'",
    ),
    "in another room than its parent": (
        (TABLE, replace(CUP, room="kitchen")),
        "is in room 'kitchen' but its parent 'table' is in 'living'",
    ),
    "unknown parent": ((replace(CUP, parent="ghost"),), "its parent 'ghost' is not an object"),
    "unknown room": ((replace(TABLE, room="attic"),), "its room 'attic' is not in the scene"),
    "picture off the wall": (
        (replace(PAINTING, position=(0.3, 1.5, 1.5)),),
        "objects[painting]: is wall-mounted but its back is not flush against a wall",
    ),
    "picture facing the wall": (
        (replace(PAINTING, rotation=270),),
        "not flush against a wall of 'living' facing into the room",
    ),
    "picture above the wall": (
        (replace(PAINTING, position=(0.01, 2.3, 1.5)),),
        "hangs from 2.000 to 2.600 m, outside the wall's height",
    ),
    "door swing blocked": (
        (at("chest", (0.5, 0.5, 0.5), 3.6, 1.5),),
        "objects[chest]: stands in the swing area of door 'door'",
    ),
    "out of a closed box": (
        (
            replace(TABLE, properties=("receptacle", "openable")),
            replace(CUP, relation="in", position=(2.2, 0.3, 1.5), size=(0.1, 0.6, 0.1)),
        ),
        "its top 0.600 m is above the top 0.400 m of what closes on it",
    ),
    "agent inside furniture": (
        (replace(TABLE, position=(3.5, 0.2, 2.5)),),
        "agent: starts inside table",
    ),
    "in the sweep of the door's leaf": (
        # 0.85 m in front of the 0.9 m door: the leaf, as wide as the door, swings into it.
        (at("chest", (0.5, 0.5, 0.5), 4 - 0.85 - 0.25, 1.45),),
        "objects[chest]: stands in the swing area of door 'door'",
    ),
    "a picture over the window": (
        (at("picture", (0.8, 0.6, 0.02), 3.0, 2.99, rotation=180, relation="wall", bottom=1.2),),
        "objects[picture]: covers window 'window' (x 2.500..3.500, z 2.950..3.000, from 0.90 m)",
    ),
    "a wardrobe against the window": (
        (at("wardrobe", (1.2, 2.0, 0.6), 3.0, 2.7, rotation=180),),
        "objects[wardrobe]: covers window 'window'",
    ),
    "taller than the room": (
        (at("pole", (0.3, 2.7, 0.3), 1.0, 2.5),),
        "objects[pole]: reaches 2.700 m, above the 2.50 m ceiling",
    ),
    "stacked through the ceiling": (
        (
            at("shelf", (1.0, 2.0, 0.4), 1.0, 2.7, properties=("receptacle",)),
            at("crate", (0.4, 0.8, 0.3), 1.0, 2.7, parent="shelf", bottom=2.0),
        ),
        "objects[crate]: reaches 2.800 m, above the 2.50 m ceiling",
    ),
    "on what is not a receptacle": (
        (
            at("stain", (0.5, 0.005, 0.4), 1.0, 2.0, properties=("static", "dirtyable")),
            at("book", (0.2, 0.05, 0.3), 1.0, 2.0, parent="stain", bottom=0.005),
        ),
        "objects[book]: rests on 'stain' (Stain), which is not a receptacle",
    ),
    "in what is not a receptacle": (
        (
            at("laptop", (0.4, 0.3, 0.3), 1.0, 2.0),
            at("pen", (0.1, 0.05, 0.1), 1.0, 2.0, parent="laptop", relation="in"),
        ),
        "objects[pen]: rests in 'laptop' (Laptop), which is not a receptacle",
    ),
    "in a receptacle for other things": (
        (
            at(
                "toaster",
                (0.4, 0.3, 0.3),
                1.0,
                2.0,
                accepts=("Bread",),
                properties=("receptacle", "object_specific_receptacle"),
            ),
            at("pen", (0.1, 0.05, 0.1), 1.0, 2.0, parent="toaster", relation="in"),
        ),
        "objects[pen]: 'toaster' takes only Bread, not Pen",
    ),
}


@pytest.mark.parametrize("name", sorted(ENTITY_BREAKS))
def test_entity_violations_are_found(name: str) -> None:
    objects, expected = ENTITY_BREAKS[name]
    found = only(scene(*objects), "entity")
    assert any(expected in text for text in found), found


def test_an_object_may_rise_above_an_open_receptacle() -> None:
    bowl = replace(TABLE, id="bowl", size=(0.3, 0.1, 0.3), position=(2.0, 0.05, 1.5))
    apple = replace(
        CUP, parent="bowl", relation="in", position=(2.0, 0.06, 1.5), size=(0.1, 0.12, 0.1)
    )
    assert check_scene(scene(bowl, apple)).passed


def test_low_furniture_may_stand_under_a_window() -> None:
    bench = at("bench", (1.2, 0.45, 0.4), 3.0, 2.8, rotation=180)
    assert check_scene(scene(bench, agent=AgentStart("living", (2.0, 1.0)))).passed


def test_a_door_swings_over_a_mark_on_the_floor() -> None:
    # The leaf clears the floor: a stain (or a rug) may lie in its sweep, a box may not.
    stain = at("stain", (0.5, 0.005, 0.4), 3.5, 1.45, properties=("static", "dirtyable"))
    assert check_scene(scene(stain)).passed
    assert only(scene(replace(stain, size=(0.5, 0.05, 0.4), position=(3.5, 0.025, 1.45))), "entity")


def test_the_agent_must_start_in_its_room() -> None:
    found = only(scene(TABLE, agent=AgentStart("living", (5.0, 1.0))), "entity")
    assert found == ["agent: starts at (5.0, 1.0), outside room 'living'"]


# --------------------------------------------------------------------------- reach

TOY = at("toy", (0.3, 0.3, 0.25), 1.0, 1.0, task=True)
# Two boxes and the walls close off the living room's north-east corner, 0.55 x 0.6 m.
PEN = (at("side", (0.25, 0.6, 0.6), 3.325, 2.7), at("front", (0.8, 0.6, 0.25), 3.6, 2.275))


def test_the_agent_reaches_every_task_object_from_where_it_starts() -> None:
    assert check_scene(scene(TOY, *PEN, agent=AgentStart("living", (2.5, 1.5)))).passed
    penned = only(scene(TOY, *PEN, agent=AgentStart("living", (3.72, 2.7))), "entity")
    assert penned == [
        "objects[toy]: is out of the agent's reach: no floor it can walk to from its start "
        "lies within 1.0 m of it"
    ]


def test_the_agent_walks_to_the_next_room_through_the_door() -> None:
    stove = at("stove", (0.6, 0.9, 0.6), 6.0, 1.5, room="kitchen", task=True)
    assert check_scene(scene(TOY, stove)).passed
    found = only(scene(TOY, stove, doors=()), "entity")
    assert found == [
        "objects[stove]: is out of the agent's reach: no floor it can walk to from its start "
        "lies within 1.0 m of it"
    ]


def test_what_a_task_object_rests_on_and_a_window_with_a_role_must_be_within_reach() -> None:
    # A 1 m deep bench along the north wall keeps the agent 1.2 m from the window above it.
    bench = at("bench", (4.0, 0.45, 1.0), 2.0, 2.5, properties=("receptacle",))
    cup = at("cup", (0.1, 0.1, 0.1), 2.0, 2.9, parent="bench", bottom=0.45, task=True)
    window = Window("window", "north", "living", 2.5, 1.0, 1.0, 0.9, role="window")
    assert check_scene(scene(bench, cup, agent=AgentStart("living", (2.0, 1.0)))).passed
    found = only(
        scene(bench, cup, windows=(window,), agent=AgentStart("living", (2.0, 1.0))), "entity"
    )
    assert found == [
        "windows[window]: is out of the agent's reach: no floor it can walk to from its start "
        "lies within 1.0 m of it"
    ]


def test_the_agent_needs_room_for_its_body_where_it_starts() -> None:
    found = only(scene(TABLE, agent=AgentStart("living", (3.9, 2.5))), "entity")
    assert found == [
        "agent: no room for its body (0.2 m around (3.9, 2.5)): a wall is 0.100 m away"
    ]
    found = only(scene(TABLE, agent=AgentStart("living", (2.0, 1.9))), "entity")
    assert found == ["agent: no room for its body (0.2 m around (2.0, 1.9)): table is 0.100 m away"]


# --------------------------------------------------------------------------- relations


def kept(*relations: SpatialRelation) -> Provenance:
    return Provenance(kept=relations)


HOLDING = [
    SpatialRelation("edge", "sofa"),
    SpatialRelation("edge", "cup"),
    SpatialRelation("center", "table"),
    SpatialRelation("center", "note"),
    SpatialRelation("mounted_on_wall", "painting"),
    SpatialRelation("on_top_of", "cup", "table"),
    SpatialRelation("near", "table", "sofa"),
    SpatialRelation("far", "tv", "sofa"),
    SpatialRelation("far", "tv", "stove"),  # different rooms are far apart
    SpatialRelation("in_front_of", "table", "sofa"),
    SpatialRelation("center_aligned", "table", "sofa"),
    SpatialRelation("face_to", "sofa", "tv"),
    SpatialRelation("face_to", "tv", "sofa"),
    SpatialRelation("above", "painting", "bench"),
    SpatialRelation("side_of", "plant", "sofa"),
    SpatialRelation("corner", "lamp"),
    SpatialRelation("middle", "table"),
    SpatialRelation("middle", "note"),
]
PLANT = at("plant", (0.4, 0.8, 0.4), 3.3, 0.4)
LAMP = at("lamp", (0.4, 1.6, 0.4), 3.8, 0.2)  # in the south-east corner, back to the south
BENCH = at("bench", (0.5, 0.45, 1.0), 0.3, 1.5)  # under the painting
STOVE = at("stove", (0.6, 0.9, 0.6), 6.0, 1.5, room="kitchen")
FURNISHED = (SOFA, TV, TABLE, CUP, NOTE, PAINTING, PLANT, LAMP, BENCH, STOVE)


def test_relations_that_hold_pass() -> None:
    result = check_scene(scene(*FURNISHED, provenance=kept(*HOLDING)))
    assert result.passed, result.violations
    assert result.relation.checks == len(HOLDING)


BROKEN: dict[str, tuple[SpatialRelation, str]] = {
    "edge": (SpatialRelation("edge", "table"), "no wall of 'living' is within 0.15 m behind it"),
    "edge of a support": (SpatialRelation("edge", "note"), "it is 0.250 m from the rim of 'table'"),
    "center": (
        SpatialRelation("center", "sofa"),
        "its centre (2.000, 0.450) is off the support's centre",
    ),
    "corner": (
        SpatialRelation("corner", "plant"),
        "it does not stand in a corner of 'living' with its back to one of its walls",
    ),
    "corner of a support": (
        SpatialRelation("corner", "cup"),
        "it is not within 0.15 m of two sides of 'table''s rim",
    ),
    "middle": (
        SpatialRelation("middle", "plant"),
        "it is within 0.5 m of a wall of 'living'",
    ),
    "middle of a support": (
        SpatialRelation("middle", "cup"),
        "its centre (2.400, 1.500) is off the support's centre",
    ),
    "mounted_on_wall": (
        SpatialRelation("mounted_on_wall", "table"),
        "it is not hung with its back on a wall",
    ),
    "in": (SpatialRelation("in", "cup", "table"), "'cup' rests on table"),
    "on_top_of": (SpatialRelation("on_top_of", "table", "sofa"), "'table' rests on the floor"),
    "near": (SpatialRelation("near", "tv", "sofa"), "they are 1.600 m apart (near means <= 1.0 m)"),
    "far": (SpatialRelation("far", "table", "sofa"), "they are 0.300 m apart (far means >= 1.5 m)"),
    "near across rooms": (
        SpatialRelation("near", "stove", "sofa"),
        "'stove' is in 'kitchen', 'sofa' in 'living'",
    ),
    "above": (
        SpatialRelation("above", "table", "sofa"),
        "its bottom 0.000 m is below 'sofa''s top 0.800 m",
    ),
    "in_front_of": (
        SpatialRelation("in_front_of", "sofa", "table"),
        "it is not within 1.0 m beyond 'table''s front",
    ),
    "side_of": (
        SpatialRelation("side_of", "table", "sofa"),
        "not within 1.0 m to the left or right of 'sofa'",
    ),
    "center_aligned": (
        SpatialRelation("center_aligned", "plant", "sofa"),
        "its centre is 1.300 m off 'sofa''s facing axis",
    ),
    "face_to": (SpatialRelation("face_to", "table", "sofa"), "'sofa' is not wholly in front of it"),
    "unknown object": (
        SpatialRelation("near", "ghost", "sofa"),
        "names an object that is not in the scene",
    ),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_relations_that_do_not_hold_are_found(name: str) -> None:
    relation, expected = BROKEN[name]
    found = only(scene(*FURNISHED, provenance=kept(relation)), "relation")
    assert len(found) == 1
    assert found[0].startswith(f"relations[{relation}]: ")
    assert expected in found[0], found


@pytest.mark.parametrize(("rotation", "holds"), [(0, True), (90, False), (180, False), (270, True)])
def test_in_a_corner_the_back_is_to_one_of_its_walls(rotation: int, holds: bool) -> None:
    # The lamp stands in the south-east corner: facing north or west, its back is to a wall.
    lamp = replace(LAMP, rotation=rotation)
    found = only(scene(lamp, provenance=kept(SpatialRelation("corner", "lamp"))), "relation")
    assert found == ([] if holds else [found[0]])
    assert holds or "does not stand in a corner" in found[0]


def test_dropped_relations_are_not_held_against_the_scene() -> None:
    far = SpatialRelation("far", "table", "sofa")
    relaxed = scene(relations=(far,), provenance=Provenance(dropped=(far,)))
    assert check_scene(relaxed).passed
    assert not check_scene(scene(relations=(far,))).passed  # asked, never recorded as dropped


# --------------------------------------------------------------------------- PhyPR


def test_phypr_is_the_share_of_scenes_passing_each_dimension() -> None:
    good = check_scene(scene())
    bad_entity = check_scene(scene(replace(TABLE, position=(2.0, 0.5, 1.5))))
    bad_both = check_scene(
        scene(
            replace(TABLE, position=(2.0, 0.5, 1.5)),
            provenance=kept(SpatialRelation("near", "table", "ghost")),
        )
    )
    rates = phypr([good, bad_entity, bad_both, good])
    assert (rates.scenes, rates.floor_plan, rates.entity, rates.relation, rates.overall) == (
        4,
        100.0,
        50.0,
        75.0,
        50.0,
    )
    assert rates.average == pytest.approx(75.0)
    assert str(rates) == (
        "PhyPR over 4 scenes: floor plan 100.0%, entity 50.0%, relation 75.0%, all three 50.0%"
    )


# --------------------------------------------------------------------------- independence


def test_the_checker_shares_no_code_with_the_layout_solver() -> None:
    # The checker exists to catch the solver's mistakes, so it must not reuse the solver's
    # geometry: its modules import only the standard library, the model, the errors and
    # each other.
    allowed = ("pytest_logicenv.errors", "pytest_logicenv.scenes.scene_model", physics.__name__)
    for path in sorted(Path(physics.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                ours = name.startswith("pytest_logicenv")
                assert not ours or name.startswith(allowed), f"{path.name} imports {name}"
