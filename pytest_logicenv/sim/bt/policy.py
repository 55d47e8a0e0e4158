"""BehaviorTree.CPP v4 XML policies: loading a file into a policy factory for the simulator.

:func:`load_bt_xml` reads a file (and its includes), :func:`parse_bt_xml` a string; both
check the whole document (see :mod:`pytest_logicenv.sim.bt.builder`) and return an
:class:`XmlPolicy`, which builds a fresh py_trees tree each time it is called. Nodes follow
BT.CPP v4's semantics (:mod:`~pytest_logicenv.sim.bt.control_nodes`,
:mod:`~pytest_logicenv.sim.bt.decorators`, :mod:`~pytest_logicenv.sim.bt.timing`,
:mod:`~pytest_logicenv.sim.bt.nav2`); the simulator's actions and conditions are leaves,
written ``<PickUp object="toy"/>`` or ``<Action ID="PickUp" object="toy"/>``; users add their
own (:mod:`~pytest_logicenv.sim.bt.registry`).

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
['Exists', 'Inverter', 'GoTo', 'PickUp', 'GoTo', 'PutOn', 'Sequence', 'Place', 'Fallback']
>>> parse_bt_xml('<root><BehaviorTree ID="T"><Pickup object="toy"/></BehaviorTree></root>',
...              source="bad.xml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
pytest_logicenv.errors.PolicyError: bad.xml:1: <Pickup>: unknown node ID 'Pickup'; did you ...
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import py_trees

from pytest_logicenv.errors import PolicyError, PolicyLintWarning
from pytest_logicenv.sim.bt.builder import Builder, check_models
from pytest_logicenv.sim.bt.document import Document, load_document, parse_document
from pytest_logicenv.sim.bt.ports import Value
from pytest_logicenv.sim.bt.registry import NodeFactory, Registry, UserNode, registry_for

Behaviour = py_trees.behaviour.Behaviour
__all__ = ["NodeFactory", "XmlPolicy", "load_bt_xml", "parse_bt_xml"]


class XmlPolicy:
    """A loaded BT.CPP document; calling it builds a fresh py_trees tree of its main tree (a
    policy factory for :func:`~pytest_logicenv.sim.runner.run_policy`)."""

    def __init__(
        self,
        document: Document,
        main: str,
        registry: Registry | None = None,
        blackboard: Mapping[str, Value] | None = None,
    ) -> None:
        self.document = document
        self.main = main
        self.registry = registry or Registry()
        self.blackboard = dict(blackboard or {})
        #: What the tree reads that nothing writes, and the like (see :meth:`tree`).
        self.lints: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return self.document.source

    @property
    def trees(self) -> tuple[str, ...]:
        """The IDs of every tree loaded (the file's and its includes')."""
        return tuple(self.document.trees)

    def __call__(self) -> Behaviour:
        return Builder(self.document, self.registry, self.blackboard).build(self.main)

    def tree(self, tree_id: str) -> XmlPolicy:
        """The same document with ``tree_id`` as its main tree, checked by building it once,
        so that errors show now, not in the middle of a test run; what BT.CPP would only fail
        on when it runs is a :class:`~pytest_logicenv.errors.PolicyLintWarning`."""
        main = self.document.main_tree(tree_id)
        policy = XmlPolicy(self.document, main, self.registry, self.blackboard)
        builder = Builder(self.document, self.registry, self.blackboard)
        builder.build(main)
        policy.lints = tuple(builder.lints)
        for lint in policy.lints:
            warnings.warn(PolicyLintWarning(lint), stacklevel=4)  # parse/load_bt_xml's caller
        return policy

    def __repr__(self) -> str:
        return f"XmlPolicy({self.source!r}, tree={self.main!r})"


def _policy(
    document: Document,
    tree: str | None,
    registry: Registry,
    blackboard: Mapping[str, Value] | None,
) -> XmlPolicy:
    check_models(document, registry)
    main = document.main_tree(tree)
    return XmlPolicy(document, main, registry, blackboard).tree(main)


def parse_bt_xml(
    text: str,
    source: str = "<string>",
    *,
    tree: str | None = None,
    nodes: Mapping[str, UserNode] | None = None,
    modules: Sequence[str] = (),
    enums: Mapping[str, int] | None = None,
    blackboard: Mapping[str, Value] | None = None,
    folder: str | os.PathLike[str] | None = None,
) -> XmlPolicy:
    """Read a BT.CPP v4 document from ``text``.

    ``tree`` picks the main tree (default: ``main_tree_to_execute``, or the only tree);
    ``nodes`` and the nodes ``modules`` add the user's own node IDs and ``enums`` scripting
    enums; ``blackboard`` holds initial entries of the root blackboard. Includes are taken
    relative to ``folder`` (default: the current folder) and must stay inside it."""
    registry = registry_for(modules, nodes, enums)
    base = Path(folder) if folder is not None else Path.cwd()
    document = parse_document(text, source, folder=base)
    return _policy(document, tree, registry, blackboard)


# Loaded files by (resolved path, tree), with the modification stamps of every file read.
_CACHE: dict[tuple[str, str | None], tuple[tuple[tuple[str, int, int], ...], XmlPolicy]] = {}
_CACHE_SIZE = 64


def load_bt_xml(
    path: str | os.PathLike[str],
    *,
    tree: str | None = None,
    nodes: Mapping[str, UserNode] | None = None,
    modules: Sequence[str] = (),
    enums: Mapping[str, int] | None = None,
    blackboard: Mapping[str, Value] | None = None,
    root: str | os.PathLike[str] | None = None,
) -> XmlPolicy:
    """Read a BT.CPP v4 file (see :func:`parse_bt_xml`); includes are relative to the
    including file and must stay inside ``root`` (default: the project folder, found by its
    ``pyproject.toml``, ``.git``, ...). Repeated loads of unchanged files without nodes,
    enums or a blackboard come from a cache."""
    file = Path(path)
    try:
        file.stat()
    except OSError as error:
        raise PolicyError(f"{file}: cannot read the policy file ({error.strerror})") from None
    root_path = Path(root) if root is not None else None
    plain = not (nodes or modules or enums or blackboard or root_path)
    key = (str(file.resolve()), tree)
    if plain and key in _CACHE:
        stamps, cached = _CACHE[key]
        if stamps == _stamps(path for path, _, _ in stamps):
            return cached
    registry = registry_for(modules, nodes, enums)
    document = load_document(file, root=root_path)
    policy = _policy(document, tree, registry, blackboard)
    if plain:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (_stamps(document.files), policy)
    return policy


def _stamps(paths: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    stamps = []
    for path in paths:
        try:
            stat = os.stat(path)
        except OSError:
            return ()
        stamps.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(stamps)
