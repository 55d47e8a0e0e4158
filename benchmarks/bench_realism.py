"""Realism of the example scenes: objects placed as ProcTHOR annotates their types (where in
the room, and in a room of a type it occurs in), and parts attached to their wholes
(``pytest_logicenv/scenes/realism.py`` says how each is judged).

``python benchmarks/run.py realism [CACHE_DIR]`` reads every scene of the committed cache
(default ``cache/``), prints one line per task, then every object not placed as annotated
and every part not attached, how many of those placed as annotated are exceptions a task's
facts forced (counted only as their scenes record them), and last
``realism: P% objects placed as annotated, S% parts attached, over N scenes``.
"""

from __future__ import annotations

from pathlib import Path

from pytest_logicenv.pipeline.witness_files import WITNESS_SUFFIX
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.realism import Realism, measure
from pytest_logicenv.scenes.scene_json import load_scene

ROOT = Path(__file__).resolve().parents[1]
#: Files beside a scene that are not scenes: its export for AI2-THOR and its witness.
DERIVED = (".house.json", WITNESS_SUFFIX)


def main(argv: list[str]) -> int:
    cache = Path(argv[0]) if argv else ROOT / "cache"
    catalog = default_catalog()
    total, scenes = Realism(), 0
    for entry in sorted(p for p in cache.iterdir() if (p / "scenes").is_dir()):
        files = sorted(f for f in (entry / "scenes").glob("*.json") if not f.name.endswith(DERIVED))
        found = Realism()
        for path in files:
            found += measure(load_scene(path), catalog)
        scenes += len(files)
        total += found
        print(
            f"{entry.name[:40]:40} {len(files):2} scenes  placed {found.placed}/{found.judged}"
            f"  parts {found.attached}/{found.parts}"
        )
    for problem in total.problems:
        print(f"  {problem}")
    print(
        f"forced exceptions: {total.forced} of the {total.placed} objects placed as annotated "
        "are where a task's fact put them against the annotation, as their scenes record"
    )
    print(
        f"realism: {total.placed_percent:.1f}% objects placed as annotated, "
        f"{total.attached_percent:.1f}% parts attached, over {scenes} scenes"
    )
    return 0
