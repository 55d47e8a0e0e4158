"""``logicenv plan "TASK" --rooms LivingRoom``: derive a plan with the configured LLM.

The endpoint comes from the environment (``LOGICENV_LLM_BASE_URL``, ``LOGICENV_LLM_MODEL``,
``LOGICENV_LLM_API_KEY``; see :class:`~pytest_logicenv.llm.config.LLMConfig`), the object types from
the catalog. The plan is printed, or written atomically with ``--out``; ``--exchanges DIR``
keeps every LLM exchange as ``DIR/<key>.json``, even when the derivation fails, to see what
the model answered.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pytest_logicenv.cache import write_atomic
from pytest_logicenv.cli.args import catalog_of, positive_int
from pytest_logicenv.errors import LLMError, LogicEnvError, PlanDerivationError
from pytest_logicenv.llm.client import llm_from_env
from pytest_logicenv.llm.config import CONFIGURE_HINT
from pytest_logicenv.llm.exchange import Exchange, exchange_to_json
from pytest_logicenv.llm.planner import derive_plan, type_vocabulary
from pytest_logicenv.logic.plan import dump_plan
from pytest_logicenv.logic.trajectories import plan_paths


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "plan",
        help="derive a behavior plan for a task with the configured LLM",
        description="Derive a checked behavior plan (paper 4.2) for TASK with the LLM endpoint "
        "in the environment: LOGICENV_LLM_BASE_URL (or OPENAI_BASE_URL), LOGICENV_LLM_MODEL, "
        "LOGICENV_LLM_API_KEY (or OPENAI_API_KEY).",
    )
    parser.add_argument("task", metavar="TASK", help="the task description, quoted")
    parser.add_argument(
        "--rooms",
        action="append",
        default=[],
        metavar="ROOM[,ROOM]",
        help="room types the task happens in, e.g. LivingRoom (repeatable)",
    )
    parser.add_argument("--out", metavar="PLAN.json", help="write the plan here (else stdout)")
    parser.add_argument(
        "--max-rounds",
        type=positive_int,
        default=3,
        help="answers per step before giving up (default 3)",
    )
    parser.add_argument(
        "--exchanges", metavar="DIR", help="also write every LLM exchange to DIR/<key>.json"
    )
    parser.set_defaults(handler=run_plan)


def run_plan(args: argparse.Namespace) -> int:
    llm = llm_from_env()
    if llm is None:
        raise LLMError(f"no LLM endpoint is configured: {CONFIGURE_HINT}")
    rooms = [room.strip() for item in args.rooms for room in item.split(",") if room.strip()]
    try:
        derivation = derive_plan(
            args.task,
            rooms,
            llm,
            known_types=type_vocabulary(catalog_of(args)),
            max_rounds=args.max_rounds,
        )
    except PlanDerivationError as error:
        if args.exchanges:
            _write_exchanges(Path(args.exchanges), error.exchanges)
        raise
    if args.exchanges:
        _write_exchanges(Path(args.exchanges), derivation.exchanges)
    plan = derivation.plan
    paths = sum(len(group) for group in plan_paths(plan))
    rounds = derivation.rounds
    summary = (
        f"{len(plan.subtasks)} subtasks, {len(plan.factors)} factors, {paths} decision paths; "
        f"model {derivation.model}, {rounds} round{'s' if rounds != 1 else ''}, "
        f"{len(derivation.exchanges)} exchanges"
    )
    if args.out:
        _write(Path(args.out), dump_plan(plan))
        print(f"wrote {args.out}: {summary}")
    else:
        print(dump_plan(plan), end="")
        print(summary, file=sys.stderr)
    return 0


def _write_exchanges(directory: Path, exchanges: Iterable[Exchange]) -> None:
    for exchange in exchanges:
        document = json.dumps(exchange_to_json(exchange), indent=2, ensure_ascii=False)
        _write(directory / f"{exchange.key}.json", document + "\n")


def _write(path: Path, text: str) -> None:
    try:
        write_atomic(path, text)
    except OSError as error:
        raise LogicEnvError(f"cannot write {path}: {error.strerror or error}") from None
