"""Building a loaded document into a fresh py_trees tree, checking everything BT.CPP checks
when it creates a tree, and more, before anything runs.

Per node: its ID is known (else the closest one is named); its ports are declared by the node
(text converts to the port's type); an input without a default is given; the number of
children fits; its scripts parse. Per tree: SubTree calls name a tree and do not recurse, and
the tree they expand to is not too large or too deep (checked first, by
:mod:`~pytest_logicenv.sim.bt.expansion`); the ports of SubTrees a ``<TreeNodesModel>``
declares mandatory are passed; an entry a port names keeps the type of the first port that
named it (BT.CPP refuses an ``int`` entry read by a text port). Each problem is a
:class:`~pytest_logicenv.errors.PolicyError` naming the file, line and node.

What BT.CPP only fails on when the read runs is not refused here, but noted in
:attr:`Builder.lints` (a :class:`~pytest_logicenv.errors.PolicyLintWarning` at load): a
``{key}`` or script that reads an entry nothing writes (a SubTree port, an output port, a
Script, ``SetBlackboard``, the initial blackboard), an input port left out that has no
default, and ``Parallel`` counts its children cannot reach.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

import py_trees

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.actions import ACTIONS, check_call
from pytest_logicenv.sim.bt.blackboard import Blackboard, Entry, assign, kind_of
from pytest_logicenv.sim.bt.catalog import NodeRequest, NodeSpec
from pytest_logicenv.sim.bt.decorators import SubTree
from pytest_logicenv.sim.bt.document import V3_ATTRIBUTES, Document
from pytest_logicenv.sim.bt.expansion import check_expansion
from pytest_logicenv.sim.bt.node import (
    POST_CONDITIONS,
    PRE_CONDITIONS,
    BtNode,
    Conditions,
    Guarded,
    TreeContext,
)
from pytest_logicenv.sim.bt.portio import Ports, PortsBehaviour
from pytest_logicenv.sim.bt.ports import PortType, Value, blackboard_key, convert
from pytest_logicenv.sim.bt.registry import REGISTER_HOW, Registry
from pytest_logicenv.sim.bt.script import Script, ScriptSyntaxError, parse_script
from pytest_logicenv.sim.bt.xmlread import Element, echo
from pytest_logicenv.sim.leaves import CONDITIONS, AgentBehaviour
from pytest_logicenv.sim.selectors import check_reference, targets_from_text
from pytest_logicenv.vocabulary import a_or_an

Behaviour = py_trees.behaviour.Behaviour
GENERIC = ("Action", "Condition", "Control", "Decorator")
SCRIPT_PORTS = {"Script": "code", "ScriptCondition": "code", "Precondition": "if"}
RESERVED = {"name", "ID", "_autoremap", *PRE_CONDITIONS, *POST_CONDITIONS}
#: Attributes starting with '_' that mean something: the scripts, SubTree's _autoremap, and
#: the metadata BT.CPP's own WriteTreeToXML adds (_uid, _fullpath), which it ignores.
UNDERSCORED = (*PRE_CONDITIONS, *POST_CONDITIONS, "_autoremap")
_METADATA = ("_uid", "_fullpath")
#: Nodes whose constructor reads their script, so BT.CPP refuses them without it at creation.
_LOADS_SCRIPT = ("Script", "ScriptCondition")


def label(element: Element) -> str:
    name = element.attrs.get("name") or element.attrs.get("ID")
    return f"<{element.tag}{f' {name!r}' if name else ''}>"


def fail(element: Element, message: str) -> PolicyError:
    return PolicyError(f"{element.where}: {label(element)}: {message}")


def is_port_name(name: str) -> bool:
    """BT.CPP's ``IsAllowedPortName``: starts with a letter, not a reserved attribute."""
    return bool(name) and name[0].isalpha() and name not in RESERVED


def check_underscored(element: Element) -> None:
    """An attribute starting with '_' that BT.CPP does not know is refused: BT.CPP ignores it,
    so a misspelt ``_skipif`` would silently never skip."""
    for name, value in element.attrs.items():
        if not name.startswith("_") or name in UNDERSCORED or name in _METADATA:
            continue
        if name in V3_ATTRIBUTES:
            raise fail(element, f"attribute {name} is BehaviorTree.CPP 3's: {V3_ATTRIBUTES[name]}")
        lowered = {known.lower(): known for known in UNDERSCORED}
        close = difflib.get_close_matches(name.lower(), lowered, n=1, cutoff=0.75)
        hint = f"did you mean {lowered[close[0]]!r}? " if close else ""
        raise fail(
            element,
            f"unknown attribute {name}={echo(value)}; {hint}BT.CPP would ignore it silently "
            f"(the attributes starting with '_' are: {', '.join(UNDERSCORED)})",
        )


def check_async_children(element: Element) -> None:
    """BT.CPP refuses, when it creates the tree, a ReactiveSequence with more than one
    AsyncSequence child (the only async child its check recognises in XML)."""
    if sum(child.tag == "AsyncSequence" for child in element.children) > 1:
        raise fail(
            element,
            "a ReactiveSequence cannot have more than one async child (AsyncSequence): each "
            "would halt the other every tick; make all but one a Sequence",
        )


@dataclass(frozen=True)
class _Read:
    element: Element
    what: str
    board: Blackboard
    key: str


class Builder:
    """Builds one tree of ``document`` (a fresh instance per call of :meth:`build`)."""

    def __init__(
        self, document: Document, registry: Registry, initial: Mapping[str, Value]
    ) -> None:
        self.document = document
        self.registry = registry
        self.initial = initial
        self.context = TreeContext(enums=dict(registry.enums))
        self.reads: list[_Read] = []
        self.writes: list[tuple[Blackboard, str]] = []
        self.lints: list[str] = []

    def build(self, tree_id: str) -> Behaviour:
        check_expansion(self.document.trees, tree_id)  # bounds what the recursion below makes
        board = Blackboard()
        for key, value in self.initial.items():
            board.create(key, initial_type(value))
            board.set(key, value)
        root = self.node(self.document.trees[tree_id].children[0], board, (tree_id,))
        if not isinstance(root, BtNode):
            wrapper = Guarded(root.name, root)
            wrapper.configure(self.context, Ports({}, {}, board, root.name), Conditions(), "")
            root = wrapper
        root.is_root = True
        self.check_reads()
        return root

    # -- one element -----------------------------------------------------------------------

    def node_id(self, element: Element) -> str:
        if element.tag in GENERIC:
            node_id = element.attrs.get("ID", "")
            if not node_id:
                raise fail(element, f"<{element.tag}> needs an ID attribute")
            return node_id
        if "ID" in element.attrs and element.tag != "SubTree":
            raise fail(
                element,
                f"attribute ID is not allowed in <{element.tag}> (write <{element.tag} .../> "
                f'or <Action ID="{element.tag}" .../>)',
            )
        return element.tag

    def node(self, element: Element, board: Blackboard, stack: tuple[str, ...]) -> Behaviour:
        node_id = self.node_id(element)
        check_underscored(element)
        conditions = self.conditions(element, board)
        if node_id == "SubTree":
            return self.subtree(element, board, stack, conditions)
        spec = self.registry.spec(node_id)
        if spec is None:
            raise fail(element, self.unknown(node_id))
        raw = self.ports(element, spec)
        kids = [self.node(child, board, stack) for child in element.children]
        self.check_children(element, spec, len(kids))
        if node_id == "ReactiveSequence":
            check_async_children(element)
        types = self.declare(element, spec, raw, board)
        literal = {p: v for p, v in raw.items() if blackboard_key(p, v) is None}
        known = dict(literal)
        for port, value in raw.items():
            key = blackboard_key(port, value)
            entry = board.entry(key) if key is not None else None
            if entry is not None and isinstance(entry.value, str):
                known[port] = entry.value
        if spec.free_ports and len(known) < len(raw):
            missing = next(p for p in raw if p not in known)
            raise fail(
                element,
                f"port {missing}={raw[missing]!r} reads the blackboard, but {node_id} is a plain "
                "factory that gets its ports as text when the tree is built; register it with "
                "action(...)/condition(...) and declared ports to read them at run time",
            )
        self.check_static(element, spec, raw, literal)
        request = NodeRequest(element.attrs.get("name") or node_id, kids, literal, known, raw)
        behaviour = self.make(element, spec, request)
        if spec.stateful and not isinstance(behaviour, BtNode):
            self.context.stateful.add(id(behaviour))
        return self.finish(
            element, behaviour, Ports(raw, types, board, self.origin(element)), conditions
        )

    def origin(self, element: Element) -> str:
        return f"{element.where} {label(element)}"

    def make(self, element: Element, spec: NodeSpec, request: NodeRequest) -> Behaviour:
        try:
            behaviour = spec.make(request)
        except PolicyError as error:
            raise fail(element, str(error)) from None
        except Exception as error:  # a user's node factory refused its ports
            raise fail(element, f"{type(error).__name__}: {error}") from None
        if not isinstance(behaviour, Behaviour):
            raise fail(
                element,
                f"the factory of {spec.id} returned {type(behaviour).__name__}, not a py_trees "
                "behaviour",
            )
        return behaviour

    def finish(
        self, element: Element, behaviour: Behaviour, ports: Ports, conditions: Conditions
    ) -> Behaviour:
        origin = self.origin(element)
        if isinstance(behaviour, BtNode):
            behaviour.configure(self.context, ports, conditions, origin)
            return behaviour
        if isinstance(behaviour, PortsBehaviour):
            behaviour.bind_ports(ports)
        if isinstance(behaviour, AgentBehaviour):
            behaviour.origin = origin
        if not conditions.pre and not conditions.post:
            return behaviour
        guard = Guarded(behaviour.name, behaviour)
        guard.configure(self.context, ports, conditions, origin)
        return guard

    def unknown(self, node_id: str) -> str:
        message = self.registry.unknown(node_id)
        model = self.document.models.get(node_id)
        if node_id in self.document.trees:
            message += f'; to call the tree {node_id!r} write <SubTree ID="{node_id}"/>'
        elif model is not None:
            message += (
                f"; the file's TreeNodesModel declares it ({model.element.where}) but nothing "
                f"implements it: register a behaviour for it ({REGISTER_HOW})"
            )
        return message

    # -- ports -----------------------------------------------------------------------------

    def ports(self, element: Element, spec: NodeSpec) -> dict[str, str]:
        """The node's port values: the XML's, then the declared defaults."""
        raw = {k: v for k, v in element.attrs.items() if is_port_name(k)}
        if not (spec.free_ports or spec.extra_ports):
            names = [port.name for port in spec.ports]
            for given in raw:
                if given not in names:
                    listed = ", ".join(names) or "none"
                    close = difflib.get_close_matches(given, names, n=1, cutoff=0.75)
                    hint = f"did you mean {close[0]!r}? " if close else ""
                    if spec.origin == "simulator":
                        message = f"{spec.id} has no port {given!r}; {hint}its ports are: {listed}"
                    else:
                        message = f"unknown port {given!r} ({spec.id} ports: {listed})"
                    raise fail(element, message)
        for port in spec.ports:
            if port.name in raw or not port.reads:
                continue
            if port.default is not None:
                raw[port.name] = port.default
            elif not port.optional and (spec.origin == "simulator" or spec.id in _LOADS_SCRIPT):
                raise fail(element, self.missing(spec, port.name))
            elif not port.optional:
                self.lint(element, f"{self.missing(spec, port.name)} (BT.CPP fails when read)")
        return raw

    def lint(self, element: Element, message: str) -> None:
        self.lints.append(str(fail(element, message)))

    def missing(self, spec: NodeSpec, port: str) -> str:
        if spec.id in ACTIONS:
            return f"{spec.id} needs port {port!r} (ports: {', '.join(ACTIONS[spec.id].ports)})"
        if spec.id in CONDITIONS:
            named = CONDITIONS[spec.id].required + CONDITIONS[spec.id].optional
            return f"{spec.id} needs port {port!r} (ports: {', '.join(named)})"
        return f'missing port {port!r}; add {port}="..."'

    def declare(
        self, element: Element, spec: NodeSpec, raw: Mapping[str, str], board: Blackboard
    ) -> dict[str, PortType]:
        """Check text converts to each port's type; create the entries ports name (typed, as
        BT.CPP does when it creates a tree) and note what they read and write."""
        types: dict[str, PortType] = {}
        for name, value in raw.items():
            port = spec.port(name)
            types[name] = port.type if port else "str"
            key = blackboard_key(name, value)
            if key is None and port is not None and port.direction == "output":
                raise fail(
                    element,
                    f"output port {name}={echo(value)} must name a blackboard entry, e.g. "
                    f'{name}="{{{name}}}"',
                )
            if key is None:
                try:
                    convert(value, types[name])
                except ValueError as error:
                    raise fail(element, f"port {name}={echo(value)}: {error}") from None
                if spec.id == "SetBlackboard" and name == "output_key":
                    self.writes.append((board, value))
                continue
            try:
                board.create(key, types[name])
            except ValueError as error:
                raise fail(element, f"port {name}={value!r}: {error}") from None
            if port is None or port.reads:
                self.reads.append(_Read(element, f"port {name}={value!r}", board, key))
            if port is not None and port.writes:
                self.writes.append((board, key))
        if spec.id in SCRIPT_PORTS and SCRIPT_PORTS[spec.id] in raw:
            port_name = SCRIPT_PORTS[spec.id]
            if blackboard_key(port_name, raw[port_name]) is None:
                self.script(element, port_name, raw[port_name], board)
        return types

    def check_children(self, element: Element, spec: NodeSpec, count: int) -> None:
        low, high = spec.children
        if low <= count and (high is None or count <= high):
            return
        if high is None:
            raise fail(element, f"needs at least {low} child node(s)")
        wanted = (
            str(low) if low == high else f"{low} or {high}" if high == low + 1 else f"{low}-{high}"
        )
        raise fail(element, f"takes {wanted} child node(s), it has {count}")

    def check_static(
        self, element: Element, spec: NodeSpec, raw: Mapping[str, str], literal: Mapping[str, str]
    ) -> None:
        """What can be checked now that BT.CPP checks at the first tick."""
        if spec.id == "Parallel":
            count = len(element.children)
            for name in ("success_count", "failure_count"):
                if name not in literal:
                    continue
                number = int(literal[name])
                need = max(count + number + 1, 0) if number < 0 else number
                if count < need:
                    message = f"{name}={number} needs {need} children, it has {count}"
                    self.lint(element, f"{message} (BT.CPP fails when it ticks it)")
        if spec.id in ACTIONS:
            if len(literal) == len(raw):
                self.call(element, spec.id, literal)
            for port, value in literal.items():
                if port not in ACTIONS[spec.id].ports:
                    continue  # a qualifier port, checked with the call
                try:
                    check_reference(value, f"{spec.id} port {port!r}")
                except PolicyError as error:
                    raise fail(element, str(error)) from None

    def call(self, element: Element, action: str, ports: Mapping[str, str]) -> None:
        try:
            check_call(action, targets_from_text(action, ACTIONS[action].ports, ports))
        except PolicyError as error:
            raise fail(element, str(error)) from None

    # -- scripts ---------------------------------------------------------------------------

    def script(self, element: Element, attribute: str, text: str, board: Blackboard) -> Script:
        try:
            script = parse_script(text)
        except ScriptSyntaxError as error:
            raise fail(element, f"{attribute}={echo(text)}: {error}") from None
        enums = self.registry.enums
        for name in script.reads:
            if name not in enums:
                self.reads.append(_Read(element, f"{attribute}={echo(text)}", board, name))
        self.writes.extend((board, name) for name in script.assigned)
        return script

    def conditions(self, element: Element, board: Blackboard) -> Conditions:
        pre = tuple(
            (name, self.script(element, name, element.attrs[name], board))
            for name in PRE_CONDITIONS
            if name in element.attrs
        )
        post = {
            name: self.script(element, name, element.attrs[name], board)
            for name in POST_CONDITIONS
            if name in element.attrs
        }
        return Conditions(pre, post)

    # -- SubTree ---------------------------------------------------------------------------

    def subtree(
        self, element: Element, board: Blackboard, stack: tuple[str, ...], conditions: Conditions
    ) -> Behaviour:
        tree_id = element.attrs.get("ID", "")
        trees = self.document.trees
        if tree_id not in trees:
            raise fail(element, f"no BehaviorTree with ID {tree_id!r} (trees: {', '.join(trees)})")
        if tree_id in stack:
            raise fail(element, f"SubTree {tree_id!r} includes itself ({' > '.join(stack)})")
        if element.children:
            raise fail(element, "a SubTree has no child nodes")
        try:
            autoremap = bool(convert(element.attrs.get("_autoremap", "false"), "bool"))
        except ValueError as error:
            raise fail(element, f"_autoremap: {error}") from None
        remap = {k: v for k, v in element.attrs.items() if is_port_name(k)}
        self.model_defaults(element, tree_id, remap, autoremap)
        inner = Blackboard(board, autoremap=autoremap)
        for port, value in remap.items():
            key = blackboard_key(port, value)
            if key is None:  # a literal: set in the subtree's own scope, a first write
                assign(inner.storage.setdefault(port, Entry("any")), value, port)
            else:
                inner.remapping[port] = key
        root = self.node(trees[tree_id].children[0], inner, (*stack, tree_id))
        node = SubTree(element.attrs.get("name") or tree_id, root)
        node.configure(
            self.context,
            Ports(remap, {}, board, self.origin(element)),
            conditions,
            self.origin(element),
        )
        return node

    def model_defaults(
        self, element: Element, tree_id: str, remap: dict[str, str], autoremap: bool
    ) -> None:
        model = self.document.models.get(tree_id)
        if model is None or model.kind != "SubTree" or autoremap:
            return
        for port in model.ports:
            if port.name in remap:
                continue
            if port.default is None:
                raise fail(
                    element,
                    f"the TreeNodesModel of SubTree {tree_id!r} (line {model.element.line}) "
                    f'declares port {port.name!r} mandatory; pass it ({port.name}="...")',
                )
            remap[port.name] = port.default

    # -- the blackboard check --------------------------------------------------------------

    def check_reads(self) -> None:
        written = {(id(board), key) for board, key in map(self.resolve, self.writes)}
        for read in self.reads:
            board, key = self.resolve((read.board, read.key))
            entry = board.storage.get(key)
            if (id(board), key) in written or (entry is not None and entry.value is not None):
                continue
            alias = f" (as {key!r} in the calling tree)" if key != read.key.lstrip("@") else ""
            self.lint(
                read.element,
                f"{read.what} reads blackboard entry {read.key!r}{alias}, which nothing in the "
                "tree writes: unless the application sets it, pass it from the calling SubTree "
                "or set it first (an output port, a Script, SetBlackboard, or the initial "
                "blackboard)",
            )

    @staticmethod
    def resolve(item: tuple[Blackboard, str]) -> tuple[Blackboard, str]:
        board, key = item
        return board.owner(key)


def initial_type(value: Value) -> PortType:
    """The type of an entry the application sets before ticking, as BT.CPP's ``set`` gives
    it: a number's or flag's own type, while text leaves the entry untyped."""
    if isinstance(value, str):
        return "any"
    return kind_of(value)


def check_models(document: Document, registry: Registry) -> None:
    """``<TreeNodesModel>`` declarations of nodes we have must match them: the same kind of
    node (leaf or not) and ports the node has, in the same direction."""
    for model in document.models.values():
        spec = registry.spec(model.id)
        if spec is None or model.kind == "SubTree":
            continue
        where = f"{model.element.where}: TreeNodesModel <{model.kind} ID={model.id!r}>"
        leaf_model = model.kind in ("Action", "Condition")
        if leaf_model != (spec.kind in ("Action", "Condition")):
            raise PolicyError(
                f"{where}: {model.id} is {a_or_an(spec.kind)} node here; fix the model"
            )
        if spec.free_ports or spec.extra_ports:
            continue
        for port in model.ports:
            ours = spec.port(port.name)
            if ours is None:
                names = ", ".join(p.name for p in spec.ports) or "none"
                raise PolicyError(
                    f"{where}: declares port {port.name!r} (line {port.line}), which "
                    f"{model.id} does not have (its ports: {names})"
                )
            if ours.direction != port.direction:
                raise PolicyError(
                    f"{where}: port {port.name!r} (line {port.line}) is an {ours.direction} "
                    f"port of {model.id}, not {port.direction}"
                )
