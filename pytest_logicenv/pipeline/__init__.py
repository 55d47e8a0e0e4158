"""The pipeline behind one marked test: a task's environments, from the cache or generated.

:func:`~pytest_logicenv.pipeline.environments.prepare` (:mod:`~.environments`) is the entry
point; the plugin, the CLI and ``logicenv eval`` all call it.
:mod:`~pytest_logicenv.pipeline.task_request` holds the data at its arrows,
:mod:`~pytest_logicenv.pipeline.fresh_entry` gives a task's environments when its entry is
fresh, loading nothing that generates, :mod:`~pytest_logicenv.pipeline.cached` reads an entry
back and tells whether it is fresh (its content
checked behind the digests by :mod:`~pytest_logicenv.pipeline.derived`),
:mod:`~pytest_logicenv.pipeline.plan_choice`, :mod:`~pytest_logicenv.pipeline.scene_building`
and :mod:`~pytest_logicenv.pipeline.entry_files` build a new one (keeping the LLM designer's
scenes that still hold, :mod:`~pytest_logicenv.pipeline.kept_scenes`; the procedural scene
builder is ``scene_building.default_scene_builder``). What a pytest run configures (its LLM,
catalog, planner and designer) is wired in by :mod:`pytest_logicenv.session.generators`.
A plan the model never got right is kept in its entry for a person to fix
(:mod:`~.failed_plans`). Every scene is proved solvable before it is used, its witness written
beside it (:mod:`~.witnesses` proves, :mod:`~.witness_files` writes and reads the files);
:mod:`~.proven_scenes` builds and proves them, and sends what
blocks each goal of a scene without a witness (:mod:`~.witness_feedback`) back to the model
that derived the plan, as a refinement round.
:mod:`~.plan_review` tells whether a person has reviewed a plan a model made, and records
a review in the entry's manifest (``logicenv review``).
:mod:`~pytest_logicenv.pipeline.entry_situation` gives a case of an entry (or a scene file of
one) its situation, as the fixture judges it. :mod:`~pytest_logicenv.pipeline.entry_reads`
reads and checks each file of an entry once per process while it stays as it is, for every
item of a task and the report, and :mod:`~pytest_logicenv.pipeline.read_record` keeps what
it read on disk for the next run (``.logicenv/reads``), as Python keeps bytecode.
"""
