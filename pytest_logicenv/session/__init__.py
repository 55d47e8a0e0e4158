"""The pytest side: what ``plugin.py``'s hooks hand their jobs to, one job per module.

* :mod:`~pytest_logicenv.session.logicenv_session`: the session object, the one owner of what
  changes during a run; each hook of ``plugin.py`` calls one of its methods, which ask the
  modules below for values and keep them.
* :mod:`~pytest_logicenv.session.options`: the ``--logicenv-*`` and ini options declared
  (loaded at start-up, so it imports nothing heavy).
* :mod:`~pytest_logicenv.session.settings`: their values read once into frozen ``Settings``
  in ``config.stash`` (also loaded at start-up).
* :mod:`~pytest_logicenv.session.marker_registration`: the marker's help line and the check
  that a marked test takes the fixture (also loaded at start-up).
* :mod:`~pytest_logicenv.session.marker`: the ``logic_env`` marker's arguments, checked, and
  ``expect_fault`` values wherever they are given.
* :mod:`~pytest_logicenv.session.collection`: a marked test function becomes one item per
  environment of its entry, read from the cache.
* :mod:`~pytest_logicenv.session.making`: an entry that is not fresh made at collection when
  no LLM is needed, and the pipeline's parts wired to the run (imported only then).
* :mod:`~pytest_logicenv.session.fixture`: the ``logic_env`` fixture's value,
  :class:`~pytest_logicenv.session.fixture.LogicEnv`, which runs policies and keeps its item's
  record (:mod:`pytest_logicenv.report.records`, the typed contract between the fixture and
  the report, JSON on the wire for xdist).
* :mod:`~pytest_logicenv.session.reporter`: how faults read, the unasserted-fault warning,
  the LogCov report (:mod:`pytest_logicenv.report`) and the declared faults' verdicts.
* :mod:`~pytest_logicenv.session.generation`: what the run selects generated, concurrently,
  once per task.
* :mod:`~pytest_logicenv.session.generators`: the generators the run's configuration wires in
  (its LLM and request slots, the LLM planner and scene designer).
* :mod:`~pytest_logicenv.session.catalog_choice`: the run's catalog, with the user's type file
  and a plan's.
* :mod:`~pytest_logicenv.session.partial`: partial runs, the scenes the run selected out of
  each test's entry.
* :mod:`~pytest_logicenv.session.unused`: cache entries no test uses any more, found,
  removed (``--logicenv-clean``) and failing the run (``--logicenv-fail-on-unused``).
* :mod:`~pytest_logicenv.session.appended`: ``--logicenv-append``, the records a run keeps
  and the next one combines with its own.
* :mod:`~pytest_logicenv.session.explore`: ``--logicenv-explore``, a passing run again in
  other scenes of its situation, drawn and shrunk by Hypothesis.
* :mod:`~pytest_logicenv.session.mutate`: ``--logicenv-mutate``, a run's mutants in its scene.
* :mod:`~pytest_logicenv.session.disabled`: under ``-p no:logicenv``, marked tests skipped
  with the reason (a plugin of its own, ``logicenv-off``: pytest never imports a blocked one).
"""
