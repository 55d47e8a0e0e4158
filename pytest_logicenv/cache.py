"""The environment cache: versioned artifacts committed next to the tests (like syrupy).

One entry per marked task and its settings::

    cache/<task-slug>-<hash8>/
      manifest.json          format version, task text and its hash, settings, who made what
      plan.json              the Plan (hand-editable)
      trajectories.json      the selected trajectories, whose ids become test ids
      scenes/<traj-id>.json  one Scene each, with .svg (picture) and .house.json (AI2-THOR)
      llm/<hash>.json        every LLM exchange, when an LLM was used

An entry is written whole or not at all: it is built in a temporary directory beside the
cache and renamed into place, under a lock, so concurrent pytest-xdist workers never see half
an entry and only one of them generates. Replacing an entry takes two renames (the old entry
aside, the new one in); a run killed between them leaves the old entry aside, hidden, and the
next access restores it (:meth:`Cache.restore`). What a killed run leaves of its temporary
directory is removed by the next write of that entry. The lock files and temporaries are
hidden files, which the cache's own ``.gitignore`` keeps out of the commit of ``cache/``.

The manifest records the SHA-256 of every file the entry's tests read (:func:`digests`), so a
hand edit or a damaged file is noticed, never trusted. A corrupt or hand-broken file, and any
OS error (a read-only directory, a full disk), is a :class:`~pytest_logicenv.errors.CacheError`
naming the file; it is an error of the tests that use the entry, never of the whole run.

>>> key = entry_key("Tidy the bed.", {"select": "minimal", "seed": 0})
>>> key.startswith("tidy_the_bed-") and len(key) == len("tidy_the_bed-") + 8
True
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import tempfile
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_logicenv.atomic import MANIFEST as MANIFEST  # the cache entry's own file
from pytest_logicenv.bounded import load_json_text, read_bounded
from pytest_logicenv.errors import CacheError
from pytest_logicenv.logic.plan import slug

#: Version of the cache layout. An older entry is stale (rebuilt, keeping its plan); a newer
#: one is an error, never silently rewritten in the older layout. 2: the manifest records
#: digests of the entry's files.
CACHE_VERSION = 2
CACHE_FORMAT = f"logicenv-cache/{CACHE_VERSION}"
PLAN = "plan.json"
TRAJECTORIES = "trajectories.json"
SCENES = "scenes"
LLM_LOG = "llm"
#: How long a worker waits for another one generating the same entry.
LOCK_TIMEOUT_S = 1800.0
#: The cache's own .gitignore: locks, run markers and temporaries are hidden files.
GITIGNORE = (
    "# Written by pytest-logicenv: commit the entries, not the locks and temporaries.\n"
    ".*\n"
    "!.gitignore\n"
)


def text_hash(text: str) -> str:
    """SHA-256 of text with whitespace normalized (re-wrapping a task is not an edit)."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def path_hash(path: Path) -> str:
    """SHA-256 of a file's bytes, read in blocks (a huge file is not held in memory)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def format_version(value: object, prefix: str = "logicenv-cache/") -> int | None:
    """The version number of a format string, ``None`` when it is not one of ours.

    >>> format_version("logicenv-cache/2"), format_version("logicenv-cache/x"), format_version(3)
    (2, None, None)
    """
    if not isinstance(value, str) or not value.startswith(prefix):
        return None
    number = value[len(prefix) :]
    return int(number) if number.isdigit() else None


def digests(files: Mapping[str, bytes]) -> dict[str, str]:
    """The SHA-256 of each file an entry's tests read, by its path in the entry: all but the
    manifest (which holds them) and the LLM records (kept, never read to run a test).

    >>> digests({"manifest.json": b"{}", "plan.json": b"{}", "llm/a.json": b"{}"})
    {'plan.json': '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a'}
    """
    return {
        name: file_hash(content)
        for name, content in sorted(files.items())
        if name != MANIFEST and not name.startswith(f"{LLM_LOG}/")
    }


def describe_os_error(error: OSError) -> str:
    """An OS error as one short phrase (``permission denied``), for messages that already
    name the path.

    >>> describe_os_error(PermissionError(13, "Permission denied"))
    'permission denied'
    """
    return (error.strerror or type(error).__name__).lower()


def entry_key(task: str, settings: Mapping[str, Any]) -> str:
    """The entry directory name: a readable slug of the task and a hash of task + settings."""
    words = slug(task).split("_")[:6]
    readable = "_".join(w for w in words if w)[:48].strip("_") or "task"
    digest = hashlib.sha256(
        json.dumps({"task": " ".join(task.split()), **settings}, sort_keys=True).encode()
    ).hexdigest()
    return f"{readable}-{digest[:8]}"


def regenerate_hint(nodeid: str, options: Sequence[str] = ()) -> str:
    """The command that regenerates a test's entry, with the run's options that choose the
    entry (cache dir, designer).

    >>> regenerate_hint("t.py::test_x", ["--logicenv-cache-dir=envs"])
    'pytest --logicenv-regenerate --logicenv-cache-dir=envs "t.py::test_x"'
    """
    return pytest_command(nodeid, "--logicenv-regenerate", *options)


def pytest_command(nodeid: str, *options: str) -> str:
    """The ``pytest`` command line that runs ``nodeid`` with ``options`` (shell words,
    quoted already), safe to paste into a shell: the node id is one quoted word, in double
    quotes where nothing in it is special there, else in single quotes (``shlex.quote``),
    so that a parametrize id such as ``$(touch PWNED)`` is text, never run.

    >>> pytest_command("t.py::test_x[a=1]", "-x")
    'pytest -x "t.py::test_x[a=1]"'
    >>> pytest_command("t.py::test_x[$(touch PWNED)]")
    "pytest 't.py::test_x[$(touch PWNED)]'"
    """
    return " ".join(["pytest", *options, shell_word(nodeid)])


def shell_word(text: str) -> str:
    """``text`` as one shell word that expands to nothing but itself."""
    if any(char in text for char in "$`\\\"!'\n"):
        return shlex.quote(text)
    return f'"{text}"'


@dataclass(frozen=True)
class Entry:
    """One cache entry on disk."""

    root: Path

    @property
    def key(self) -> str:
        return self.root.name

    @property
    def manifest_path(self) -> Path:
        return self.root / MANIFEST

    @property
    def plan_path(self) -> Path:
        return self.root / PLAN

    @property
    def trajectories_path(self) -> Path:
        return self.root / TRAJECTORIES

    def scene_path(self, trajectory_id: str, suffix: str = ".json") -> Path:
        return self.root / SCENES / f"{safe_file_name(trajectory_id)}{suffix}"

    def exists(self) -> bool:
        return self.manifest_path.is_file()

    def read_json(self, path: Path, *, fix: str) -> Any:
        """Read one JSON file of the entry, within bounds; a CacheError names it and says
        ``fix``."""
        try:
            text = read_bounded(path)
        except FileNotFoundError:
            raise CacheError(f"{path}: missing from cache entry {self.root}; {fix}") from None
        except UnicodeDecodeError as error:
            raise CacheError(f"{path}: corrupt ({error}); {fix}") from None
        except OSError as error:
            reason = describe_os_error(error)
            raise CacheError(f"{path}: cannot be read ({reason}); {fix}") from None

        def corrupt(reason: str) -> CacheError:
            return CacheError(f"{reason}; {fix}")

        def invalid(error: json.JSONDecodeError) -> CacheError:
            return CacheError(f"{path}: corrupt ({error}); {fix}")

        return load_json_text(text, str(path), corrupt, invalid)

    def manifest(self, *, fix: str) -> dict[str, Any]:
        data = self.read_json(self.manifest_path, fix=fix)
        if not isinstance(data, dict):
            raise CacheError(f"{self.manifest_path}: not a manifest object; {fix}")
        return data

    def identity(self) -> tuple[str, dict[str, Any]] | None:
        """The task text and settings the entry was made for, or ``None`` when the manifest
        cannot tell (a corrupt manifest is reported by the test that uses the entry).

        >>> Entry(Path("/nonexistent")).identity() is None
        True
        """
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return None
        if not isinstance(data, dict):
            return None
        task, settings = data.get("task"), data.get("settings")
        if not isinstance(task, str) or not isinstance(settings, dict):
            return None
        return task, settings


def safe_file_name(name: str) -> str:
    """A file name from an id; ids are already ``[a-z0-9_.=~-]``, but never trust a path."""
    cleaned = "".join(c if c.isalnum() or c in "_.=~-" else "_" for c in name)
    return cleaned.lstrip(".") or "_"


class Cache:
    """The cache directory: finds, locks and atomically writes entries."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def entry(self, key: str) -> Entry:
        return Entry(self.root / safe_file_name(key))

    def entries(self) -> list[Entry]:
        """The entries (folders with a manifest); none when the cache cannot be listed."""
        try:
            return [
                Entry(path)
                for path in sorted(self.root.iterdir())
                if path.is_dir() and not path.name.startswith(".") and (path / MANIFEST).exists()
            ]
        except OSError:
            return []

    def lock_file(self, key: str) -> Path:
        return self.root / f".{safe_file_name(key)}.lock"

    def run_marker(self, key: str) -> Path:
        """Which run last regenerated the entry (``--logicenv-regenerate`` under xdist)."""
        return self.root / f".{safe_file_name(key)}.run"

    @contextmanager
    def lock(self, key: str) -> Iterator[None]:
        """Exclusive access to one entry across processes (pytest-xdist workers)."""
        from filelock import FileLock, Timeout

        self.prepare_root()
        lock = FileLock(str(self.lock_file(key)))
        try:
            acquired = lock.acquire(timeout=LOCK_TIMEOUT_S)
        except Timeout:
            raise CacheError(
                f"{self.root / key}: another process held the generation lock for "
                f"{LOCK_TIMEOUT_S:.0f} s; if none is running, delete {lock.lock_file}"
            ) from None
        except OSError as error:
            raise CacheError(
                f"{lock.lock_file}: cannot lock the cache entry ({describe_os_error(error)}); "
                "the cache directory must be writable and the lock path a file (delete it "
                "if it is a directory)"
            ) from None
        with acquired:
            yield

    def prepare_root(self) -> None:
        """Create the cache directory with its ``.gitignore`` (kept if the user edited it)."""
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            ignore = self.root / ".gitignore"
            if not ignore.exists():
                try:
                    with ignore.open("x", encoding="utf-8") as handle:
                        handle.write(GITIGNORE)
                except FileExistsError:  # another worker wrote it first
                    pass
        except OSError as error:
            raise CacheError(
                f"{self.root}: cannot write the cache directory ({describe_os_error(error)}); "
                "make it writable or choose another with --logicenv-cache-dir"
            ) from None

    def write_entry(self, key: str, files: Mapping[str, bytes]) -> Entry:
        """Write a whole entry atomically: build it beside the cache, then rename it in.

        ``files`` maps relative paths to contents; ``manifest.json`` must be one of them.
        Call under :meth:`lock`.
        """
        if MANIFEST not in files:
            raise ValueError("an entry needs a manifest")
        self.prepare_root()
        final = self.entry(key).root
        try:
            self.restore(key)
            self._remove_leftovers(final.name)
            self._swap_in(final, files)
        except OSError as error:
            where = error.filename or final
            raise CacheError(
                f"{where}: cannot write cache entry {final.name} ({describe_os_error(error)}); "
                "the entry was left as it was"
            ) from None
        return Entry(final)

    def _swap_in(self, final: Path, files: Mapping[str, bytes]) -> None:
        # mkdir, not mkdtemp: the entry keeps the umask's permissions, not mkdtemp's 0700.
        staging = self.root / f".{final.name}.{uuid.uuid4().hex[:8]}"
        staging.mkdir()
        try:
            for relative, content in files.items():
                target = (staging / relative).resolve()
                if staging.resolve() not in target.parents:
                    raise CacheError(f"refusing to write {relative!r} outside the cache entry")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content)
            retired = self._retired(final.name, uuid.uuid4().hex[:8])
            if final.exists():
                os.replace(final, retired)  # a crash here leaves it aside: see restore()
            os.replace(staging, final)
            shutil.rmtree(retired, ignore_errors=True)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)

    def _retired(self, name: str, tag: str) -> Path:
        """Where a replaced entry waits, between the two renames, to be deleted."""
        return self.root / f".{name}.old.{tag}"

    def restore(self, key: str) -> bool:
        """Put back an entry that a run killed between the two renames of a rewrite left
        aside; whether there was one. Call under :meth:`lock`."""
        final = self.entry(key).root
        if final.exists():
            return False
        aside = [path for path in self.root.glob(f".{final.name}.old.*") if path.is_dir()]
        if not aside:
            return False
        newest = max(aside, key=lambda path: path.stat().st_mtime_ns)
        os.replace(newest, final)
        return True

    def was_set_aside(self, key: str) -> bool:
        """Whether a killed rewrite left this entry aside, missing, to be restored. An entry
        that is there was not (:meth:`restore` leaves it be), which one ``stat`` tells: the
        folder is listed only for a missing entry, so collecting many cached tasks stays
        linear in their number."""
        root = self.entry(key).root
        if root.exists():
            return False
        return any(path.is_dir() for path in self.root.glob(f".{root.name}.old.*"))

    def _remove_leftovers(self, name: str) -> None:
        """Delete what a killed run left while writing entry ``name`` (its temporary
        directories). Only the holder of the entry's lock writes them, so under the lock
        every one of them is a leftover."""
        for path in self.root.glob(f".{name}.*"):
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)

    def remove(self, entry: Entry) -> None:
        """Delete an entry (rename first, so a half-deleted entry is never seen), then its
        lock file and run marker."""
        try:
            retired = Path(tempfile.mkdtemp(prefix=f".{entry.key}.gone.", dir=self.root))
            os.replace(entry.root, retired / "entry")
        except OSError as error:
            raise CacheError(
                f"{entry.root}: cannot remove the entry ({describe_os_error(error)})"
            ) from None
        shutil.rmtree(retired, ignore_errors=True)
        self.forget(entry.key)

    def forget(self, key: str) -> None:
        """Delete the lock file and run marker of an entry that does not exist (any more),
        unless some process holds the lock, generating it right now."""
        from filelock import FileLock, Timeout

        lock_file = self.lock_file(key)
        if self.entry(key).root.exists() or not lock_file.exists():
            return
        try:
            with FileLock(str(lock_file), timeout=0):
                self.run_marker(key).unlink(missing_ok=True)
                lock_file.unlink(missing_ok=True)
        except (Timeout, OSError):  # busy, or not ours to delete (a read-only cache)
            pass

    def forget_orphans(self) -> None:
        """:meth:`forget` every entry whose lock file outlived it (a removed entry, a task
        whose generation failed)."""
        for lock_file in self.root.glob(".*.lock"):
            self.forget(lock_file.name[1 : -len(".lock")])


def dumps(data: Any) -> bytes:
    """JSON as committed: indented, sorted where order carries no meaning, UTF-8, newline."""
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
