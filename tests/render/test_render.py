"""Top-down SVG pictures, a run's route drawn on them, and ``logicenv render``."""

from __future__ import annotations

import itertools
import json
import math
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import py_trees
import pytest
from helpers import ROOT
from hypothesis import given
from hypothesis import strategies as st
from sample_scenes import two_rooms

from pytest_logicenv.cache import CACHE_FORMAT, Cache, digests, dumps, file_hash
from pytest_logicenv.cli import main
from pytest_logicenv.render import (
    FAILED_STROKE,
    TASK_STROKE,
    WINDOW_COLOUR,
    render_svg,
)
from pytest_logicenv.render.floor import drawn
from pytest_logicenv.render.labels import LabelRequest, place_labels
from pytest_logicenv.render.measure import Box, intersects
from pytest_logicenv.render.route import route_of
from pytest_logicenv.scenes.export import to_house
from pytest_logicenv.scenes.scene_json import load_scene, scene_to_json
from pytest_logicenv.scenes.scene_model import DroppedObject, Scene
from pytest_logicenv.sim.leaves import Close, GoTo, Open, PickUp, PutIn
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.runner import run_policy

SVG = "{http://www.w3.org/2000/svg}"


def label_boxes(svg: str) -> dict[str, Box]:
    """Every placed label's box, by what it names, as the SVG draws it."""
    boxes = {}
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        if group.get("class") == "label-group":
            rect = group.find(f"{SVG}rect")
            assert rect is not None
            x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
            w, h = float(rect.get("width", 0)), float(rect.get("height", 0))
            boxes[group.get("data-for", "")] = (x, y, x + w, y + h)
    return boxes


def fetch_milk() -> py_trees.behaviour.Behaviour:
    """From the living room into the kitchen: open the fridge, take the milk, put it in the
    fridge again (the fridge is closed by then: a counterfactual)."""
    return py_trees.composites.Sequence(
        "fetch",
        memory=True,
        children=[
            GoTo("fridge"),
            Open("fridge"),
            PickUp("milk"),
            Close("fridge"),
            PutIn("milk", "fridge"),
        ],
    )


def test_picture_shows_rooms_walls_openings_and_every_object() -> None:
    scene = two_rooms()
    root = ET.fromstring(render_svg(scene))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for obj in scene.objects:
        assert (obj.role or obj.id) in texts
    assert "living_room (LivingRoom)" in texts
    titles = [t.text or "" for t in root.iter(f"{SVG}title")]
    assert "window_1 (open)" in titles
    assert "door_2 (closed)" in titles
    assert any(t.startswith("toy: Toy, kind=doll, on the floor") for t in titles)
    assert any(t.startswith("milk: Milk, filled, in fridge") for t in titles)
    lines = [line.get("stroke") for line in root.iter(f"{SVG}line")]
    assert lines.count("#343a40") == len(scene.walls)
    assert WINDOW_COLOUR in lines
    highlighted = [r for r in root.iter(f"{SVG}rect") if r.get("stroke") == TASK_STROKE]
    assert len(highlighted) == sum(o.task for o in scene.objects) + 1  # + the key's swatch
    assert root.find(f".//{SVG}polyline") is None  # no run, no route


def test_text_from_plans_is_escaped() -> None:
    scene = two_rooms()
    hostile = '</text><script>alert("x")</script>'
    objects = [replace(o, role=hostile) if o.id == "toy" else o for o in scene.objects]
    svg = render_svg(replace(scene, objects=tuple(objects), id="a & b"))
    assert "<script>" not in svg
    root = ET.fromstring(svg)  # still well-formed
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert hostile in texts
    assert any(t and t.startswith("a & b") for t in texts)


def committed_scenes() -> list[Path]:
    return sorted(
        p
        for p in (ROOT / "cache").glob("*/scenes/*.json")
        if ".house" not in p.name and ".witness" not in p.name
    )


@pytest.mark.parametrize("path", committed_scenes(), ids=lambda p: f"{p.parent.parent.name[:12]}")
def test_no_two_labels_overlap_in_the_committed_scenes(path: Path) -> None:
    boxes = label_boxes(render_svg(load_scene(path)))
    assert len(boxes) >= len([o for o in load_scene(path).objects if drawn(o)])  # not every part
    for (a, first), (b, second) in itertools.combinations(boxes.items(), 2):
        assert not intersects(first, second), f"{a} overlaps {b}"


@pytest.mark.parametrize("path", committed_scenes(), ids=lambda p: p.stem)
def test_the_committed_pictures_are_what_the_renderer_draws(path: Path) -> None:
    assert path.with_suffix(".svg").read_text() == render_svg(load_scene(path)), (
        "the example cache's pictures are stale: python -m pytest example_agents "
        "--logicenv-regenerate"
    )


boxes = st.builds(
    lambda x, y, w, h: (x, y, x + w, y + h),
    st.floats(0, 400),
    st.floats(0, 400),
    st.floats(1, 150),
    st.floats(1, 150),
)
requests = st.builds(
    LabelRequest,
    key=st.text("abc", min_size=1, max_size=3),
    text=st.text("abcdefghijklmnopqrstuvwxyz_0123456789 ", min_size=1, max_size=20),
    size=st.sampled_from([9.0, 11.0, 13.0]),
    anchor=boxes,
    bold=st.booleans(),
    inside=st.booleans(),
    top=st.booleans(),
)


@given(
    st.lists(requests, max_size=30),
    st.lists(boxes, max_size=5),
    st.lists(boxes, max_size=20),
)
def test_placed_labels_never_overlap_each_other_or_obstacles(
    wanted: list[LabelRequest], obstacles: list[Box], shapes: list[Box]
) -> None:
    placed = place_labels(wanted, obstacles=obstacles, shapes=shapes)
    assert [p.request for p in placed] == wanted
    for first, second in itertools.combinations(placed, 2):
        assert not intersects(first.box, second.box)
    for label in placed:
        assert not any(intersects(label.box, obstacle) for obstacle in obstacles)
        width, height = label.box[2] - label.box[0], label.box[3] - label.box[1]
        assert (width, height) == pytest.approx((label.request.width, label.request.height))


def test_a_label_that_fits_stays_inside_its_object_without_a_leader() -> None:
    [label] = place_labels([LabelRequest("sofa", "sofa", 10, (0, 0, 200, 80))])
    assert label.leader is None
    assert label.box[0] >= 0
    assert label.box[2] <= 200


def test_a_crowded_label_moves_away_with_a_leader_line() -> None:
    crowd = [
        LabelRequest(f"k{i}", "a_long_label_name", 10, (100, 100, 104, 104)) for i in range(12)
    ]
    placed = place_labels(crowd)
    assert any(label.leader is not None for label in placed)
    for label in placed:
        if label.leader is not None:
            assert label.leader[1] == pytest.approx((102, 102), abs=2.5)


def test_a_run_is_drawn_as_a_route_through_the_door_with_numbered_steps() -> None:
    scene = two_rooms()
    outcome = run_policy(fetch_milk, scene)
    assert outcome.kind == "counterfactual"
    route = route_of(scene, outcome.trace)
    assert route.points[0] == scene.agent.position  # type: ignore[union-attr]
    # Living room -> kitchen through the open door: the route crosses the wall at x = 4 m
    # where the door is (z from 1.5 m, 1.019 m wide), along the floor.
    crossings = [
        z0 + (z1 - z0) * (4.0 - x0) / (x1 - x0)
        for (x0, z0), (x1, z1) in zip(route.points, route.points[1:], strict=False)
        if (x0 - 4.0) * (x1 - 4.0) < 0
    ]
    assert len(crossings) == 1
    assert 1.5 < crossings[0] < 1.5 + 1.019
    assert [stop.text for stop in route.stops] == ["1-5"]
    assert route.stops[-1].failed
    assert route.touched == {"fridge", "milk"}
    assert route.failed == {"milk", "fridge"}
    svg = render_svg(scene, outcome)
    root = ET.fromstring(svg)
    path = root.find(f".//{SVG}polyline[@id='agent-path']")
    assert path is not None
    assert len(path.get("points", "").split()) == len(route.points)
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert outcome.headline() in texts
    assert "5. PutIn(milk, fridge) -> fridge is closed  FAILED" in texts
    assert "broken precondition [open]: fridge is open; but fridge is closed" in texts
    failed = [g for g in root.iter(f"{SVG}g") if g.get("class") == "object failed"]
    assert {g.get("data-id") for g in failed} == {"milk", "fridge"}
    markers = [g.get("data-for") for g in root.iter(f"{SVG}g") if g.get("class") == "label-group"]
    assert "step:0:failed" in markers
    assert "start" in markers


def test_objects_acted_on_are_outlined_and_the_failing_one_is_red() -> None:
    scene = two_rooms()

    def tidy() -> py_trees.behaviour.Behaviour:
        return py_trees.composites.Sequence(
            "tidy", memory=True, children=[GoTo("toy"), PickUp("toy"), PutIn("toy", "sofa")]
        )

    outcome = run_policy(tidy, scene)
    root = ET.fromstring(render_svg(scene, outcome))
    strokes = {
        g.get("data-id"): g.find(f"{SVG}rect").get("stroke")  # type: ignore[union-attr]
        for g in root.iter(f"{SVG}g")
        if (g.get("class") or "").startswith("object")
    }
    assert strokes["toy"] == FAILED_STROKE  # named by the failing PutIn
    assert strokes["sofa"] == FAILED_STROKE
    assert strokes["table"] == TASK_STROKE  # untouched


def _lab(colour: str) -> tuple[float, float, float]:
    """CIELAB of an sRGB colour ``#rrggbb`` (D65)."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    xyz = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def test_the_keys_outlines_are_told_apart_at_a_glance() -> None:
    """The key's box outlines (a task object, another, one acted on, the failing action's)
    differ pairwise by CIE76 Delta E over 40; the task object's orange was 19 from the
    failure's red."""
    scene = two_rooms()
    outcome = run_policy(fetch_milk, scene)
    root = ET.fromstring(render_svg(scene, outcome))
    key = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "key")
    boxes = [e.get("stroke") for e in key if e.tag == f"{SVG}rect"]
    labels = [e.text for e in key if e.tag == f"{SVG}text"][: len(boxes)]
    outlines = dict(zip(labels, boxes, strict=True))
    assert list(outlines) == ["task object", "other object", "acted on", "failing action's object"]
    for (one, a), (other, b) in itertools.combinations(outlines.items(), 2):
        assert a is not None
        assert b is not None
        assert math.dist(_lab(a), _lab(b)) > 40, (one, other)


def test_the_header_says_which_objects_the_layout_left_out() -> None:
    scene = two_rooms()
    left_out = tuple(
        DroppedObject(f"chair_{i}", "Chair", "kitchen", 1, "no room") for i in range(7)
    )
    provenance = replace(scene.provenance, dropped_objects=left_out)
    root = ET.fromstring(render_svg(replace(scene, provenance=provenance)))
    note = " ".join(t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "note")
    assert note == (
        "11 objects, 2 rooms, 7 objects left out (no room for them): chair_0, chair_1, "
        "chair_2, chair_3, chair_4 and 2 more"
    )


def test_a_run_that_did_nothing_says_so() -> None:
    scene = two_rooms()
    outcome = Outcome("lackbranch", status="FAILURE", scene=scene.id)
    root = ET.fromstring(render_svg(scene, outcome))
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "The policy did nothing." in texts
    assert root.find(f".//{SVG}polyline") is None  # only the start point
    assert root.find(f".//{SVG}circle[@class='start']") is not None


def test_a_long_trace_is_folded_and_shortened() -> None:
    scene = two_rooms()
    checks = py_trees.composites.Sequence(
        "look", memory=False, children=[GoTo("sofa"), py_trees.behaviours.Running("wait")]
    )
    outcome = run_policy(checks, scene, max_ticks=500)
    svg = render_svg(scene, outcome)
    texts = [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert "1-500. GoTo(sofa) ok" in texts  # 500 identical steps, one line


def scene_and_run(tmp_path: Path) -> tuple[Scene, Path, Path]:
    scene = two_rooms()
    scene_file = tmp_path / "scene.json"
    scene_file.write_text(json.dumps(scene_to_json(scene)))
    run_file = tmp_path / "run.json"
    run_file.write_text(json.dumps(run_policy(fetch_milk, scene).to_json()))
    return scene, scene_file, run_file


def test_cli_render(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "scene.json"
    source.write_text(json.dumps(scene_to_json(two_rooms())))
    assert main(["render", str(source)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {tmp_path / 'scene.svg'}"
    ET.parse(tmp_path / "scene.svg")
    assert main(["render", str(source), "-o", str(tmp_path / "pic.svg")]) == 0
    assert (tmp_path / "pic.svg").read_text() == (tmp_path / "scene.svg").read_text()
    assert main(["render", str(tmp_path / "nope.json")]) == 2
    assert "no such scene file" in capsys.readouterr().err


def test_cli_render_draws_a_run_from_its_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene, scene_file, run_file = scene_and_run(tmp_path)
    assert main(["render", str(scene_file), "--trace", str(run_file)]) == 0
    out = tmp_path / "scene.run1.svg"  # beside the scene's own picture, not over it
    assert capsys.readouterr().out.strip() == f"wrote {out}, 5 actions drawn (counterfactual)"
    outcome = Outcome.from_json(json.loads(run_file.read_text()))
    assert out.read_text() == render_svg(scene, outcome)


def test_cli_render_reads_the_runs_logicenv_run_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, scene_file, run_file = scene_and_run(tmp_path)
    one = json.loads(run_file.read_text())
    several = tmp_path / "runs.json"
    passed = {**one, "kind": "pass", "trace": [], "violation": None}
    several.write_text(json.dumps({"outcomes": [one, passed]}))
    assert main(["render", str(scene_file), "--trace", str(several)]) == 2
    err = capsys.readouterr().err
    assert "2 runs in scene 'toy=doll-wipe=yes'; choose one with --run N or --run TEXT" in err
    assert "(1: Counterfactual: PutIn(milk, fridge) broke a precondition" in err
    assert main(["render", str(scene_file), "--trace", str(several), "--run", "2"]) == 0
    assert f"wrote {tmp_path / 'scene.run2.svg'}, 0 actions drawn (pass)" in capsys.readouterr().out


def _cache_entry(root: Path) -> tuple[Path, dict[str, str]]:
    """A cache entry holding ``two_rooms`` as the plugin writes one; its scene file and the
    digests its manifest lists."""
    stem = "scenes/toy=doll"
    files = {
        f"{stem}.json": dumps(scene_to_json(two_rooms())),
        f"{stem}.svg": render_svg(two_rooms()).encode(),
        f"{stem}.house.json": dumps(to_house(two_rooms())),
    }
    listed = digests(files)
    files["manifest.json"] = dumps({"format": CACHE_FORMAT, "files": listed})
    entry = Cache(root).write_entry("tidy-0123abcd", files)
    return entry.root / f"{stem}.json", listed


def _digests_hold(scene_file: Path, listed: dict[str, str]) -> bool:
    entry = scene_file.parent.parent
    return all(file_hash((entry / name).read_bytes()) == sha for name, sha in listed.items())


def test_cli_render_and_export_never_overwrite_a_file_a_cache_entry_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    scene_file, listed = _cache_entry(tmp_path / "cache")
    run_file = tmp_path / "run.json"
    run_file.write_text(json.dumps(run_policy(fetch_milk, two_rooms()).to_json()))
    monkeypatch.chdir(tmp_path)
    assert main(["render", str(scene_file), "--trace", str(run_file)]) == 0
    # A run drawn on a committed scene goes to the work folder, not into the entry.
    drawn_run = Path(".logicenv", "render", "tidy-0123abcd--toy=doll.run1.svg")
    assert capsys.readouterr().out == f"wrote {drawn_run}, 5 actions drawn (counterfactual)\n"
    assert (tmp_path / drawn_run).is_file()
    assert not scene_file.with_name("toy=doll.run1.svg").exists()
    assert (tmp_path / ".logicenv" / ".gitignore").read_text().endswith("*\n")
    assert _digests_hold(scene_file, listed)  # the next run finds its entry fresh
    picture = scene_file.with_suffix(".svg")
    assert main(["render", str(scene_file), "--trace", str(run_file), "-o", str(picture)]) == 2
    assert capsys.readouterr().err == (
        f"logicenv render: error: {picture} is a file of the cache entry "
        f"{scene_file.parent.parent}, whose manifest holds its digest: overwriting it would "
        "make the entry stale (rebuilt on the next run, an error in CI); choose another path\n"
    )
    assert _digests_hold(scene_file, listed)
    # Writing what the entry already holds changes nothing, and says so.
    assert main(["render", str(scene_file)]) == 0
    assert capsys.readouterr().out == f"unchanged (a file of its cache entry): {picture}\n"
    assert main(["export", str(scene_file)]) == 0
    house = scene_file.with_name("toy=doll.house.json")
    assert capsys.readouterr().out.startswith(f"unchanged (a file of its cache entry): {house}: ")
    assert _digests_hold(scene_file, listed)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"outcomes": []}', "no run in scene 'toy=doll-wipe=yes' (runs found in: none)"),
        ('{"kind": "pass", "scene": "elsewhere", "trace": []}', "(runs found in: elsewhere)"),
        ("{", "not valid JSON"),
        ('{"kind": "pass", "trace": [{"tick": 1}]}', "not a policy run as Outcome.to_json"),
    ],
)
def test_cli_render_explains_an_unusable_run_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    _, scene_file, run_file = scene_and_run(tmp_path)
    run_file.write_text(content)
    assert main(["render", str(scene_file), "--trace", str(run_file)]) == 2
    err = capsys.readouterr().err
    assert f"logicenv render: error: {run_file}: " in err
    assert message in err


def test_the_agent_stands_at_a_window_it_closes_and_the_window_is_labelled() -> None:
    scene = two_rooms()

    def shut() -> py_trees.behaviour.Behaviour:
        return py_trees.composites.Sequence(
            "shut", memory=True, children=[GoTo("window"), Close("window")]
        )

    outcome = run_policy(shut, scene)
    route = route_of(scene, outcome.trace)
    [stop] = route.stops
    x, z = stop.point  # window_1 fills x 0.28..1.8 of the north wall (z = 4), built westwards
    assert 0.28 - 0.25 <= x <= 1.8 + 0.25 + 1e-9  # on the grid of free floor
    assert z == pytest.approx(4.0 - 0.25)  # inside the room, beside the wall
    assert "opening:window_1" in label_boxes(render_svg(scene, outcome))
