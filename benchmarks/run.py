"""Benchmarks that print figures: ``python benchmarks/run.py NAME [ARGS...]``.

Each benchmark lives in ``benchmarks/bench_NAME.py`` with a ``main(argv) -> int``. They compare
against a baseline measured in the same run and print ratios; nothing here asserts a time.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The tests' generators (synthetic plans and scene specs, hand-built scenes) are the inputs
#: of several benchmarks; the tests never import from here.
TESTS = HERE.parent / "tests"


def available() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in HERE.glob("bench_*.py"))


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in available():
        print(f"usage: python benchmarks/run.py {{{','.join(available())}}} [ARGS...]")
        return 2
    path = HERE / f"bench_{argv[0]}.py"
    spec = importlib.util.spec_from_file_location(f"bench_{argv[0]}", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    sys.path[:0] = [str(HERE), str(TESTS)]
    spec.loader.exec_module(module)
    return int(module.main(argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
