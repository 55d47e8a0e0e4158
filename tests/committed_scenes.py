"""The committed example cache's scenes, each with its situation (plan, trajectory, case):
what the witness test and benchmark go over."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from helpers import ROOT

from pytest_logicenv.cache import Entry
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory, trajectory_for
from pytest_logicenv.pipeline.cached import case_from_record, load_plan_of
from pytest_logicenv.pipeline.task_request import Case
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.scenes.scene_model import Scene

CACHE = ROOT / "cache"


@dataclass(frozen=True)
class CommittedScene:
    entry: Path
    plan: Plan
    case: Case
    trajectory: Trajectory
    scene: Scene

    @property
    def name(self) -> str:
        return f"{self.entry.name}/{self.case.trajectory_id}"


def committed_scenes(cache: Path = CACHE) -> Iterator[CommittedScene]:
    """Every scene of every entry of ``cache``, in entry and selection order."""
    for root in sorted(path.parent for path in cache.glob("*/trajectories.json")):
        entry = Entry(root)
        plan = load_plan_of(entry, "regenerate the example cache")
        records = json.loads(entry.trajectories_path.read_text(encoding="utf-8"))
        for record in records["trajectories"]:
            case = case_from_record(root, record)
            trajectory = trajectory_for(plan, case.conditions)
            yield CommittedScene(root, plan, case, trajectory, load_scene(case.scene_path))
