"""The default generators the plugin wires in: the procedural scene builder and the LLM planner.

Kept apart from ``plugin.py`` so that pytest's start-up imports none of the heavy stages.
"""

from __future__ import annotations

from typing import Any

import pytest

from .environments import PlanSource, SceneBuilder
from .plan import Plan
from .scene import Scene
from .trajectories import Trajectory


def default_scene_builder(catalog: Any = None) -> SceneBuilder:
    """Procedural designer -> Z3 layout -> realization check, as one ``SceneBuilder``."""
    from .realization import generate_scene

    def build(plan: Plan, trajectory: Trajectory, seed: int) -> Scene:
        return generate_scene(plan, trajectory, seed=seed, catalog=catalog)

    return build


def planner_for(config: pytest.Config) -> PlanSource | None:
    """The plan source for this run: none until an LLM is available (see llm.py)."""
    return None
