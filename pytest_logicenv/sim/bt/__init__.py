"""BehaviorTree.CPP v4 XML policies for the simulator, read and run as BT.CPP runs them.

One concept per module: :mod:`.xmlread` (BT.CPP's lenient XML), :mod:`.document` (trees,
includes, main tree, node models), :mod:`.blackboard`, :mod:`.ports` and :mod:`.portio`
(entries, ``{key}`` ports, conversions), :mod:`.script` and :mod:`.script_eval` (the scripting
language), :mod:`.node` (the tick protocol, pre/post conditions), :mod:`.control_nodes`,
:mod:`.try_catch` (BT.CPP 4.9's ``TryCatch``),
:mod:`.decorators`, :mod:`.timing`, :mod:`.builtin_actions`, :mod:`.nav2`,
:mod:`.sim_leaves` (the simulator's leaves), :mod:`.catalog` and :mod:`.registry` (node
IDs, users' own nodes), :mod:`.expansion` (how large a tree grows through its SubTrees,
bounded before building), :mod:`.builder`, :mod:`.policy` (the entry points) and
:mod:`.palette` (the Groot2 palette).
"""

from __future__ import annotations

from pytest_logicenv.sim.bt.policy import XmlPolicy, load_bt_xml, parse_bt_xml
from pytest_logicenv.sim.bt.portio import Ports, PortsBehaviour
from pytest_logicenv.sim.bt.ports import Port, inout_port, input_port, output_port
from pytest_logicenv.sim.bt.registry import (
    NodeDef,
    NodeFactory,
    action,
    condition,
    control,
    decorator,
)
from pytest_logicenv.sim.bt.timing import TICK_MS

__all__ = [
    "TICK_MS",
    "NodeDef",
    "NodeFactory",
    "Port",
    "Ports",
    "PortsBehaviour",
    "XmlPolicy",
    "action",
    "condition",
    "control",
    "decorator",
    "inout_port",
    "input_port",
    "load_bt_xml",
    "output_port",
    "parse_bt_xml",
]
