"""A BT.CPP v4 document as BT.CPP reads it: its trees, includes, node models and main tree.

* ``<BehaviorTree>`` without an ``ID`` is accepted when it is its file's only tree, and named
  ``BehaviorTree_0`` (then ``_1``, ...) as BT.CPP names it.
* ``<include path="..."/>`` loads another file first, relative to the including file (a file
  included twice is read once); an include cycle, a missing file and a path outside the
  project are errors (``ros_pkg`` is not supported: there is no ROS here).
* The main tree is the ``tree`` asked for, else the first file's ``main_tree_to_execute``,
  else the only tree loaded.
* ``<TreeNodesModel>`` declarations are kept, to be checked against the nodes we have and to
  give SubTree ports their defaults.
* ``BTCPP_format="3"`` files, and format-less files using BehaviorTree.CPP 3 constructs, are
  refused with the construct named and BT.CPP's converter (``convert_v3_to_v4.py``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.bt.xmlread import MAX_FILE_CHARS, Element, echo, read_xml

MODEL_KINDS = ("Action", "Condition", "Control", "Decorator", "SubTree")
PORT_TAGS = {"input_port": "input", "output_port": "output", "inout_port": "inout"}
_CONVERT = (
    "convert the file with BehaviorTree.CPP's convert_v3_to_v4.py (in the BT.CPP repository) "
    'and set BTCPP_format="4"'
)
# BehaviorTree.CPP 3 constructs a format-4 reader would get wrong or not know.
V3_TAGS = {
    "SequenceStar": "in format 4 it is <SequenceWithMemory>",
    "FallbackStar": "format 4 has no FallbackStar",
    "SubTreePlus": "in format 4 it is <SubTree> (with _autoremap)",
    "BlackboardCheckInt": "format 4 uses <Precondition> or <ScriptCondition>",
    "BlackboardCheckDouble": "format 4 uses <Precondition> or <ScriptCondition>",
    "BlackboardCheckString": "format 4 uses <Precondition> or <ScriptCondition>",
    "BlackboardCheckBool": "format 4 uses <Precondition> or <ScriptCondition>",
    "RetryUntilSuccesful": "format 4 spells it RetryUntilSuccessful",
}
V3_ATTRIBUTES = {
    "__shared_blackboard": "format 4 writes _autoremap",
    "__autoremap": "format 4 writes _autoremap",
}
PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", "pytest.ini", "tox.ini", ".git")


@dataclass(frozen=True)
class PortModel:
    name: str
    direction: str
    type: str | None
    default: str | None
    line: int


@dataclass(frozen=True)
class NodeModel:
    """One ``<TreeNodesModel>`` declaration."""

    kind: str
    id: str
    ports: tuple[PortModel, ...]
    element: Element


@dataclass(frozen=True)
class Document:
    """Everything loaded from a file and its includes."""

    source: str
    trees: Mapping[str, Element]
    main_attribute: str | None
    models: Mapping[str, NodeModel] = field(default_factory=dict)
    files: tuple[str, ...] = ()

    def main_tree(self, tree: str | None = None) -> str:
        """The tree to run: ``tree``, else ``main_tree_to_execute``, else the only one."""
        wanted = tree or self.main_attribute
        if wanted is not None:
            if wanted not in self.trees:
                how = "tree=" if tree else "main_tree_to_execute="
                raise PolicyError(
                    f"{self.source}: {how}{wanted!r} names no BehaviorTree "
                    f"(trees: {', '.join(self.trees)})"
                )
            return wanted
        if len(self.trees) == 1:
            return next(iter(self.trees))
        raise PolicyError(
            f"{self.source}: {len(self.trees)} BehaviorTrees and no main_tree_to_execute; set "
            f"it on <root>, or choose a tree (tree=..., --tree): {', '.join(self.trees)}"
        )


def project_root(path: Path) -> Path:
    """The nearest folder above ``path`` holding a project marker (``pyproject.toml``,
    ``.git``, ...), else ``path``'s own folder: includes must stay inside it."""
    folder = path.resolve().parent
    for candidate in (folder, *folder.parents):
        if any((candidate / marker).exists() for marker in PROJECT_MARKERS):
            return candidate
    return folder


def read_text(file: Path) -> str:
    """The file's text, read no further than one character past the limit ``read_xml``
    refuses (a 50 MB file costs 4 MB of memory, not 50)."""
    try:
        with file.open(encoding="utf-8") as handle:
            return handle.read(MAX_FILE_CHARS + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise PolicyError(f"{file}: cannot read the policy file ({error})") from None


class Loader:
    """Reads one document and its includes, in BT.CPP's order (includes first)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.trees: dict[str, Element] = {}
        self.models: dict[str, NodeModel] = {}
        self.unnamed = 0
        self.stack: list[Path] = []
        self.files: list[str] = []
        self.loaded: set[Path] = set()

    def load_file(self, path: Path, shown: str) -> Element:
        resolved = path.resolve()
        if resolved in self.stack:
            chain = " > ".join(p.name for p in [*self.stack, resolved])
            raise PolicyError(f"{shown}: include cycle ({chain}); remove one of the includes")
        self.stack.append(resolved)
        self.loaded.add(resolved)
        self.files.append(str(resolved))
        try:
            return self.load_text(read_text(path), shown, path.parent)
        finally:
            self.stack.pop()

    def load_text(self, text: str, source: str, folder: Path) -> Element:
        root = read_xml(text, source)
        if root.tag != "root":
            raise PolicyError(
                f"{root.where}: the document element must be <root>, not <{root.tag}>"
            )
        check_format(root)
        for child in root.children:
            if child.tag == "include":
                self.include(child, folder)
        alone = sum(child.tag == "BehaviorTree" for child in root.children) == 1
        for child in root.children:
            if child.tag == "BehaviorTree":
                self.add_tree(child, alone)
            elif child.tag == "TreeNodesModel":
                self.add_models(child)
            elif child.tag != "include":
                raise PolicyError(
                    f"{child.where}: <{child.tag}> is not supported under <root>; expected "
                    "<BehaviorTree>, <include> or <TreeNodesModel>"
                )
        return root

    def include(self, element: Element, folder: Path) -> None:
        if "ros_pkg" in element.attrs:
            raise PolicyError(
                f"{element.where}: <include ros_pkg=...> needs ROS, which the simulator does not "
                "have; give the path relative to this file instead"
            )
        raw = element.attrs.get("path")
        if not raw:
            raise PolicyError(f"{element.where}: <include> needs a path attribute")
        target = Path(raw) if os.path.isabs(raw) else folder / raw
        resolved = target.resolve()
        if not resolved.is_relative_to(self.root):
            raise PolicyError(
                f"{element.where}: include path={echo(raw)} leads outside the project "
                f"({self.root}); keep included files inside it"
            )
        if not resolved.is_file():
            raise PolicyError(f"{element.where}: include path={echo(raw)}: no such file ({target})")
        if resolved not in self.loaded or resolved in self.stack:
            self.load_file(target, str(target))  # a file included twice is read once

    def add_tree(self, element: Element, alone: bool) -> None:
        tree_id = element.attrs.get("ID")
        if not tree_id:
            if not alone:
                raise PolicyError(
                    f"{element.where}: <BehaviorTree> needs an ID when its file has several trees"
                )
            tree_id = f"BehaviorTree_{self.unnamed}"
            self.unnamed += 1
        if tree_id in self.trees:
            first = self.trees[tree_id]
            raise PolicyError(
                f"{element.where}: a second BehaviorTree {tree_id!r} (the first is at "
                f"{first.where})"
            )
        if len(element.children) != 1:
            raise PolicyError(
                f"{element.where}: BehaviorTree {tree_id!r} must have exactly one child node, it "
                f"has {len(element.children)}"
            )
        self.trees[tree_id] = element

    def add_models(self, element: Element) -> None:
        for node in element.children:
            node_id = node.attrs.get("ID")
            if node.tag not in MODEL_KINDS or not node_id:
                raise PolicyError(
                    f"{node.where}: <TreeNodesModel> holds <Action ID=...>, <Condition ID=...>, "
                    f"<Control ID=...>, <Decorator ID=...> or <SubTree ID=...>, not <{node.tag}>"
                )
            ports = []
            for port in node.children:
                if port.tag not in PORT_TAGS:
                    continue  # <description>, <MetadataFields>: for Groot only
                name = port.attrs.get("name")
                if not name:
                    raise PolicyError(f"{port.where}: <{port.tag}> needs a name attribute")
                ports.append(
                    PortModel(
                        name,
                        PORT_TAGS[port.tag],
                        port.attrs.get("type"),
                        port.attrs.get("default"),
                        port.line,
                    )
                )
            self.models[node_id] = NodeModel(node.tag, node_id, tuple(ports), node)


def check_format(root: Element) -> None:
    """Refuse BehaviorTree.CPP 3 files, naming the construct and the converter."""
    version = root.attrs.get("BTCPP_format")
    construct = find_v3_construct(root)
    if version not in (None, "4"):
        found = f" ({construct})" if construct else ""
        what = "BehaviorTree.CPP 3" if version == "3" else "a format other than 4"
        raise PolicyError(
            f"{root.where}: BTCPP_format={version!r}: this file is written for {what}{found}; "
            f"this loader reads format 4: {_CONVERT}"
        )
    if construct:
        raise PolicyError(f"{root.where}: {construct} is BehaviorTree.CPP 3 syntax; {_CONVERT}")


def find_v3_construct(root: Element) -> str | None:
    stack = [root]
    while stack:
        element = stack.pop()
        node_id = element.attrs.get("ID", "") if element.tag in ("Action", "Control") else ""
        for name in (element.tag, node_id):
            if name in V3_TAGS:
                return f"<{name}> at line {element.line} ({V3_TAGS[name]})"
        for attribute in element.attrs:
            if attribute in V3_ATTRIBUTES:
                return f"attribute {attribute} at line {element.line} ({V3_ATTRIBUTES[attribute]})"
        stack.extend(reversed(element.children))
    return None


def load_document(path: Path, *, root: Path | None = None) -> Document:
    """Read ``path`` and its includes (which must stay inside ``root``, by default
    :func:`project_root`)."""
    loader = Loader(root or project_root(path))
    first = loader.load_file(path, str(path))
    return _document(loader, first, str(path))


def parse_document(text: str, source: str, *, folder: Path, root: Path | None = None) -> Document:
    """Read ``text``; its includes are taken relative to ``folder``."""
    loader = Loader(root or folder)
    first = loader.load_text(text, source, folder)
    return _document(loader, first, source)


def _document(loader: Loader, first: Element, source: str) -> Document:
    if not loader.trees:
        raise PolicyError(f"{source}: no <BehaviorTree> in the document")
    return Document(
        source,
        dict(loader.trees),
        first.attrs.get("main_tree_to_execute"),
        dict(loader.models),
        tuple(loader.files),
    )
