"""Z3 layout: turn a :class:`~pytest_logicenv.scenes.scene_model.SceneSpec` into a placed
:class:`~pytest_logicenv.scenes.scene_model.Scene`.

The designer decides *what* is in the house (rooms, doors, windows, objects with their supports,
spatial relations with priorities); this package decides *where*: every object's position and
rotation, every door's and window's wall and offset, and the agent's start.

How it works, the relations' definitions, and the measurements behind its constants:
``docs/explanation/layout.md``.

**Modules**, in the order a layout uses them:

- :mod:`~.driver`: :func:`solve_layout`, the attempts with other seeds, one layout's steps.
- :mod:`~.part_split`: parts (a dresser's drawers) and what rests in them leave the problem and
  come back at their parents.
- :mod:`~.validation`, :mod:`~.contradictions` and :mod:`~.fit_checks`: what is wrong with a
  design before solving, and what the rooms' areas cannot hold.
- :mod:`~.task_needs`: the relations the task needs, never relaxed: what the rooms' sizes rule
  out, and the errors for those that cannot hold.
- :mod:`~.leave_out`: which objects may be left out, and in what order.
- :mod:`~.room_grid`: rooms in solver cells, their sides, the walls derived from them.
- :mod:`~.items` and :mod:`~.poses`: what is placed, where (solver terms), and its boxes.
- :mod:`~.smt`: the grid units and the SMT-LIB terms everything is written in.
- :mod:`~.openings`: doors and windows in walls, and the clearances they keep free.
- :mod:`~.decomposition` and :mod:`~.groups`: the small problems in order (a crowded floor in
  anchor groups), and which relations each solves.
- :mod:`~.solving`, :mod:`~.constraints`, :mod:`~.relations`, :mod:`~.placements`,
  :mod:`~.tolerances`, :mod:`~.relaxation`: one problem (its variables, hard constraints,
  relation encodings with their thresholds, what is kept and dropped), on the :mod:`~.state`
  of the run within its :mod:`~.budget` of time.
- :mod:`~.reachability` and :mod:`~.clearing`: door paths, the agent's start that reaches the
  task objects, and what to leave out when furniture closes the way.

>>> from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec, SpatialRelation
>>> spec = SceneSpec(
...     "demo",
...     rooms=(Room("living", "LivingRoom", ((0, 0), (4, 0), (4, 3), (0, 3))),),
...     objects=(
...         SceneObject("sofa", "Sofa", room="living", size=(1.6, 0.8, 0.9),
...                     properties=("receptacle",)),
...         SceneObject("tv", "Television", room="living", size=(0.8, 0.5, 0.1)),
...         SceneObject("book", "Book", parent="sofa", size=(0.3, 0.05, 0.2)),
...     ),
...     relations=(SpatialRelation("edge", "sofa"), SpatialRelation("face_to", "sofa", "tv")),
... )
>>> scene = solve_layout(spec, seed=1)
>>> [r.kind for r in scene.provenance.kept]
['edge', 'face_to']
>>> round(scene.object("book").position[1], 3)  # on the sofa's 0.8 m top
0.825
>>> solve_layout(spec, seed=1) == scene
True
"""

from pytest_logicenv.scenes.layout.driver import ATTEMPTS, DEFAULT_TIMEOUT_MS, solve_layout

__all__ = ["ATTEMPTS", "DEFAULT_TIMEOUT_MS", "solve_layout"]
