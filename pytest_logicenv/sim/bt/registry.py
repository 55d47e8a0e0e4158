"""Users' own nodes for XML policies: registering py_trees behaviours (and composites) under
XML IDs, from Python or from a module named on the command line, in a marker or an ini file.

A nodes module defines ``BT_NODES``, a mapping from XML ID to one of:

* a plain callable (a py_trees behaviour class or factory): a leaf, called with ``name=`` and
  each XML port as a keyword argument holding text, when the tree is built;
* :func:`action` / :func:`condition` ``(factory, *ports)``: a leaf with declared ports, made
  with ``factory(name)``; a :class:`~pytest_logicenv.sim.bt.portio.PortsBehaviour` reads and
  writes them at tick time through ``self.ports``;
* :func:`control` ``(factory, *ports)``: a composite made with ``factory(name, children)``;
* :func:`decorator` ``(factory, *ports)``: made with ``factory(name, child)``.

and, optionally, ``BT_ENUMS``, names scripts may use for integers (BT.CPP's
``registerScriptingEnum``)::

    # my_robot/bt_nodes.py
    from pytest_logicenv.sim.bt import action, input_port, output_port
    BT_NODES = {"CountDown": action(CountDown, input_port("n", "int"), output_port("left"))}
    BT_ENUMS = {"RED": 1, "GREEN": 2}

The IDs of BT.CPP's and Nav2's built-in nodes and of the simulator's leaves cannot be taken
(BT.CPP refuses to register an ID twice): a user node named ``GoTo`` would silently act
instead of the simulator's, so the world and the trace would no longer agree.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import py_trees

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.bt.catalog import (
    BUILTINS,
    SIMULATOR,
    UNSUPPORTED,
    NodeKind,
    NodeRequest,
    NodeSpec,
)
from pytest_logicenv.sim.bt.ports import Port
from pytest_logicenv.sim.policy_file import import_policy_file

#: How a user registers nodes, for messages.
REGISTER_HOW = (
    "logicenv run --nodes MODULE, the marker's nodes=, the logicenv_nodes ini option, or "
    "load_bt_xml(nodes=...)"
)

Behaviour = py_trees.behaviour.Behaviour
#: A user's leaf: called with ``name=`` and each port as text.
NodeFactory = Callable[..., Behaviour]


@dataclass(frozen=True)
class NodeDef:
    """A user node with declared ports (see the module docstring)."""

    kind: NodeKind
    factory: Callable[..., Behaviour]
    ports: tuple[Port, ...] = ()
    description: str = ""
    stateful: bool = False


def action(
    factory: Callable[..., Behaviour],
    *ports: Port,
    description: str = "",
    stateful: bool = False,
) -> NodeDef:
    """A leaf action made with ``factory(name)``, with these ports. As a py_trees behaviour
    it starts again (``initialise``) when ticked after it completed, as BT.CPP's
    ``SyncActionNode`` and Nav2's action nodes do; ``stateful=True`` makes it BT.CPP's
    ``StatefulActionNode``, which returns the status it holds until its parent resets it."""
    return NodeDef("Action", factory, ports, description, stateful)


def condition(factory: Callable[..., Behaviour], *ports: Port, description: str = "") -> NodeDef:
    """A leaf condition made with ``factory(name)``, with these ports."""
    return NodeDef("Condition", factory, ports, description)


def control(factory: Callable[..., Behaviour], *ports: Port, description: str = "") -> NodeDef:
    """A control node made with ``factory(name, children)``."""
    return NodeDef("Control", factory, ports, description)


def decorator(factory: Callable[..., Behaviour], *ports: Port, description: str = "") -> NodeDef:
    """A decorator made with ``factory(name, child)``."""
    return NodeDef("Decorator", factory, ports, description)


UserNode = NodeDef | NodeFactory


def _spec(node_id: str, node: UserNode) -> NodeSpec:
    if not isinstance(node, NodeDef):
        if not callable(node):
            raise PolicyError(
                f"node {node_id!r}: {node!r} is neither a py_trees behaviour factory nor a "
                "node made with action(), condition(), control() or decorator()"
            )
        return NodeSpec(
            node_id,
            "Action",
            lambda r: node(name=r.name, **r.known),
            free_ports=True,
            description=_doc(node),
            origin="user",
            shown_ports=signature_ports(node),
        )
    make: Callable[[NodeRequest], Behaviour]
    children: tuple[int, int | None] = (0, 0)
    if node.kind == "Control":
        make, children = (lambda r: node.factory(r.name, r.children)), (1, None)
    elif node.kind == "Decorator":
        make, children = (lambda r: node.factory(r.name, r.children[0])), (1, 1)
    else:
        make = lambda r: node.factory(r.name)  # noqa: E731
    description = node.description or _doc(node.factory)
    return NodeSpec(
        node_id,
        node.kind,
        make,
        node.ports,
        children,
        description=description,
        origin="user",
        stateful=node.stateful,
    )


def signature_ports(factory: Callable[..., object]) -> tuple[Port, ...]:
    """The ports a plain factory takes, as its keyword parameters name them (``name`` is the
    node's own), their defaults as text.

    >>> def Wave(name, hand="left", times=1): ...
    >>> [(port.name, port.default) for port in signature_ports(Wave)]
    [('hand', 'left'), ('times', '1')]
    """
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature
        return ()
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(
        Port(
            p.name,
            default=None if p.default in (p.empty, None) else str(p.default),
            optional=p.default is not p.empty,
        )
        for p in parameters
        if p.kind in kinds and p.name not in ("name", "self")
    )


def _doc(thing: object) -> str:
    doc = getattr(thing, "__doc__", None) or ""
    return " ".join(doc.split("\n\n")[0].split())


@dataclass(frozen=True)
class Registry:
    """The nodes a policy may use: the built-ins, the simulator's leaves and the user's, plus
    the user's scripting enums."""

    user: Mapping[str, NodeSpec] = field(default_factory=dict)
    enums: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def create(
        cls, nodes: Mapping[str, UserNode] | None = None, enums: Mapping[str, int] | None = None
    ) -> Registry:
        specs = {}
        for node_id, node in (nodes or {}).items():
            if node_id in BUILTINS:
                origin = BUILTINS[node_id].origin
                raise PolicyError(
                    f"node ID {node_id!r} is one of {origin}'s built-in nodes; register yours "
                    "under another ID"
                )
            if node_id in SIMULATOR:
                raise PolicyError(
                    f"node ID {node_id!r} is one of the simulator's {SIMULATOR[node_id].kind}s "
                    "(BT.CPP refuses to register an ID twice); register yours under another "
                    f"ID, e.g. 'My{node_id}'"
                )
            specs[node_id] = _spec(node_id, node)
        for name, value in (enums or {}).items():
            if not isinstance(value, int) or isinstance(value, bool):
                raise PolicyError(f"scripting enum {name!r} must be an integer, got {value!r}")
        return cls(specs, dict(enums or {}))

    def spec(self, node_id: str) -> NodeSpec | None:
        return BUILTINS.get(node_id) or SIMULATOR.get(node_id) or self.user.get(node_id)

    def known(self) -> list[str]:
        return [*BUILTINS, *SIMULATOR, *self.user]

    def unknown(self, node_id: str) -> str:
        """The message for an unknown ID: what it is if it is a BT.CPP or Nav2 node we do not
        provide, else the closest known one."""
        if node_id in UNSUPPORTED:
            return (
                f"{node_id} is {UNSUPPORTED[node_id]}, not supported by pytest-logicenv; "
                f"register your own node for {node_id!r} ({REGISTER_HOW})"
            )
        known = self.known()
        close = difflib.get_close_matches(node_id, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return f"unknown node ID {node_id!r}{hint} (known: {', '.join(known)})"


@dataclass(frozen=True)
class NodesModule:
    """What a nodes module registers."""

    name: str
    nodes: Mapping[str, UserNode]
    enums: Mapping[str, int]


def load_nodes_module(spec: str) -> NodesModule:
    """Import ``spec`` (``pkg.module`` or ``path/to/file.py``, the current folder importable)
    and read its ``BT_NODES`` and ``BT_ENUMS``; :class:`PolicyError` naming what is wrong."""
    try:
        if spec.endswith(".py"):
            module = import_policy_file(Path(spec))
        else:
            sys.path.insert(0, str(Path.cwd()))
            try:
                module = importlib.import_module(spec)
            finally:
                sys.path.remove(str(Path.cwd()))
    except PolicyError:
        raise
    except Exception as error:  # the user's module failed to import
        raise PolicyError(
            f"nodes module {spec!r} cannot be imported ({type(error).__name__}: {error})"
        ) from None
    nodes = getattr(module, "BT_NODES", None)
    if not isinstance(nodes, Mapping):
        raise PolicyError(
            f"nodes module {spec!r} defines no BT_NODES mapping (XML ID -> behaviour factory, "
            "or action(...)/condition(...)/control(...)/decorator(...))"
        )
    enums = getattr(module, "BT_ENUMS", {})
    if not isinstance(enums, Mapping):
        raise PolicyError(f"nodes module {spec!r}: BT_ENUMS must be a mapping name -> int")
    return NodesModule(spec, dict(nodes), dict(enums))


def registry_for(
    modules: Iterable[str] = (),
    nodes: Mapping[str, UserNode] | None = None,
    enums: Mapping[str, int] | None = None,
) -> Registry:
    """One registry from nodes modules and explicit nodes and enums (later ones win)."""
    all_nodes: dict[str, UserNode] = {}
    all_enums: dict[str, int] = {}
    for name in modules:
        loaded = load_nodes_module(name)
        all_nodes.update(loaded.nodes)
        all_enums.update(loaded.enums)
    all_nodes.update(nodes or {})
    all_enums.update(enums or {})
    return Registry.create(all_nodes, all_enums)
