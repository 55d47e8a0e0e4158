"""The behavior simulator's speed: whole policy runs on 30-object scenes.

``python benchmarks/run.py simulate [--repeat N] [--objects N]``

Runs the Clean Living Room policies (``example_agents/clean_living_room.py`` and its XML
twin) in the 12 situations of its plan (``example_agents/plans/clean_living_room.json``,
exhaustive selection), each scene filled with unrelated objects up to ``--objects``. A run is
everything ``run_policy`` does: build the tree, build the world, tick to the end, judge the
goal. The baseline, measured in the same process, replays each run's path through a fresh tree
with leaves that answer from a recording and simulate nothing: py_trees' own cost. The last
line is the median time of a run of the correct policy.

The scene builder here is also what the tests use for hand-built living rooms.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import py_trees

from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import Trajectory, select
from pytest_logicenv.scenes.model import AgentStart, Provenance, Room, Scene, SceneObject
from pytest_logicenv.sim.leaves import AgentBehaviour
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.runner import run_policy

ROOT = Path(__file__).resolve().parents[1]
PLAN = ROOT / "example_agents" / "plans" / "clean_living_room.json"
POLICIES = ROOT / "example_agents" / "clean_living_room.py"
ROOM = "living_room"
TARGET_MS = 2.0


# --------------------------------------------------------------------------- scenes


def _obj(
    id: str,
    type: str,
    size: tuple[float, float, float],
    at: tuple[float, float],
    properties: tuple[str, ...],
    **fields: Any,
) -> SceneObject:
    x, z = at
    position = (x, size[1] / 2, z)
    return SceneObject(
        id, type, room=ROOM, size=size, position=position, properties=properties, **fields
    )


# Things a living room holds besides the task's objects: (type, size, properties, parent).
CLUTTER: tuple[tuple[str, tuple[float, float, float], tuple[str, ...], str | None], ...] = (
    ("FloorLamp", (0.4, 1.6, 0.4), ("toggleable",), None),
    ("Pillow", (0.4, 0.15, 0.4), ("pickupable",), "sofa_1"),
    ("HousePlant", (0.4, 0.8, 0.4), (), None),
    ("RemoteControl", (0.05, 0.03, 0.15), ("pickupable",), "table_1"),
    ("ArmChair", (0.9, 0.9, 0.9), ("receptacle",), None),
    ("Vase", (0.15, 0.3, 0.15), ("pickupable", "breakable"), None),
    ("Television", (1.2, 0.7, 0.2), ("toggleable",), None),
    ("GarbageCan", (0.3, 0.4, 0.3), ("receptacle",), None),
    ("Newspaper", (0.3, 0.02, 0.4), ("pickupable",), "table_1"),
    ("SideTable", (0.5, 0.6, 0.5), ("receptacle",), None),
    ("Statue", (0.15, 0.3, 0.15), ("pickupable",), None),
    ("Laptop", (0.35, 0.03, 0.25), ("pickupable", "openable", "toggleable"), None),
)


def living_room(
    toy: str | None, book: bool, wipes: bool, *, objects: int = 0, scene_id: str = "living_room"
) -> Scene:
    """A Clean Living Room scene: ``toy`` is ``"doll"``, ``"other"`` or ``None`` (no toy on
    the floor); unrelated objects are added until the scene has ``objects`` objects."""
    task = [
        _obj("sofa_1", "Sofa", (2.0, 0.9, 0.9), (1.5, 4.4), ("receptacle",), role="sofa"),
        _obj("table_1", "CoffeeTable", (1.2, 0.45, 0.6), (1.5, 3.0), ("receptacle",),
             role="table"),
        _obj("mop_1", "Mop", (0.3, 1.2, 0.3), (2.4, 3.0), ("pickupable", "cleaning_tool"),
             role="mop", custom_type=True),
        _obj("red_box_1", "ToyBox", (0.6, 0.4, 0.4), (4.5, 0.5), ("receptacle",),
             role="red_box", attrs={"colour": "red"}, custom_type=True),
        _obj("white_box_1", "ToyBox", (0.6, 0.4, 0.4), (5.3, 0.5), ("receptacle",),
             role="white_box", attrs={"colour": "white"}, custom_type=True),
        _obj("stain_1", "Stain", (0.5, 0.01, 0.5), (3.0, 2.0), ("dirtyable",), role="stain",
             states={"dirty": True}, custom_type=True),
    ]  # fmt: skip
    if toy is not None:
        task.append(
            _obj("toy_1", "Toy", (0.25, 0.3, 0.15), (2.0, 1.0), ("pickupable",), role="toy",
                 attrs={"kind": toy}, custom_type=True)
        )  # fmt: skip
    if book:
        task.append(
            _obj("book_1", "Book", (0.2, 0.05, 0.3), (4.0, 2.5), ("pickupable", "openable"),
                 role="book")
        )  # fmt: skip
    if wipes:
        task.append(
            _obj("wet_wipes_1", "WetWipes", (0.2, 0.05, 0.1), (1.2, 3.0),
                 ("pickupable", "cleaning_tool"), role="wet_wipes", parent="table_1",
                 relation="on", custom_type=True)
        )  # fmt: skip
    for index in range(max(0, objects - len(task))):
        kind, size, properties, parent = CLUTTER[index % len(CLUTTER)]
        at = (0.3 + 0.5 * (index % 11), 0.3 + 0.4 * (index // 11))
        task.append(_obj(f"{kind.lower()}_{index}", kind, size, at, properties, parent=parent))
    return Scene(
        scene_id,
        rooms=(Room(ROOM, "LivingRoom", ((0, 0), (6, 0), (6, 5), (0, 5))),),
        objects=tuple(task),
        agent=AgentStart(ROOM, (0.5, 0.5)),
        provenance=Provenance(designer="hand-built (benchmarks/bench_simulate.py)"),
    )


def scene_for(trajectory: Trajectory, *, objects: int = 0) -> Scene:
    """The hand-built scene of one trajectory of the Clean Living Room plan."""
    answers = dict(trajectory.conditions)
    toy = None
    if answers["toy"] == "yes":
        toy = "doll" if answers["toy_type"] == "doll" else "other"
    return living_room(
        toy,
        answers["book"] == "yes",
        answers["wipe"] == "yes",
        objects=objects,
        scene_id=trajectory.id,
    )


def situation(plan: Plan, trajectory: Trajectory) -> tuple[tuple[str, str], ...]:
    """The trajectory's conditions in words: (question, answer) pairs."""
    return tuple(
        (plan.factor(factor).question, plan.factor(factor).answer(value))
        for factor, value in trajectory.conditions
    )


def cases(*, objects: int = 0) -> Iterator[tuple[Plan, Trajectory, Scene]]:
    """Every situation of the plan (exhaustive selection) with its scene."""
    plan = load_plan(PLAN)
    for trajectory in select(plan, "exhaustive").trajectories:
        yield plan, trajectory, scene_for(trajectory, objects=objects)


def load_policies() -> ModuleType:
    """``example_agents/clean_living_room.py`` (not a package) as a module."""
    spec = importlib.util.spec_from_file_location("clean_living_room", POLICIES)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- the baseline


class _Replay:
    """A stand-in agent that simulates nothing: actions do nothing, conditions answer from a
    recorded trace. Ticking a fresh tree with it costs what py_trees alone costs."""

    def __init__(self, outcome: Outcome) -> None:
        self.answers = iter(step.ok for step in outcome.trace if step.kind == "condition")

    def act(self, action: str, **ports: str) -> None:
        return None

    def check(self, fact: Any, *, name: str = "", args: Any = None) -> bool:
        return next(self.answers)


def replay(factory: Callable[[], py_trees.behaviour.Behaviour], outcome: Outcome) -> None:
    root = factory()
    agent = _Replay(outcome)
    for node in root.iterate():
        if isinstance(node, AgentBehaviour):
            node.bind(agent)  # type: ignore[arg-type]
    while root.status not in (py_trees.common.Status.SUCCESS, py_trees.common.Status.FAILURE):
        root.tick_once()


# --------------------------------------------------------------------------- measuring


def measure(
    policy: Any, runs: list[tuple[Plan, Trajectory, Scene]], repeat: int
) -> tuple[list[float], int, dict[str, int], list[Outcome]]:
    """Per-run times (ms), the number of actions done, outcome counts and the outcomes."""
    times: list[float] = []
    actions = 0
    kinds: dict[str, int] = {}
    outcomes: list[Outcome] = []
    for _ in range(repeat):
        for plan, trajectory, scene in runs:
            started = time.perf_counter()
            outcome = run_policy(
                policy, scene, goal=trajectory.goal, situation=situation(plan, trajectory)
            )
            times.append((time.perf_counter() - started) * 1000)
            actions += len(outcome.actions)
            kinds[outcome.kind] = kinds.get(outcome.kind, 0) + 1
            outcomes.append(outcome)
    return times, actions, kinds, outcomes


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py simulate")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--objects", type=int, default=30)
    args = parser.parse_args(argv)

    runs = list(cases(objects=args.objects))
    sizes = sorted({len(scene.objects) for _, _, scene in runs})
    module = load_policies()
    policies: Mapping[str, Any] = {
        **{f"{kind} (py_trees)": factory for kind, factory in module.POLICIES.items()},
        "correct (BT.CPP XML)": module.xml_policy("correct"),
    }
    print(
        f"{len(runs)} situations of clean_living_room, scenes of {sizes[0]}-{sizes[-1]} "
        f"objects, {args.repeat} repeats"
    )
    print(f"{'policy':<28}{'median ms/run':>14}{'p90 ms/run':>12}{'actions/s':>12}  outcomes")
    medians: dict[str, float] = {}
    correct_outcomes: list[Outcome] = []
    for name, policy in policies.items():
        times, actions, kinds, outcomes = measure(policy, runs, args.repeat)
        medians[name] = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        per_second = actions / (sum(times) / 1000)
        shown = ", ".join(f"{kind} {count // args.repeat}" for kind, count in sorted(kinds.items()))
        print(f"{name:<28}{medians[name]:>14.3f}{p90:>12.3f}{per_second:>12,.0f}  {shown}")
        if name == "correct (py_trees)":
            correct_outcomes = outcomes[: len(runs)]

    baseline: list[float] = []
    for _ in range(args.repeat):
        for outcome in correct_outcomes:
            started = time.perf_counter()
            replay(module.correct_policy, outcome)
            baseline.append((time.perf_counter() - started) * 1000)
    base = statistics.median(baseline)
    correct = medians["correct (py_trees)"]
    print(
        f"baseline: py_trees alone (same trees and paths, nothing simulated) {base:.3f} ms; "
        f"a simulated run costs {correct / base:.2f}x that"
    )
    verdict = "meets" if correct <= TARGET_MS else "MISSES"
    print(f"target: a whole run in at most {TARGET_MS:g} ms median ({verdict} it)")
    print(f"simulate: {correct:.3f} ms per policy run")
    return 0
