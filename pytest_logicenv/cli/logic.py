"""``logicenv paths``, ``logicenv select`` and ``logicenv convert``: plans from the command line.

Every command accepts our plan format, the paper's plain list, and a task file with a ``plan``
key, and validates the plan first as the plugin does, its object types included (exit 2 with
every violation listed).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from pytest_logicenv.cli.args import catalog_of
from pytest_logicenv.logic.coverage import claimed_paths
from pytest_logicenv.logic.plan import Plan, dump_plan, load_plan
from pytest_logicenv.logic.rules import validate_plan
from pytest_logicenv.logic.trajectories import (
    STRATEGIES,
    DecisionPath,
    plan_paths,
    select,
    situation,
)


def register(subparsers: Any) -> None:
    paths = subparsers.add_parser(
        "paths", help="list a plan's decision paths", description="List every decision path."
    )
    paths.add_argument("plan", metavar="PLAN.json")
    paths.set_defaults(handler=run_paths)

    chooser = subparsers.add_parser(
        "select",
        help="choose the trajectories that cover a plan",
        description="Choose trajectories (one decision path per subtask) with a strategy.",
    )
    chooser.add_argument("plan", metavar="PLAN.json")
    chooser.add_argument("--strategy", choices=STRATEGIES, default="minimal")
    chooser.add_argument("--json", action="store_true", help="print JSON instead of text")
    chooser.set_defaults(handler=run_select)

    convert = subparsers.add_parser(
        "convert",
        help="rewrite a plan in our format (to add facts by hand)",
        description="Print a plan in our JSON format, ready to edit: the paper's form "
        "gains factor ids, value ids and empty realization/goal facts.",
    )
    convert.add_argument("plan", metavar="PLAN.json")
    convert.set_defaults(handler=run_convert)


def _load(args: argparse.Namespace) -> Plan:
    """The plan, checked as the plugin checks it: object types must be the catalog's (and the
    user's type file's)."""
    known = frozenset(catalog_of(args, args.plan).types)
    return validate_plan(load_plan(args.plan), args.plan, known_types=known)


def _path_json(path: DecisionPath, plan: Plan) -> list[dict[str, str]]:
    return [{"question": q, "answer": a} for q, a in situation(plan, [path])]


def _path_text(path: DecisionPath, plan: Plan) -> str:
    parts = [f"{q['question']} {q['answer']}" for q in _path_json(path, plan)]
    return " -> ".join(parts) or "(no decision)"


def run_paths(args: argparse.Namespace) -> int:
    plan = _load(args)
    groups = plan_paths(plan)
    total = sum(len(g) for g in groups)
    combinations = 1
    for group in groups:
        combinations *= len(group)
    print(
        f"{args.plan}: {len(groups)} subtasks, {total} decision paths, {combinations} combinations"
    )
    for subtask, group in zip(plan.subtasks, groups, strict=True):
        print(f"{subtask.name} ({len(group)} path{'s' if len(group) != 1 else ''})")
        width = max(len(p.label or p.subtask) for p in group)
        for path in group:
            name = path.label or path.subtask  # what the path reads as in test ids
            print(f"  {name:<{width}}  {_path_text(path, plan)}  => {path.leaf.action}")
    return 0


def run_select(args: argparse.Namespace) -> int:
    plan = _load(args)
    started = time.perf_counter()
    selection = select(plan, args.strategy)
    elapsed_ms = (time.perf_counter() - started) * 1000
    if args.json:
        document = {
            "strategy": selection.strategy,
            "trajectories": [
                {
                    "id": trajectory.id,
                    "paths": [_path_json(path, plan) for path in trajectory.paths],
                }
                for trajectory in selection.trajectories
            ],
        }
        print(json.dumps(document, indent=2, ensure_ascii=False))
        return 0
    named, every = claimed_paths(plan, selection.trajectories)
    count = len(selection.trajectories)
    print(
        f"{selection.strategy}: {count} trajector{'y' if count == 1 else 'ies'} name "
        f"{named}/{every} decision paths (of {selection.combinations} combinations) "
        f"in {elapsed_ms:.2f} ms"
    )
    for note in selection.notes:
        print(f"note: {note}")
    for trajectory in selection.trajectories:
        print(trajectory.id)
        for path in trajectory.paths:
            print(f"  {path.subtask}: {_path_text(path, plan)}")
    return 0


def run_convert(args: argparse.Namespace) -> int:
    print(dump_plan(_load(args)), end="")
    return 0
