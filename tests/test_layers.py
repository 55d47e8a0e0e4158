"""The layer contract: the allowed import graph between the package's parts, written down once.

A module may import its own layer or lower ones, never a higher one; no two modules import each
other, however far round; and none of our modules is imported inside a function (the way to dodge
a cycle), with the few exceptions below. ``docs/explanation/architecture.md`` explains the layers.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from import_layers import ROOT_PACKAGE, Edge, Where, edges

PACKAGE = Path(__file__).resolve().parent.parent / ROOT_PACKAGE

#: Low to high. A part is a subpackage or a top-level module; ``__init__`` is the package itself.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "bounded", "vocabulary", "version", "atomic", "workdir", "deferred"),
    ("logic",),
    ("scenes",),
    ("sim",),
    ("mutation", "llm", "witness", "render"),
    ("cache", "pipeline"),
    ("report", "evaluation", "strategies"),
    ("session", "cli"),
    ("plugin", "hookspec", "__init__"),
)

#: Modules (or single imports, ``source -> target``) allowed to import our modules inside a
#: function, and why. Each defers a heavy or optional dependency; none can dodge a cycle, since
#: the other checks see these imports too.
DEFERRING: dict[str, str] = {
    "pytest_logicenv.plugin": "pytest's entry point, imported by every pytest run of every "
    "project that installs the package: the session's modules (and z3, py_trees, openai with "
    "them) load only when a run has marked tests (tests/session/test_plugin_errors.py checks "
    "start-up); it is the top layer, so nothing imports it and no cycle can pass through it",
    "pytest_logicenv.session.logicenv_session -> pytest_logicenv.session.making": "what makes a "
    "cache entry (the LLM client, the designers, the layout solver and z3, the witness "
    "search) loads only when a marked test's entry is not fresh: a run from a warm cache "
    "reads entries and runs policies only (tests/session/test_plugin_reads.py checks it)",
    "pytest_logicenv.session.logicenv_session -> pytest_logicenv.session.generation": "the "
    "same, for the entries an LLM makes after the run's selection: loaded only when a "
    "selected test is pending",
    "pytest_logicenv.session.fixture -> pytest_logicenv.session.explore": "Hypothesis is "
    "optional (the explore extra) and exploration imports it: the fixture loads it only when "
    "--logicenv-explore asks, which settings refuse, saying how to install it, without it",
}


def part(module: str) -> str:
    """The layer part a dotted module name belongs to."""
    names = module.split(".")
    return names[1] if len(names) > 1 else "__init__"


def layer(module: str) -> int:
    """The index in :data:`LAYERS` of the module's part."""
    name = part(module)
    for index, parts in enumerate(LAYERS):
        if name in parts:
            return index
    raise LookupError(f"{module}: its part {name!r} has no layer; add it to LAYERS")


def upward(graph: Iterable[Edge]) -> list[Edge]:
    """Imports of a higher layer, wherever they are (``TYPE_CHECKING`` blocks too)."""
    return [edge for edge in graph if layer(edge.target) > layer(edge.source)]


def deferred(graph: Iterable[Edge]) -> list[Edge]:
    """Function-local imports of our modules outside :data:`DEFERRING`."""
    allowed = set(DEFERRING)
    return [
        e
        for e in graph
        if e.where is Where.FUNCTION and e.source not in allowed and e.pair not in allowed
    ]


def cycles(graph: Iterable[Edge]) -> list[frozenset[str]]:
    """Every set of modules that import each other, however far round (Tarjan's SCCs)."""
    successors: dict[str, set[str]] = {}
    for edge in graph:
        successors.setdefault(edge.source, set()).add(edge.target)
        successors.setdefault(edge.target, set())
    return [frozenset(c) for c in _components(successors) if len(c) > 1]


def _components(successors: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for successor in sorted(successors[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while (member := stack.pop()) != node:
                component.append(member)
            found.append([*component, node])

    for node in sorted(successors):
        if node not in index:
            visit(node)
    return found


def violations(root: Path) -> list[str]:
    """What breaks the contract in the package at ``root``."""
    graph = edges(root)
    found = [f"upward: {e}" for e in upward(graph)]
    found += [f"function-local: {e}" for e in deferred(graph)]
    found += ["cycle: " + " <-> ".join(sorted(cycle)) for cycle in cycles(graph)]
    return found


GRAPH = edges(PACKAGE)


def test_every_part_has_a_layer() -> None:
    for edge in GRAPH:
        layer(edge.source), layer(edge.target)


def test_no_module_imports_a_higher_layer() -> None:
    assert [f"{e}" for e in upward(GRAPH)] == []


def test_no_module_imports_ours_inside_a_function() -> None:
    assert [f"{e}" for e in deferred(GRAPH)] == []


def test_no_modules_import_each_other() -> None:
    assert [sorted(c) for c in cycles(GRAPH)] == []


def test_errors_imports_nothing_above_the_ground_floor() -> None:
    assert [f"{e}" for e in GRAPH if part(e.source) == "errors" and layer(e.target) > 0] == []


def test_every_allowed_deferred_import_is_still_there() -> None:
    """An exception that no longer defers anything goes from :data:`DEFERRING`."""
    local = [e for e in GRAPH if e.where is Where.FUNCTION]
    used = {e.source for e in local} | {e.pair for e in local}
    assert sorted(set(DEFERRING) - used) == []


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """A package named as ours under ``root``, from ``path -> source``."""
    for name, text in files.items():
        path = root / ROOT_PACKAGE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / ROOT_PACKAGE


def test_the_checks_catch_each_kind_of_violation(tmp_path: Path) -> None:
    package = write_tree(
        tmp_path,
        {
            "__init__.py": "",
            "errors.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from pytest_logicenv.sim.outcome import Outcome\n",
            "logic/__init__.py": "",
            "logic/a.py": "import pytest_logicenv.logic.b\n",
            "logic/b.py": "from pytest_logicenv.logic import a\n",
            "sim/__init__.py": "",
            "sim/outcome.py": "def f():\n    from pytest_logicenv.errors import LogicEnvError\n",
        },
    )
    graph = edges(package)
    assert [e.pair for e in upward(graph)] == [
        "pytest_logicenv.errors -> pytest_logicenv.sim.outcome"
    ]
    assert [e.where for e in upward(graph)] == [Where.TYPE_CHECKING]
    assert [str(e) for e in deferred(graph)] == [
        "pytest_logicenv.sim.outcome:2 -> pytest_logicenv.errors (function-local)"
    ]
    assert set(cycles(graph)) == {
        frozenset({"pytest_logicenv.logic.a", "pytest_logicenv.logic.b"}),
        frozenset({"pytest_logicenv.errors", "pytest_logicenv.sim.outcome"}),
    }


def test_the_contract_fails_on_an_upward_import_added_to_the_package(tmp_path: Path) -> None:
    copy = shutil.copytree(PACKAGE, tmp_path / ROOT_PACKAGE)
    facts = copy / "logic" / "facts" / "__init__.py"
    facts.write_text(facts.read_text(encoding="utf-8") + "\nfrom pytest_logicenv.cli import args\n")
    line = len(facts.read_text(encoding="utf-8").splitlines())
    upward_import = f"pytest_logicenv.logic.facts:{line} -> pytest_logicenv.cli.args (module level)"
    assert f"upward: {upward_import}" in violations(copy)
    assert violations(PACKAGE) == []
