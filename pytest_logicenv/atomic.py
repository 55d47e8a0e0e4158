"""Writing a file whole or not at all, and only where the product may write, so that nothing
half-written is ever left behind (in the cache, a report, a picture) and nothing it must not
touch is overwritten, whichever layer writes it.

Every file the product writes outside a cache entry's own build (exports, renders, reports,
saved scenes, plans, usage files) goes through :func:`write_atomic` or :func:`write_through`,
and so through one guard (:func:`refusal`): never a file a cache entry's manifest lists (nor
the manifest itself), also when the path reaches it through a symlink; never inside a
``.git`` folder; never over a directory.

>>> print(refusal(Path("/nowhere/.git/config")))
is inside a .git folder (git's own files); choose a path outside it
>>> refusal(Path("/nowhere/scenes/a.svg")) is None
True
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path

from pytest_logicenv.errors import CachedFileError, WriteRefused

#: The file that makes a folder a cache entry, and lists (with their digests) its files.
MANIFEST = "manifest.json"
#: The manifest's format tag, by which a file named ``manifest.json`` is known to be one.
CACHE_FORMAT_PREFIX = "logicenv-cache/"


def listing_manifest(path: Path) -> Path | None:
    """The manifest of the cache entry that protects ``path``: the entry lists it among its
    files, or ``path`` is the manifest itself (``None``: no entry does). Both the path as
    given and where it leads (through symlinks) are asked.

    >>> listing_manifest(Path("/nowhere/scenes/a.svg")) is None
    True
    """
    for target in dict.fromkeys((path.resolve(), path.absolute())):  # the real entry first
        found = _protecting(target)
        if found is not None:
            return found
    return None


def _protecting(target: Path) -> Path | None:
    if target.name == MANIFEST and _is_manifest(target):
        return target
    for folder in target.parents:
        manifest = folder / MANIFEST
        if not manifest.is_file():
            continue
        files = _listed(manifest)
        return manifest if target.relative_to(folder).as_posix() in files else None
    return None


def _listed(manifest: Path) -> dict[str, object]:
    try:
        with manifest.open(encoding="utf-8") as handle:
            files = json.loads(handle.read(8_000_001)).get("files", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return files if isinstance(files, dict) else {}


def _is_manifest(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8") as handle:
            data = json.loads(handle.read(8_000_001))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and str(data.get("format", "")).startswith(CACHE_FORMAT_PREFIX)


def refusal(path: Path) -> str | None:
    """Why the product never writes ``path`` (``None``: it may): a file of a cache entry, a
    path inside ``.git`` (as given, or through a symlink), a directory."""
    for target in dict.fromkeys((path.absolute(), path.resolve())):
        if ".git" in target.parts:
            return "is inside a .git folder (git's own files); choose a path outside it"
    manifest = listing_manifest(path)
    if manifest is not None:
        return (
            f"is a file of the cache entry {manifest.parent}, whose manifest holds its digest: "
            "overwriting it would make the entry stale (rebuilt on the next run, an error in "
            "CI); choose another path"
        )
    if path.is_dir():
        return f"is a directory; give a file path (e.g. {path / 'out'}{path.suffix or ''})"
    return None


def check_writable(path: Path) -> None:
    """Raise the error :func:`refusal` gives, if any: :class:`CachedFileError` for a cache
    entry's file, else :class:`WriteRefused`."""
    why = refusal(path)
    if why is None:
        return
    error = CachedFileError if listing_manifest(path) is not None else WriteRefused
    raise error(f"{path} {why}")


def write_atomic(path: Path, text: str) -> None:
    """Write a text file whole or not at all (temporary file beside it + rename), with the
    permissions a plain ``open()`` would give it (``mkstemp`` alone makes it 0600); refused
    where :func:`refusal` says."""
    check_writable(path)
    replace_atomic(path, text)


def replace_atomic(path: Path, text: str | bytes) -> None:
    """:func:`write_atomic` without the guard: for the cache's own writes to an entry's own
    files (a review mark in its manifest), which the guard keeps everyone else from, and for
    the work folder's records (bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text.encode("utf-8") if isinstance(text, str) else text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_through(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as coverage.py writes its reports: through a symlink to its
    target (written atomically beside the target, the link kept), into a FIFO or a device
    (``/dev/stdout``) as a stream; refused where :func:`refusal` says."""
    check_writable(path)
    try:
        mode = path.stat().st_mode
    except OSError:
        mode = 0
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    write_atomic(path.resolve(), text)
