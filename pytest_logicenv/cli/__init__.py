"""The ``logicenv`` command line: the same pipeline functions the plugin uses, without pytest.

Each pipeline stage keeps its subcommands in a module of this package with a ``register``
function; this module only assembles them and turns deliberate errors into readable messages:
exit 0 on success, 1 when the command found problems (a fault, a failed check), 2 for bad input.
Every command takes ``--types PATH``, the user's type file (default: the ``logicenv_types``
option of the project's pytest configuration), and reads it as the plugin does.

The command modules: :mod:`~.actions` (``actions``), :mod:`~.cache` (``clean``),
:mod:`~.check` (``check``), :mod:`~.eval` (``eval``), :mod:`~.groot_palette`
(``groot-palette``), :mod:`~.logic` (``paths``, ``select``, ``convert``), :mod:`~.plan`
(``plan``), :mod:`~.review` (``show``, ``review``), :mod:`~.run` (``run``), :mod:`~.scenes`
(``export``, ``render``) and
:mod:`~.types` (``types``); shared by them, :mod:`~.args` (argument types, also the plugin's)
and :mod:`~.inifile` (the pytest ini options, read without pytest).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from pytest_logicenv.cli.args import add_types_option, catalog_of, types_path
from pytest_logicenv.errors import LogicEnvError

# Modules that add subcommands; each defines ``register(subparsers) -> None`` and sets
# ``handler`` (a function ``(argparse.Namespace) -> int``) on its parsers.
COMMAND_MODULES: tuple[str, ...] = (
    "pytest_logicenv.cli.actions",
    "pytest_logicenv.cli.cache",
    "pytest_logicenv.cli.eval",
    "pytest_logicenv.cli.logic",
    "pytest_logicenv.cli.scenes",
    "pytest_logicenv.cli.plan",
    "pytest_logicenv.cli.run",
    "pytest_logicenv.cli.review",
    "pytest_logicenv.cli.groot_palette",
    "pytest_logicenv.cli.check",
    "pytest_logicenv.cli.types",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="logicenv",
        description="Logically diverse simulated environments for behavior-tree policies.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for command in subparsers.choices.values():  # every command reads the user's types
        add_types_option(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if types_path(args) is not None:  # a bad type file is bad input, whatever the command
            catalog_of(args)
        return int(args.handler(args))
    except LogicEnvError as error:
        print(f"logicenv {args.command}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `logicenv ... | head` is fine
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
