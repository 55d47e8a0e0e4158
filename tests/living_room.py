"""Hand-built Clean Living Room scenes, one per situation of the paper's task.

The plan is ``example_agents/plans/clean_living_room.json``; :func:`cases` gives every
situation (exhaustive selection) with its scene, laid out by hand (no designer, no Z3) and
optionally filled with unrelated objects up to a size. The tests use them to run the example
policies in every situation; ``benchmarks/bench_simulate.py`` times runs in them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from clutter import add_clutter

from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import Trajectory, select
from pytest_logicenv.scenes.scene_model import AgentStart, Provenance, Room, Scene, SceneObject

ROOT = Path(__file__).resolve().parents[1]
PLAN = ROOT / "example_agents" / "plans" / "clean_living_room.json"
ROOM = "living_room"


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


def living_room(
    toy: str | None, book: bool, wipes: bool, *, objects: int = 0, scene_id: str = "living_room"
) -> Scene:
    """A Clean Living Room scene: ``toy`` is ``"doll"``, ``"other"`` or ``None`` (no toy on
    the floor); unrelated objects are added until the scene has ``objects`` objects, where
    they fit (in store rooms beside the living room: ``tests/clutter.py``)."""
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
    scene = Scene(
        scene_id,
        rooms=(Room(ROOM, "LivingRoom", ((0, 0), (6, 0), (6, 5), (0, 5))),),
        objects=tuple(task),
        agent=AgentStart(ROOM, (0.5, 0.5)),
        provenance=Provenance(designer="hand-built (tests/living_room.py)"),
    )
    return add_clutter(scene, max(0, objects - len(task)))


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
