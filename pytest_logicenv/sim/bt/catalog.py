"""Every node the loader knows without registration: BT.CPP v4's built-ins, Nav2's controls
and decorators, and the simulator's actions and conditions, each with its ports.

A :class:`NodeSpec` says what a node is (kind, ports, how many children) and how to make it
from a :class:`NodeRequest`; users' own nodes get specs too (see
:mod:`pytest_logicenv.sim.bt.registry`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

import py_trees

from pytest_logicenv.sim import leaves
from pytest_logicenv.sim.actions import ACTIONS
from pytest_logicenv.sim.bt import builtin_actions as basic
from pytest_logicenv.sim.bt import control_nodes, decorators, nav2, timing, try_catch
from pytest_logicenv.sim.bt.node import FAILURE, RUNNING, SKIPPED, SUCCESS
from pytest_logicenv.sim.bt.ports import Port, PortType, inout_port, input_port, output_port
from pytest_logicenv.sim.bt.sim_leaves import XmlAction, XmlCondition
from pytest_logicenv.sim.leaves import CONDITIONS
from pytest_logicenv.sim.selectors import TARGET_QUALIFIERS, text_ports

Behaviour = py_trees.behaviour.Behaviour
NodeKind = Literal["Action", "Condition", "Control", "Decorator"]


@dataclass(frozen=True)
class NodeRequest:
    """What the loader hands a node's maker: the instance name, the children built so far,
    and the port values known when the tree is built (``literal``: written as text;
    ``known``: also those read from entries a SubTree set)."""

    name: str
    children: list[Behaviour] = field(default_factory=list)
    literal: Mapping[str, str] = field(default_factory=dict)
    known: Mapping[str, str] = field(default_factory=dict)
    raw: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class NodeSpec:
    """One node ID: kind, declared ports, children allowed (min, max; ``None``: no limit),
    whether undeclared ports are accepted (``extra_ports``), and its maker. A plain factory's
    leaf takes any port (``free_ports``); ``shown_ports`` are those its signature names, for
    the Groot2 palette only."""

    id: str
    kind: NodeKind
    make: Callable[[NodeRequest], Behaviour]
    ports: tuple[Port, ...] = ()
    children: tuple[int, int | None] = (0, 0)
    extra_ports: bool = False
    free_ports: bool = False
    description: str = ""
    origin: str = "BehaviorTree.CPP"
    shown_ports: tuple[Port, ...] = ()
    #: A user's py_trees leaf ticked as BT.CPP's StatefulActionNode (see ``tick_child``).
    stateful: bool = False

    def port(self, name: str) -> Port | None:
        return next((port for port in self.ports if port.name == name), None)


def _control(
    node_id: str,
    make: Callable[[str, list[Behaviour]], Behaviour],
    *ports: Port,
    children: tuple[int, int | None] = (1, None),
    origin: str = "BehaviorTree.CPP",
) -> NodeSpec:
    return NodeSpec(
        node_id, "Control", lambda r: make(r.name, r.children), ports, children, origin=origin
    )


def _decorator(
    node_id: str,
    make: Callable[[str, Behaviour], Behaviour],
    *ports: Port,
    origin: str = "BehaviorTree.CPP",
) -> NodeSpec:
    return NodeSpec(
        node_id, "Decorator", lambda r: make(r.name, r.children[0]), ports, (1, 1), origin=origin
    )


def _leaf(
    node_id: str, make: Callable[[str], Behaviour], *ports: Port, kind: NodeKind = "Action"
) -> NodeSpec:
    return NodeSpec(node_id, kind, lambda r: make(r.name), ports)


def _switch(cases: int) -> NodeSpec:
    # A missing variable or case is not an error in BT.CPP: the default child runs.
    ports = [input_port(f"case_{i}", optional=True) for i in range(1, cases + 1)]
    ports.insert(0, input_port("variable", optional=True))
    return _control(
        f"Switch{cases}",
        lambda name, kids: control_nodes.Switch(name, kids, cases),
        *ports,
        children=(cases + 1, cases + 1),
    )


def _loop(node_id: str, item: PortType) -> NodeSpec:
    return _decorator(
        node_id,
        lambda name, child: decorators.Loop(name, child, item),
        inout_port("queue", "queue"),
        input_port("if_empty", "status", "SUCCESS"),
        output_port("value", item),
    )


def _builtins() -> list[NodeSpec]:
    entry = input_port("entry", "any", None, "the blackboard entry to watch")
    return [
        _control("Sequence", lambda n, k: control_nodes.Sequence(n, k)),
        _control("AsyncSequence", lambda n, k: control_nodes.Sequence(n, k, asynch=True)),
        _control("SequenceWithMemory", control_nodes.SequenceWithMemory),
        _control("Fallback", lambda n, k: control_nodes.Fallback(n, k)),
        _control("AsyncFallback", lambda n, k: control_nodes.Fallback(n, k, asynch=True)),
        _control("ReactiveSequence", control_nodes.ReactiveSequence),
        _control("ReactiveFallback", control_nodes.ReactiveFallback),
        _control(
            "Parallel",
            control_nodes.Parallel,
            input_port("success_count", "int", "-1"),
            input_port("failure_count", "int", "1"),
        ),
        _control("ParallelAll", control_nodes.ParallelAll, input_port("max_failures", "int", "1")),
        _control("IfThenElse", control_nodes.IfThenElse, children=(2, 3)),
        _control("WhileDoElse", control_nodes.WhileDoElse, children=(2, 3)),
        _control(
            "TryCatch",
            try_catch.TryCatch,
            input_port("catch_on_halt", "bool", "false"),
            children=(2, None),
        ),
        *(_switch(cases) for cases in range(2, 7)),
        _decorator("Inverter", decorators.Inverter),
        _decorator("ForceSuccess", lambda n, c: decorators.ForceResult(n, c, SUCCESS)),
        _decorator("ForceFailure", lambda n, c: decorators.ForceResult(n, c, FAILURE)),
        _decorator(
            "Repeat",
            lambda n, c: decorators.Repeat(n, c, port="num_cycles", until=FAILURE),
            input_port("num_cycles", "int"),
        ),
        _decorator(
            "RetryUntilSuccessful",
            lambda n, c: decorators.Repeat(n, c, port="num_attempts", until=SUCCESS),
            input_port("num_attempts", "int"),
        ),
        _decorator("KeepRunningUntilFailure", decorators.KeepRunningUntilFailure),
        _decorator("Timeout", timing.Timeout, input_port("msec", "unsigned")),
        _decorator("Delay", timing.Delay, input_port("delay_msec", "unsigned")),
        _decorator("RunOnce", decorators.RunOnce, input_port("then_skip", "bool", "true")),
        _decorator(
            "Precondition",
            decorators.Precondition,
            input_port("if"),
            input_port("else", "status", "FAILURE"),
        ),
        _loop("LoopInt", "int"),
        _loop("LoopDouble", "double"),
        _loop("LoopString", "str"),
        _loop("LoopBool", "bool"),
        _decorator("SkipUnlessUpdated", lambda n, c: decorators.EntryUpdated(n, c, SKIPPED), entry),
        _decorator("WaitValueUpdate", lambda n, c: decorators.EntryUpdated(n, c, RUNNING), entry),
        _leaf("AlwaysSuccess", lambda n: basic.Constant(n, SUCCESS)),
        _leaf("AlwaysFailure", lambda n: basic.Constant(n, FAILURE)),
        _leaf("Script", lambda n: basic.ScriptNode(n, condition=False), input_port("code")),
        _leaf(
            "ScriptCondition",
            lambda n: basic.ScriptNode(n, condition=True),
            input_port("code"),
            kind="Condition",
        ),
        _leaf(
            "SetBlackboard",
            basic.SetBlackboard,
            input_port("value", "any"),
            inout_port("output_key", "str"),
        ),
        _leaf("UnsetBlackboard", basic.UnsetBlackboard, input_port("key")),
        _leaf("Sleep", timing.Sleep, input_port("msec", "unsigned")),
        _leaf("WasEntryUpdated", basic.WasEntryUpdated, entry, kind="Condition"),
    ]


def _nav2() -> list[NodeSpec]:
    return [
        _control("PipelineSequence", nav2.PipelineSequence, origin="Nav2"),
        _control(
            "RecoveryNode",
            nav2.RecoveryNode,
            input_port("number_of_retries", "int", "1"),
            children=(2, 2),
            origin="Nav2",
        ),
        _control("RoundRobin", nav2.RoundRobin, origin="Nav2"),
        _decorator(
            "RateController", nav2.RateController, input_port("hz", "double", "10"), origin="Nav2"
        ),
        _decorator("SingleTrigger", nav2.SingleTrigger, origin="Nav2"),
    ]


def _summary(node_id: str) -> str:
    doc = getattr(getattr(leaves, node_id, None), "__doc__", None) or ""
    return " ".join(doc.split("\n\n")[0].split())


def _named_otherwise(action: str, port: str) -> bool:
    """Whether an action's port may be left out for its target qualifier (``PutOn``'s
    ``on``), which names it instead."""
    return port == "target" and action in TARGET_QUALIFIERS


def _simulator() -> list[NodeSpec]:
    specs = []
    for action, spec in ACTIONS.items():
        specs.append(
            NodeSpec(
                action,
                "Action",
                lambda r, a=action: XmlAction(r.name, a, r.literal, r.known, r.raw),  # type: ignore[misc]
                (
                    # PutOn's target may be given as on= instead (checked with the call).
                    *(
                        input_port(port, optional=_named_otherwise(action, port))
                        for port in spec.ports
                    ),
                    *(
                        input_port(name, description=text, optional=True)
                        for name, text in text_ports(action, spec.ports)
                    ),
                ),
                description=_summary(action),
                origin="simulator",
            )
        )
    for condition, cspec in CONDITIONS.items():
        ports = [input_port(p) for p in cspec.required]
        ports += [input_port(p, optional=True) for p in cspec.optional]
        specs.append(
            NodeSpec(
                condition,
                "Condition",
                lambda r, c=condition: XmlCondition(r.name, c, _all_literal(r)),  # type: ignore[misc]
                tuple(ports),
                extra_ports=cspec.extra is not None,
                description=_summary(condition),
                origin="simulator",
            )
        )
    return specs


def _all_literal(request: NodeRequest) -> Mapping[str, str] | None:
    """The ports of a condition when every one of them is text, else ``None``."""
    return request.literal if len(request.literal) == len(request.raw) else None


_TEMPLATE = "a BehaviorTree.CPP node template an application registers for its own type"
_ODOMETRY = "a Nav2 decorator that needs the robot's odometry, which the simulator does not have"
#: Nodes of BT.CPP and Nav2 we do not provide, with what they are: using one says so, instead
#: of listing every ID we know.
UNSUPPORTED: Mapping[str, str] = {
    "PopFromQueue": _TEMPLATE,
    "QueueSize": _TEMPLATE,
    "ConsumeQueue": _TEMPLATE,
    "DistanceController": _ODOMETRY,
    "SpeedController": _ODOMETRY,
    "GoalUpdater": _ODOMETRY,
}
#: The nodes every policy may use, by XML ID.
BUILTINS: Mapping[str, NodeSpec] = {spec.id: spec for spec in (*_builtins(), *_nav2())}
#: The simulator's leaves, by XML ID.
SIMULATOR: Mapping[str, NodeSpec] = {spec.id: spec for spec in _simulator()}
