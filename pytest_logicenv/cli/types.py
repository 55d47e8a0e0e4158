"""``logicenv types``: the object types a plan's facts and a policy may name, as they are.

Types are the catalog's: AI2-THOR's (the properties its objects have, under AI2-THOR's names:
``canFillWithLiquid``, ``canBeUsedUp``, ``isHeatSource``; ``--json`` maps our names, which a
plan's states use, to them), our custom ones (flagged, with the AI2-THOR asset each exports as)
and the user's type file's (``--types``). Each line gives the properties (``(ours)`` marks the
ones we add: ``wettable``, a counter's ``dirtyable``), the parts a type is made of and the
types it is part of, its usual rooms (ProcTHOR's weights, else the share of AI2-THOR's scenes
that hold one) and where in a room it stands. A WORD keeps the types with a property, room,
part or whole of that name or a name it is a word of ("lamp": DeskLamp and FloorLamp; "can"
is a WateringCan's word, not a part of ``canFillWithLiquid`` or of Candle), and the type the
word means (``nightstand`` means SideTable, ``glass`` a Cup: the synonym table the catalog's
retrieval and the plan checks share); a word nothing matches gets the closest types.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="logicenv")
>>> register(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["types", "fillable", "--json"]).json
True
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from pytest_logicenv.cli.args import catalog_of
from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog import Catalog, ObjectType, occurs_in
from pytest_logicenv.scenes.catalog.properties import THOR_NAME
from pytest_logicenv.scenes.catalog.rooms import ROOM_KINDS
from pytest_logicenv.scenes.catalog.summary import type_json, type_line
from pytest_logicenv.scenes.design.templates import room_type
from pytest_logicenv.vocabulary import NOT_OBJECT_TYPES, singular, words_of


def register(subparsers: Any) -> None:
    types = subparsers.add_parser(
        "types",
        help="list the object types plans and policies may name",
        description="List the object types (AI2-THOR's, ours and your type file's) with their "
        "properties, parts, rooms and placement. WORD keeps the types whose name, property, "
        "room or parts contain it, and the type it means (nightstand: SideTable). Properties "
        "are named as AI2-THOR names them; (ours) marks the ones we add.",
    )
    types.add_argument("word", nargs="?", metavar="WORD", help="e.g. fillable, Kitchen, drawer")
    types.add_argument("--json", action="store_true", help="print JSON, for tools and prompts")
    types.set_defaults(handler=run_types)


def run_types(args: argparse.Namespace) -> int:
    catalog = catalog_of(args)
    word = args.word or ""
    meant = _meant(catalog, word)
    hits = [t for t in catalog.types.values() if _matches(t, word)]
    by_meaning = meant is not None and all(t.name != meant for t in hits)
    shown = sorted(hits + ([catalog.type(meant)] if by_meaning and meant else []), key=_name)
    if args.json:
        document: dict[str, Any] = {"types": [type_json(t, catalog) for t in shown]}
        if word:
            document.update(query=word, means=meant)
        print(json.dumps(document, indent=1))
        return 0 if shown else 1
    if by_meaning:
        others = [t for t in catalog.vocabulary.mentioned(word) if t != meant]
        print(f"{word!r} means {meant}" + (f" (or {', '.join(others)})" if others else ""))
    room = _room(word)
    if room is not None and room in ROOM_KINDS:
        print(_room_header(room))
    for obj_type in shown:
        print(type_line(obj_type, catalog))
    if not shown:
        close = catalog.suggestions(word)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        hint = f": {NOT_OBJECT_TYPES[word]}" if word in NOT_OBJECT_TYPES else hint
        print(f"logicenv types: no type, property or room matches {word!r}{hint}")
        return 1
    return 0


def _room_header(room: str) -> str:
    """What a room type ProcTHOR lacks holds, and whence."""
    kind = ROOM_KINDS[room]
    often = [name for name, weight in kind.stands.items() if weight > 1 and name != "LightSwitch"]
    return (
        f"{room}: a room type ProcTHOR lacks; what stands in it is reviewed (often: "
        f"{', '.join(often)}), the things carried there are its {' and '.join(kind.like)} "
        "rooms'"
    )


def _name(obj_type: ObjectType) -> str:
    return obj_type.name


def _meant(catalog: Catalog, word: str) -> str | None:
    """The type ``word`` names by meaning (the synonym table), if any."""
    if not word:
        return None
    match = catalog.resolve_or_none(word)
    return match.type if match is not None else None


def _room(word: str) -> str | None:
    """The room type ``word`` names exactly (``dining room``: DiningRoom), if any."""
    try:
        return room_type(word) if word else None
    except SceneError:
        return None


def _matches(obj_type: ObjectType, word: str) -> bool:
    """Whether ``word`` is one of the type's properties (our name or AI2-THOR's), or words of
    its name, rooms, parts or wholes (compared word by word, in the singular)."""
    if not word:
        return True
    room = _room(word)
    if room is not None and room in ROOM_KINDS and not obj_type.part_only:
        return occurs_in(obj_type, room)
    properties = {*obj_type.properties, *(THOR_NAME.get(p, "") for p in obj_type.properties)}
    if word.lower() in {p.lower() for p in properties}:
        return True
    names = [obj_type.name, *obj_type.rooms, *(p.type for p in obj_type.parts), *obj_type.part_of]
    wanted = _words(word)
    return any(_contains(_words(name), wanted) for name in names)


def _words(text: str) -> tuple[str, ...]:
    return tuple(singular(w) for w in words_of(text).split())


def _contains(words: tuple[str, ...], wanted: tuple[str, ...]) -> bool:
    n = len(wanted)
    return any(words[i : i + n] == wanted for i in range(len(words) - n + 1))
