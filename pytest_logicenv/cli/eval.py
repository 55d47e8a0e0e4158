"""``logicenv eval``: the paper's metrics on our environments (see pytest_logicenv.evaluation)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from pytest_logicenv.atomic import write_atomic
from pytest_logicenv.cli.args import ci_forbids_llm, ini_llm_defaults, types_path
from pytest_logicenv.errors import LogicEnvError
from pytest_logicenv.evaluation import evaluate, format_table
from pytest_logicenv.logic.trajectories import STRATEGIES


def register(subparsers: Any) -> None:
    command = subparsers.add_parser(
        "eval",
        help="LogicEnvEval metrics (PhyPR, LogCov, SceVR, FauDR, ST, JI) per task",
        description="Prepare each task's environments (reusing the cache), run its correct "
        "and faulty policies in every scene and print the paper's Table 2 columns. "
        "TASKS_DIR holds <id>.json task files with a ground-truth 'plan'; the formal plans "
        "are PLANS_DIR/<id>.json; POLICIES_DIR holds <id>.py with a POLICIES mapping or an "
        "<id>/ folder with correct.xml, counterfactual.xml, unreachable.xml, lackbranch.xml.",
    )
    command.add_argument("tasks_dir", type=Path, metavar="TASKS_DIR")
    command.add_argument("policies_dir", type=Path, metavar="POLICIES_DIR")
    command.add_argument(
        "--plans", type=Path, metavar="PLANS_DIR", help="default TASKS_DIR/../plans"
    )
    command.add_argument("--strategy", default="minimal", choices=STRATEGIES)
    command.add_argument(
        "--compare", action="store_true", help="also run every strategy and compare them"
    )
    command.add_argument(
        "--planner",
        choices=("plan", "llm"),
        default="plan",
        help="where each task's plan comes from: plan, the formal plans in PLANS_DIR "
        "(default); llm, the configured model from the task's description (cached as the "
        "plugin caches it), with LogCov and JI measured against PLANS_DIR as ground truth",
    )
    command.add_argument(
        "--allow-ci",
        action="store_true",
        help="with --planner llm, call the model even though the CI variable is set",
    )
    command.add_argument("--seed", type=int, default=0)
    command.add_argument("--cache-dir", type=Path, default=Path("cache"))
    command.add_argument("--json", type=Path, metavar="PATH", help="write the metrics as JSON")
    command.set_defaults(handler=run_eval)


def run_eval(args: argparse.Namespace) -> int:
    for folder in (args.tasks_dir, args.policies_dir):
        if not folder.is_dir():
            raise LogicEnvError(f"{folder}: not a directory")
    options = {
        "plans_dir": args.plans,
        "seed": args.seed,
        "cache_dir": args.cache_dir,
        "types_file": types_path(args),
        "planner": args.planner,
        "offline": ci_forbids_llm(args.allow_ci),
        "llm_defaults": ini_llm_defaults(),
    }
    evaluation = evaluate(args.tasks_dir, args.policies_dir, strategy=args.strategy, **options)
    print("\n".join(format_table(evaluation)))
    document: dict[str, Any] = evaluation.to_json()
    if args.compare:
        print()
        print("strategies side by side: scenes per task (total), FauDR %, ST s")
        print(f"{'strategy':<11} {'scenes':>7} {'FauDR':>7} {'ST':>9}  per task")
        document["strategies"] = {}
        for strategy in STRATEGIES:
            result = evaluate(args.tasks_dir, args.policies_dir, strategy=strategy, **options)
            overall = result.overall
            counts = " ".join(f"{t.task_id}={t.scenes}" for t in result.tasks)
            faudr, st = overall["FauDR"], overall["ST"]
            print(
                f"{strategy:<11} {sum(t.scenes for t in result.tasks):>7} "
                f"{'-' if faudr is None else f'{faudr:.2f}':>7} "
                f"{'-' if st is None else f'{st:.4f}':>9}  {counts}"
            )
            document["strategies"][strategy] = result.to_json()
    if args.json:
        write_atomic(args.json, json.dumps(document, indent=2) + "\n")
        print(f"metrics written to {args.json}")
    return 0 if evaluation.ok else 1
