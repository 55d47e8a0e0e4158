"""The LogCov report: computed once as data, then printed or written in several formats.

As pytest-cov does, the report is data first (:mod:`~pytest_logicenv.report.report_model`,
:func:`~pytest_logicenv.report.report_model.build_report`) and formats second, one module each:
``term`` and ``term-missing`` (:mod:`~pytest_logicenv.report.terminal`), ``json:PATH`` and
``markdown:PATH`` (:mod:`~pytest_logicenv.report.files`, which also writes every file type),
``cobertura:PATH`` (:mod:`~pytest_logicenv.report.cobertura`) and ``lcov:PATH``
(:mod:`~pytest_logicenv.report.lcov`), both from the lines and branches of
:mod:`~pytest_logicenv.report.plan_lines`, and ``html:DIR`` (:mod:`~pytest_logicenv.report.html`,
with each task's runs from :mod:`~.runs`). A new format is a module here and a
branch in :func:`~pytest_logicenv.report.files.write_reports` (and its name in
``session/options.py``). The mutation score (``--logicenv-mutate``) is part of the report's
data and is written in every format by :mod:`~pytest_logicenv.report.mutation`. What the report
reads, one :class:`~pytest_logicenv.report.records.RunRecord` per test item, is
:mod:`~pytest_logicenv.report.records` (the session's fixture writes them).
:mod:`~pytest_logicenv.report.repeats` shows a failure every scene of a test shares (a policy
that cannot be built) once per run.
"""
