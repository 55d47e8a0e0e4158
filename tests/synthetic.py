"""Synthetic scene designs of a given size, to test and benchmark the layout.

A :class:`SceneSpec` with ``objects`` objects of realistic sizes (the median bounding box of
each AI2-THOR type in the ``procthor`` package's asset database) spread over one or more rooms
in a row, with doors between neighbours, an outside door, a window per room, furniture on the
floor, pictures and switches on the walls, small things on and in the furniture, and the
relations a designer would ask for (the sofa against a wall facing the TV, the coffee table in
front of the sofa, a picture above it, ...), some task-critical, most enrichment.
Deterministic for a seed.

>>> spec = synthetic_spec(20, rooms=1, seed=3)
>>> len(spec.objects), len(spec.rooms)
(20, 1)
>>> synthetic_spec(20, rooms=1, seed=3) == spec
True
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.layout.contradictions import NEVER_TOGETHER
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    DoorSpec,
    Room,
    SceneObject,
    SceneSpec,
    SpatialRelation,
    WindowSpec,
)

# Furniture that stands on the floor, by room type, most typical first.
FLOOR_TYPES = {
    "LivingRoom": (
        "Sofa",
        "CoffeeTable",
        "TVStand",
        "ArmChair",
        "SideTable",
        "FloorLamp",
        "ShelvingUnit",
        "HousePlant",
        "Ottoman",
        "SideTable",
        "GarbageCan",
        "Dresser",
        "DogBed",
        "Chair",
        "ArmChair",
        "Stool",
        "HousePlant",
        "FloorLamp",
        "Safe",
        "SideTable",
    ),
    "Kitchen": (
        "Fridge",
        "DiningTable",
        "Chair",
        "Chair",
        "ShelvingUnit",
        "GarbageCan",
        "Chair",
        "Stool",
        "SideTable",
        "HousePlant",
        "Chair",
        "Stool",
        "GarbageCan",
        "ShelvingUnit",
        "Safe",
        "Stool",
        "SideTable",
        "HousePlant",
        "Chair",
        "Stool",
    ),
    "Bedroom": (
        "Bed",
        "Dresser",
        "SideTable",
        "Desk",
        "Chair",
        "SideTable",
        "FloorLamp",
        "LaundryHamper",
        "ShelvingUnit",
        "ArmChair",
        "HousePlant",
        "GarbageCan",
        "Ottoman",
        "Stool",
        "Safe",
        "DogBed",
        "HousePlant",
        "Stool",
        "FloorLamp",
        "Chair",
    ),
}
WALL_TYPES = ("Painting", "LightSwitch", "Painting", "HandTowelHolder", "Painting")
SMALL_TYPES = (
    "Book",
    "Vase",
    "RemoteControl",
    "Bowl",
    "Laptop",
    "Statue",
    "Candle",
    "Plate",
    "Cup",
    "AlarmClock",
    "Apple",
    "KeyChain",
    "CellPhone",
    "Newspaper",
    "TissueBox",
    "Mug",
    "Watch",
    "Pen",
    "Box",
    "Pillow",
    "TeddyBear",
    "Tomato",
    "Bread",
    "SoapBottle",
)
# Receptacles that hold things inside rather than on top.
CONTAINERS = ("Fridge", "Box", "Safe", "LaundryHamper", "Bowl")
ROOM_TYPES = ("LivingRoom", "Kitchen", "Bedroom")
ROOM_SIZES = ((6.0, 5.0), (5.0, 5.0), (4.0, 5.0))


@dataclass(frozen=True)
class AssetType:
    """What the generator needs of an AI2-THOR type: size and whether it holds things."""

    type: str
    size: tuple[float, float, float]
    receptacle: bool
    pickupable: bool


def _database_path() -> Path:
    spec = importlib.util.find_spec("procthor")
    if spec is None or not spec.submodule_search_locations:
        raise SceneError("the procthor package is not installed; pip install procthor")
    return Path(next(iter(spec.submodule_search_locations))) / "databases" / "asset-database.json"


@lru_cache(maxsize=1)
def asset_types() -> dict[str, AssetType]:
    """Every AI2-THOR type in the asset database with its median bounding box (metres)."""
    data = json.loads(_database_path().read_text(encoding="utf-8"))
    out = {}
    for type_name, assets in sorted(data.items()):
        boxes = [a["boundingBox"] for a in assets if "boundingBox" in a]
        if not boxes:
            continue
        size = tuple(round(statistics.median(float(b[k]) for b in boxes), 3) for k in "xyz")
        secondary = assets[0].get("secondaryProperties") or []
        out[type_name] = AssetType(
            type_name,
            (max(size[0], 0.02), max(size[1], 0.01), max(size[2], 0.02)),
            "Receptacle" in secondary,
            assets[0].get("primaryProperty") == "CanPickup",
        )
    return out


def _rooms(count: int) -> tuple[Room, ...]:
    rooms = []
    x = 0.0
    for index in range(count):
        width, depth = ROOM_SIZES[index % len(ROOM_SIZES)]
        room_type = ROOM_TYPES[index % len(ROOM_TYPES)]
        polygon = ((x, 0.0), (x + width, 0.0), (x + width, depth), (x, depth))
        rooms.append(Room(f"{room_type.lower()}_{index}", room_type, polygon))
        x += width
    return tuple(rooms)


def _share(total: int, weights: Sequence[float]) -> list[int]:
    """Split ``total`` in proportion to ``weights`` (largest remainders)."""
    raw = [total * w / sum(weights) for w in weights]
    counts = [int(r) for r in raw]
    for i in sorted(range(len(raw)), key=lambda i: counts[i] - raw[i])[: total - sum(counts)]:
        counts[i] += 1
    return counts


def synthetic_spec(
    objects: int, rooms: int = 1, seed: int = 0, relations: bool = True
) -> SceneSpec:
    """A design with ``objects`` objects over ``rooms`` rooms (see the module docstring)."""
    if objects < 1 or rooms < 1:
        raise SceneError(
            f"synthetic_spec needs at least one object and one room, not {objects}/{rooms}"
        )
    rng = random.Random(f"synthetic|{objects}|{rooms}|{seed}")
    types = asset_types()
    plan = _rooms(rooms)
    areas = [(r.bounds[2] - r.bounds[0]) * (r.bounds[3] - r.bounds[1]) for r in plan]
    placed: list[SceneObject] = []
    wanted: list[SpatialRelation] = []
    for room, count in zip(plan, _share(objects, areas), strict=False):
        room_objects, room_relations = _furnish(room, count, types, rng, len(placed))
        placed.extend(room_objects)
        wanted.extend(room_relations)
    doors = [
        DoorSpec(f"door_{i}", (a.id, b.id)) for i, (a, b) in enumerate(itertools.pairwise(plan))
    ]
    doors.append(DoorSpec("front_door", (plan[0].id, "exterior")))
    windows = [WindowSpec(f"window_{i}", room.id, side="north") for i, room in enumerate(plan)]
    return SceneSpec(
        id=f"synthetic-{objects}x{rooms}-{seed}",
        rooms=plan,
        objects=tuple(placed),
        doors=tuple(doors),
        windows=tuple(windows),
        relations=tuple(wanted) if relations else (),
        agent_room=plan[0].id,
    )


def _furnish(
    room: Room, count: int, types: dict[str, AssetType], rng: random.Random, numbering: int
) -> tuple[list[SceneObject], list[SpatialRelation]]:
    """Objects for one room: about a third furniture, one in ten on the walls, the rest small
    things on and in the furniture."""
    if count == 0:
        return [], []
    n_floor = max(1, round(count * 0.35))
    n_wall = min(len(WALL_TYPES), round(count * 0.1))
    n_small = count - n_floor - n_wall
    width = room.bounds[2] - room.bounds[0]
    depth = room.bounds[3] - room.bounds[1]
    budget = 0.4 * width * depth  # keep floor objects to 40% of the floor
    objects: list[SceneObject] = []
    counter = [numbering]

    def make(type_name: str, **fields: object) -> SceneObject:
        counter[0] += 1
        asset = types[type_name]
        props = tuple(
            p
            for p, has in (("receptacle", asset.receptacle), ("pickupable", asset.pickupable))
            if has
        )
        return SceneObject(
            id=f"{type_name.lower()}_{counter[0]}",
            type=type_name,
            size=asset.size,
            properties=props,
            **fields,  # type: ignore[arg-type]
        )

    floor_types = list(FLOOR_TYPES[room.type])
    floor: list[SceneObject] = []
    while len(floor) < n_floor:
        type_name = floor_types[len(floor) % len(floor_types)]
        size = types[type_name].size
        if size[0] * size[2] > budget:
            type_name = rng.choice(("Stool", "GarbageCan", "HousePlant", "SideTable"))
            size = types[type_name].size
        budget -= size[0] * size[2]
        floor.append(make(type_name, room=room.id))
    walls = [
        make(WALL_TYPES[i % len(WALL_TYPES)], room=room.id, relation="wall") for i in range(n_wall)
    ]
    holders = [o for o in (*floor, *walls) if o.has("receptacle")]
    room_left = {o.id: 0.6 * o.size[0] * o.size[2] for o in holders}
    small: list[SceneObject] = []
    for _ in range(n_small):
        type_name = rng.choice(SMALL_TYPES)
        size = types[type_name].size
        fits = [
            h
            for h in holders
            if room_left[h.id] >= size[0] * size[2]
            and min(size[0], size[2]) <= min(h.size[0], h.size[2]) - 0.1
            and max(size[0], size[2]) <= max(h.size[0], h.size[2]) - 0.1
            and h.type != "HandTowelHolder"
        ]
        if not fits:
            type_name, size = "KeyChain", types["KeyChain"].size
            fits = [h for h in holders if room_left[h.id] >= size[0] * size[2]] or holders
        holder = rng.choice(fits)
        inside = holder.type in CONTAINERS and size[1] <= holder.size[1]
        room_left[holder.id] -= size[0] * size[2]
        small.append(make(type_name, parent=holder.id, relation="in" if inside else "on"))
    objects = [*floor, *walls, *small]
    return objects, _relations(room, floor, walls, small, rng)


def _relations(
    room: Room,
    floor: Sequence[SceneObject],
    walls: Sequence[SceneObject],
    small: Sequence[SceneObject],
    rng: random.Random,
) -> list[SpatialRelation]:
    """What a designer would ask for, about two relations per piece of furniture: big
    furniture against the walls, seating facing the TV, tables in front of seats, pictures
    above furniture, things near or far from each other. Some may conflict, as designs do."""
    out: list[SpatialRelation] = []

    def add(kind: str, subject: SceneObject, target: SceneObject | None = None) -> None:
        priority = PRIORITY_TASK if rng.random() < 0.25 else PRIORITY_ENRICHMENT
        pair = {subject.id, target.id if target else None}
        if any({r.subject, r.target} == pair and {r.kind, kind} in NEVER_TOGETHER for r in out):
            priority = PRIORITY_ENRICHMENT  # a task needs no contradiction; a designer may err
        relation = SpatialRelation(kind, subject.id, target.id if target else None, priority)
        if all(
            (r.kind, r.subject, r.target) != (kind, relation.subject, relation.target) for r in out
        ):
            out.append(relation)

    first: dict[str, SceneObject] = {}
    for obj in floor:
        first.setdefault(obj.type, obj)
    against = ("Sofa", "TVStand", "Dresser", "ShelvingUnit", "Bed", "Fridge", "Desk")
    seat = first.get("Sofa") or first.get("Bed") or first.get("ArmChair")
    table = first.get("CoffeeTable") or first.get("DiningTable") or first.get("Desk")
    if seat is not None and "TVStand" in first:
        add("face_to", seat, first["TVStand"])
    if seat is not None and table is not None and seat is not table:
        add("in_front_of", table, seat)
        add("center_aligned", table, seat)
    if seat is not None and "SideTable" in first:
        add("side_of", first["SideTable"], seat)
    for obj in floor:
        if obj.type in against:
            add("edge", obj)
        others = [o for o in floor if o is not obj]
        for _ in range(2 if obj.type not in against else 1):
            if not others:
                break
            other = rng.choice(others)
            kind = rng.choices(
                ("near", "far", "side_of", "in_front_of", "face_to", "edge"),
                weights=(5, 2, 2, 1, 1, 1),
            )[0]
            add(kind, obj, None if kind == "edge" else other)
    for wall in walls:
        if floor and wall.type == "Painting":
            add("above", wall, seat or rng.choice(floor))
        elif floor:
            add("near", wall, rng.choice(floor))
    for obj in small:
        siblings = [o for o in small if o.parent == obj.parent and o is not obj]
        roll = rng.random()
        if siblings and roll < 0.4:
            add("near" if rng.random() < 0.8 else "far", obj, rng.choice(siblings))
        elif roll < 0.6:
            add("edge" if rng.random() < 0.5 else "center", obj)
    return out
