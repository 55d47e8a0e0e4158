"""The procedural scene designer: a trajectory's facts -> a :class:`~scene.SceneSpec` (no LLM).

It reads the plan's ``setting`` facts and the realization facts of the trajectory's
conditions, and decides everything the layout solver does not: which rooms there are and how
big, where the doors and windows go (which rooms, which side), which objects exist (the task
objects the facts require, placed as they say, plus a room template of what such a room
usually holds), what rests on or in what, and the spatial relations to satisfy, task-critical
ones above enrichment ones. Positions are the layout's job. Contradictions in the facts are
reported before any layout, with the facts that clash; a design request from outside
(:class:`Enrichment`: an LLM's) replaces the room templates, and one the design cannot hold
raises an :class:`~pytest_logicenv.errors.EnrichmentError` naming every bad item and why.
Deterministic for a seed; different seeds vary the room proportions, the materials, the
assets and the enrichment.

Where each part lives (in the order :func:`design_scene` runs them):

- ``entry.py``: the entry points (:func:`design_scene`, :func:`condition_types`,
  :func:`provisional_scene`) and the order of the steps, from the facts a trajectory's scene
  must make true (:func:`trajectory_facts`, in :mod:`~pytest_logicenv.scenes.realized`);
- ``draft.py``: the design in progress (``Draft``, ``DraftObject``), the state every step
  reads and extends, and the queries they share;
- ``task_objects.py``: facts to rooms and task objects, placed as the facts say;
- ``placement.py``: where in its room each object stands, as ProcTHOR annotates it;
- ``part_completion.py``: each part with its whole, each whole with its parts;
  ``slots.py``: which of
  its whole's slots each part takes (a burner's ``position``, a shelf's ``level``);
  ``controls.py``: each control in step with what it switches (a knob that is on, its burner);
  ``temperature.py``: food in a fridge starts cold, on a heat source that is on hot;
- ``doors_windows.py``: what the facts ask of windows and doors, and their specs;
- ``task_consistency.py``: supports that can hold, rooms along support chains, ``absent`` facts
  not contradicted, a place for each object the facts leave free;
- ``templates.py``: room types (:func:`room_type`) and templates of what each holds;
- ``furnish.py``: enrichment from the templates, and small things on the furniture;
- ``distractors.py``: more objects of the task's and the policy's types, for scene variations;
- ``design_request.py``: the design-request model (:class:`Enrichment` and its parts) and the checks
  of its form; ``request_objects.py`` and ``request_relations.py`` check it against the draft;
- ``assets.py``: one asset per object, supports first; then what rests on each support made
  to fit there (enrichment left out, or a roomier support);
- ``packing.py``: whether things fit on or in their support, side by side;
- ``fitting.py``: a room that would outgrow the floor plan loses the furniture the
  designer added, least important first, recorded as the layout records what it leaves out;
- ``house_plan.py``: room sizes, their grid and materials.

>>> from pytest_logicenv.scenes.design import design_scene
>>> from pytest_logicenv.logic.plan import Plan
>>> from pytest_logicenv.logic.facts import parse_facts
>>> plan = Plan("tidy", (), setting=parse_facts([{"exists": "Sofa", "as": "sofa"}], "setting"),
...             rooms=("LivingRoom",))
>>> [(o.id, o.parent, o.relation) for o in design_scene(plan, None, seed=1).objects if o.task]
[('sofa', None, 'on')]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_logicenv.deferred import deferred_names

if TYPE_CHECKING:
    from pytest_logicenv.scenes.design.assets import MAX_SURFACE_HEIGHT
    from pytest_logicenv.scenes.design.design_request import (
        ON_FLOOR,
        ON_WALL,
        Enrichment,
        EnrichmentObject,
        EnrichmentRelation,
        RoomMaterials,
    )
    from pytest_logicenv.scenes.design.draft import DistractorRequest
    from pytest_logicenv.scenes.design.entry import (
        DESIGNER,
        condition_types,
        design_scene,
        provisional_scene,
    )
    from pytest_logicenv.scenes.design.templates import ROOM_TYPES, room_type
    from pytest_logicenv.scenes.realized import trajectory_facts

#: Public name -> the module that defines it: a module that needs one (the catalog's type files need
#: the room templates) loads without the designer.
_DEFERRED = {
    "MAX_SURFACE_HEIGHT": "pytest_logicenv.scenes.design.assets",
    "Enrichment": "pytest_logicenv.scenes.design.design_request",
    "EnrichmentObject": "pytest_logicenv.scenes.design.design_request",
    "EnrichmentRelation": "pytest_logicenv.scenes.design.design_request",
    "ON_FLOOR": "pytest_logicenv.scenes.design.design_request",
    "ON_WALL": "pytest_logicenv.scenes.design.design_request",
    "RoomMaterials": "pytest_logicenv.scenes.design.design_request",
    "DistractorRequest": "pytest_logicenv.scenes.design.draft",
    "DESIGNER": "pytest_logicenv.scenes.design.entry",
    "condition_types": "pytest_logicenv.scenes.design.entry",
    "design_scene": "pytest_logicenv.scenes.design.entry",
    "provisional_scene": "pytest_logicenv.scenes.design.entry",
    "ROOM_TYPES": "pytest_logicenv.scenes.design.templates",
    "room_type": "pytest_logicenv.scenes.design.templates",
    "trajectory_facts": "pytest_logicenv.scenes.realized",
}

__all__ = [
    "DESIGNER",
    "MAX_SURFACE_HEIGHT",
    "ON_FLOOR",
    "ON_WALL",
    "ROOM_TYPES",
    "DistractorRequest",
    "Enrichment",
    "EnrichmentObject",
    "EnrichmentRelation",
    "RoomMaterials",
    "condition_types",
    "design_scene",
    "provisional_scene",
    "room_type",
    "trajectory_facts",
]

__getattr__ = deferred_names(__name__, _DEFERRED)
