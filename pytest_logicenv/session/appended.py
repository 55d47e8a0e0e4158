"""``--logicenv-append``: combine runs as pytest-cov's ``--cov-append`` does. Every run that
ran a policy keeps its records in ``.logicenv/records.json`` (:mod:`pytest_logicenv.workdir`);
with ``--logicenv-append`` the run's report is made of the records kept and its own (its own
replace those of the same test items), and the combined records are kept for the next run.
Traces are not kept (they are most of a record): the runs of earlier sessions keep their
outcomes and explanations, so coverage, declared faults and mutation scores combine."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_logicenv.atomic import write_atomic
from pytest_logicenv.bounded import read_json_file
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.report.records import RunRecord
from pytest_logicenv.workdir import WORK_DIR, work_folder

RECORDS_FORMAT = "logicenv-records/1"
RECORDS_FILE = "records.json"


def records_path(rootdir: Path) -> Path:
    return rootdir / WORK_DIR / RECORDS_FILE


def combined(kept: Sequence[RunRecord], own: Sequence[RunRecord]) -> tuple[RunRecord, ...]:
    """The kept records of items this run did not run, then this run's."""
    ran = {record.nodeid for record in own}
    return (*(record for record in kept if record.nodeid not in ran), *own)


def kept_records(path: Path) -> tuple[RunRecord, ...]:
    """The records an earlier run kept (none when there is no file); a file that is not
    one raises a :class:`LogicEnvError` naming it and what to do."""
    fix = f"delete {path}, or run without --logicenv-append"
    try:
        data = read_json_file(path, lambda reason: LogicEnvError(f"{reason}: {fix}"))
    except FileNotFoundError:
        return ()
    except OSError as error:
        raise LogicEnvError(f"{path}: cannot be read ({error.strerror}): {fix}") from None
    if not isinstance(data, dict) or data.get("format") != RECORDS_FORMAT:
        raise LogicEnvError(f"{path}: not a {RECORDS_FORMAT} file: {fix}")
    try:
        return tuple(RunRecord.from_json(record) for record in data["records"])
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise LogicEnvError(f"{path}: a record is damaged ({error!r}): {fix}") from None


def keep(rootdir: Path, records: Sequence[RunRecord]) -> str | None:
    """Write the records for the next run; what went wrong, if anything."""
    document = {"format": RECORDS_FORMAT, "records": [_traceless(r) for r in records]}
    try:
        work_folder(rootdir)
        write_atomic(records_path(rootdir), json.dumps(document) + "\n")
    except OSError as error:
        return f"logicenv: the records of this run could not be kept for --logicenv-append: {error}"
    return None


def _traceless(record: RunRecord) -> dict[str, Any]:
    data = record.to_json()
    for run in data["runs"]:
        if isinstance(run.get("result"), dict):
            run["result"] = {k: v for k, v in run["result"].items() if k != "trace"}
    return data
