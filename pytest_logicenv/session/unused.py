"""Which cache entries no test uses any more, decided over the whole project.

An entry is *used* when some marked test of the project maps to its key (its task text and
settings), whatever state the entry is in. *The project* is what pytest collects by default
from the rootdir: the configured ``testpaths``, else the rootdir itself. A run that collected
all of it (no path narrower than those; no ``-k``, ``-m``, ``--deselect``, ``--lf``,
``--ignore``; not an xdist controller, which collects nothing) decides from its own
collection. A narrower run reports nothing; with ``--logicenv-clean`` it first collects the
whole project in a subprocess, so that cleaning after running one file never removes an entry
another file uses. When a test of the project could not be collected (an import error, a
module skipped whole, a broken marker) nothing is decided: the entry it uses cannot be known.
Like syrupy's unused snapshots, but without recording in the entry which test made it (that
would make the committed files change with whichever test regenerated them).

Under pytest-xdist the workers collect, each the whole run, and hand their :class:`Usage` to
the controller (:data:`WORKER_KEY`), which decides as a serial run does. The unused entries are
listed at the end of the run; ``--logicenv-fail-on-unused`` makes them fail it, as syrupy
fails on unused snapshots unless told ``--snapshot-warn-unused``; ``--logicenv-clean`` removes
them instead (here, and nowhere else).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_logicenv.atomic import write_atomic
from pytest_logicenv.cache import Cache, Entry
from pytest_logicenv.errors import CacheError
from pytest_logicenv.session.settings import Settings

#: The ``workeroutput`` key a worker's usage travels under.
WORKER_KEY = "logicenv_usage"


@dataclass(frozen=True)
class Usage:
    """The entry keys the project's marked tests use, and the tests (or modules) whose keys
    could not be known."""

    keys: frozenset[str]
    unknown: tuple[str, ...] = ()

    def to_json(self) -> dict[str, list[str]]:
        return {"keys": sorted(self.keys), "unknown": list(self.unknown)}

    @classmethod
    def from_json(cls, data: Mapping[str, Iterable[str]]) -> Usage:
        return cls(frozenset(map(str, data["keys"])), tuple(map(str, data["unknown"])))

    def joined(self, other: Usage) -> Usage:
        """This usage and another worker's (each collects the same, so mostly the same)."""
        unknown = tuple(dict.fromkeys((*self.unknown, *other.unknown)))
        return Usage(self.keys | other.keys, unknown)


@dataclass(frozen=True)
class Unused:
    """The unused entries' roots, sorted, or (``undecided``) why none can be named; with
    ``removed``, the roots are those ``--logicenv-clean`` removed, and ``problems`` say which
    could not be."""

    roots: tuple[str, ...] = ()
    undecided: str | None = None
    removed: bool = False
    problems: tuple[str, ...] = ()


def _narrowed(config: pytest.Config) -> bool:
    option = config.option
    return bool(
        getattr(option, "keyword", "")
        or getattr(option, "markexpr", "")
        or getattr(option, "deselect", None)
        or getattr(option, "ignore", None)
        or getattr(option, "ignore_glob", None)
        or getattr(option, "lf", False)
        or getattr(option, "stepwise", False)
        or any("::" in str(arg) for arg in config.args)
    )


def _project_roots(config: pytest.Config) -> list[Path]:
    """Where the project's tests live: its ``testpaths`` (globs expanded), else the rootdir."""
    roots: list[Path] = []
    for pattern in config.getini("testpaths"):
        if any(c in str(pattern) for c in "*?["):
            roots += sorted(config.rootpath.glob(str(pattern)))
        else:
            roots.append(config.rootpath / str(pattern))
    return [root.resolve() for root in roots] or [config.rootpath.resolve()]


def whole_project(config: pytest.Config) -> bool:
    """Whether this run collects every test of the project (and nothing narrows it): under
    xdist, its workers do, each the whole run."""
    if _narrowed(config):
        return False
    base = config.invocation_params.dir
    collected = [(base / str(arg)).resolve() for arg in config.args]
    return all(
        any(root.is_relative_to(path) for path in collected) for root in _project_roots(config)
    )


def unused_entries(cache: Cache, usage: Usage) -> Unused:
    """The cache's entries no test of ``usage`` maps to."""
    if usage.unknown:
        shown = ", ".join(usage.unknown[:3]) + (", ..." if len(usage.unknown) > 3 else "")
        return Unused(
            undecided=f"{len(usage.unknown)} test(s) of the project could not be collected "
            f"({shown}), so the entries they use cannot be known; fix them first"
        )
    return Unused(tuple(sorted(str(e.root) for e in cache.entries() if e.key not in usage.keys)))


def collect_usage(config: pytest.Config, cache_root: Path) -> Usage:
    """The whole project's usage, from ``pytest --collect-only`` run from the rootdir (no
    plugin of this run's command line is passed on; the project's configuration is read)."""
    with tempfile.TemporaryDirectory() as scratch:
        result_file = Path(scratch) / "usage.json"
        command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist"]
        command += ["-p", "no:cacheprovider", f"--rootdir={config.rootpath}"]
        if config.inipath is not None:
            command.append(f"--config-file={config.inipath}")
        command += ["--logicenv-offline", f"--logicenv-cache-dir={cache_root}"]
        command.append(f"--logicenv-usage-json={result_file}")
        done = subprocess.run(command, cwd=config.rootpath, capture_output=True, check=False)
        if not result_file.is_file():
            failed = f"the project's collection (pytest exit {done.returncode})"
            return Usage(frozenset(), (failed,))
        return Usage.from_json(json.loads(result_file.read_text(encoding="utf-8")))


def settle(settings: Settings, config: pytest.Config, usage: Usage | None, whole: bool) -> Unused:
    """The run's unused entries, from ``usage`` (what this run's collection, or its xdist
    workers', found) when it is ``whole`` (the whole project's), else with
    ``--logicenv-clean`` from collecting the project anew; removed with ``--logicenv-clean``,
    and written where ``logicenv clean`` reads them."""
    if settings.usage_json is not None and usage is not None:
        write_atomic(settings.usage_json, json.dumps(usage.to_json()))
    unused = Unused()
    if settings.cache_root.is_dir():
        own = usage
        if not whole:
            usage = None
        if usage is None and (settings.clean or settings.unused_json):
            usage = collect_usage(config, settings.cache_root)
            # A test this run collected uses its entry, also outside the project's testpaths.
            usage = usage if own is None else usage.joined(own)
        if usage is not None:
            unused = unused_entries(Cache(settings.cache_root), usage)
    if settings.clean:
        unused = _removed(Cache(settings.cache_root), unused)
    if settings.unused_json is not None:
        data = {"unused": list(unused.roots), "removed": settings.clean}
        write_atomic(settings.unused_json, json.dumps(data | {"undecided": unused.undecided}))
    return unused


def _removed(cache: Cache, unused: Unused) -> Unused:
    removed, problems = [], []
    for root in unused.roots:
        try:
            cache.remove(Entry(Path(root)))
        except CacheError as error:
            problems.append(f"logicenv: {error}")
            continue
        removed.append(root)
    if cache.root.is_dir():
        cache.forget_orphans()
    return Unused(tuple(removed), unused.undecided, removed=True, problems=tuple(problems))


def summary(unused: Unused) -> list[str]:
    """What the end of the run says about the unused entries: a title, then lines."""
    if unused.undecided and unused.removed:
        return ["logicenv: no cache entry removed", f"  {unused.undecided}"]
    if not unused.roots:
        return []
    noun = "entry" if len(unused.roots) == 1 else "entries"
    verb = "removed" if unused.removed else "unused"
    lines = [f"logicenv: {len(unused.roots)} {verb} cache {noun}"]
    lines += [f"  {root}" for root in unused.roots]
    return lines + ([] if unused.removed else ["  remove them with: logicenv clean"])


def failure(unused: Unused, settings: Settings) -> str | None:
    """The line that fails the run with ``--logicenv-fail-on-unused``, if it must fail."""
    if not settings.fail_on_unused or unused.removed or not unused.roots:
        return None
    count = len(unused.roots)
    noun = "entry is" if count == 1 else "entries are"
    return (
        f"FAIL {count} cache {noun} unused (--logicenv-fail-on-unused): remove with "
        "logicenv clean or pytest --logicenv-clean, or use them again"
    )
