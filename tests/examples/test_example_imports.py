"""The example agents are what users copy: they import only the public API (the package's
names, and the leaves and controls policies are built of), never a stage's internals, which
may move between releases."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers import ROOT

#: The modules of ours an example may import: the package (its lazy public names) and the
#: public modules its docstring names.
PUBLIC = frozenset(
    {"pytest_logicenv", "pytest_logicenv.sim.leaves", "pytest_logicenv.sim.controls"}
)
EXAMPLES = sorted((ROOT / "example_agents").rglob("*.py"))


def internal_imports(source: str) -> list[str]:
    """The modules of ours ``source`` imports that are not public, in line order (a
    function's own imports too)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    ours = [name for _, name in sorted(found) if name.split(".")[0] == "pytest_logicenv"]
    return [name for name in ours if name not in PUBLIC]


def test_the_check_finds_an_internal_import() -> None:
    source = (
        "from pytest_logicenv import LogicEnv\n"
        "from pytest_logicenv.sim.leaves import GoTo\n"
        "def f():\n    import pytest_logicenv.session.fixture\n"
        "from pytest_logicenv.sim.bt import XmlPolicy\n"
    )
    assert internal_imports(source) == ["pytest_logicenv.session.fixture", "pytest_logicenv.sim.bt"]


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_an_example_imports_only_the_public_api(path: Path) -> None:
    internal = internal_imports(path.read_text(encoding="utf-8"))
    assert not internal, (
        f"{path.relative_to(ROOT)} imports {', '.join(internal)}: import from the package "
        "(from pytest_logicenv import LogicEnv, XmlPolicy, load_bt_xml) or "
        f"{' / '.join(sorted(PUBLIC - {'pytest_logicenv'}))}"
    )


def test_there_are_examples() -> None:
    assert len(EXAMPLES) > 10
