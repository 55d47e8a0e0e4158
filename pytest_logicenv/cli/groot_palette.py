"""``logicenv groot-palette``: the ``TreeNodesModel`` of the simulator's leaves (and of the
nodes ``--nodes`` modules register) with their ports, for Groot2's palette.

    logicenv groot-palette > nodes.xml
    logicenv groot-palette --nodes my_robot.bt_nodes > nodes.xml
"""

from __future__ import annotations

import argparse
from typing import Any

from pytest_logicenv.sim.bt.palette import palette_xml
from pytest_logicenv.sim.bt.registry import registry_for


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "groot-palette",
        help="write the Groot2 palette (TreeNodesModel) of the simulator's leaves",
        description=(__doc__ or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--nodes",
        action="append",
        default=[],
        metavar="MODULE",
        help="a module (pkg.module or file.py) whose BT_NODES are added (repeatable)",
    )
    parser.set_defaults(handler=palette_command)


def palette_command(args: argparse.Namespace) -> int:
    print(palette_xml(registry_for(args.nodes)), end="")
    return 0
