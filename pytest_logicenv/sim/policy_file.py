"""Importing a user's Python file of policies (or of BT.CPP nodes) as a module of its own, for
the runner, the nodes registry, the CLI and the evaluation alike."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from pytest_logicenv.errors import PolicyError


def import_policy_file(path: Path) -> ModuleType:
    """Import a Python file of policies as a module of its own (a unique name, so two
    ``policies.py`` of different tasks do not collide), with the current folder and the
    file's folder importable while it runs, as pytest would make its siblings importable.
    Errors raised by the file itself propagate: the caller says whose file failed."""
    if not path.is_file():
        raise PolicyError(f"{path}: no such file")
    name = (
        f"logicenv_policy_{path.stem}_{hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:8]}"
    )
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise PolicyError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    added = [str(Path.cwd()), str(path.parent)]
    sys.path[:0] = added
    try:
        spec.loader.exec_module(module)
    finally:
        for entry in added:
            sys.path.remove(entry)
    return module
