"""Parts (a TV stand's drawer, a sink's faucet): designed, laid out, checked and exported with
their wholes, and reached by facts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_logicenv.errors import LayoutError, SceneError
from pytest_logicenv.logic.facts import evaluate, parse_facts
from pytest_logicenv.logic.plan import Plan, plan_from_json
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.design import design_scene
from pytest_logicenv.scenes.export import to_house
from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.part_geometry import part_boxes, place_contents, row_fits
from pytest_logicenv.scenes.physics import check_scene
from pytest_logicenv.scenes.physics.objects import inside_problem
from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec

pytest_plugins = ["pytester"]

CATALOG = default_catalog()


def _plan(setting: list[dict[str, Any]], *rooms: str) -> Plan:
    return Plan("parts", (), setting=parse_facts(setting, "setting"), rooms=rooms)


DRAWER_PLAN = [
    {"exists": "TVStand", "as": "tv_stand"},
    {"exists": "Drawer", "as": "drawer", "where": {"part_of": "tv_stand"}},
    {"exists": "RemoteControl", "as": "remote", "where": {"in": "drawer"}},
]


def test_a_drawer_of_the_tv_stand_is_designed_laid_out_and_checked_with_it() -> None:
    plan = _plan(DRAWER_PLAN, "LivingRoom")
    spec = design_scene(plan, None, seed=0)
    by_id = {obj.id: obj for obj in spec.objects}
    assert (by_id["drawer"].part_of, by_id["drawer"].relation) == ("tv_stand", "part")
    assert sorted(o.type for o in spec.objects if o.part_of == "tv_stand") == [
        "Cabinet",
        "Cabinet",
        "Drawer",  # the one the facts bound: no second drawer
    ]
    assert (by_id["remote"].parent, by_id["remote"].relation) == ("drawer", "in")
    scene = solve_layout(spec, seed=0)
    check = check_scene(scene)
    assert check.passed, [str(v) for v in check.violations]
    stand, drawer, remote = (scene.object(n) for n in ("tv_stand", "drawer", "remote"))
    assert drawer.rotation == stand.rotation
    assert drawer.room == remote.room == stand.room
    for fact in parse_facts(
        [{"exists": "Drawer", "where": {"part_of": "TVStand"}}, {"in": ["remote", "drawer"]}],
        "goal",
    ):
        assert evaluate(fact, scene)
    assert scene.near("remote", "tv_stand")


def test_a_part_the_facts_name_alone_gets_a_whole_in_its_room() -> None:
    spec = design_scene(_plan([{"exists": "Faucet", "as": "tap"}], "Bathroom"), None)
    tap = next(o for o in spec.objects if o.id == "tap")
    whole = next(o for o in spec.objects if o.id == tap.part_of)
    assert whole.type == "Sink"
    assert "tap is a part of sink_1: a Faucet always is" in spec.provenance.notes


def test_a_kitchen_sink_is_set_into_a_counter_with_its_basin_and_faucet() -> None:
    spec = design_scene(_plan([{"exists": "Sink", "as": "sink"}], "Kitchen"), None)
    by_id = {obj.id: obj for obj in spec.objects}
    assert by_id[by_id["sink"].part_of].type == "CounterTop"
    assert sorted(o.type for o in spec.objects if o.part_of == "sink") == ["Faucet", "SinkBasin"]
    scene = solve_layout(spec, seed=0)
    assert check_scene(scene).passed
    house = to_house(scene)
    counter = next(o for o in house["objects"] if o["id"] == by_id["sink"].part_of)
    sink = next(o for o in counter["children"] if o["id"] == "sink")  # an asset in the counter
    listed = {p["id"]: p for p in house["metadata"]["logicenv"]["parts"]}
    assert listed["sink_sink_basin_1"]["inAsset"] == sink["assetId"]


def test_a_shelving_unit_has_its_three_shelves_by_level() -> None:
    spec = design_scene(_plan([{"exists": "ShelvingUnit", "as": "unit"}], "Bedroom"), None)
    shelves = [o for o in spec.objects if o.part_of == "unit"]
    assert sorted(s.attrs["level"] for s in shelves) == ["bottom", "middle", "top"]
    scene = solve_layout(spec, seed=0)
    heights = {s.attrs["level"]: scene.object(s.id).position[1] for s in shelves}
    assert heights["top"] > heights["middle"] > heights["bottom"]


def test_a_pan_stands_on_a_stove_burner_and_a_pot_beside_it() -> None:
    """A burner is its quarter of the stove's top: what stands on it is a pan or a pot, wider
    than the ring, as on a real stove."""
    setting = [
        {"exists": "Stove", "as": "stove"},
        *(
            {
                "exists": "StoveBurner",
                "as": f"{p}_burner",
                "where": {"part_of": "stove"},
                "attrs": {"position": f"{p}_left"},
            }
            for p in ("front", "back")
        ),
        {"exists": "Pan", "as": "pan", "where": {"on": "front_burner"}},
        {"exists": "Pot", "as": "pot", "where": {"on": "back_burner"}},
    ]
    scene = solve_layout(design_scene(_plan(setting, "Kitchen"), None, seed=0), seed=0)
    check = check_scene(scene)
    assert check.passed, [str(v) for v in check.violations]
    assert scene.object("pan").parent == "front_burner"
    assert scene.object("pot").parent == "back_burner"


def _footprint(obj: SceneObject) -> tuple[float, float, float, float]:
    width, _, depth = obj.size
    if obj.rotation in (90, 270):
        width, depth = depth, width
    x, _, z = obj.position
    return x - width / 2, x + width / 2, z - depth / 2, z + depth / 2


def _overlap(a: SceneObject, b: SceneObject) -> bool:
    ax0, ax1, az0, az1 = _footprint(a)
    bx0, bx1, bz0, bz1 = _footprint(b)
    return min(ax1, bx1) - max(ax0, bx0) > 1e-6 and min(az1, bz1) - max(az0, bz0) > 1e-6


@pytest.mark.parametrize("seed", range(4))
def test_what_stands_on_a_counter_keeps_off_its_sink(seed: int) -> None:
    """The sink set into a counter takes the counter's right end: nothing stands on it or on
    its faucet (a toaster in the basin collided with the faucet)."""
    on_counter = ["Toaster", "CoffeeMachine", "Microwave", "Bowl", "Plate", "Mug"]
    setting = [
        {"exists": "CounterTop", "as": "counter"},
        {"exists": "Sink", "as": "sink", "where": {"part_of": "counter"}},
        *({"exists": t, "where": {"on": "counter"}} for t in on_counter),
    ]
    spec = design_scene(_plan(setting, "Kitchen"), None, seed=seed)
    scene = solve_layout(spec, seed=seed)
    check = check_scene(scene)
    assert check.passed, [str(v) for v in check.violations]
    sink = scene.object("sink")
    standing = [o for o in scene.objects if o.parent == "counter" and o.relation == "on"]
    assert {o.type for o in standing} >= set(on_counter) - {"Microwave"}
    assert [o.id for o in standing if _overlap(o, sink)] == []


PAN_TO_BURNER = {
    "format": "logicenv-plan/1",
    "task": "Put the pan from the cabinet on the stove's front-left burner.",
    "rooms": ["Kitchen"],
    "setting": [
        {"exists": "CounterTop", "as": "counter"},
        {"exists": "Cabinet", "as": "cabinet", "where": {"part_of": "counter"}},
        {"exists": "Stove", "as": "stove"},
        {
            "exists": "StoveBurner",
            "as": "burner",
            "where": {"part_of": "stove"},
            "attrs": {"position": "front_left"},
        },
        {"exists": "Pan", "as": "pan", "where": {"in": "cabinet"}},
    ],
    "subtasks": [
        {
            "name": "pan",
            "factors": [],
            "tree": {"action": "Put the pan on the burner.", "goal": [{"on": ["pan", "burner"]}]},
        }
    ],
}


def test_a_counter_whose_cabinet_cannot_hold_the_pan_takes_a_roomier_asset() -> None:
    """A pan the goals put on a burner is chosen last, to fit the burner; when the cabinet it
    starts in is too narrow for it, the counter takes an asset whose cabinets hold it, as a
    support does for what stands on it."""
    plan = plan_from_json(PAN_TO_BURNER)
    roomier = 0
    for seed in range(60):
        spec = design_scene(plan, None, seed=seed)  # never "do not fit side by side"
        by_id = {obj.id: obj for obj in spec.objects}
        assert by_id["pan"].parent == "cabinet"
        assert row_fits(by_id["cabinet"].size, [by_id["pan"].size], True)
        roomier += any("counter took a roomier CounterTop" in n for n in spec.provenance.notes)
    assert roomier > 0


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            [{"exists": "Sofa", "as": "sofa"}, {"exists": "Drawer", "where": {"part_of": "sofa"}}],
            r"a Sofa has no Drawer .*types with a Drawer: CounterTop, Desk, Dresser",
        ),
        (
            [{"exists": "Drawer", "as": "drawer", "where": {"on": "Floor"}}],
            r"a Drawer is always a part of a CounterTop or Desk .*say which with",
        ),
        (
            [
                {"exists": "Desk", "as": "desk"},
                {"exists": "Drawer", "as": "drawer", "where": {"part_of": "desk"}},
                {"exists": "Drawer", "as": "drawer", "where": {"in": "desk"}},
            ],
            r"drawer is a part of desk .* a part is where its whole is",
        ),
    ],
)
def test_bad_parts_are_clear_errors(setting: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(SceneError, match=message):
        design_scene(_plan(setting, "Bedroom"), None)


def test_a_part_without_its_whole_is_a_layout_error() -> None:
    room = Room("r", "Bedroom", ((0, 0), (3, 0), (3, 3), (0, 3)))
    spec = SceneSpec(
        "s",
        rooms=(room,),
        objects=(SceneObject("drawer", "Drawer", room="r", relation="part", part_of="dresser"),),
    )
    with pytest.raises(LayoutError, match=r"a part of 'dresser', which is not an object"):
        solve_layout(spec)


#: Parts that have fixed slots in their whole, named without it, and the slot attribute.
ORPHANS = [
    ("StoveBurner", "Stove", "position"),
    ("StoveKnob", "Stove", "position"),
    ("Shelf", "ShelvingUnit", "level"),
    ("Drawer", "CounterTop", None),
]


@pytest.mark.parametrize(("part", "whole", "slot"), ORPHANS)
def test_a_part_named_without_its_whole_takes_one_of_its_slots(
    part: str, whole: str, slot: str | None
) -> None:
    spec = design_scene(_plan([{"exists": part, "as": "p"}], "Kitchen"), None, seed=0)
    by_id = {obj.id: obj for obj in spec.objects}
    holder = by_id[by_id["p"].part_of]
    assert holder.type == whole
    siblings = [o for o in spec.objects if o.part_of == holder.id and o.type == part]
    count = next(p.count for p in CATALOG.type(whole).parts if p.type == part)
    assert len(siblings) == count  # the named part is one of them, not one more
    if slot is not None:
        assert len({o.attrs[slot] for o in siblings}) == count  # each in its own slot
    check = check_scene(solve_layout(spec, seed=0))
    assert check.passed, [str(v) for v in check.violations]


def test_parts_named_without_their_whole_build_as_tests(pytester: pytest.Pytester) -> None:
    tests = []
    for part, _, _ in ORPHANS:
        book = {"exists": "Book", "as": "book"}
        factor = {
            "id": "f",
            "question": "Is there a book?",
            "domain": ["yes", "no"],
            "realization": {"yes": [book], "no": [{"absent": "Book"}]},
        }
        plan = {
            "format": "logicenv-plan/1",
            "task": f"a {part}",
            "rooms": ["Kitchen"],
            "setting": [{"exists": part, "as": "p"}],
            "subtasks": [
                {
                    "name": "s",
                    "factors": [factor],
                    "tree": {
                        "query": "f",
                        "branches": {
                            "yes": {"action": "a", "goal": []},
                            "no": {"action": "b", "goal": []},
                        },
                    },
                }
            ],
        }
        pytester.makefile(".json", **{part.lower(): json.dumps(plan)})
        tests.append(
            f"@pytest.mark.logic_env('a {part}', plan='{part.lower()}.json')\n"
            f"def test_{part.lower()}(logic_env):\n    pass\n"
        )
    pytester.makepyfile("import pytest\n" + "\n".join(tests))
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2 * len(ORPHANS))
    assert "collides" not in result.stdout.str()


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            [{"absent": "Stove"}, {"exists": "StoveBurner", "as": "b"}],
            r"b \('a StoveBurner \(b\)'\): a StoveBurner is always a part of a Stove, and no "
            r"whole can hold it here: .*the plan's 'absent' facts forbid adding one; say which "
            r"object it is a part of with \{\"part_of\": ...\}",
        ),
        (
            [
                {"exists": "Sink", "as": "sink"},
                {"exists": "Faucet", "as": "tap", "where": {"part_of": "sink"}},
                {"exists": "Faucet", "as": "tap_2", "where": {"part_of": "sink"}},
            ],
            r"sink has room for one Faucet; tap_2 finds no slot left: tap \(.*\); "
            r"tap_2 \('a Faucet \(tap_2\) of sink'\)\. .*make it a part of another Sink",
        ),
        (
            [
                {"exists": "Stove", "as": "stove"},
                *(
                    {
                        "exists": "StoveBurner",
                        "as": f"b{i}",
                        "where": {"part_of": "stove"},
                        "attrs": {"position": "front_left"},
                    }
                    for i in range(2)
                ),
            ],
            r"stove has room for 4 StoveBurners \(position=front_left, position=front_right, "
            r"position=back_left, position=back_right\), one in each slot; b1 finds no slot left",
        ),
    ],
)
def test_a_part_no_whole_can_hold_is_a_clear_error(
    setting: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(SceneError, match=message):
        design_scene(_plan(setting, "Kitchen"), None)


def test_the_checker_finds_a_part_away_from_its_whole() -> None:
    scene = solve_layout(design_scene(_plan(DRAWER_PLAN, "LivingRoom"), None, seed=0), seed=0)
    moved = [
        o if o.id != "drawer" else SceneObject(**{**o.__dict__, "position": (0.3, 0.1, 0.3)})
        for o in scene.objects
    ]
    violations = [str(v) for v in check_scene(scene.with_objects(moved)).violations]
    assert any("objects[drawer]: is not attached to 'tv_stand'" in v for v in violations)


_SIZES = st.tuples(*(st.floats(0.3, 3.0) for _ in range(3)))
_PARTS = st.lists(st.sampled_from(["Drawer", "Cabinet"]), max_size=6).flatmap(
    lambda names: st.sampled_from([names, [*names, "Sink"]])  # a counter has one sink at most
)


@given(_SIZES, _PARTS)
def test_storage_parts_lie_inside_their_whole_without_overlapping(
    size: tuple[float, float, float], names: list[str]
) -> None:
    boxes = part_boxes("CounterTop", size, [(n, {}) for n in names])
    spans = []
    for (w, h, d), (x, y, z) in boxes:
        low = (x - w / 2, y - h / 2, z - d / 2)
        high = (x + w / 2, y + h / 2, z + d / 2)
        for axis in range(3):
            assert -size[axis] / 2 - 1e-9 <= low[axis] <= high[axis] <= size[axis] / 2 + 1e-9
        spans.append((low, high))
    for i, (a_low, a_high) in enumerate(spans):
        for b_low, b_high in spans[i + 1 :]:
            shared = [min(a_high[k], b_high[k]) - max(a_low[k], b_low[k]) for k in range(3)]
            assert min(shared) <= 1e-9


_ITEM = st.tuples(st.floats(0.01, 0.6), st.floats(0.01, 0.3), st.floats(0.01, 0.6))


@given(_SIZES, st.sampled_from([0, 90, 180, 270]), st.lists(_ITEM, min_size=1, max_size=4))
def test_what_fits_in_a_part_is_placed_inside_it_as_the_checker_sees_it(
    size: tuple[float, float, float], rotation: int, items: list[tuple[float, float, float]]
) -> None:
    # The fit test and the placement share the holder's frame; the checker works in the
    # room's: a knife that fits along a turned drawer must not stick out of its side.
    if not row_fits(size, items, inside=True):
        return
    drawer = SceneObject("drawer", "Drawer", size=size, position=(5, 1, 5), rotation=rotation)
    contents = [
        SceneObject(f"item{i}", "Knife", size=item, parent="drawer", relation="in")
        for i, item in enumerate(items)
    ]
    for placed in place_contents(drawer, contents):
        assert inside_problem(placed, drawer) is None, placed


@pytest.mark.parametrize("seed", range(6))
def test_a_counter_is_an_asset_whose_footprint_is_its_box(seed: int) -> None:
    # ProcTHOR's L- and C-shaped counters fill part of their bounding box, the only geometry
    # its database gives: laid out as that box, their drawers came out 2.7 m deep.
    plan = _plan(
        [
            {"exists": "CounterTop", "as": "counter"},
            {"exists": "Drawer", "where": {"part_of": "counter"}},
        ],
        "Kitchen",
    )
    scene = solve_layout(design_scene(plan, None, seed=seed), seed=seed)
    counter = scene.object("counter")
    assert CATALOG.asset(counter.asset_id) in CATALOG.type("CounterTop").laid_assets
    assert not counter.asset_id.startswith(("Countertop_L_", "Countertop_C_"))
    assert all(o.size[2] < 1.0 for o in scene.objects if o.type == "Drawer")  # its depth
