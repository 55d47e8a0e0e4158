"""What the catalog says of a type, for people (one line) and for tools and prompts (JSON): its
properties and the states they allow (``can be: hot, cold`` for food; the line names properties
as AI2-THOR does, ``canFillWithLiquid``, ``canBeUsedUp``, ``isHeatSource``, and marks
``(ours)`` the ones we add; the JSON maps our names, which plans' states and the simulator use,
to AI2-THOR's), its parts, its usual rooms (ProcTHOR's weights, else the share of AI2-THOR's
scenes), where in a room it stands, and what an exported house shows for it.

>>> from pytest_logicenv.scenes.catalog.loading import default_catalog
>>> catalog = default_catalog()
>>> type_line(catalog.type("Sink"), catalog)  # doctest: +NORMALIZE_WHITESPACE
'Sink: static, receptacle; parts: SinkBasin, Faucet, Cabinet (optional); part of: CounterTop;
 rooms: Kitchen 100%, Bathroom 100% of AI2-THOR scenes, LaundryRoom sometimes; stands: corner, edge'
>>> type_line(catalog.type("HousePlant"), catalog).split(";")[0]
'HousePlant: moveable, canFillWithLiquid'
>>> type_json(catalog.type("HousePlant"), catalog)["properties"]
{'moveable': 'moveable', 'fillable': 'canFillWithLiquid'}
"""

from __future__ import annotations

from typing import Any

from pytest_logicenv.scenes.catalog.parts import PartSpec
from pytest_logicenv.scenes.catalog.properties import STATE_PROPERTY, STRUCTURAL_TYPES, THOR_NAME
from pytest_logicenv.scenes.catalog.rooms import PROCTHOR_ROOMS, named_rooms, occurrence
from pytest_logicenv.scenes.catalog.type_model import Catalog, ObjectType

#: How ProcTHOR's room weights read.
WEIGHT_WORDS = {1: "sometimes", 2: "often"}


def type_line(obj_type: ObjectType, catalog: Catalog) -> str:
    """One line: ``Name (custom): properties; parts: ...; rooms: ...; ...``, the properties
    under AI2-THOR's names (ours where AI2-THOR has none), ``(ours)`` after each we add."""
    flag = " (custom)" if obj_type.custom else ""
    shown = [p for p in obj_type.properties if p != "wall_mounted"]
    props = [THOR_NAME.get(p, p) + _whose(obj_type, p) for p in shown]
    bits = [", ".join(props) or "no properties"]
    if can_be(obj_type):
        bits.append("can be: " + ", ".join(can_be(obj_type)))
    if obj_type.parts:
        bits.append("parts: " + ", ".join(_part_text(p) for p in obj_type.parts))
    if obj_type.part_of:
        bits.append("part of: " + ", ".join(obj_type.part_of))
    rooms = _rooms_text(obj_type)
    if rooms:
        bits.append(f"rooms: {rooms}")
    where = _where_text(obj_type)
    if where:
        bits.append(where)
    if obj_type.attrs:
        bits.append("attrs: " + ", ".join(f"{k}={'/'.join(v)}" for k, v in obj_type.attrs.items()))
    if obj_type.custom or not (obj_type.exportable or obj_type.part_only):
        bits.append(f"exports as: {_export_text(obj_type)}")
    return f"{obj_type.name}{flag}: " + "; ".join(bits)


def can_be(obj_type: ObjectType) -> tuple[str, ...]:
    """The states a plan may give it (``hot`` and ``cold`` for food), by its properties."""
    return tuple(state for state, needed in STATE_PROPERTY.items() if obj_type.has(needed))


def type_json(obj_type: ObjectType, catalog: Catalog) -> dict[str, Any]:
    """Everything :func:`type_line` says, as JSON (our property name -> AI2-THOR's)."""
    placement = obj_type.placement
    return {
        "name": obj_type.name,
        "custom": obj_type.custom,
        "description": obj_type.description,
        "properties": {
            p: THOR_NAME.get(p, "") if p not in (*obj_type.extensions, *obj_type.added) else ""
            for p in obj_type.properties
        },
        "extensions": list(obj_type.extensions),
        "added_by_type_file": list(obj_type.added),
        "parts": [
            {
                "type": p.type,
                "count": p.count,
                "optional": p.optional,
                "rooms": list(p.rooms),
                "attrs": [dict(a) for a in p.attrs],
            }
            for p in obj_type.parts
        ],
        "part_of": list(obj_type.part_of),
        "part_only": obj_type.part_only,
        "rooms": list(obj_type.rooms),
        "named_rooms": dict(named_rooms(obj_type)),
        "room_weights": dict(obj_type.room_weights),
        "scene_frequencies": dict(obj_type.frequencies),
        "placement": {
            "on_floor": obj_type.on_floor,
            "on_wall": obj_type.on_wall,
            "corner": placement.corner,
            "edge": placement.edge,
            "middle": placement.middle,
            "multiple_per_room": placement.multiple_per_room,
        },
        "attrs": {k: list(v) for k, v in obj_type.attrs.items()},
        "states": dict(obj_type.states),
        "can_be": list(can_be(obj_type)),
        "accepts": list(obj_type.accepts),
        "size": list(obj_type.assets[0].size) if obj_type.assets else None,
        "assets": len([a for a in obj_type.assets if a.id]),
        "exports_as": _exports_as(obj_type),
        "synonyms": sorted(w for w, t in catalog.synonyms.items() if t == obj_type.name),
    }


def _whose(obj_type: ObjectType, prop: str) -> str:
    """Who adds ``prop`` to AI2-THOR's type: the user's type file, or we."""
    if prop in obj_type.added:
        return " (your type file)"
    return " (ours)" if prop in obj_type.extensions else ""


def _part_text(part: PartSpec) -> str:
    text = part.type + (f" x{part.count}" if part.count > 1 else "")
    if part.optional:
        text += f" (optional{', ' + '/'.join(part.rooms) if part.rooms else ''})"
    return text


def _rooms_text(obj_type: ObjectType) -> str:
    """ProcTHOR's rooms (or AI2-THOR's, or the type's own), then the rooms ProcTHOR lacks
    that it stands in (``rooms.ROOM_KINDS``)."""
    named = ", ".join(f"{room} {WEIGHT_WORDS[weight]}" for room, weight in named_rooms(obj_type))
    return ", ".join(text for text in (_procthor_rooms_text(obj_type), named) if text)


def _procthor_rooms_text(obj_type: ObjectType) -> str:
    if obj_type.room_weights:  # with the rooms AI2-THOR's scenes complete them by
        weights = [(room, occurrence(obj_type, room)[0]) for room in PROCTHOR_ROOMS]
        return ", ".join(f"{room} {WEIGHT_WORDS[w]}" for room, w in weights if w)
    if obj_type.frequencies and not obj_type.custom:
        shown = [r for r in obj_type.rooms]
        if not shown:
            return ""
        return (
            ", ".join(f"{room} {obj_type.frequencies[room]:.0%}" for room in shown)
            + " of AI2-THOR scenes"
        )
    return ", ".join(obj_type.rooms)


def _where_text(obj_type: ObjectType) -> str:
    if obj_type.part_only:
        return ""
    if obj_type.name in STRUCTURAL_TYPES and obj_type.name != "Floor":
        return "stands: in a wall (an opening of the floor plan)"
    if obj_type.on_wall and not obj_type.on_floor:
        return "stands: on a wall"
    spots = obj_type.placement.spots
    return f"stands: {', '.join(spots)}" if spots else ""


def _exports_as(obj_type: ObjectType) -> str | None:
    """The AI2-THOR type whose asset shows it in a house; ``None`` when nothing does."""
    sources = sorted({a.source_type for a in obj_type.assets if a.id})
    return "/".join(sources) if sources else None


def _export_text(obj_type: ObjectType) -> str:
    shown = _exports_as(obj_type)
    return shown if shown is not None else "nothing (no AI2-THOR asset; left out, and listed)"
