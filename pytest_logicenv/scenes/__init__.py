"""The scene stage: from a trajectory's facts to a solved, checked household environment.

* :mod:`~pytest_logicenv.scenes.scene_model`: the data at this stage's arrows, ``SceneSpec`` (a
  design: rooms, doors, windows, objects with roles, relations with priorities) and ``Scene``
  (the same, placed), as JSON that round-trips (:mod:`~pytest_logicenv.scenes.scene_json`).
* :mod:`~pytest_logicenv.scenes.catalog`: the object types (AI2-THOR's, plus the household
  types it lacks) with their properties and assets: the single source of truth for types.
* :mod:`~pytest_logicenv.scenes.design`: the procedural designer, trajectory -> SceneSpec.
* :mod:`~pytest_logicenv.scenes.layout`: the Z3 layout, SceneSpec -> Scene.
* :mod:`~pytest_logicenv.scenes.physics`: the independent checker of the paper's Table 1
  (PhyPR); it shares no code with the layout.
* :mod:`~pytest_logicenv.scenes.realization`: design, lay out and check one scene, and make
  sure it realizes its trajectory's facts (:mod:`~pytest_logicenv.scenes.realized`: what it
  must make true, and the check, which reading a cached scene needs without the rest).
* :mod:`~pytest_logicenv.scenes.part_geometry`: where a part sits in its whole, and what rests
  in a part.
* :mod:`~pytest_logicenv.scenes.feasibility`: what the scene stages would reject in a plan,
  found before any scene is made.
* :mod:`~pytest_logicenv.scenes.realism`: how realistic a scene's placement is.
* :mod:`~pytest_logicenv.scenes.variation`: other scenes of the same situation, for exploring.
* :mod:`~pytest_logicenv.scenes.export` (with :mod:`~.export_objects`,
  :mod:`~.export_assets` and :mod:`~.export_states`, what the house keeps of the scene's
  states and what it cannot): a Scene as an AI2-THOR (ProcTHOR) house. Its top-down SVG picture,
  with a run's route, is :mod:`pytest_logicenv.render`, above the simulator whose runs it draws.
"""
