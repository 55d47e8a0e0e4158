"""Which cache entries no test uses any more, judged only on what this run selected.

Like syrupy's unused snapshots: an entry is reported when the test that generated it (its
manifest's ``origin``) was selected in this run and now uses another entry (its task text or
settings changed), when its test module was collected in full and the test is gone, or when
its test module was deleted from a folder this run collected. Runs narrowed with ``-k``,
``-m``, ``--deselect`` or ``file::test`` report only the first kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from pytest_logicenv.cache import Cache


def _function_id(nodeid: str) -> str:
    return nodeid.split("[", 1)[0]


def _narrowed(config: pytest.Config) -> bool:
    option = config.option
    return bool(
        getattr(option, "keyword", "")
        or getattr(option, "markexpr", "")
        or getattr(option, "deselect", None)
        or getattr(option, "lf", False)
        or any("::" in str(arg) for arg in config.args)
    )


def _deleted_in_collected_folder(module: str, config: pytest.Config) -> bool:
    """Whether the test file ``module`` (a path relative to the rootdir) no longer exists and
    lies under one of the paths this run collected."""
    path = config.rootpath / module
    if path.exists():
        return False
    base = config.invocation_params.dir
    return any(path.resolve().is_relative_to((base / arg).resolve()) for arg in config.args)


def find_unused(
    cache: Cache,
    prepared: Mapping[str, Any],
    collected: set[str],
    session: pytest.Session,
) -> list[str]:
    """Roots of the unused entries, sorted. ``prepared`` maps each marked test function whose
    environments are ready to ``(marker args, environments)``; ``collected`` holds every
    marked test function collected, including those whose preparation failed."""
    used = {str(environments.entry.root) for _, environments in prepared.values()}
    selected = {_function_id(item.nodeid) for item in session.items}
    modules = {nodeid.split("::", 1)[0] for nodeid in collected}
    narrowed = _narrowed(session.config)
    unused = []
    for entry in cache.entries():
        if str(entry.root) in used:
            continue
        origin = entry.origin()
        if origin is None:
            continue  # a corrupt entry is reported by the test that uses it
        module = origin.split("::", 1)[0]
        replaced = origin in selected and origin in prepared
        gone = not narrowed and (
            (module in modules and origin not in collected)
            or _deleted_in_collected_folder(module, session.config)
        )
        if replaced or gone:
            unused.append(str(entry.root))
    return sorted(unused)
