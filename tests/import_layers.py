"""The package's import graph, read from its source with :mod:`ast` (nothing is imported).

``tests/test_layers.py`` holds the allowed layers and checks this graph against them; this module
only finds the imports: where each one is (module level, inside a function, or under
``if TYPE_CHECKING:``) and which of our modules it names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

ROOT_PACKAGE = "pytest_logicenv"


class Where(Enum):
    MODULE = "module level"
    FUNCTION = "function-local"
    TYPE_CHECKING = "TYPE_CHECKING"


@dataclass(frozen=True)
class Edge:
    """One import of one of our modules by another."""

    source: str
    target: str
    line: int
    where: Where

    @property
    def pair(self) -> str:
        return f"{self.source} -> {self.target}"

    def __str__(self) -> str:
        return f"{self.source}:{self.line} -> {self.target} ({self.where.value})"


def module_names(root: Path) -> dict[str, Path]:
    """Every module under ``root`` (the package directory) by dotted name."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def edges(root: Path) -> list[Edge]:
    """Every import of one of our modules, in every module under ``root``."""
    modules = module_names(root)
    found = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, where in _imports(tree, Where.MODULE):
            found.extend(
                Edge(name, target, node.lineno, where) for target in _targets(node, modules)
            )
    return found


def _imports(node: ast.AST, where: Where) -> Iterator[tuple[ast.stmt, Where]]:
    """Every import statement under ``node``, with where it runs."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, where
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _imports(child, Where.FUNCTION)
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            inner = Where.TYPE_CHECKING if where is Where.MODULE else where
            for statement in child.body:
                yield from _imports(ast.Module([statement], []), inner)
            for statement in child.orelse:
                yield from _imports(ast.Module([statement], []), where)
        else:
            yield from _imports(child, where)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.stmt, modules: dict[str, Path]) -> list[str]:
    """The modules of ours an import statement loads (a submodule when it names one)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if _ours(alias.name)]
    assert isinstance(node, ast.ImportFrom)
    if node.level or node.module is None or not _ours(node.module):
        return [] if not node.level else [f"<relative import at level {node.level}>"]
    named = [f"{node.module}.{alias.name}" for alias in node.names]
    submodules = [name for name in named if name in modules]
    return submodules if len(submodules) == len(named) else [node.module, *submodules]


def _ours(name: str) -> bool:
    return name == ROOT_PACKAGE or name.startswith(ROOT_PACKAGE + ".")
