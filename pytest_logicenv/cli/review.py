"""``logicenv show`` and ``logicenv review``: read a cache entry's plan as a person does, and
record that a person reviewed a plan a model made (``pipeline/plan_review.py``).

An entry is named by its folder, its name in the cache (``tidy_the_bed-1a2b3c4d``), or words
of its task text; the cache is ``--cache-dir``, else the ``logicenv_cache_dir`` option of the
pytest configuration (relative to its ini file), else ``cache/``.
"""

from __future__ import annotations

import argparse
import datetime
import getpass
import subprocess
from pathlib import Path
from typing import Any

from pytest_logicenv.cache import Cache, Entry
from pytest_logicenv.cli.inifile import ini_option
from pytest_logicenv.errors import CacheError
from pytest_logicenv.logic.plan import plan_reading
from pytest_logicenv.pipeline.cached import load_plan_of
from pytest_logicenv.pipeline.plan_review import mark_reviewed, review_status

#: How many entries an error lists when a name matches none or several.
LISTED = 8


def register(subparsers: Any) -> None:
    show = subparsers.add_parser(
        "show",
        help="show a cache entry's plan as a person reads it, and whether it is reviewed",
        description="Show a cache entry: who made its plan, whether a person reviewed it, "
        "and the plan (decision trees, the facts of each answer, the goals). Without ENTRY, "
        "list the entries.",
    )
    show.add_argument("entry", nargs="?", metavar="ENTRY|TASK")
    review = subparsers.add_parser(
        "review",
        help="mark a model's plan as reviewed by a person",
        description="Record in each entry's manifest who reviewed its plan, when, and the "
        "digest of the plan.json reviewed (a later change makes it unreviewed again).",
    )
    review.add_argument("entries", nargs="+", metavar="ENTRY|TASK")
    review.add_argument("--by", metavar="NAME", help="who reviewed (default: git's user.name)")
    for parser in (show, review):
        parser.add_argument("--cache-dir", type=Path, metavar="DIR", default=None)
    show.set_defaults(handler=run_show)
    review.set_defaults(handler=run_review)


def cache_of(args: argparse.Namespace) -> Cache:
    """The cache the command reads: ``--cache-dir``, else the ini's, else ``cache/``."""
    given: Path | None = args.cache_dir
    if given is not None:
        return Cache(given)
    found = ini_option("logicenv_cache_dir")
    return Cache(found[1] / found[0] if found else Path("cache"))


def find_entry(cache: Cache, name: str) -> Entry:
    """The entry ``name`` names: a folder, a key, or words of exactly one entry's task."""
    folder = Path(name)
    if (folder / "manifest.json").is_file() or (folder.is_dir() and name not in ("", ".")):
        return Entry(folder)
    if (cache.root / name / "manifest.json").is_file():
        return Entry(cache.root / name)
    entries = cache.entries()
    wanted = " ".join(name.lower().split())
    found = [e for e in entries if e.key.startswith(name) or wanted in _task(e).lower()]
    if len(found) == 1:
        return found[0]
    listed = ", ".join(e.key for e in (found or entries)[:LISTED]) or "none"
    if found:
        raise CacheError(
            f"{name!r} names {len(found)} entries of {cache.root} ({listed}); say more"
        )
    raise CacheError(
        f"no cache entry {name!r} in {cache.root}: give an entry's folder, its name or words "
        f"of its task text (entries: {listed}; logicenv show lists them; --cache-dir DIR "
        "reads another cache)"
    )


def _task(entry: Entry) -> str:
    identity = entry.identity()
    return "" if identity is None else " ".join(identity[0].split())


def run_show(args: argparse.Namespace) -> int:
    cache = cache_of(args)
    if args.entry is None:
        return _list(cache)
    entry = find_entry(cache, args.entry)
    status = review_status(entry)
    plan = load_plan_of(entry, f"fix {entry.plan_path} by hand, or delete {entry.root}")
    print(str(entry.root))
    print(f"  plan: {status.words}")
    if status.unreviewed:
        print(f"  review it: read the plan below, then run: logicenv review {entry.root}")
    print()
    for line in plan_reading(plan):
        print(line)
    return 0


def _list(cache: Cache) -> int:
    entries = cache.entries()
    if not entries:
        print(f"logicenv show: no cache entries in {cache.root}")
        return 0
    for entry in entries:
        try:
            said = review_status(entry).words
        except CacheError as error:
            said = f"cannot tell: {error}"
        print(f"{entry.key}: {said}")
    return 0


def run_review(args: argparse.Namespace) -> int:
    cache = cache_of(args)
    chosen = [find_entry(cache, name) for name in args.entries]  # all found before any write
    by = args.by or _reviewer()
    at = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for entry in chosen:  # a damaged entry, or a plan that does not load, is not marked
        review_status(entry)
        load_plan_of(entry, f"fix {entry.plan_path} by hand, or delete {entry.root}")
    for entry in chosen:
        status = mark_reviewed(Cache(entry.root.parent), entry, by, at)
        if not status.needs_review:
            print(f"{entry.root}: its plan is {status.made_by}: it needs no review")
        else:
            print(f"{entry.root}: plan reviewed by {by} on {at}")
    return 0


def _reviewer() -> str:
    """Who reviews: git's ``user.name`` where git knows it, else the login name."""
    try:
        found = subprocess.run(
            ["git", "config", "user.name"], capture_output=True, text=True, timeout=5, check=False
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        found = ""
    return found or getpass.getuser()
