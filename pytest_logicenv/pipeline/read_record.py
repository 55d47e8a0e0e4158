"""What a run read and checked of a cache entry, kept on disk for the next run, as Python keeps
bytecode beside a module and git keeps its index: one file per group of values under
``.logicenv/reads/``, holding what :mod:`~pytest_logicenv.pipeline.entry_reads` kept of that
group (an entry's digests, parses and content check; a scene's parse and the situation made
from it), each with the file signature or the digests it was made under.

A record is only a shortcut, never a source: every value in it is used only while the file it
came from has the very signature it had when it was read (device, inode, size, modification
and change times: an edit, a ``git checkout`` or a copy changes one of them), and a whole
record is ignored when it was written by other code (another version of pytest-logicenv or of
Python, or a package file changed since: :func:`code_fingerprint`) or cannot be read back. The
folder is the project's own, like ``__pycache__``: anyone who can write it can also write the
project's ``conftest.py``.
"""

from __future__ import annotations

import copyreg
import gc
import hashlib
import os
import pickle
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pytest_logicenv.atomic import replace_atomic
from pytest_logicenv.version import __version__
from pytest_logicenv.workdir import WORK_DIR, work_folder

#: The record files' format; a record of another is ignored.
RECORD_FORMAT = "logicenv-reads/1"
#: The records' folder in the work folder.
READS = "reads"
SUFFIX = ".pickle"
#: How many entries' records one folder holds; beyond it the least recently written go.
MAX_RECORDS = 20_000
#: A record file larger than this is ignored (a record is some kB per entry or scene).
MAX_RECORD_BYTES = 64 << 20
#: A temporary file this old was left by a writer that died.
HALF_MADE_SECONDS = 3600


def reads_folder(rootdir: Path) -> Path:
    """Where a project's records are: ``ROOTDIR/.logicenv/reads``."""
    return rootdir / WORK_DIR / READS


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """What tells this code from other code that could have written a record: the package's
    version, Python's, and each package file's size and modification time."""
    root = Path(__file__).parent.parent  # the package's folder
    digest = hashlib.sha256(f"{__version__} {sys.version}".encode())
    for folder, dirs, files in sorted(os.walk(root)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            info = os.stat(os.path.join(folder, name))
            digest.update(f"{folder}/{name} {info.st_size} {info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def record_name(group: Path) -> str:
    """The record file of a group of files (a cache entry's folder): readable, and unique per
    path."""
    tag = hashlib.sha256(str(group).encode()).hexdigest()[:12]
    return f"{group.name[:80]}-{tag}{SUFFIX}"


@contextmanager
def long_lived() -> Iterator[None]:
    """Make values that live until the run is over: Python's cyclic collector paused while
    they are made and, when it was running, everything then alive moved out of its passes
    (``gc.freeze``; the plugin's session hands it back, ``gc.unfreeze``, when the run is
    over). A record read back is thousands of small objects, none of them garbage, and the
    collector's passes over them and over every record read before cost more than the reading
    (measured on the benchmarks page)."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.freeze()
            gc.enable()


def read_only(values: dict[Any, Any]) -> Mapping[Any, Any]:
    """A read-only map of ``values`` (what a pickled ``MappingProxyType`` is made back by)."""
    return MappingProxyType(values)


def _reduce_read_only(obj: MappingProxyType[Any, Any]) -> tuple[Any, ...]:
    return read_only, (dict(obj),)


#: How a record's pickler reduces what it holds: as pickle does, and the read-only maps
#: ``entry_reads`` keeps (a manifest), looked up by type (a ``reducer_override`` would be a
#: Python call for every object pickled).
_DISPATCH = {**copyreg.dispatch_table, MappingProxyType: _reduce_read_only}


#: How a record pickles some types otherwise than pickle does (``None``: as it does).
Reductions = Mapping[type, Callable[[Any], Any]] | None


class ReadRecord:
    """The record folder of one project (``ROOTDIR/.logicenv/reads``): records loaded and
    saved per group of files."""

    def __init__(self, rootdir: Path) -> None:
        self.rootdir = rootdir
        self.folder = reads_folder(rootdir)

    def load(self, group: Path) -> Mapping[str, Any] | None:
        """The group's record as saved, or ``None``: none, of other code, or unreadable."""
        path = self.folder / record_name(group)
        try:
            with path.open("rb") as handle:
                if os.fstat(handle.fileno()).st_size > MAX_RECORD_BYTES:
                    return None
                header = pickle.load(handle)
                if header != (RECORD_FORMAT, code_fingerprint(), str(group)):
                    return None
                body = pickle.load(handle)
        except Exception:  # none, or damaged: pickle raises whatever the bytes make
            return None
        return body if isinstance(body, Mapping) else None

    def save(self, group: Path, body: Mapping[str, Any], reductions: Reductions = None) -> None:
        """Write the group's record whole or not at all; a folder that cannot be written (a
        read-only checkout) or a value that cannot be pickled leaves the record out, as
        Python runs on without writing bytecode it cannot. ``reductions`` pickle some types
        otherwise, by type (as ``copyreg`` does): a value another record holds, as a
        reference to it."""
        try:
            header = self._dumps((RECORD_FORMAT, code_fingerprint(), str(group)))
            data = header + self._dumps(body, reductions)
            if not self.folder.is_dir():  # made with the work folder's .gitignore
                work_folder(self.rootdir, READS)
            replace_atomic(self.folder / record_name(group), data)
        except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
            return

    def prune(self, limit: int = MAX_RECORDS) -> None:
        """Remove the least recently written records beyond ``limit``, and any left half-made
        by a process killed while writing (an hour old: another may be writing one now)."""
        try:
            found = [(p.stat().st_mtime_ns, p) for p in self.folder.iterdir()]
        except OSError:
            return
        records = sorted((t, p) for t, p in found if p.name.endswith(SUFFIX))
        hour_ago = time.time_ns() - HALF_MADE_SECONDS * 10**9
        stale = [p for t, p in found if p.name.startswith(".") and t < hour_ago]
        for path in [p for _, p in records[: max(0, len(records) - limit)]] + stale:
            path.unlink(missing_ok=True)

    @staticmethod
    def _dumps(value: object, reductions: Reductions = None) -> bytes:
        buffer = BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = _DISPATCH if not reductions else {**_DISPATCH, **reductions}
        pickler.dump(value)
        return buffer.getvalue()
