"""Each file of a cache entry read, checked and parsed once per process, then shared.

A thousand test items of one task share its plan and its few scenes, and the report reads
them again: :func:`read_once` keeps what a file parses to, with the file's signature (device,
inode, size, modification and change times), and hands the same immutable value back while
the signature holds. A file whose signature changed is read again, so a hand edit or a
regeneration between two reads is seen; a file changed in the last
:data:`RACY_SECONDS` is never kept, because a second write within one tick of the clock
the file system stamps times with would leave its signature as it was (git's "racily
clean" rule). Errors are never kept: a broken file says so on every read.

Only immutable values are kept (a ``Scene``, a ``Plan``, a digest, a tuple of cases), in a
map bounded by the bytes of the files whose parses it holds (:data:`MAX_KEPT_BYTES`; a digest
counts as :data:`DIGEST_BYTES`), least recently used out first; each pytest-xdist worker has
its own. The bound is in bytes, not files, so that a run's every entry stays kept from
collection to its items' runs and the report: 500 tasks hold some 5,000 files. What is
made from kept values (a case's situation, the conditions its scene makes true) is kept by
:func:`derived` for as long as those very values are the ones kept.

With a :class:`~pytest_logicenv.pipeline.read_record.ReadRecord` attached
(:func:`keep_across_runs`: the plugin attaches the project's), what a process kept is also
saved for the next run (:func:`save_kept`), one record per entry and one per scene, and taken
back from there the first time a value of that entry or scene is asked for, each value still
used only while its file's signature holds: a warm run reads no scene again, as Python
compiles no unchanged module again.
"""

from __future__ import annotations

import os
import pickle
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TypeVar, cast

from pytest_logicenv.cache import SCENES, path_hash
from pytest_logicenv.logic.plan import Plan, plan_type_file
from pytest_logicenv.pipeline.read_record import ReadRecord, Reductions, long_lived
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.scenes.scene_model import Scene

T = TypeVar("T")

#: A file changed this recently is read again at every use, never kept.
RACY_SECONDS = 2.0
#: How many bytes of files one process keeps the parses of (a scene parses to about twice its
#: file's size: 32 MB of files is some 70 MB of memory, and some 3,000 scenes).
MAX_KEPT_BYTES = 32 << 20
#: What a kept digest counts for (its file is not kept, only 64 hex digits).
DIGEST_BYTES = 128
#: How many values made from kept ones (:func:`derived`) one process keeps.
MAX_KEPT = 4096

Signature = tuple[int, int, int, int, int]


def signature(path: Path) -> Signature | None:
    """What tells one version of a file from another without reading it (``None``: no file)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _settled(found: Signature) -> bool:
    """Whether the file was last changed long enough ago that its signature tells versions
    apart."""
    return time.time_ns() - found[3] > RACY_SECONDS * 1e9


class _Kept:
    """The map of what files parsed to, by (what was read, path), bounded by the bytes it
    stands for (``limit``); each value with the token it holds under (a file signature, or
    the digests it was made from) and the group of files it is kept on disk with."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.values: OrderedDict[Hashable, tuple[Hashable, object, int, Path]] = OrderedDict()
        self.held = 0  # the bytes the kept values stand for

    def get(self, key: Hashable, token: Hashable) -> tuple[bool, object]:
        hit = self.values.get(key)
        if hit is None or hit[0] != token:
            return False, None
        self.values.move_to_end(key)
        return True, hit[1]

    def put(self, key: Hashable, token: Hashable, value: object, cost: int, group: Path) -> None:
        old = self.values.pop(key, None)
        self.held += cost - (0 if old is None else old[2])
        self.values[key] = (token, value, cost, group)
        while self.held > self.limit and self.values:
            _, (_, _, dropped, _) = self.values.popitem(last=False)
            self.held -= dropped

    def clear(self) -> None:
        self.values.clear()
        self.held = 0


_KEPT = _Kept(MAX_KEPT_BYTES)
#: What was made from kept values (:func:`derived`): key -> (inputs, value, group).
_DERIVED: OrderedDict[Hashable, tuple[tuple[object, ...], object, Path]] = OrderedDict()


class _OnDisk:
    """The run's record of reads (``None``: this process keeps nothing on disk), the groups
    asked of it so far, and those that gained a value since."""

    def __init__(self) -> None:
        self.record: ReadRecord | None = None
        self.loaded: set[str] = set()  # by path as text: a Path hashes slower
        self.dirty: set[Path] = set()


_DISK = _OnDisk()


def group_of(path: Path) -> Path:
    """The group a file is kept on disk with by default: its cache entry's folder
    (``ENTRY/scenes/X`` and ``ENTRY/X`` alike), for any other file its folder. What only a
    scene's items use is kept with the scene instead (:func:`scene_at`), so that a process
    takes back from disk the scenes it runs, not every scene it collects."""
    folder = path.parent
    return folder.parent if folder.name == SCENES else folder


def keep_across_runs(record: ReadRecord | None) -> None:
    """Keep what is read in ``record`` too, and use what it kept (``None``: in memory only)."""
    _DISK.record, _DISK.loaded, _DISK.dirty = record, set(), set()


def save_kept() -> None:
    """Write the records of the groups that gained a value in this process."""
    record = _DISK.record
    if record is None or not _DISK.dirty:
        return
    bodies: dict[Path, dict[str, dict[Hashable, object]]] = {
        group: {"kept": {}, "derived": {}} for group in _DISK.dirty
    }
    for key, (token, value, cost, group) in _KEPT.values.items():
        if group in bodies:
            bodies[group]["kept"][key] = (token, value, cost)
    for key, (inputs, value, group) in _DERIVED.items():
        if group in bodies:
            bodies[group]["derived"][key] = (inputs, value)
    homes: dict[int, tuple[Hashable, Hashable, Path]] = {}  # the first group holding it
    for key, (token, value, _, group) in _KEPT.values.items():
        if isinstance(value, SHARED):
            homes.setdefault(id(value), (key, token, group))
    for key, (_, value, group) in _DERIVED.items():
        if isinstance(value, SHARED):
            homes.setdefault(id(value), (key, _MADE, group))
    for group, body in bodies.items():
        record.save(group, body, _references(group, homes))
    record.prune()
    _DISK.dirty = set()


class SharedSet(frozenset[str]):
    """A set of names that records refer to rather than copy, as they do plans and scenes
    (pickle writes a plain frozenset whole, whatever its dispatch table says)."""

    __slots__ = ()


#: What values of one group hold of another's: a scene's situation holds its entry's plan
#: and the plan's names.
SHARED = (Plan, Scene, SharedSet)
#: The token of a reference to a :func:`derived` value (which holds while its inputs do).
_MADE = "made"


def _references(group: Path, homes: dict[int, tuple[Hashable, Hashable, Path]]) -> Reductions:
    """How ``group``'s record pickles a kept value of another group: as a reference to it
    (its key and token, and its group), so that both records share the one value."""

    def reduce(value: object) -> object:
        home = homes.get(id(value))
        if home is None or home[2] == group:
            return value.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
        return _kept_value, (home[0], home[1], str(home[2]))

    return dict.fromkeys(SHARED, reduce)


class _Gone(Exception):
    """A record refers to a value that is not kept as it was (its file changed since)."""


def _kept_value(key: Hashable, token: Hashable, group: str) -> object:
    """The value a record refers to (:func:`_references`), its group taken back first; a
    value no longer kept under that token makes the referring record unreadable, so that
    nothing made from an older version of a file is used."""
    _load(Path(group))
    if token == _MADE:
        made = _DERIVED.get(key)
        if made is None:
            raise _Gone(key)
        return made[1]
    hit, value = _KEPT.get(key, token)
    if not hit:
        raise _Gone(key)
    return value


def _load(group: Path) -> None:
    """Take what the record kept of ``group``, once per process; what this process has
    kept itself wins."""
    record = _DISK.record
    if record is None or str(group) in _DISK.loaded:
        return
    _DISK.loaded.add(str(group))
    with long_lived():
        body = record.load(group)
        if body is None:
            return
        try:
            for key, (token, value, cost) in body["kept"].items():
                if key not in _KEPT.values:
                    _KEPT.put(key, token, value, cost, group)
            for key, (inputs, value) in body["derived"].items():
                _DERIVED.setdefault(key, (tuple(inputs), value, group))
        except (KeyError, TypeError, ValueError):  # a record of another shape: as if none
            return


def kept(key: Hashable, token: Hashable, make: Callable[[], T], group: Path, cost: int) -> T:
    """``make()``, made once while ``token`` stays as it is (across runs, with the record)."""
    _load(group)
    hit, value = _KEPT.get(key, token)
    if hit:
        return cast(T, value)
    value = make()
    _put(key, token, value, cost, group)
    return value


def _put(key: Hashable, token: Hashable, value: object, cost: int, group: Path) -> None:
    _KEPT.put(key, token, value, cost, group)
    _DISK.dirty.add(group)


def read_once(
    path: Path,
    kind: Hashable,
    parse: Callable[[Path], T],
    cost: int | None = None,
    group: Path | None = None,
) -> T:
    """``parse(path)``, read once while the file stays as it is; ``kind`` tells apart the
    readings of one file (its digest, its scene) and what else the result depends on;
    ``cost`` is what keeping the result counts for (default: the file's size); ``group``
    what it is kept on disk with (default: :func:`group_of`)."""
    key = (kind, str(path))
    group = group_of(path) if group is None else group
    _load(group)
    before = signature(path)
    if before is not None:
        hit, value = _KEPT.get(key, before)
        if hit:
            return cast(T, value)
    value = parse(path)
    if before is not None and _settled(before) and signature(path) == before:
        _put(key, before, value, before[2] if cost is None else cost, group)
    return value


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (an ``OSError`` when it cannot be read)."""
    return read_once(path, "sha256", path_hash, DIGEST_BYTES)


def scene_at(path: Path) -> Scene:
    """The scene of a scene file (a ``SceneError`` names a broken one), kept on disk with
    what else is made for that scene alone (its group is the scene file)."""
    return read_once(path, "scene", load_scene, group=path)


def plan_types_at(path: Path | None) -> Path | None:
    """:func:`~pytest_logicenv.logic.plan.plan_type_file` of a marker's plan file, read once
    while it stays as it is: every marked function of a task names the same plan."""
    return None if path is None else read_once(path, "plan types", plan_type_file, DIGEST_BYTES)


def derived(key: Hashable, inputs: tuple[object, ...], make: Callable[[], T], group: Path) -> T:
    """``make()``, made once while ``inputs`` are the very objects :func:`read_once` keeps
    (a file read again is a new object, so what was made from the old one is made again);
    kept on disk with ``group``."""
    _load(group)
    hit = _DERIVED.get(key)
    if (
        hit is not None
        and len(hit[0]) == len(inputs)
        and all(a is b for a, b in zip(hit[0], inputs, strict=True))
    ):
        _DERIVED.move_to_end(key)
        return cast(T, hit[1])
    value = make()
    _DERIVED[key] = (inputs, value, group)
    _DISK.dirty.add(group)
    while len(_DERIVED) > MAX_KEPT:
        _DERIVED.popitem(last=False)
    return value


def held() -> int:
    """How many values this process keeps now (read and made from reads)."""
    return len(_KEPT.values) + len(_DERIVED)


def forget_all() -> None:
    """Drop everything kept in memory: at a run's end (what it kept is saved), and in tests
    that rewrite files within :data:`RACY_SECONDS`; the record, if any, is asked again."""
    _KEPT.clear()
    _DERIVED.clear()
    _DISK.loaded, _DISK.dirty = set(), set()
