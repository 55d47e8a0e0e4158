"""Top-down pictures of a Scene, as SVG: rooms, walls, doors, windows and labelled object
footprints with the task objects highlighted, and, for a policy run, the agent's route with
its numbered steps, the objects it acted on and the action that failed.

The modules: :mod:`.picture` (the whole document), :mod:`.floor` (the floor plan),
:mod:`.marks` (the route, step markers and labels on top of it), :mod:`.route` (where the
agent went, from a run's trace), :mod:`.measure` (text sizes) and :mod:`.labels`. No two
labels overlap (:mod:`.labels` places them); every piece of text (ids, roles, types,
the trajectory's conditions, a run's steps) is XML-escaped, since it may come from a plan or
an LLM.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> scene = Scene("demo", rooms=(Room("r", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3))),),
...               objects=(SceneObject("toy", "Toy", role="<toy>", room="r", task=True,
...                                    position=(1.5, 0.15, 1.5)),))
>>> svg = render_svg(scene)
>>> svg.startswith("<svg") and "&lt;toy&gt;" in svg and "<toy>" not in svg
True
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pytest_logicenv.atomic import write_atomic
from pytest_logicenv.render.floor import (
    FAILED_STROKE,
    TASK_STROKE,
    TOUCHED_STROKE,
    WINDOW_COLOUR,
)
from pytest_logicenv.render.picture import render_svg
from pytest_logicenv.scenes.scene_model import Scene

if TYPE_CHECKING:
    from pytest_logicenv.sim.outcome import Outcome

__all__ = [
    "FAILED_STROKE",
    "TASK_STROKE",
    "TOUCHED_STROKE",
    "WINDOW_COLOUR",
    "render_svg",
    "write_svg",
]


def write_svg(scene: Scene, path: str | Path, outcome: Outcome | None = None) -> Path:
    """Write the picture (with ``outcome``'s route when given) atomically; returns the path."""
    path = Path(path)
    write_atomic(path, render_svg(scene, outcome))
    return path
