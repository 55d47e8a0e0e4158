"""Pictures and the HTML report as a browser shows them: failing runs drawn on committed scenes
and the report's failing runs, screenshotted and measured in headless Chromium (labels apart,
the route drawn, the failure readable)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from browser import measure, needs_chromium, overlapping, screenshot, svg_page
from clean_living_room import POLICIES as LIVING_ROOM
from fetch_lamp_or_pillow import POLICIES as FETCH
from helpers import ROOT

from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.render import render_svg
from pytest_logicenv.render.floor import drawn
from pytest_logicenv.scenes.physics.reach import obstacles_of
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.sim.runner import run_policy

pytestmark = [needs_chromium, pytest.mark.slow]
pytest_plugins = ["pytester"]

CASES = {
    # A counterfactual in one room: the run puts the toy in a box while holding nothing.
    "living-room-counterfactual": (
        "you_are_in_the_living_room-b808b58d",
        "toy_type=other_types-book=no-wipe=no",
        LIVING_ROOM["counterfactual"],
    ),
    # A pass across four rooms, through their doors.
    "four-rooms-correct": (
        "you_are_in_the_living_room-c315e001",
        "pan=yes",
        FETCH["correct"],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_run_drawn_on_its_scene_reads_well_in_a_browser(case: str, tmp_path: Path) -> None:
    entry, trajectory, policy = CASES[case]
    scene = load_scene(ROOT / "cache" / entry / "scenes" / f"{trajectory}.json")
    records = json.loads((ROOT / "cache" / entry / "trajectories.json").read_text())
    [record] = [r for r in records["trajectories"] if r["id"] == trajectory]
    outcome = run_policy(policy, scene, goal=parse_facts(record["goal"], "goal"))
    svg = render_svg(scene, outcome)
    page = svg_page(svg, tmp_path / f"{case}.html")
    width, height = (
        int(float(svg.split(f'{name}="', 1)[1].split('"')[0])) for name in ("width", "height")
    )
    png = screenshot(page, tmp_path / f"picture-{case}.png", width=width, height=height)
    assert png.stat().st_size > 10_000  # a drawing, not a blank page

    laid_out = measure(page, width=width, height=height)
    labels = laid_out["labels"]
    shown = [o for o in scene.objects if drawn(o)]  # a dresser's drawers are inside it
    assert len(labels) >= len(shown) + len(scene.rooms)
    assert overlapping(labels) == []
    for label in labels:  # drawn, and inside the picture
        assert label["w"] > 0
        assert label["h"] > 0
        svg_box = label["svg"]
        assert svg_box["x"] <= label["x"]
        assert label["x"] + label["w"] <= svg_box["x"] + svg_box["w"] + 0.5
        assert label["y"] + label["h"] <= svg_box["y"] + svg_box["h"] + 0.5
    [path] = laid_out["paths"]
    assert path["points"] >= 3
    assert path["length"] > 100
    verdict = laid_out["verdicts"][0]
    assert verdict["text"] == outcome.headline()
    assert verdict["y"] + verdict["h"] <= height  # on screen, at the top
    for number, step in enumerate(outcome.actions, start=1):
        assert f"{number}. {step}" in laid_out["text"]  # the numbered list under the plan


REPORTED_TEST = """
import json
from pathlib import Path

import pytest
from clean_living_room import POLICIES

AGENTS = Path({agents!r})
TASK = json.loads((AGENTS / "tasks" / "clean_living_room.json").read_text())["description"]


@pytest.mark.logic_env(TASK, plan=str(AGENTS / "plans" / "clean_living_room.json"))
@pytest.mark.parametrize("name", ["correct", "counterfactual", "lackbranch"])
def test_policies(logic_env, name):
    logic_env.run(POLICIES[name]).assert_ok()
"""


def test_the_html_report_shows_each_failing_run_drawn_on_its_scene(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    agents = ROOT / "example_agents"
    pytester.makeini(f"[pytest]\naddopts = -p no:cacheprovider\npythonpath = {agents}\n")
    pytester.makepyfile(test_living_room=REPORTED_TEST.format(agents=str(agents)))
    result = pytester.runpytest("--logicenv-report=html:html")
    result.assert_outcomes(passed=7, failed=2)
    page = pytester.path / "html" / "index.html"
    png = screenshot(page, tmp_path / "report-failing-runs.png", width=1300, height=2400)
    assert png.stat().st_size > 50_000

    laid_out = measure(page, width=1300, height=2400)
    assert "2 failing runs" in laid_out["text"]
    assert "reproduce: pytest" in laid_out["text"]
    failures = [v for v in laid_out["verdicts"] if "failure" in v["css"].split()]
    assert [v["text"] for v in failures] == [
        "Counterfactual: PutIn(toy, white_box) broke a precondition: the agent holds toy",
        "Lackbranch: GoTo(wet_wipes) acts on wet_wipes, which this situation does not contain",
    ]
    assert all(v["w"] > 0 and v["h"] > 0 for v in failures)
    assert failures[0]["y"] < 2400  # the first failure is on the first screen
    assert len(laid_out["paths"]) == 1  # the lackbranch run never moved: only its start
    assert laid_out["paths"][0]["length"] > 100
    assert len(laid_out["labels"]) > 2 * 19
    assert overlapping(laid_out["labels"]) == []


def test_the_route_a_browser_draws_crosses_no_furniture(tmp_path: Path) -> None:
    """Four rooms and their furniture: the polyline Chromium lays out keeps off every
    footprint of what stands on the floor (the route follows the walkable floor)."""
    entry, trajectory, policy = CASES["four-rooms-correct"]
    scene = load_scene(ROOT / "cache" / entry / "scenes" / f"{trajectory}.json")
    outcome = run_policy(policy, scene)
    svg = render_svg(scene, outcome)
    page = svg_page(svg, tmp_path / "route.html")
    width, height = (
        int(float(svg.split(f'{name}="', 1)[1].split('"')[0])) for name in ("width", "height")
    )
    screenshot(page, tmp_path / "route.png", width=width, height=height)
    laid_out = measure(page, width=width, height=height)
    [route] = laid_out["route"]
    assert len(route) > 3
    standing = {name for name, _ in obstacles_of(scene)}
    furniture = [box for box in laid_out["objects"] if box["id"] in standing]
    assert furniture
    crossed = {
        box["id"]
        for a, b in itertools.pairwise(route)
        for k in range(21)
        for box in furniture
        if _inside(a["x"] + (b["x"] - a["x"]) * k / 20, a["y"] + (b["y"] - a["y"]) * k / 20, box)
    }
    assert crossed == set()


def _inside(x: float, y: float, box: dict[str, float]) -> bool:
    """Strictly inside, a pixel in from the outline."""
    return box["x"] + 1 < x < box["x"] + box["w"] - 1 and box["y"] + 1 < y < box["y"] + box["h"] - 1
