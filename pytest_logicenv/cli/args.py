"""Argument types shared by the CLI's subcommands and the plugin's options.

They live apart from ``pytest_logicenv.cli`` so that subcommand modules and the plugin can use
them without importing the command line's assembly (and without import cycles).
"""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """An argparse ``type`` for counts: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value
