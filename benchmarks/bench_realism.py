"""Realism of the example scenes: objects placed as ProcTHOR annotates their types (where in
the room, and in a room of a type it occurs in), and parts attached to their wholes
(``pytest_logicenv/scenes/realism.py`` says how each is judged).

``python benchmarks/run.py realism [CACHE_DIR]`` reads every scene the trajectories of the
committed cache name (default ``cache/``), prints one line per task, then every object not
placed as annotated and every part not attached, how many of those placed as annotated are
exceptions a task's facts forced (counted only as their scenes record them), and last
``realism: P% objects placed as annotated, S% parts attached, over N scenes``.
"""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

from committed_scenes import CACHE, committed_scenes

from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.realism import Realism, measure


def main(argv: list[str]) -> int:
    cache = Path(argv[0]) if argv else CACHE
    catalog = default_catalog()
    total, scenes = Realism(), 0
    for entry, items in groupby(committed_scenes(cache), key=lambda item: item.entry):
        found, count = Realism(), 0
        for item in items:
            found += measure(item.scene, catalog)
            count += 1
        scenes += count
        total += found
        print(
            f"{entry.name[:40]:40} {count:2} scenes  placed {found.placed}/{found.judged}"
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
