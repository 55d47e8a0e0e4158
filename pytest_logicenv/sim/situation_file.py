"""A scene file that carries its situation, so a run read back from it is judged as before.

Exploration saves the plainest failing scene it found; ``logicenv run --scene`` reads it. A
bare scene has no goal, and a run judged without one passes whatever the policy leaves undone,
so the saved file is the scene's JSON with one more key, ``situation``: the plan (inline, so
the file stands alone), the trajectory's conditions and tick budget, and where it came from.
The goal, the answers and the branches are derived again from the plan by
:func:`~pytest_logicenv.sim.judge.situation_of`, as pytest derived them. Scene readers ignore
the key, so ``logicenv render`` and ``load_scene`` read the file as any scene.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_logicenv.bounded import read_json_file
from pytest_logicenv.errors import LogicEnvError, SceneError
from pytest_logicenv.logic.plan import plan_from_json, plan_to_json
from pytest_logicenv.logic.trajectories import trajectory_for
from pytest_logicenv.scenes.scene_json import scene_from_json, scene_to_json
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.judge import Situation, plan_names, situation_of
from pytest_logicenv.sim.runner import DEFAULT_MAX_TICKS

#: The version of the ``situation`` key's form.
SITUATION_FORMAT = "logicenv-situation/1"
#: The key of a scene document that holds its situation.
SITUATION_KEY = "situation"


@dataclass(frozen=True)
class SceneFile:
    """A scene file read: the scene, and its situation when the file carries one."""

    scene: Scene
    situation: Situation | None = None


def situation_document(situation: Situation, source: str) -> dict[str, Any]:
    """``situation``'s scene as JSON with the situation in it; ``source`` says where it came
    from (the test item and policy). Only a situation of a plan can be saved."""
    if situation.plan is None or situation.trajectory is None:
        raise ValueError(f"situation {situation.id!r} has no plan to save")
    return {
        **scene_to_json(situation.scene),
        SITUATION_KEY: {
            "format": SITUATION_FORMAT,
            "trajectory": situation.trajectory.id,
            "conditions": [list(pair) for pair in situation.trajectory.conditions],
            "max_ticks": situation.max_ticks,
            "source": source,
            "plan": plan_to_json(situation.plan),
        },
    }


def read_scene_file(path: str | Path) -> SceneFile:
    """A scene file, and its situation if it carries one; a :class:`SceneError` names the
    file and what is wrong with it."""
    path = Path(path)
    try:
        data = read_json_file(path, SceneError)
    except FileNotFoundError:
        raise SceneError(f"{path}: no such scene file") from None
    except OSError as error:
        raise SceneError(f"{path}: cannot be read ({error.strerror or error})") from None
    scene = scene_from_json(data, source=str(path))
    saved = data.get(SITUATION_KEY) if isinstance(data, Mapping) else None
    if saved is None:
        return SceneFile(scene)
    return SceneFile(scene, _situation(saved, scene, f"{path}: {SITUATION_KEY!r}"))


def _situation(saved: Any, scene: Scene, where: str) -> Situation:
    """The situation a scene file saved, judged as it was (the plan's known names)."""
    if not isinstance(saved, Mapping) or saved.get("format") != SITUATION_FORMAT:
        raise SceneError(f"{where}: not a {SITUATION_FORMAT} object; save the scene again")
    try:
        plan = plan_from_json(saved["plan"], f"{where}.plan")
        conditions = tuple((str(f), str(v)) for f, v in saved["conditions"])
        ticks = _ticks(saved.get("max_ticks", DEFAULT_MAX_TICKS))
        trajectory = trajectory_for(plan, conditions)
    except (KeyError, TypeError, ValueError) as error:
        raise SceneError(f"{where}: malformed ({type(error).__name__}: {error})") from None
    except LogicEnvError as error:
        raise SceneError(f"{where}: {error}") from None
    return situation_of(plan, trajectory, scene, known=plan_names(plan), max_ticks=ticks)


def _ticks(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_ticks must be a positive integer, got {value!r}")
    return value
