"""A scene's witness file (``scenes/<trajectory>.witness.json``): written with its entry, read
once per process. Reading it loads no search (:mod:`.witnesses` proves scenes)."""

from __future__ import annotations

from pathlib import Path

from pytest_logicenv.cache import Entry, dumps
from pytest_logicenv.errors import CacheError, SceneError
from pytest_logicenv.pipeline.entry_reads import read_once
from pytest_logicenv.witness import WitnessResult, witness_from_json

#: The suffix of a scene's witness file, beside its ``.json``.
WITNESS_SUFFIX = ".witness.json"


def witness_file(stem: str, result: WitnessResult) -> dict[str, bytes]:
    """A scene's witness file, by its path in the entry (``stem``: the scene's path without
    ``.json``)."""
    return {f"{stem}{WITNESS_SUFFIX}": dumps(result.to_json())}


def read_witness(entry_root: Path, trajectory_id: str) -> WitnessResult | None:
    """A scene's cached witness (``None`` for an entry made before witnesses were)."""
    entry = Entry(entry_root)
    path = entry.scene_path(trajectory_id, WITNESS_SUFFIX)
    if not path.is_file():
        return None
    return read_once(path, "witness", _parse_witness, group=entry.scene_path(trajectory_id))


def _parse_witness(path: Path) -> WitnessResult:
    data = Entry(path.parent.parent).read_json(
        path, fix="regenerate the entry (--logicenv-regenerate)"
    )
    try:
        return witness_from_json(data, str(path))
    except SceneError as error:  # a malformed file: the entry's, not the test's
        raise CacheError(str(error)) from None
