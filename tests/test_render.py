"""Top-down SVG pictures and ``logicenv render``."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from sample_scenes import two_rooms

from pytest_logicenv.cli import main
from pytest_logicenv.scenes.render import TASK_STROKE, WINDOW_COLOUR, render_svg

SVG = "{http://www.w3.org/2000/svg}"


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
    assert len(highlighted) == sum(o.task for o in scene.objects) + 1  # + the legend swatch


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


def test_cli_render(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "scene.json"
    source.write_text(json.dumps(two_rooms().to_json()))
    assert main(["render", str(source)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {tmp_path / 'scene.svg'}"
    ET.parse(tmp_path / "scene.svg")
    assert main(["render", str(source), "-o", str(tmp_path / "pic.svg")]) == 0
    assert (tmp_path / "pic.svg").read_text() == (tmp_path / "scene.svg").read_text()
    assert main(["render", str(tmp_path / "nope.json")]) == 2
    assert "no such scene file" in capsys.readouterr().err
