"""Our layout on the living rooms issue 14 compared Holodeck's DFS floor solver on.

``python benchmarks/run.py layout_compare [--seeds N]`` lays out the issue's synthetic living
rooms (facts only, the code is ours): rectangular rooms of 6 x 5 m and 4 x 4 m with the origin
at a corner; a 1 m door in the wall z = 0 from x = 1 to 2 m, with a 1 m deep clearance zone in
front of it (a ``DoorSpec`` pinned there); objects cycled in the order below, each 10 cm larger
than its real size on both axes (Holodeck's buffer); object ``i`` belongs to group ``i // 8``,
whose anchor is that group's sofa. Placement alternates edge and middle, starting with edge.
Relations to the group's sofa: the coffee table and the TV stand are near it, in front of it,
center aligned with it and face it; the armchair is near it and faces it; the bookshelf, side
table, plant and floor lamp are near it. All are enrichment, in the order of the objects.

Each layout is scored by :mod:`holodeck_rules` (Holodeck's satisfaction tests, overlaps, inside
the room, door zone clear) and printed beside Holodeck's figures as issue 14 measured them
(its own pipeline settings: 30 s limit, constraint bonus 1). Those are quoted, labelled so,
with their source and date: Holodeck is not installed here, so no ratio to it is printed.
Then the 6 x 5 m room of 40 is laid out within budgets too short for it (:data:`BUDGETS`: what
is placed, and how far past its budget the layout returned), and one room of 80 and of 160
objects (``synthetic_spec``, the designs ``benchmarks/run.py solve`` uses) is timed. Each figure
is the median over ``--seeds`` seeds (our times also min/median/max). The last line:

``layout_compare: 6x5/40 placed P/40 met M/110 in T s; 4x4/20 placed P/20 met M/58 in T s;
one room 80 objects T s, 160 objects T s``
"""

from __future__ import annotations

import argparse
import statistics
import time

from holodeck_rules import Box, Score, score
from synthetic import synthetic_spec

from pytest_logicenv.scenes.layout import solve_layout
from pytest_logicenv.scenes.physics import check_scene, phypr
from pytest_logicenv.scenes.scene_model import (
    ALIGN_TOLERANCE,
    NEAR_DISTANCE,
    DoorSpec,
    Room,
    Scene,
    SceneObject,
    SceneSpec,
    SpatialRelation,
    footprint_gap,
)

#: (id stem, type, real width, height, real depth) in metres, in the issue's order.
KINDS = (
    ("sofa", "Sofa", 2.0, 0.85, 0.9),
    ("coffee_table", "CoffeeTable", 1.0, 0.45, 0.6),
    ("tv_stand", "TVStand", 1.5, 0.6, 0.4),
    ("armchair", "ArmChair", 0.8, 0.9, 0.8),
    ("bookshelf", "ShelvingUnit", 1.0, 1.8, 0.35),
    ("side_table", "SideTable", 0.5, 0.6, 0.5),
    ("plant", "HousePlant", 0.4, 0.8, 0.4),
    ("floor_lamp", "FloorLamp", 0.4, 1.6, 0.4),
)
BUFFER = 0.1
#: Relations of each kind to its group's sofa.
TO_SOFA = {
    "coffee_table": ("near", "in_front_of", "center_aligned", "face_to"),
    "tv_stand": ("near", "in_front_of", "center_aligned", "face_to"),
    "armchair": ("near", "face_to"),
    "bookshelf": ("near",),
    "side_table": ("near",),
    "plant": ("near",),
    "floor_lamp": ("near",),
}
DOOR_ZONE: Box = (1.0, 0.0, 2.0, 1.0)
#: QUOTED, not measured here: Holodeck's figures (seconds, placed, constraints met) as issue 14
#: printed them (measured there with Holodeck's own pipeline settings, 2026-12-01; measured
#: again for issue 26 its times were 14-30 s). Holodeck is not installed here, so no ratio to
#: it is printed: the columns sit beside ours as a reference, labelled quoted.
HOLODECK_SOURCE = (
    "QUOTED from issue 14 (measured 2026-12-01 with Holodeck's own pipeline settings), not "
    "measured in this run: Holodeck is not on PyPI, so it is not installed here; measured "
    "again for issue 26 (2026-12-02) its times were 14-30 s, also quoted"
)
HOLODECK = {
    ("6x5", 10): ("13 s", "10", "21-23"),
    ("6x5", 20): ("19-20 s", "16", "29-30"),
    ("6x5", 40): ("20-25 s", "16", "29-30"),
    ("4x4", 10): ("6-7 s", "10", "-"),
    ("4x4", 20): ("7-8 s", "10", "21-23"),
}
CASES = (((6.0, 5.0), 10), ((6.0, 5.0), 20), ((6.0, 5.0), 40), ((4.0, 4.0), 10), ((4.0, 4.0), 20))
#: Budgets shorter than the 6 x 5 m room of 40 takes (about 0.4 s decomposed, over 20 s in
#: one model): (milliseconds, decomposed).
BUDGETS = ((300, True), (3000, False))


def living_room(width: float, depth: float, count: int) -> SceneSpec:
    """The issue's design of ``count`` objects: its placements (edge or middle) are relations."""
    room = Room("living", "LivingRoom", ((0, 0), (width, 0), (width, depth), (0, depth)))
    objects, placements, relations = [], [], []
    for i in range(count):
        stem, kind, w, h, d = KINDS[i % len(KINDS)]
        obj_id = f"{stem}_{i}"
        size = (w + BUFFER, h, d + BUFFER)
        objects.append(SceneObject(obj_id, kind, room="living", size=size))
        placements.append(SpatialRelation("edge" if i % 2 == 0 else "middle", obj_id))
        sofa = f"sofa_{i // len(KINDS) * len(KINDS)}"
        relations += [SpatialRelation(k, obj_id, sofa) for k in TO_SOFA.get(stem, ())]
    door = DoorSpec("door", ("living", "exterior"), width=1.0, side="south", offset=1.0)
    spec = SceneSpec(
        f"living-{width:g}x{depth:g}-{count}",
        rooms=(room,),
        objects=tuple(objects),
        doors=(door,),
        relations=(*placements, *relations),
    )
    return spec


def run_case(
    width: float, depth: float, count: int, seed: int, margins: Margins
) -> tuple[Score, float, int]:
    """One layout of the case: its score, seconds, and how many constraints were asked; the
    margins of its kept relations go to ``margins``."""
    spec = living_room(width, depth, count)
    began = time.perf_counter()
    scene = solve_layout(spec, seed=seed)
    seconds = time.perf_counter() - began
    margins.add(scene)
    return score(scene, DOOR_ZONE), seconds, len(spec.relations)


class Margins:
    """How much room to spare the kept relations have: how far off its axis each
    ``center_aligned`` is, how far apart each ``near`` pair."""

    def __init__(self) -> None:
        self.offsets: list[float] = []
        self.gaps: list[float] = []

    def add(self, scene: Scene) -> None:
        by_id = {obj.id: obj for obj in scene.objects}
        for relation in scene.provenance.kept:
            if relation.target is None:
                continue
            s, t = by_id[relation.subject], by_id[relation.target]
            if relation.kind == "center_aligned":
                axis = 2 if t.rotation in (90, 270) else 0  # across the way t faces
                self.offsets.append(abs(s.position[axis] - t.position[axis]))
            elif relation.kind == "near":
                self.gaps.append(footprint_gap(s.footprint, t.footprint))

    def __str__(self) -> str:
        at_limit = sum(o > ALIGN_TOLERANCE - 0.005 for o in self.offsets)
        far = sum(g > NEAR_DISTANCE - 0.05 for g in self.gaps)
        return (
            f"margins: {len(self.offsets)} center_aligned kept, {at_limit} within 5 mm of the "
            f"{ALIGN_TOLERANCE * 100:g} cm tolerance, median offset "
            f"{statistics.median(self.offsets or [0]) * 100:.1f} cm; {len(self.gaps)} near "
            f"kept, {far} within 5 cm of the {NEAR_DISTANCE:g} m limit, median gap "
            f"{statistics.median(self.gaps or [0]):.2f} m"
        )


def within_budget(timeout_ms: int, decompose: bool, seeds: int) -> str:
    """The 6 x 5 m room of 40 laid out within ``timeout_ms``: objects placed, relations met,
    seconds (medians) and the most it returned past the budget."""
    runs = []
    for seed in range(seeds):
        spec = living_room(6.0, 5.0, 40)
        began = time.perf_counter()
        scene = solve_layout(spec, seed=seed, timeout_ms=timeout_ms, decompose=decompose)
        runs.append((score(scene, DOOR_ZONE), time.perf_counter() - began))
    placed = round(statistics.median(r[0].placed for r in runs))
    met = round(statistics.median(r[0].met for r in runs))
    seconds = statistics.median(r[1] for r in runs)
    over = max(r[1] for r in runs) - timeout_ms / 1000
    model = "decomposed" if decompose else "one model"
    return (
        f"6x5/40 {model} within timeout_ms={timeout_ms}: placed {placed}/40 met {met}/110 in "
        f"{seconds:.2f} s, at most {over:+.2f} s past the budget"
    )


def scaling(count: int, seeds: int) -> tuple[list[float], float]:
    """Seconds to lay out one room of ``count`` synthetic objects, per seed, and the PhyPR."""
    times, checks = [], []
    for seed in range(seeds):
        spec = synthetic_spec(count, rooms=1, seed=seed)
        began = time.perf_counter()
        scene = solve_layout(spec, seed=seed)
        times.append(time.perf_counter() - began)
        checks.append(check_scene(scene))
    return times, phypr(checks).overall


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/run.py layout_compare")
    parser.add_argument("--seeds", type=int, default=3, help="layouts per case (default 3)")
    args = parser.parse_args(argv)
    solve_layout(living_room(6.0, 5.0, 8))  # load z3 once, outside the timings
    print(f"ours: measured in this run, seconds min/median/max over {args.seeds} seeds")
    print(f"Holodeck: {HOLODECK_SOURCE}")
    print(
        f"{'room':>4} {'objects':>7}  {'ours: s (min/med/max)':>22} {'placed':>7} {'met':>9} "
        f"{'bad':>3}   Holodeck (quoted): {'s':>8} {'placed':>6} {'met':>6}"
    )
    headline: dict[tuple[str, int], tuple[int, int, int, float]] = {}
    margins = Margins()
    for (width, depth), count in CASES:
        runs = [run_case(width, depth, count, seed, margins) for seed in range(args.seeds)]
        seconds = statistics.median(r[1] for r in runs)
        placed = round(statistics.median(r[0].placed for r in runs))
        met = round(statistics.median(r[0].met for r in runs))
        bad = max(r[0].violations for r in runs)
        name = f"{width:g}x{depth:g}"
        h_seconds, h_placed, h_met = HOLODECK[(name, count)]
        asked = runs[0][2]
        times = [r[1] for r in runs]
        noise = f"{min(times):.3f}/{seconds:.3f}/{max(times):.3f}"
        print(
            f"{name:>4} {count:>7}  {noise:>22} {placed:>4}/{count:<2} {met:>5}/{asked:<3} "
            f"{bad:>3}   {h_seconds:>27} {h_placed:>6} {h_met:>6}"
        )
        headline[(name, count)] = (placed, met, asked, seconds)
    print(margins)
    for timeout_ms, decompose in BUDGETS:
        print(within_budget(timeout_ms, decompose, args.seeds))
    scaled = {}
    for count in (80, 160):
        times, rate = scaling(count, args.seeds)
        scaled[count] = statistics.median(times)
        print(
            f"one room, {count} objects (synthetic_spec): median {scaled[count]:.3f} s, "
            f"max {max(times):.3f} s over {len(times)} seeds, PhyPR {rate:.0f}%"
        )
    big, small = headline[("6x5", 40)], headline[("4x4", 20)]
    print(
        f"layout_compare: 6x5/40 placed {big[0]}/40 met {big[1]}/{big[2]} in {big[3]:.2f} s; "
        f"4x4/20 placed {small[0]}/20 met {small[1]}/{small[2]} in {small[3]:.2f} s; "
        f"one room 80 objects {scaled[80]:.2f} s, 160 objects {scaled[160]:.2f} s "
        "(all measured in this run; Holodeck's columns quoted)"
    )
    return 0
