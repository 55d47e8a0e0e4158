"""Argument types shared by the CLI's subcommands and the plugin's options.

They live apart from ``pytest_logicenv.cli`` so that subcommand modules and the plugin can use
them without importing the command line's assembly (and without import cycles).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_logicenv.cli.inifile import ini_option
from pytest_logicenv.llm.config import ini_defaults
from pytest_logicenv.logic.plan import plan_type_file
from pytest_logicenv.scenes.catalog.user_types import TYPES_INI, load_catalog

if TYPE_CHECKING:
    from pytest_logicenv.scenes.catalog import Catalog


def add_types_option(parser: argparse.ArgumentParser) -> None:
    """``--types PATH``: the user's type file (default: the ``logicenv_types`` ini option)."""
    parser.add_argument(
        "--types",
        type=Path,
        metavar="PATH",
        default=None,
        help="a file of your own object types, JSON or TOML (default: the logicenv_types "
        "option of the pytest configuration, as the plugin reads it)",
    )


def types_path(args: argparse.Namespace) -> Path | None:
    """The type file a command reads: ``--types``, else the ini's ``logicenv_types``
    (relative to its ini file), else none."""
    given: Path | None = getattr(args, "types", None)
    if given is not None:
        return given
    found = ini_option(TYPES_INI)
    return None if found is None else found[1] / found[0]


def catalog_of(args: argparse.Namespace, plan: str | Path | None = None) -> Catalog:
    """The catalog a command works with: the default one and the user's types, and those of
    the type file the ``plan`` it reads names."""
    return load_catalog(types_path(args), plan_type_file(plan))


def ci_forbids_llm(allowed: bool) -> bool:
    """Whether no model may be called: the ``CI`` variable is set (as the plugin reads it)
    and the command was not told ``--allow-ci``."""
    return not allowed and os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def ini_llm_defaults() -> dict[str, str]:
    """The endpoint the pytest configuration names (``logicenv_llm_base_url``,
    ``logicenv_llm_model``), as the plugin reads it: the defaults of the environment's."""

    def read(name: str) -> str:
        found = ini_option(name)
        return "" if found is None else found[0]

    return ini_defaults(read)
