"""Which cache entries no test uses any more, judged on a collection of the whole project.

Like syrupy's unused snapshots, but without recording in the entry which test made it (that
would make the committed files change with whichever test regenerated them): an entry is
unused when a run that collected every test of the project (its ``testpaths``, else the
rootdir, with no ``-k``, ``-m``, ``--deselect``, ``--ignore``, ``--lf`` or ``file::test``
narrowing) prepared every marked test and none of them uses it. A run that saw less cannot
tell, and reports nothing: neither when a test file failed to import or was skipped whole,
nor when a marked test failed before its entry was known.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pytest_logicenv.cache import Cache


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
    """Whether this run collected every test of the project."""
    if _narrowed(config):
        return False
    base = config.invocation_params.dir
    collected = [(base / str(arg)).resolve() for arg in config.args]
    return all(
        any(root.is_relative_to(path) for path in collected) for root in _project_roots(config)
    )


def find_unused(
    cache: Cache,
    prepared: Mapping[str, Any],
    collected: set[str],
    session: pytest.Session,
    *,
    complete: bool = True,
) -> list[str]:
    """Roots of the unused entries, sorted (none when this run cannot tell). ``prepared``
    maps each marked test function whose environments are ready to ``(marker args,
    environments)``; ``collected`` holds every marked test function collected, including
    those whose preparation failed; ``complete`` says every test file was collected (none
    failed to import or was skipped whole)."""
    if not complete or session.testsfailed or not whole_project(session.config):
        return []
    if set(collected) - set(prepared):
        return []  # a test whose entry is unknown might use any of them
    used = {str(environments.entry.root) for _, environments in prepared.values()}
    return sorted(str(entry.root) for entry in cache.entries() if str(entry.root) not in used)
