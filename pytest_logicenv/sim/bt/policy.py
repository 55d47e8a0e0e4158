"""BehaviorTree.CPP v4 XML policies, built into the simulator's py_trees leaves.

Supported nodes, with BT.CPP v4's semantics mapped onto py_trees 2.6:

=======================  ==================================================================
``Sequence``             ``Sequence(memory=True)``: a RUNNING child is resumed next tick
``Fallback``             ``Selector(memory=True)``
``ReactiveSequence``     ``Sequence(memory=False)``: every tick restarts at the first child
``ReactiveFallback``     ``Selector(memory=False)``
``Inverter``             ``decorators.Inverter``
``RetryUntilSuccessful``  ``decorators.Retry``; ``num_attempts`` (``-1``: forever). BT.CPP
                         retries a synchronous child within one tick; here each retry takes a
                         tick, so a policy that retries forever meets the tick budget.
``ForceSuccess``         ``decorators.FailureIsSuccess``; ``ForceFailure``: ``SuccessIsFailure``
``AlwaysSuccess``        ``behaviours.Success``; ``AlwaysFailure``: ``behaviours.Failure``
``SubTree``              the tree with that ID, built in place; its other attributes are
                         parameters that ``{name}`` ports inside it read (``_autoremap="true"``
                         also passes on the caller's parameters)
leaves                   every action of :data:`~pytest_logicenv.sim.actions.ACTIONS` and condition
                         of :data:`~pytest_logicenv.sim.leaves.CONDITIONS`, written
                         ``<PickUp object="toy"/>`` or ``<Action ID="PickUp" object="toy"/>``
=======================  ==================================================================

Errors (malformed XML, an unknown node ID, a missing or unknown port, an unknown SubTree, a
``{name}`` no SubTree defines) are :class:`~pytest_logicenv.errors.PolicyError` naming the
file, line and node, raised when the file is loaded, before any run.

>>> policy = parse_bt_xml('''
... <root BTCPP_format="4">
...   <BehaviorTree ID="Tidy">
...     <Fallback>
...       <Inverter><Exists object="book" on="Floor"/></Inverter>
...       <SubTree ID="Place" item="book" place="sofa"/>
...     </Fallback>
...   </BehaviorTree>
...   <BehaviorTree ID="Place">
...     <Sequence>
...       <GoTo target="{item}"/> <PickUp object="{item}"/>
...       <GoTo target="{place}"/> <Action ID="PutOn" object="{item}" target="{place}"/>
...     </Sequence>
...   </BehaviorTree>
... </root>''', source="tidy.xml", tree="Tidy")
>>> [node.name for node in policy().iterate()]
['Exists', 'Inverter', 'GoTo', 'PickUp', 'GoTo', 'PutOn', 'Place', 'Fallback']
>>> parse_bt_xml('<root><BehaviorTree ID="T"><Pickup object="toy"/></BehaviorTree></root>',
...              source="bad.xml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
pytest_logicenv.errors.PolicyError: bad.xml:1: <Pickup>: unknown node ID 'Pickup'; did you ...
"""

from __future__ import annotations

import difflib
import functools
import os
import re
import sys
import xml.parsers.expat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import py_trees

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.actions import ACTIONS
from pytest_logicenv.sim.leaves import CONDITIONS, ActionLeaf, AgentBehaviour, ConditionLeaf

Behaviour = py_trees.behaviour.Behaviour
#: A user's own leaf for XML: called with the node's ``name`` and its ports as keywords.
NodeFactory = Callable[..., Behaviour]

_CONTROLS: Mapping[str, Callable[[str, list[Behaviour]], Behaviour]] = {
    "Sequence": lambda name, kids: py_trees.composites.Sequence(name, memory=True, children=kids),
    "Fallback": lambda name, kids: py_trees.composites.Selector(name, memory=True, children=kids),
    "ReactiveSequence": lambda name, kids: py_trees.composites.Sequence(
        name, memory=False, children=kids
    ),
    "ReactiveFallback": lambda name, kids: py_trees.composites.Selector(
        name, memory=False, children=kids
    ),
}
_DECORATORS: Mapping[str, Callable[[str, Behaviour], Behaviour]] = {
    "Inverter": lambda name, child: py_trees.decorators.Inverter(name, child),
    "ForceSuccess": lambda name, child: py_trees.decorators.FailureIsSuccess(name, child),
    "ForceFailure": lambda name, child: py_trees.decorators.SuccessIsFailure(name, child),
}
_CONSTANTS: Mapping[str, Callable[[str], Behaviour]] = {
    "AlwaysSuccess": lambda name: py_trees.behaviours.Success(name),
    "AlwaysFailure": lambda name: py_trees.behaviours.Failure(name),
}
_RETRY = "RetryUntilSuccessful"
_SUBTREE = "SubTree"
# Generic forms: <Action ID="PickUp" .../> is <PickUp .../>.
_GENERIC = ("Action", "Condition", "Control", "Decorator")
# A port value that reads a blackboard entry: {key}, or {=} for the port's own name.
_BLACKBOARD_KEY = re.compile(r"\{\s*(=|[A-Za-z_@][\w.@/]*)\s*\}")
# Attributes every node may carry that are not ports.
_NOT_PORTS = ("ID", "name", "_description")


@dataclass(frozen=True)
class Element:
    """One XML element, with the line it starts on."""

    tag: str
    attrs: Mapping[str, str]
    line: int
    children: tuple[Element, ...] = field(default=())


def _read_xml(text: str, source: str) -> Element:
    """Parse with expat (for line numbers); DTDs are refused, so no entity tricks."""
    parser = xml.parsers.expat.ParserCreate()
    stack: list[tuple[str, dict[str, str], int, list[Element]]] = [("", {}, 0, [])]

    def start(tag: str, attrs: dict[str, str]) -> None:
        stack.append((tag, attrs, parser.CurrentLineNumber, []))

    def end(tag: str) -> None:
        name, attrs, line, children = stack.pop()
        stack[-1][3].append(Element(name, attrs, line, tuple(children)))

    def doctype(*_: object) -> None:
        raise PolicyError(f"{source}:{parser.CurrentLineNumber}: DOCTYPE is not allowed")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as error:
        raise PolicyError(
            f"{source}:{error.lineno}:{error.offset}: malformed XML: "
            f"{xml.parsers.expat.ErrorString(error.code)}"
        ) from None
    return stack[0][3][0]


class XmlPolicy:
    """A loaded BT.CPP document; calling it builds a fresh py_trees tree of its main tree (a
    policy factory for :func:`~pytest_logicenv.sim.runner.run_policy`)."""

    def __init__(
        self,
        source: str,
        trees: Mapping[str, Element],
        main: str,
        nodes: Mapping[str, NodeFactory],
    ) -> None:
        self.source = source
        self.trees = dict(trees)
        self.main = main
        self.nodes = dict(nodes)

    def __call__(self) -> Behaviour:
        return _Builder(self).tree(self.main, {}, ())

    def tree(self, tree_id: str) -> XmlPolicy:
        """The same document with ``tree_id`` as its main tree (checked by building it)."""
        if tree_id not in self.trees:
            raise PolicyError(
                f"{self.source}: no BehaviorTree with ID {tree_id!r} "
                f"(trees: {', '.join(self.trees)})"
            )
        policy = XmlPolicy(self.source, self.trees, tree_id, self.nodes)
        policy()  # build once, so that errors show now, not in the middle of a test run
        return policy

    def __repr__(self) -> str:
        return f"XmlPolicy({self.source!r}, tree={self.main!r})"


def parse_bt_xml(
    text: str,
    source: str = "<string>",
    *,
    tree: str | None = None,
    nodes: Mapping[str, NodeFactory] | None = None,
) -> XmlPolicy:
    """Read a BT.CPP v4 document. ``tree`` picks the main tree (default: the root's
    ``main_tree_to_execute``, or the only tree); ``nodes`` adds the user's own leaf IDs."""
    root = _read_xml(text, source)
    if root.tag != "root":
        raise PolicyError(f"{source}:{root.line}: the document element must be <root>")
    version = root.attrs.get("BTCPP_format", "4")
    if version != "4":
        raise PolicyError(
            f"{source}:{root.line}: BTCPP_format {version!r} is not supported; convert the "
            "file to format 4 (BehaviorTree.CPP ships a v3-to-v4 converter)"
        )
    trees: dict[str, Element] = {}
    for child in root.children:
        if child.tag == "TreeNodesModel":
            continue  # Groot's palette of node types; nothing to run
        if child.tag != "BehaviorTree":
            raise PolicyError(
                f"{source}:{child.line}: <{child.tag}> is not supported under <root>; "
                "expected <BehaviorTree ID=...> (put included trees in this file)"
            )
        tree_id = child.attrs.get("ID")
        if not tree_id:
            raise PolicyError(f"{source}:{child.line}: <BehaviorTree> needs an ID")
        if tree_id in trees:
            raise PolicyError(f"{source}:{child.line}: a second BehaviorTree {tree_id!r}")
        if len(child.children) != 1:
            raise PolicyError(
                f"{source}:{child.line}: BehaviorTree {tree_id!r} must have exactly one child "
                f"node, it has {len(child.children)}"
            )
        trees[tree_id] = child
    if not trees:
        raise PolicyError(f"{source}: no <BehaviorTree> in the document")
    main = tree or root.attrs.get("main_tree_to_execute")
    if main is None:
        if len(trees) > 1:
            raise PolicyError(
                f"{source}: {len(trees)} BehaviorTrees and no main_tree_to_execute; "
                f"set it on <root> or choose one of: {', '.join(trees)}"
            )
        main = next(iter(trees))
    return XmlPolicy(source, trees, main, nodes or {}).tree(main)


def load_bt_xml(
    path: str | os.PathLike[str],
    *,
    tree: str | None = None,
    nodes: Mapping[str, NodeFactory] | None = None,
) -> XmlPolicy:
    """Read a BT.CPP v4 file (see :func:`parse_bt_xml`); repeated loads of an unchanged file
    without ``nodes`` come from a cache."""
    file = Path(path)
    try:
        stat = file.stat()
    except OSError as error:
        raise PolicyError(f"{file}: cannot read the policy file ({error.strerror})") from None
    if nodes:
        return parse_bt_xml(_read_text(file), str(file), tree=tree, nodes=nodes)
    return _load_cached(str(file.resolve()), str(file), stat.st_mtime_ns, stat.st_size, tree)


@functools.lru_cache(maxsize=64)
def _load_cached(resolved: str, shown: str, mtime: int, size: int, tree: str | None) -> XmlPolicy:
    return parse_bt_xml(_read_text(Path(resolved)), shown, tree=tree)


def _read_text(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PolicyError(f"{file}: cannot read the policy file ({error})") from None


class _Builder:
    """Builds one tree of a document into fresh py_trees behaviours."""

    def __init__(self, policy: XmlPolicy) -> None:
        self.policy = policy

    def fail(self, element: Element, message: str) -> PolicyError:
        name = element.attrs.get("name") or element.attrs.get("ID")
        label = f"<{element.tag}{f' {name!r}' if name else ''}>"
        return PolicyError(f"{self.policy.source}:{element.line}: {label}: {message}")

    def tree(self, tree_id: str, scope: Mapping[str, str], stack: tuple[str, ...]) -> Behaviour:
        return self.node(self.policy.trees[tree_id].children[0], scope, (*stack, tree_id))

    def node(self, element: Element, scope: Mapping[str, str], stack: tuple[str, ...]) -> Behaviour:
        node_id = element.tag
        if element.tag in _GENERIC:
            node_id = element.attrs.get("ID", "")
            if not node_id:
                raise self.fail(element, f"<{element.tag}> needs an ID attribute")
        name = element.attrs.get("name") or node_id
        for attr in element.attrs:
            if attr.startswith("_") and attr not in ("_description", "_autoremap"):
                raise self.fail(element, f"attribute {attr!r} (BT.CPP scripting) is not supported")
        ports = {k: v for k, v in element.attrs.items() if k not in _NOT_PORTS}
        if node_id == _SUBTREE:
            return self.subtree(element, ports, scope, stack)
        kids = [self.node(child, scope, stack) for child in element.children]
        if node_id in _CONTROLS:
            self.expect(element, ports, (), kids, at_least=1)
            return _CONTROLS[node_id](name, kids)
        if node_id in _DECORATORS:
            self.expect(element, ports, (), kids, exactly=1)
            return _DECORATORS[node_id](name, kids[0])
        if node_id == _RETRY:
            self.expect(element, ports, ("num_attempts",), kids, exactly=1)
            return py_trees.decorators.Retry(name, kids[0], self.attempts(element, ports))
        if node_id in _CONSTANTS:
            self.expect(element, ports, (), kids, exactly=0)
            return _CONSTANTS[node_id](name)
        self.expect(element, {}, (), kids, exactly=0)
        values = {port: self.resolve(element, port, value, scope) for port, value in ports.items()}
        return self.leaf(element, node_id, name, values)

    def leaf(self, element: Element, node_id: str, name: str, ports: dict[str, str]) -> Behaviour:
        make = self.leaf_factory(element, node_id)
        try:
            behaviour = make(name, ports)
        except PolicyError as error:
            raise self.fail(element, str(error)) from None
        except Exception as error:  # a user's node factory refused its ports
            raise self.fail(element, f"{type(error).__name__}: {error}") from None
        if isinstance(behaviour, AgentBehaviour):
            behaviour.origin = f"{self.policy.source}:{element.line} <{element.tag}>"
        return behaviour

    def leaf_factory(
        self, element: Element, node_id: str
    ) -> Callable[[str, dict[str, str]], Behaviour]:
        if node_id in self.policy.nodes:
            user = self.policy.nodes[node_id]
            return lambda name, ports: user(name=name, **ports)
        if node_id in ACTIONS:
            return lambda name, ports: ActionLeaf(node_id, ports, name=name)
        if node_id in CONDITIONS:
            return lambda name, ports: ConditionLeaf(node_id, ports, name=name)
        known = [*_CONTROLS, *_DECORATORS, _RETRY, *_CONSTANTS, _SUBTREE, *ACTIONS, *CONDITIONS]
        known += list(self.policy.nodes)
        close = difflib.get_close_matches(node_id, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise self.fail(element, f"unknown node ID {node_id!r}{hint} (known: {', '.join(known)})")

    def subtree(
        self,
        element: Element,
        ports: Mapping[str, str],
        scope: Mapping[str, str],
        stack: tuple[str, ...],
    ) -> Behaviour:
        tree_id = element.attrs.get("ID", "")
        if tree_id not in self.policy.trees:
            raise self.fail(
                element,
                f"no BehaviorTree with ID {tree_id!r} (trees: {', '.join(self.policy.trees)})",
            )
        if tree_id in stack:
            raise self.fail(element, f"SubTree {tree_id!r} includes itself ({' > '.join(stack)})")
        if element.children:
            raise self.fail(element, "a SubTree has no child nodes")
        autoremap = ports.get("_autoremap", "false").strip().lower() == "true"
        inner = dict(scope) if autoremap else {}
        for port, value in ports.items():
            if port != "_autoremap":
                inner[port] = self.resolve(element, port, value, scope)
        root = self.tree(tree_id, inner, stack)
        if element.attrs.get("name"):
            root.name = element.attrs["name"]
        elif not self.policy.trees[tree_id].children[0].attrs.get("name"):
            root.name = tree_id  # an unnamed subtree root is known by its tree's ID
        return root

    def resolve(self, element: Element, port: str, value: str, scope: Mapping[str, str]) -> str:
        """A port's value: literal text, or ``{key}`` (``{=}``: the port's own name) read from
        the SubTree parameters in scope."""
        match = _BLACKBOARD_KEY.fullmatch(value.strip())
        if match is None:  # literal text (JSON in a Check's fact port too)
            return value
        key = port if match.group(1) == "=" else match.group(1)
        if key not in scope:
            defined = ", ".join(scope) or "none"
            raise self.fail(
                element,
                f"port {port}={value!r} reads {key!r}, which no enclosing SubTree passes "
                f"(parameters here: {defined}); blackboard entries set at run time are not "
                "supported, write the object reference instead",
            )
        return scope[key]

    def expect(
        self,
        element: Element,
        ports: Mapping[str, str],
        required: tuple[str, ...],
        kids: list[Behaviour],
        *,
        at_least: int = 0,
        exactly: int | None = None,
    ) -> None:
        for port in ports:
            if port not in required:
                raise self.fail(element, f"unknown port {port!r}")
        for port in required:
            if port not in ports:
                raise self.fail(element, f"missing port {port!r}")
        if exactly is not None and len(kids) != exactly:
            raise self.fail(element, f"takes {exactly} child node(s), it has {len(kids)}")
        if len(kids) < at_least:
            raise self.fail(element, f"needs at least {at_least} child node(s)")

    def attempts(self, element: Element, ports: Mapping[str, str]) -> int:
        try:
            count = int(ports["num_attempts"])
        except ValueError:
            count = 0
        if count == -1:
            return sys.maxsize  # "forever": the tick budget ends it
        if count < 1:
            raise self.fail(
                element,
                f"num_attempts must be a positive integer or -1, got {ports['num_attempts']!r}",
            )
        return count
