"""``logicenv types``: the object types a plan's facts and a policy may name.

Types are the catalog's (AI2-THOR's, plus a few custom ones), each with the properties the
simulator's actions need (``pickupable``, ``receptacle``, ``openable``, ``toggleable``,
``fillable``, ...) and the rooms it is usually found in. A word narrows the list to the types
whose name, property or room contains it; a word nothing matches gets the closest names.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="logicenv")
>>> register(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["types", "fillable"]).word
'fillable'
"""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    types = subparsers.add_parser(
        "types",
        help="list the object types plans and policies may name",
        description="List the object types (AI2-THOR's and custom ones) with their properties "
        "and rooms. WORD keeps the types whose name, property or room contains it.",
    )
    types.add_argument("word", nargs="?", metavar="WORD", help="e.g. fillable, Kitchen, lamp")
    types.set_defaults(handler=run_types)


def run_types(args: argparse.Namespace) -> int:
    from pytest_logicenv.scenes.catalog import default_catalog

    catalog = default_catalog()
    word = (args.word or "").lower()
    shown = 0
    for name, obj_type in sorted(catalog.types.items()):
        words = [name, *obj_type.properties, *obj_type.rooms]
        if word and not any(word in w.lower() for w in words):
            continue
        flag = " (custom)" if obj_type.custom else ""
        rooms = f"; rooms: {', '.join(obj_type.rooms)}" if obj_type.rooms else ""
        print(f"{name}{flag}: {', '.join(obj_type.properties)}{rooms}")
        shown += 1
    if shown == 0:
        close = catalog.suggestions(args.word)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        print(f"logicenv types: no type, property or room matches {args.word!r}{hint}")
        return 1
    return 0
