"""Every package's ``__init__.py`` docstring lists every module of the package, and every
``:mod:`` reference in a docstring names a module that exists.

The package docstring is the one place a package's modules are listed (the API reference
renders it, and docs/explanation/architecture.md points to it): a module added, renamed or
removed without its line there fails here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT

PACKAGE = ROOT / "pytest_logicenv"
MOD = re.compile(r":mod:`~?([\w.]+)`")


def packages() -> list[Path]:
    return sorted(init.parent for init in PACKAGE.rglob("__init__.py"))


def dotted(path: Path) -> str:
    """``pytest_logicenv.scenes.layout`` for that package's folder (or a module's file)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(part for part in parts if part != "__init__")


def modules_of(package: Path) -> list[str]:
    files = [p.stem for p in package.glob("*.py") if p.stem not in ("__init__", "__main__")]
    folders = [p.name for p in package.iterdir() if (p / "__init__.py").is_file()]
    return sorted(files + folders)


def docstrings(path: Path) -> Iterator[str]:
    """The module's docstring and those of its classes and functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *ast.walk(tree)]
    types = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in nodes:
        if isinstance(node, types) and (doc := ast.get_docstring(node)):
            yield doc


def resolve(target: str, package: str) -> str:
    """A ``:mod:`` target as an absolute module name (``.x`` is relative to ``package``)."""
    if not target.startswith("."):
        return target
    dots = len(target) - len(target.lstrip("."))
    base = package.split(".")[: len(package.split(".")) - dots + 1]
    return ".".join([*base, target.lstrip(".")]).rstrip(".")


def exists(module: str) -> bool:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def listed(package: Path) -> set[str]:
    """The modules of ``package`` its docstring names: by ``:mod:`` or as ``name.py``."""
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
    doc = doc or ""
    name = dotted(package)
    named = {resolve(target, name) for target in MOD.findall(doc)}
    found = {module.removeprefix(name + ".") for module in named if module.startswith(name + ".")}
    files = set(re.findall(r"``(\w+)(?:\.py|/)``", doc))
    return {module.split(".")[0] for module in found} | files


@pytest.mark.parametrize("package", packages(), ids=lambda p: dotted(p))
def test_the_package_docstring_lists_every_module(package: Path) -> None:
    missing = [module for module in modules_of(package) if module not in listed(package)]
    assert not missing, (
        f"{package.relative_to(ROOT)}/__init__.py: its docstring does not list {missing}; "
        f"add a line each (:mod:`~.{missing[0]}`: what it holds)"
    )


def test_every_mod_reference_names_a_module_that_exists() -> None:
    stale = []
    for path in sorted(PACKAGE.rglob("*.py")):
        package = dotted(path if path.name == "__init__.py" else path.parent)
        for doc in docstrings(path):
            targets = (resolve(target, package) for target in MOD.findall(doc))
            stale += [f"{path.relative_to(ROOT)}: {t}" for t in targets if not exists(t)]
    assert not stale, "docstrings name modules that do not exist:\n" + "\n".join(stale)


def test_a_module_left_out_is_named() -> None:
    """The check can fail: a package whose docstring lists only some of its modules."""
    layout = PACKAGE / "scenes" / "layout"
    assert "budget" in listed(layout)
    assert "no_such_module" not in listed(layout)
    assert resolve(".budget", "pytest_logicenv.scenes.layout") == (
        "pytest_logicenv.scenes.layout.budget"
    )
    assert resolve("..catalog", "pytest_logicenv.scenes.layout") == (
        "pytest_logicenv.scenes.catalog"
    )
