"""The physics checker: Table 1 of the paper, recomputed from a :class:`Scene` alone.

It shares no code with the layout solver (:mod:`pytest_logicenv.scenes.layout`): it works on
the scene's real coordinates in floating point, with its own polygon and rectangle routines, so
a mistake in the solver's integer encoding shows up here instead of being repeated. What the two
share are the definitions (the relation thresholds in
:mod:`pytest_logicenv.scenes.scene_model`, the relations as the layout's docstring defines them).
``tests/scenes/physics/test_physics_check.py`` holds it to that: these modules import only the
model, the errors and each other.

Where each part lives (each module's docstring lists its checks):

- :mod:`.floor_plan`: the **floor plan** dimension (room polygons, doors, windows).
- :mod:`.entity`: the **entity** dimension (support, collisions, rooms, ceiling, the agent's
  start), with :mod:`.clearance` (door swing areas, window reveals) and :mod:`.reach` (the
  agent walks to what the task names).
- :mod:`.relation`: the **relation** dimension (each kept relation holds).
- :mod:`.check_results`: :class:`DimensionCheck`, :class:`SceneCheck`, :class:`PhyPR` and
  :func:`phypr`, the share of scenes passing each dimension (the paper's metric) and all three.
- :mod:`.scene_check`: :func:`check_scene`, one scene through the three dimensions.
- :mod:`.geometry` (points, polygons, rectangles) and :mod:`.objects` (footprints, heights,
  facing, walls) are the shared measuring tools.

>>> from dataclasses import replace
>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> room = Room("r", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> box = SceneObject("box", "Box", room="r", size=(1, 1, 1), position=(1, 0.5, 1))
>>> check_scene(Scene("ok", rooms=(room,), objects=(box,))).passed
True
>>> floating = replace(box, id="ball", position=(2.5, 2.0, 2.5), size=(0.4, 0.4, 0.4))
>>> report = check_scene(Scene("bad", rooms=(room,), objects=(box, floating)))
>>> for violation in report.violations:
...     print(violation)
[entity] objects[ball]: floats: its bottom is at 1.800 m, not on the floor (y = 0)
"""

from __future__ import annotations

from pytest_logicenv.scenes.physics.check_results import DimensionCheck, PhyPR, SceneCheck, phypr
from pytest_logicenv.scenes.physics.scene_check import check_scene

__all__ = ["DimensionCheck", "PhyPR", "SceneCheck", "check_scene", "phypr"]
