"""``logicenv clean``: remove the cache entries no test uses any more.

Only a test collection knows which entries are in use, so this runs ``pytest --collect-only``
with ``--logicenv-clean`` (or without it, for ``--dry-run``) and shows what pytest printed.
Which entries are unused is decided over the whole project's tests (its ``testpaths``), so
extra arguments after ``--`` (``logicenv clean -- -p my_plugin``) never narrow it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    clean = subparsers.add_parser(
        "clean",
        help="remove cache entries no test uses",
        description="Collect the tests (pytest --collect-only) and remove the cache entries "
        "none of them uses. Arguments after -- are passed to pytest.",
    )
    clean.add_argument("--dry-run", action="store_true", help="list them, remove nothing")
    clean.add_argument("pytest_args", nargs="*", metavar="PYTEST_ARG")
    clean.set_defaults(handler=run_clean)


def run_clean(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        result_file = Path(scratch) / "unused.json"
        command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist"]
        command += ["--logicenv-offline", f"--logicenv-unused-json={result_file}"]
        if not args.dry_run:
            command.append("--logicenv-clean")
        command += list(args.pytest_args)
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if not result_file.is_file():
            print(result.stdout[-3000:], file=sys.stderr)
            print(result.stderr[-3000:], file=sys.stderr)
            print("logicenv clean: pytest did not finish collecting (see above)", file=sys.stderr)
            return 1
        found = json.loads(result_file.read_text(encoding="utf-8"))
    unused, undecided = found["unused"], found.get("undecided")
    if undecided:
        print(f"logicenv clean: no cache entry removed: {undecided}", file=sys.stderr)
        return 1
    if not unused:
        print("logicenv clean: no unused cache entries")
        return 0
    verb = "would remove" if args.dry_run else "removed"
    noun = "entry" if len(unused) == 1 else "entries"
    print(f"logicenv clean: {verb} {len(unused)} unused cache {noun}")
    for root in unused:
        print(f"  {root}")
    return 0
