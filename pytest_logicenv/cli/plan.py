"""``logicenv plan "TASK" --rooms LivingRoom``: derive a plan with the configured LLM.

The endpoint comes from the environment (``LOGICENV_LLM_BASE_URL``, ``LOGICENV_LLM_MODEL``,
``LOGICENV_LLM_API_KEY``; see :class:`~pytest_logicenv.llm.config.LLMConfig`), else from the
pytest configuration's ``logicenv_llm_*`` options as the plugin reads them, the object types
from the catalog (and the user's type file). Each plan answer must pass what the plugin would
check later (:func:`~pytest_logicenv.llm.planner.acceptance_violations`): the plan rules, the
states each type can have, the rooms, the parts, a design of every situation; what fails goes
back to the model. The plan is printed, or written atomically with ``--out``; ``--exchanges
DIR`` keeps every LLM exchange as ``DIR/<key>.json``, even when the derivation fails, to see
what the model answered. A plan still failing after the last round is an error (exit 2) that
lists the problems; with ``--out`` the model's last plan is written beside it as
``NAME.rejected.json``, to fix by hand and check with ``logicenv plan --check``.

``logicenv plan --check PLAN.json`` applies the same checks to a plan file, with no model:
exit 0 when it passes, 1 listing the problems.

Where the ``CI`` variable is set, no model is called unless ``--allow-ci`` says so, as the
plugin calls none there: a CI run must not depend on (or pay for) an LLM.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pytest_logicenv.atomic import write_atomic
from pytest_logicenv.bounded import positive_int
from pytest_logicenv.cli.args import catalog_of, ci_forbids_llm, ini_llm_defaults
from pytest_logicenv.errors import LLMError, LogicEnvError, PlanError
from pytest_logicenv.llm.client import llm_from_env
from pytest_logicenv.llm.config import CONFIGURE_HINT
from pytest_logicenv.llm.exchange import Exchange, PlanDerivationError, exchange_to_json
from pytest_logicenv.llm.planner import acceptance_violations, check_rooms, derive_plan
from pytest_logicenv.logic.plan import dump_plan, load_plan
from pytest_logicenv.logic.trajectories import STRATEGIES, plan_paths

#: The suffix of the file that keeps a rejected plan beside ``--out``.
REJECTED_SUFFIX = ".rejected.json"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "plan",
        help="derive a behavior plan for a task with the configured LLM (or check one)",
        description="Derive a checked behavior plan (paper 4.2) for TASK with the LLM endpoint "
        "in the environment: LOGICENV_LLM_BASE_URL (or OPENAI_BASE_URL), LOGICENV_LLM_MODEL, "
        "LOGICENV_LLM_API_KEY (or OPENAI_API_KEY). With --check, apply the same checks to a "
        "plan file instead.",
    )
    parser.add_argument("task", metavar="TASK", nargs="?", help="the task description, quoted")
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
    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="minimal",
        help="the selection whose situations must all be designable (default minimal)",
    )
    parser.add_argument(
        "--check",
        metavar="PLAN.json",
        help="check this plan file as a derived plan is checked, with no model",
    )
    parser.add_argument(
        "--allow-ci",
        action="store_true",
        help="call the model even though the CI variable is set",
    )
    parser.set_defaults(handler=run_plan)


def run_plan(args: argparse.Namespace) -> int:
    if args.check is not None:
        return _check(args)
    if not args.task:
        raise LogicEnvError("give the task description (quoted), or --check PLAN.json")
    args.rooms = [room.strip() for item in args.rooms for room in item.split(",") if room.strip()]
    check_rooms(args.rooms, "--rooms")  # before any request: the model could never fix them
    _refuse_in_ci(args)
    return _derive(args)


def _refuse_in_ci(args: argparse.Namespace) -> None:
    if ci_forbids_llm(args.allow_ci):
        raise LLMError(
            f"the CI variable is set (CI={os.environ['CI']}), so no model is called: a CI run "
            "must not depend on an LLM; derive the plan where one is available and commit "
            "it, or pass --allow-ci to call the model here anyway"
        )


def _derive(args: argparse.Namespace) -> int:
    llm = llm_from_env(defaults=ini_llm_defaults())
    if llm is None:
        raise LLMError(f"no LLM endpoint is configured: {CONFIGURE_HINT}")
    try:
        derivation = derive_plan(
            args.task,
            args.rooms,
            llm,
            catalog=catalog_of(args),
            strategy=args.strategy,
            max_rounds=args.max_rounds,
        )
    except PlanDerivationError as error:
        if args.exchanges:
            _write_exchanges(Path(args.exchanges), error.exchanges)
        raise _with_rejected_plan(error, args) from None
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


def _with_rejected_plan(error: PlanDerivationError, args: argparse.Namespace) -> LogicEnvError:
    """The derivation's error, saying where the model's last plan was kept and what next."""
    rerun = "run this command again (another model, or more --max-rounds, may do better)"
    if error.document is None:
        return LogicEnvError(f"{error}\nno plan answer got that far; {rerun}")
    if not args.out:
        return LogicEnvError(f"{error}\nwith --out PLAN.json the model's last plan is kept to fix")
    kept = Path(args.out).with_name(Path(args.out).stem + REJECTED_SUFFIX)
    _write(kept, json.dumps(error.document, indent=1, ensure_ascii=False) + "\n")
    return LogicEnvError(
        f"{error}\nthe model's last plan is in {kept}: fix the problems above by hand, check "
        f"it with `logicenv plan --check {kept}` and rename it to {args.out}; or {rerun}"
    )


def _check(args: argparse.Namespace) -> int:
    try:
        plan = load_plan(args.check)
    except PlanError as error:  # a plan that does not even read: its problems, as found
        violations = list(error.violations)
    else:
        catalog = catalog_of(args, args.check)
        violations = acceptance_violations(plan, catalog=catalog, strategy=args.strategy)
    for violation in violations:
        print(f"  {violation}")
    count = len(violations)
    verdict = "passes every check" if not count else f"{count} problem{'s' if count > 1 else ''}"
    print(f"{args.check}: {verdict}")
    return 1 if violations else 0


def _write_exchanges(directory: Path, exchanges: Iterable[Exchange]) -> None:
    for exchange in exchanges:
        document = json.dumps(exchange_to_json(exchange), indent=2, ensure_ascii=False)
        _write(directory / f"{exchange.key}.json", document + "\n")


def _write(path: Path, text: str) -> None:
    try:
        write_atomic(path, text)
    except OSError as error:
        raise LogicEnvError(f"cannot write {path}: {error.strerror or error}") from None
