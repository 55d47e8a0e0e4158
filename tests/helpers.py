"""Helpers shared by the tests (importable because ``pythonpath = ["tests"]``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
#: The paper's example tasks, shipped with the project for tests and examples.
TASKS = ROOT / "example_agents" / "tasks"


def load_benchmark(name: str) -> ModuleType:
    """Import ``benchmarks/bench_NAME.py`` (not a package) to reuse its generators."""
    path = ROOT / "benchmarks" / f"bench_{name}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{name}", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
