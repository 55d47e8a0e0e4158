"""``logicenv run``: run a behavior-tree policy in one or more scenes and print the outcomes.

``POLICY`` is a BehaviorTree.CPP v4 XML file (``--tree`` picks a tree other than the main
one; ``--nodes MODULE`` registers the module's own leaves and controls, its ``BT_NODES``) or a
py_trees policy written ``module:name`` or ``path/to/file.py:name``, where ``name``
is a function returning a root behaviour (or a root behaviour itself). Exit status: 0 when
every run passes, 1 when some run shows a fault, 2 for bad input.

Each scene is judged as pytest judges it, by its situation: the goal facts, the answers of
the plan's questions and the plan's other branches (a policy that did another situation's work
is a lackbranch). The situation is the ``--plan``'s decision paths the scene's conditions
describe; without ``--plan``, the one a scene saved by ``--logicenv-explore`` carries, or that
of the cache entry the scene file lies in. ``--goal`` adds facts; a scene with no situation
needs ``--plan`` or ``--goal`` (an empty list: only SUCCESS counts).

    logicenv run policy.xml --scene cache/tidy-1a2b3c4d/scenes/toy_type=doll.json
    logicenv run policy.xml --scene .logicenv/explored/test_tidy.py--test_it.json
    logicenv run my_robot.policies:tidy --scene a.json --scene b.json --plan tidy.json --json

With a plan, the names a policy may use are the plan's and the catalog's, as under pytest: a
typo is bad input before any run. Without one, names are checked only with several scenes (or
``--known``): a name found in no scene, goal fact or ``--known`` is bad input, while a name
missing from some scenes only is a situation the policy must handle.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_logicenv.bounded import positive_int, read_json_file
from pytest_logicenv.errors import FactError, PolicyError, SceneError
from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import load_plan
from pytest_logicenv.logic.trajectories import trajectory_for
from pytest_logicenv.pipeline.entry_situation import scene_file_situation, scene_file_witness
from pytest_logicenv.sim.bt import load_bt_xml
from pytest_logicenv.sim.judge import Situation, judge, plan_names, scene_situation, situation_of
from pytest_logicenv.sim.policy_file import import_policy_file
from pytest_logicenv.sim.runner import vocabulary
from pytest_logicenv.sim.situation_file import read_scene_file

if TYPE_CHECKING:
    from pytest_logicenv.logic.facts import Fact
    from pytest_logicenv.logic.plan import Plan
    from pytest_logicenv.sim.outcome import Outcome


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run a behavior-tree policy in scenes and classify the outcome",
        description=(__doc__ or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("policy", metavar="POLICY", help="XML file, module:name or file.py:name")
    parser.add_argument(
        "--scene",
        dest="scenes",
        action="append",
        required=True,
        metavar="SCENE.json",
        help="a scene file (repeat for several scenes)",
    )
    parser.add_argument(
        "--goal", metavar="FACTS.json", help="goal facts that must hold at the end (added)"
    )
    parser.add_argument(
        "--plan",
        metavar="PLAN.json",
        help="the plan the scenes were made from: each scene's goal facts, situation and "
        "branches are those of the plan's decision paths its conditions describe (default: "
        "the situation a saved scene carries, or its cache entry's)",
    )
    parser.add_argument("--tree", metavar="ID", help="the BehaviorTree of an XML file to run")
    parser.add_argument(
        "--nodes",
        action="append",
        default=[],
        metavar="MODULE",
        help="a module (pkg.module or file.py) whose BT_NODES the XML policy may use (repeatable)",
    )
    parser.add_argument(
        "--max-ticks", type=positive_int, default=None, metavar="N", help="tick budget of a run"
    )
    parser.add_argument(
        "--known",
        action="append",
        default=[],
        metavar="NAME",
        help="a name that may be absent from these scenes (checks every name the policy uses)",
    )
    parser.add_argument("--json", action="store_true", help="print the outcomes as JSON")
    parser.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    policy = load_policy(args.policy, tree=args.tree, nodes=args.nodes)
    situations = _situations(args)
    outcomes = [judge(policy, situation) for situation in situations]
    if args.json:
        print(json.dumps({"outcomes": [o.to_json() for o in outcomes]}, indent=2))
    else:
        _print(situations, outcomes)
    return 0 if all(o.ok for o in outcomes) else 1


def _print(situations: Sequence[Situation], outcomes: Sequence[Outcome]) -> None:
    for situation, outcome in zip(situations, outcomes, strict=True):
        if len(situations) > 1:
            print(f"== {situation.scene.id}")
        print(outcome.explain())
    if len(outcomes) > 1:
        failed = sum(not o.ok for o in outcomes)
        print(f"{len(outcomes)} runs: {len(outcomes) - failed} passed, {failed} failed")


def _situations(args: argparse.Namespace) -> list[Situation]:
    """Each scene's situation: the ``--plan``'s, else the one its file saved, else its cache
    entry's, plus the ``--goal`` facts; names the policy may use checked as under pytest."""
    goal = parse_facts(_read_json(args.goal), args.goal) if args.goal else None
    plan = load_plan(args.plan) if args.plan else None
    found = [_situation(Path(path), plan, goal) for path in args.scenes]
    ticks = args.max_ticks
    return [
        replace(s, known=_known(s, found, goal or (), args.known), max_ticks=ticks or s.max_ticks)
        for s in found
    ]


def _situation(path: Path, plan: Plan | None, goal: Sequence[Fact] | None) -> Situation:
    """The scene's situation (``goal``: the ``--goal`` facts, ``None`` when not given)."""
    read = read_scene_file(path)
    found: Situation | None
    if plan is not None:
        trajectory = trajectory_for(plan, read.scene.provenance.conditions)
        found = situation_of(plan, trajectory, read.scene, known=plan_names(plan))
        found = replace(found, witness=scene_file_witness(path))
    else:
        found = read.situation or scene_file_situation(path, read.scene)
    if found is not None:
        return found.adding_goal(goal or ())
    if goal is None:
        raise SceneError(f"{path}: {_NO_SITUATION}")
    return scene_situation(read.scene, goal=goal)


_NO_SITUATION = (
    "the scene file carries no situation (no plan, no goal), so every run would pass; pass "
    "--plan PLAN.json (the plan the scene was made from) or --goal FACTS.json (what must "
    "hold at the end), or give a scene of a cache entry (cache/ENTRY/scenes/ID.json) or one "
    "that --logicenv-explore saved"
)


def _known(
    situation: Situation, every: Sequence[Situation], goal: Sequence[Fact], extra: Sequence[str]
) -> frozenset[str] | None:
    """The names ``situation``'s runs may use: its plan's, as under pytest; without a plan,
    those of every scene given and the goal, checked only with several scenes or
    ``--known``."""
    if situation.known is not None:
        return situation.known | set(extra)
    if len(every) > 1 or extra:
        return vocabulary([s.scene for s in every], goal) | set(extra)
    return None


def _read_json(path: str) -> Any:
    def fail(reason: str) -> FactError:
        return FactError(path, reason.removeprefix(f"{path}: "))

    try:
        return read_json_file(Path(path), fail)
    except OSError as error:
        raise FactError(path, f"cannot read the goal file ({error.strerror})") from None


def load_policy(spec: str, *, tree: str | None = None, nodes: Sequence[str] = ()) -> Any:
    """The policy ``spec`` names: an XML file's factory (with the user's nodes from the
    ``nodes`` modules), or a module's (or a Python file's) function or root behaviour."""
    if spec.lower().endswith(".xml"):
        return load_bt_xml(spec, tree=tree, modules=nodes)
    if tree is not None or nodes:
        raise PolicyError("--tree and --nodes apply to BehaviorTree.CPP XML policies only")
    module_name, sep, attr = spec.rpartition(":")
    if not sep or not module_name or not attr:
        raise PolicyError(f"{spec}: a policy is an XML file, module:name or path/to/file.py:name")
    try:
        if module_name.endswith(".py"):
            module = import_policy_file(Path(module_name))
        else:
            sys.path.insert(0, str(Path.cwd()))
            try:
                module = importlib.import_module(module_name)
            finally:
                sys.path.remove(str(Path.cwd()))
    except PolicyError:
        raise
    except Exception as error:  # the user's module failed to import
        reason = f"{type(error).__name__}: {error}"
        raise PolicyError(f"{spec}: cannot import {module_name} ({reason})") from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise PolicyError(f"{spec}: {module_name} has no {attr!r}") from None
