"""``logicenv actions``: what each action needs and does, from the simulator's own rules.

``--markdown`` prints ``docs/actions.md`` (regenerate it with
``logicenv actions --markdown > docs/actions.md``).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="logicenv")
>>> register(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["actions", "--markdown"]).markdown
True
"""

from __future__ import annotations

import argparse
from typing import Any

from pytest_logicenv.sim.action_docs import actions_markdown, actions_text


def register(subparsers: Any) -> None:
    actions = subparsers.add_parser(
        "actions",
        help="list the actions with their preconditions and effects",
        description="List every action a policy may use: its ports, its preconditions in the "
        "order the simulator checks them (the code a failure names), and its effect.",
    )
    actions.add_argument(
        "--markdown", action="store_true", help="as the Markdown table of docs/actions.md"
    )
    actions.set_defaults(handler=run_actions)


def run_actions(args: argparse.Namespace) -> int:
    print(actions_markdown() if args.markdown else actions_text(), end="")
    return 0
