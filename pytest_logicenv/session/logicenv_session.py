"""The session object: the one owner of what changes during a run, as syrupy's
``SnapshotSession`` owns a run's snapshots.

:class:`LogicEnvSession` holds the run's :class:`~pytest_logicenv.session.settings.Settings`
(frozen) and its changing state: what collection prepared, which entry each marked test uses,
the items' records (with those of the last run, :mod:`~pytest_logicenv.session.appended`), the
partial run's selection, the unused entries, the report and what fails
the run. ``plugin.py``'s hooks hand each job to one of its methods, which ask the stage modules
(collection, generation, partial, unused, reporter) for values and keep them; those modules
change nothing of it. It is made when a run first has work for it (:func:`session_of`), so a
project without marked tests never loads it.

The stage modules are imported by full name: ``from pytest_logicenv.session import reporter``
would take the package's attribute, which outlives the module under pytester's in-process runs
(the package loads at start-up; what a run imports later is dropped at its end).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import pytest_logicenv.session.appended as appended
import pytest_logicenv.session.collection as collection
import pytest_logicenv.session.partial as partial
import pytest_logicenv.session.reporter as reporter
import pytest_logicenv.session.unused as unused
from pytest_logicenv.cache import Cache
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.pipeline import entry_reads
from pytest_logicenv.pipeline.plan_review import unreviewed, unreviewed_failure
from pytest_logicenv.pipeline.read_record import ReadRecord
from pytest_logicenv.pipeline.task_request import Environments, Mode, TaskRequest
from pytest_logicenv.report.records import RunRecord
from pytest_logicenv.report.repeats import Repeats
from pytest_logicenv.report.report_model import Report
from pytest_logicenv.session.collection import CaseParam, ErrorCase, Marked, PendingTask
from pytest_logicenv.session.marker import MarkerArgs
from pytest_logicenv.session.partial import Selected
from pytest_logicenv.session.settings import SETTINGS, Settings
from pytest_logicenv.session.unused import Unused, Usage, whole_project


class LogicEnvSession:
    """A run of pytest-logicenv: its settings, and the state its hooks build up."""

    def __init__(self, config: pytest.Config, settings: Settings) -> None:
        self.config = config
        self.settings = settings
        #: marked test function -> (marker args, environments), for those that are ready
        self._prepared: dict[str, tuple[MarkerArgs, Environments]] = {}
        #: marked test function -> what to generate for it, if the run selects it
        self._pending: dict[str, PendingTask] = {}
        #: marked test function -> the key of the entry it uses (also when it is broken)
        self._used_keys: dict[str, str] = {}
        #: tests and modules whose entry cannot be known (a broken marker, a collection error)
        self._unknown: list[str] = []
        self._workers_usage: Usage | None = None  # on an xdist controller: what workers used
        self._selected = Selected()
        self._records: list[RunRecord] = []
        self._unused = Unused()
        self._report: Report | None = None
        self._failures: list[str] = []
        self._warnings: list[str] = []  # said at the end, not failing the run
        self._written: list[str] = []  # the report files written, as the terminal says
        self._repeats = Repeats()  # failures every scene of a test shares, shown once
        #: (entry key, request) -> its environments as read and checked: one read for every
        #: marked function of a task
        self._read: dict[tuple[str, TaskRequest], Environments] = {}
        entry_reads.keep_across_runs(ReadRecord(config.rootpath))

    @property
    def cache(self) -> Cache:
        return Cache(self.settings.cache_root)

    @property
    def mode(self) -> Mode:
        settings = self.settings
        return Mode(
            regenerate=settings.regenerate,
            offline=settings.offline,
            run_id=settings.run_id,
            strict=settings.offline,  # CI, or --logicenv-offline: the cache is only read
            options=settings.command_options,
        )

    @property
    def records(self) -> tuple[RunRecord, ...]:
        return tuple(self._records)

    @property
    def unused(self) -> Unused:
        return self._unused

    # ----------------------------------------------------------------------- collection

    def parametrize(self, metafunc: pytest.Metafunc) -> None:
        """A marked function: one item per environment, one pending item, or one erroring."""
        nodeid = metafunc.definition.nodeid
        found = collection.marked(self.settings, self.config, metafunc)
        if isinstance(found, ErrorCase):
            self._unknown.append(nodeid)  # the entry it uses cannot be known
            collection.parametrize_error(metafunc, found)
            return
        self._used_keys[nodeid] = found.key
        made = self._environments(found, nodeid)
        if made is None:
            self._pending[nodeid] = PendingTask(nodeid, found.args, found.request)
            collection.parametrize_pending(metafunc, nodeid)
        elif isinstance(made, ErrorCase):
            collection.parametrize_error(metafunc, made)
        else:
            params = self._ready(nodeid, found.args, made, metafunc.definition.warn)
            collection.parametrize_ready(metafunc, params)

    def _environments(self, found: Marked, nodeid: str) -> Environments | ErrorCase | None:
        """The environments of a marked function's entry: read and checked by the first
        function of its task, then shared (a rebuild is said once); made when not fresh."""
        known = self._read.get((found.key, found.request))
        if known is not None:
            return known
        made = collection.cached_environments(self.config, self.cache, self.mode, found, nodeid)
        if made is None:
            # What makes entries (the LLM client, the designers, the layout solver) loads
            # only when one is not fresh: see tests/test_layers.py.
            from pytest_logicenv.session.making import made_now

            made = made_now(
                self.config, self.settings.designer, self.cache, self.mode, found, nodeid
            )
        if isinstance(made, Environments):
            self._read[(found.key, found.request)] = replace(made, rebuilt=None)
        return made

    def _ready(
        self,
        nodeid: str,
        args: MarkerArgs,
        environments: Environments,
        warn: Callable[[Warning], None],
    ) -> list[CaseParam]:
        self._prepared[nodeid] = (args, environments)
        return collection.ready(nodeid, args, environments, warn)

    def note_uncollected(self, nodeid: str) -> None:
        """A module that did not import or was skipped whole: its entries are unknown."""
        self._unknown.append(nodeid or "(the rootdir)")

    def collection_finished(self, session: pytest.Session) -> None:
        """The run's items are settled: generate the selected pending ones, note the
        selection."""
        if self._pending:
            # Likewise generation, when a selected test has something an LLM must make.
            from pytest_logicenv.session.generation import Making, generate_selected

            making = Making(
                self.settings,
                self.config,
                self.cache,
                self.mode,
                self._pending,
                self._used_keys,
                self._ready,
            )
            generate_selected(making, session)
        scenes = {
            f: tuple(c.trajectory_id for c in e.cases) for f, (_, e) in self._prepared.items()
        }
        roots = {f: str(e.entry.root) for f, (_, e) in self._prepared.items()}
        self._selected = partial.selected_in(session.items, scenes, roots)
        # What collection read stays until the end: kept out of the cyclic collector's passes
        # for the items' runs, and handed back to it only when the run is over (:meth:`close`),
        # since the report and the records' writing would pay those passes again.
        gc.freeze()

    # ----------------------------------------------------------------------- items

    def gather(self, report: pytest.TestReport) -> None:
        """Keep the record an item's teardown report carries (from xdist workers too)."""
        record = reporter.record_of(report)
        if record is None:
            return
        self._records.append(record)
        if not self.settings.worker:
            reporter.readable(report, record, self.config.rootpath)

    def once(self, report: pytest.TestReport) -> None:
        """A failing item's error that an earlier item of this run showed: named, not
        repeated (on the controller under xdist, which sees every item's report)."""
        if self.settings.worker:
            return
        shorter = self._repeats.shortened(report.nodeid, report.longreprtext)
        if shorter is not None:
            report.longrepr = shorter

    # ----------------------------------------------------------------------- xdist

    def hand_over(self) -> None:
        """On an xdist worker: what the controller needs of its collection."""
        output = getattr(self.config, "workeroutput", None)
        if output is not None:
            output[partial.WORKER_KEY] = self._selected.to_json()
            output[unused.WORKER_KEY] = self._own_usage().to_json()

    def take_over(self, output: dict[str, Any]) -> None:
        """On the controller: what one worker handed over (each collected the same)."""
        if partial.WORKER_KEY in output:
            self._selected = self._selected.joined(Selected.from_json(output[partial.WORKER_KEY]))
        if unused.WORKER_KEY in output:
            usage = Usage.from_json(output[unused.WORKER_KEY])
            known = self._workers_usage
            self._workers_usage = usage if known is None else known.joined(usage)

    def _own_usage(self) -> Usage:
        return Usage(frozenset(self._used_keys.values()), tuple(self._unknown))

    # ----------------------------------------------------------------------- the end

    def finish(self, session: pytest.Session) -> None:
        """The unused entries, the report and its verdicts; the exit status they set."""
        entry_reads.save_kept()
        if self.settings.worker:
            self.hand_over()
            return
        self._settle_unused()
        if self.settings.require_reviewed:
            self._require_reviewed()
        records = self._combined()
        records = (*records, *self._selected.unrecorded(records))
        if records:
            self._judge(session.config, records)
        elif self.settings.fail_under is not None and self._used_keys:
            self._failures.append(reporter.nothing_ran(self.settings))
        self._write_files()
        if self._failures and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _settle_unused(self) -> None:
        controller = self.config.pluginmanager.has_plugin("dsession")
        usage = self._workers_usage if controller else self._own_usage()
        whole = usage is not None and whole_project(self.config)
        self._unused = unused.settle(self.settings, self.config, usage, whole)
        self._failures += self._unused.problems
        failure = unused.failure(self._unused, self.settings)
        if failure is not None:
            self._failures.append(failure)

    def _require_reviewed(self) -> None:
        """Fail the run on the entries it uses whose plan a model made and no person
        reviewed (the keys the xdist workers handed over, on a controller)."""
        keys = (self._workers_usage or self._own_usage()).keys
        found = unreviewed(self.cache, keys)
        if found:
            rootdir = self.config.rootpath
            shown = [(_shown(entry.root, rootdir), status) for entry, status in found]
            self._failures.append(unreviewed_failure(shown))

    def _combined(self) -> tuple[RunRecord, ...]:
        """The run's records, with those the last run kept (``--logicenv-append``); kept in
        turn for the next run."""
        rootdir = self.config.rootpath
        kept: tuple[RunRecord, ...] = ()
        if self.settings.append:
            try:
                kept = appended.kept_records(appended.records_path(rootdir))
            except LogicEnvError as error:
                self._failures.append(f"logicenv: --logicenv-append: {error}")
                return self.records
        records = appended.combined(kept, self._records)
        problem = appended.keep(rootdir, records) if self._records else None
        self._failures += [problem] if problem else []
        return records

    def _write_files(self) -> None:
        """The report files, before the exit status is settled (a report that could not be
        written fails the run); an empty one, saying why, when no report was built."""
        report = self._report
        if report is None:
            why = next((f for f in self._failures if f.startswith(reporter.NO_REPORT)), None)
            report = reporter.empty_report(self._used_keys, self._selected.selection(), why)
        written, failures = reporter.write_files(self.settings, report, self.config.rootpath)
        self._written, self._failures = written, [*self._failures, *failures]

    def _judge(self, config: pytest.Config, records: Sequence[RunRecord]) -> None:
        report = reporter.built(records, self._selected.selection())
        if isinstance(report, str):
            self._failures.append(report)
            return
        self._report = report
        reporter.junit_properties(config, report)
        failures, warnings = reporter.verdicts(self.settings, report)
        self._failures += failures
        self._warnings += warnings

    def close(self) -> None:
        """The run is over (its report shown, its reads saved for the next run): what it read
        and built is let go, so that pytest's last collections walk the heap the tests left,
        and what collection made goes back to the cyclic collector."""
        self._read, self._prepared, self._report = {}, {}, None
        entry_reads.forget_all()
        gc.unfreeze()

    def summarize(self, terminal: Any) -> None:
        """The unused cache entries, the coverage table, the files written and the failures."""
        lines = unused.summary(self._unused)
        if lines:
            terminal.write_sep("-", lines[0])
            for line in lines[1:]:
                terminal.write_line(line)
        explored = reporter.exploration_summary(self._records)
        if explored is not None:
            terminal.write_line(explored)
        if self._report is not None:
            reporter.show_report(self.settings, self._report, terminal)
        for line in self._written:
            terminal.write_line(line)
        if self._report is not None:
            for warning in self._warnings:
                terminal.write_line(f"warning: {warning}", yellow=True)
        for failure in self._failures:
            terminal.write_line(failure, red=True, bold=True)


def _shown(path: Path, rootdir: Path) -> str:
    """A path as a command run from the rootdir names it."""
    return str(path.relative_to(rootdir)) if path.is_relative_to(rootdir) else str(path)


SESSION = pytest.StashKey[LogicEnvSession]()


def session_of(config: pytest.Config) -> LogicEnvSession:
    """The run's session object, made on first use."""
    found = config.stash.get(SESSION, None)
    if found is None:
        found = config.stash[SESSION] = LogicEnvSession(config, config.stash[SETTINGS])
    return found
