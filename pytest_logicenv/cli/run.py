"""``logicenv run``: run a behavior-tree policy in one or more scenes and print the outcomes.

``POLICY`` is a BehaviorTree.CPP v4 XML file (``--tree`` picks a tree other than the main
one; ``--nodes MODULE`` registers the module's own leaves and controls, its ``BT_NODES``) or a
py_trees policy written ``module:name`` or ``path/to/file.py:name``, where ``name``
is a function returning a root behaviour (or a root behaviour itself). Exit status: 0 when
every run passes, 1 when some run shows a fault, 2 for bad input.

    logicenv run policy.xml --scene cache/tidy/scenes/toy=doll.json --goal goal.json
    logicenv run my_robot.policies:tidy --scene a.json --scene b.json --json

With several scenes (or ``--known``), names the policy uses are checked before any run: a name
found in no scene, goal fact or ``--known`` is bad input, while a name missing from some scenes
only is a situation the policy must handle.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_logicenv.bounded import positive_int
from pytest_logicenv.errors import FactError, PolicyError
from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.logic.plan import load_plan
from pytest_logicenv.logic.trajectories import situation as situation_of
from pytest_logicenv.logic.trajectories import trajectory_for
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.sim.bt import load_bt_xml
from pytest_logicenv.sim.policy_file import import_policy_file
from pytest_logicenv.sim.runner import DEFAULT_MAX_TICKS, run_policy, vocabulary


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
    parser.add_argument("--goal", metavar="FACTS.json", help="goal facts that must hold at the end")
    parser.add_argument(
        "--plan",
        metavar="PLAN.json",
        help="the plan the scenes were made from: each scene's goal facts and situation are "
        "those of the plan's decision paths its conditions describe",
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
    scenes = [load_scene(path) for path in args.scenes]
    goal = parse_facts(_read_json(args.goal), args.goal) if args.goal else ()
    policy = load_policy(args.policy, tree=args.tree, nodes=args.nodes)
    known = None
    if len(scenes) > 1 or args.known:
        known = vocabulary(scenes, goal) | set(args.known)
    max_ticks = args.max_ticks or DEFAULT_MAX_TICKS
    plan = load_plan(args.plan) if args.plan else None
    outcomes = []
    for scene in scenes:
        goals, situation = tuple(goal), None
        if plan is not None:
            trajectory = trajectory_for(plan, scene.provenance.conditions)
            goals += trajectory.goal
            situation = situation_of(plan, trajectory.paths)
        outcomes.append(
            run_policy(
                policy, scene, goal=goals, situation=situation, max_ticks=max_ticks, known=known
            )
        )
    if args.json:
        print(json.dumps({"outcomes": [o.to_json() for o in outcomes]}, indent=2))
    else:
        for scene, outcome in zip(scenes, outcomes, strict=True):
            if len(scenes) > 1:
                print(f"== {scene.id}")
            print(outcome.explain())
        if len(outcomes) > 1:
            failed = sum(not o.ok for o in outcomes)
            print(f"{len(outcomes)} runs: {len(outcomes) - failed} passed, {failed} failed")
    return 0 if all(o.ok for o in outcomes) else 1


def _read_json(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise FactError(path, f"cannot read the goal file ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise FactError(path, f"not valid JSON ({error})") from None


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
