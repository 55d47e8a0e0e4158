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
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TypeVar, cast

from pytest_logicenv.cache import path_hash
from pytest_logicenv.logic.plan import plan_type_file
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
    stands for (``limit``)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.values: OrderedDict[Hashable, tuple[Signature, object, int]] = OrderedDict()
        self.held = 0  # the bytes the kept values stand for

    def get(self, key: Hashable, found: Signature) -> tuple[bool, object]:
        hit = self.values.get(key)
        if hit is None or hit[0] != found:
            return False, None
        self.values.move_to_end(key)
        return True, hit[1]

    def put(self, key: Hashable, found: Signature, value: object, cost: int) -> None:
        old = self.values.pop(key, None)
        self.held += cost - (0 if old is None else old[2])
        self.values[key] = (found, value, cost)
        while self.held > self.limit and self.values:
            _, (_, _, dropped) = self.values.popitem(last=False)
            self.held -= dropped

    def clear(self) -> None:
        self.values.clear()
        self.held = 0


_KEPT = _Kept(MAX_KEPT_BYTES)


def read_once(path: Path, kind: Hashable, parse: Callable[[Path], T], cost: int | None = None) -> T:
    """``parse(path)``, read once while the file stays as it is; ``kind`` tells apart the
    readings of one file (its digest, its scene) and what else the result depends on;
    ``cost`` is what keeping the result counts for (default: the file's size)."""
    key = (kind, str(path))
    before = signature(path)
    if before is not None:
        hit, value = _KEPT.get(key, before)
        if hit:
            return cast(T, value)
    value = parse(path)
    if before is not None and _settled(before) and signature(path) == before:
        _KEPT.put(key, before, value, before[2] if cost is None else cost)
    return value


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (an ``OSError`` when it cannot be read)."""
    return read_once(path, "sha256", path_hash, DIGEST_BYTES)


def scene_at(path: Path) -> Scene:
    """The scene of a scene file (a ``SceneError`` names a broken one)."""
    return read_once(path, "scene", load_scene)


def plan_types_at(path: Path | None) -> Path | None:
    """:func:`~pytest_logicenv.logic.plan.plan_type_file` of a marker's plan file, read once
    while it stays as it is: every marked function of a task names the same plan."""
    return None if path is None else read_once(path, "plan types", plan_type_file, DIGEST_BYTES)


_DERIVED: OrderedDict[Hashable, tuple[tuple[object, ...], object]] = OrderedDict()


def derived(key: Hashable, inputs: tuple[object, ...], make: Callable[[], T]) -> T:
    """``make()``, made once while ``inputs`` are the very objects :func:`read_once` keeps
    (a file read again is a new object, so what was made from the old one is made again)."""
    hit = _DERIVED.get(key)
    if (
        hit is not None
        and len(hit[0]) == len(inputs)
        and all(a is b for a, b in zip(hit[0], inputs, strict=True))
    ):
        _DERIVED.move_to_end(key)
        return cast(T, hit[1])
    value = make()
    _DERIVED[key] = (inputs, value)
    while len(_DERIVED) > MAX_KEPT:
        _DERIVED.popitem(last=False)
    return value


def forget_all() -> None:
    """Drop everything kept (tests that rewrite files within :data:`RACY_SECONDS` need not)."""
    _KEPT.clear()
    _DERIVED.clear()
