"""Where a part sits in its parent, and what rests in a part: the geometry of parts.

A part has no layout of its own (``scenes/catalog/parts.py`` says why): its box is a fixed
slot of its parent's, in the parent's frame (``x`` across, ``y`` up from its bottom, ``z``
towards its front), and it turns with its parent. The slots, by part type:

* drawers and cabinets: drawers side by side in a band under the top, cabinets side by side
  below them, each where its ``position`` says (``left``/``right`` as a person in front of
  the whole, facing it, says it: AI2-THOR's frame is left-handed, so its left is ``+x`` of a
  whole that faces ``+z``); a dresser, which has only drawers, stacks them from top to bottom
  by their ``level``; the cabinet under a sink fills the sink's block below its basin;
* shelves: boards spread over the height, ``level`` top, middle and bottom;
* a sink (in a counter): a full-height block at the counter's ``+x`` end, its top the
  counter's, which nothing else stands on (:func:`top_taken`); a sink's basin: sunk into its
  top; a bathtub's basin: most of the tub;
* a faucet: standing on the parent's top, at the back;
* stove burners: the four quarters of the top (``position`` front_left, ...), each what a pan
  on that burner stands on; stove knobs: a row on the front, in the same order;
* any other part (a user's): the parent's box cut into equal slices across.

What rests in or on a part lies inside the part's box, side by side across it, on its bottom
(``in``) or its top (``on``).

>>> from pytest_logicenv.scenes.scene_model import SceneObject
>>> dresser = SceneObject("dresser", "Dresser", size=(1.2, 0.9, 0.5), position=(2, 0.45, 1),
...                       rotation=90)
>>> drawers = [SceneObject(f"d{i}", "Drawer", relation="part", part_of="dresser")
...            for i in range(3)]
>>> [round(d.position[1], 3) for d in place_parts(dresser, drawers)]
[0.75, 0.45, 0.15]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from pytest_logicenv.scenes.scene_model import Scene, SceneObject, Vector

#: Parent types whose drawers stack from top to bottom (no cabinets beneath them).
STACKED_DRAWERS = frozenset({"Dresser"})
#: Height (metres) of the band of drawers under a top, at most.
DRAWER_BAND = 0.2
#: Thickness (metres) of a shelf board and of a burner.
BOARD = 0.02
#: Gap (metres) between neighbouring burners' quarters of a stove top.
BURNER_GAP = 0.02
LEVELS = ("top", "middle", "bottom")
#: The ``position`` of drawers and cabinets side by side, in the order of ``+x`` in the whole's
#: frame (a person facing its front has ``+x`` on the left); unnamed ones go between.
ACROSS = ("right", "left")
#: Part types whose slots in their whole are fixed (a burner's quarter of the top, a sink's
#: faucet): a whole has room for as many as its type has, each in its own slot. Drawers,
#: cabinets and a user's parts share their whole's front, however many there are.
FIXED_SLOTS = frozenset(
    {"Shelf", "SinkBasin", "BathtubBasin", "Faucet", "StoveBurner", "StoveKnob"}
)
CORNERS = ("front_left", "front_right", "back_left", "back_right")

Box = tuple[Vector, Vector]  # (size, centre offset from the parent's centre), parent's frame


def part_boxes(
    parent_type: str, parent_size: Vector, parts: Sequence[tuple[str, Mapping[str, str]]]
) -> list[Box]:
    """The box of each part (type, attributes) in its parent's frame, in the parts' order. A
    sink set into a counter takes its right end; the drawers and cabinets share the rest."""
    width, height, depth = parent_size
    boxes: list[Box | None] = [None] * len(parts)
    by_type: dict[str, list[int]] = {}
    for index, (name, _) in enumerate(parts):
        by_type.setdefault(name, []).append(index)
    sinks = by_type.pop("Sink", [])
    sink_width = _sink_width(width) if sinks else 0.0
    for index in sinks:
        boxes[index] = (
            (sink_width, height, min(0.6, depth * 0.9)),
            (width / 2 - sink_width / 2, 0.0, 0.0),
        )
    drawers = _ordered(by_type.pop("Drawer", []), parts, parent_type in STACKED_DRAWERS)
    cabinets = _ordered(by_type.pop("Cabinet", []), parts, False)
    # Under a sink's basin: what stores in a sink (its cabinet) fills the block below it.
    cut = _sunk(height) + 0.02 if "SinkBasin" in by_type else 0.0
    storage = _storage(
        parent_type, (width - sink_width, height - cut, depth), len(drawers), len(cabinets)
    )
    for index, (size, (x, y, z)) in zip(drawers + cabinets, storage, strict=True):
        boxes[index] = size, (x - sink_width / 2, y - cut / 2, z)
    for name, indices in by_type.items():
        attrs = [parts[i][1] for i in indices]
        for index, box in zip(indices, _slots(name, parent_size, attrs), strict=True):
            boxes[index] = box
    return [box if box is not None else ((width, height, depth), (0.0, 0.0, 0.0)) for box in boxes]


def top_taken(part_types: Iterable[str], width: float) -> float:
    """How much of a whole's width its parts take from its top, at its right end (``+x`` in
    its own frame): a sink set into a counter takes its slot, so what stands on the counter
    stays off the sink and its faucet; 0 when no part does.

    >>> top_taken(["Drawer", "Sink"], 3.0), top_taken(["Drawer"], 3.0)
    (0.8, 0.0)
    """
    return _sink_width(width) if "Sink" in part_types else 0.0


def top_raise(part_types: Iterable[str]) -> float:
    """How far above a whole's top what stands on it rests, on the parts that cover that top:
    a stove's burners (a pot on the stove stands on them, not through them); 0 when none do.

    >>> top_raise(["StoveBurner", "StoveKnob"]), top_raise(["Drawer"])
    (0.02, 0.0)
    """
    return BOARD if "StoveBurner" in part_types else 0.0


def _sink_width(width: float) -> float:
    return min(0.8, width * 0.5)


def _sunk(height: float) -> float:
    """How deep a sink's basin is sunk into its top."""
    return min(0.2, height * 0.3)


def _ordered(
    indices: Sequence[int], parts: Sequence[tuple[str, Mapping[str, str]]], stacked: bool
) -> list[int]:
    """The parts at ``indices`` in their slots' order: across by ``position`` (along ``+x``),
    or, ``stacked``, down by ``level``; parts that name neither keep their order between."""
    order, key = (LEVELS, "level") if stacked else (ACROSS, "position")

    def rank(index: int) -> tuple[float, int]:
        value = parts[index][1].get(key)
        return (order.index(value) if value in order else (len(order) - 1) / 2, index)

    return sorted(indices, key=rank)


def _storage(parent_type: str, size: Vector, drawers: int, cabinets: int) -> list[Box]:
    """Drawers then cabinets: a band of drawers under the top, cabinets below it."""
    width, height, depth = size
    if parent_type in STACKED_DRAWERS and not cabinets:
        return _column(size, drawers, 0.9, 0.9)
    band = min(DRAWER_BAND, height * 0.3) if drawers else 0.0
    boxes = _row(width, drawers, band * 0.9, depth * 0.9, height / 2 - band / 2 - 0.02)
    below = height - band - 0.04
    boxes += _row(width, cabinets, below * 0.95, depth * 0.9, -height / 2 + below / 2)
    return boxes


def _row(width: float, count: int, height: float, depth: float, y: float) -> list[Box]:
    """``count`` boxes side by side across ``width``, centred at height ``y``."""
    slot = width / max(count, 1)
    return [
        ((slot * 0.9, height, depth), (-width / 2 + slot * (i + 0.5), y, 0.0)) for i in range(count)
    ]


def _column(size: Vector, count: int, fill_x: float, fill_z: float) -> list[Box]:
    """``count`` boxes from top to bottom, each a slice of the height."""
    width, height, depth = size
    slot = height / max(count, 1)
    return [
        ((width * fill_x, slot * 0.9, depth * fill_z), (0.0, height / 2 - slot * (i + 0.5), 0.0))
        for i in range(count)
    ]


def _slots(name: str, size: Vector, attrs: Sequence[Mapping[str, str]]) -> list[Box]:
    width, height, depth = size
    count = len(attrs)
    if name == "Shelf":
        order = [_rank(a.get("level"), LEVELS, i) for i, a in enumerate(attrs)]
        slot = height / max(count, 1)
        return [
            ((width * 0.9, BOARD, depth * 0.9), (0.0, height / 2 - slot * (rank + 0.5), 0.0))
            for rank in order
        ]
    if name == "SinkBasin":
        sunk = _sunk(height)
        return [
            ((width * 0.7, sunk, depth * 0.6), (0.0, height / 2 - sunk / 2 - 0.01, 0.0))
        ] * count
    if name == "BathtubBasin":
        return [((width * 0.85, height * 0.8, depth * 0.85), (0.0, height * 0.05, 0.0))] * count
    if name == "Faucet":
        faucet = (min(0.3, width * 0.4), 0.25, min(0.12, depth * 0.2))
        return [(faucet, (0.0, height / 2 + 0.125, -depth / 2 + faucet[2] / 2 + 0.01))] * count
    if name == "StoveBurner":
        return [_burner(size, _rank(a.get("position"), CORNERS, i)) for i, a in enumerate(attrs)]
    if name == "StoveKnob":
        return [_knob(size, _rank(a.get("position"), CORNERS, i)) for i, a in enumerate(attrs)]
    return _row(width, count, height * 0.9, depth * 0.9, 0.0)


def _burner(size: Vector, corner: int) -> Box:
    """A burner's quarter of the top: a pan or a pot stands over its burner and reaches past
    the ring, as on a real stove (the ring alone, 0.22 m across, held no pan asset)."""
    width, height, depth = size
    x = (-1 if corner % 2 == 0 else 1) * width / 4
    z = (1 if corner < 2 else -1) * depth / 4
    slot = (width / 2 - BURNER_GAP, BOARD, depth / 2 - BURNER_GAP)
    return slot, (x, height / 2 + BOARD / 2, z)


def _knob(size: Vector, corner: int) -> Box:
    width, height, depth = size
    x = -width * 0.3 + corner * width * 0.2
    return (0.05, 0.05, 0.03), (x, height / 2 - 0.08, depth / 2 - 0.015)


def _rank(value: str | None, order: Sequence[str], index: int) -> int:
    """Where a named slot (``level`` top, ``position`` front_left) goes; else by index."""
    return order.index(value) if value in order else index


# --------------------------------------------------------------------------- poses


def turned(offset: Vector, rotation: int) -> Vector:
    """An offset in a parent's frame, in the room's frame (``rotation`` as the model's).

    >>> turned((0.0, 0.0, 1.0), 90)  # the front of something facing +x
    (1.0, 0.0, 0.0)
    """
    x, y, z = offset
    quarter = (rotation // 90) % 4
    for _ in range(quarter):
        x, z = z, -x
    return (x + 0.0, y, z + 0.0)


def place_parts(parent: SceneObject, parts: Sequence[SceneObject]) -> list[SceneObject]:
    """``parts`` posed in ``parent`` (its room, its rotation, their slots' sizes)."""
    boxes = part_boxes(parent.type, parent.size, [(p.type, p.attrs) for p in parts])
    placed = []
    for part, (size, offset) in zip(parts, boxes, strict=True):
        dx, dy, dz = turned(offset, parent.rotation)
        x, y, z = parent.position
        position = (x + dx, y + dy, z + dz)
        placed.append(
            replace(part, size=size, position=position, rotation=parent.rotation, room=parent.room)
        )
    return placed


def row_fits(holder: Vector, contents: Sequence[Vector], inside: bool) -> bool:
    """Whether ``contents`` fit side by side across ``holder`` as :func:`place_contents` puts
    them (and, ``inside``, below its top, so that a drawer closes on them).

    >>> row_fits((0.5, 0.2, 0.4), [(0.2, 0.1, 0.3), (0.25, 0.05, 0.2)], inside=True)
    True
    """
    width, height, depth = holder
    return (
        sum(c[0] for c in contents) <= width
        and all(c[2] <= depth for c in contents)
        and (not inside or all(c[1] <= height for c in contents))
    )


def place_contents(holder: SceneObject, contents: Sequence[SceneObject]) -> list[SceneObject]:
    """What rests in (on the bottom) or on (on the top) ``holder``, side by side across it,
    turned as it is: :func:`row_fits` measures the contents in the holder's frame, so they
    take its rotation (a duster that fits along a drawer would otherwise stick out of its side)."""
    x, y, z = holder.position
    width = holder.size[0]
    used = sum(c.size[0] for c in contents)
    gap = max(0.0, (width - used) / (len(contents) + 1))
    placed, along = [], -width / 2 + gap
    for item in contents:
        base = y - holder.size[1] / 2 if item.relation == "in" else y + holder.size[1] / 2
        dx, _, dz = turned((along + item.size[0] / 2, 0.0, 0.0), holder.rotation)
        placed.append(
            replace(
                item,
                position=(x + dx, base + item.size[1] / 2, z + dz),
                rotation=holder.rotation,
                room=holder.room,
            )
        )
        along += item.size[0] + gap
    return placed


def attach_parts(scene: Scene) -> Scene:
    """The scene with every part posed at its parent and everything resting in or on a part
    (and on that, in turn) placed there: what the layout solved stays as it was."""
    objects = {obj.id: obj for obj in scene.objects}
    for parent_id in _parents_first(scene.objects):
        parent = objects[parent_id]
        parts = [objects[p.id] for p in scene.objects if p.part_of == parent_id]
        for part in place_parts(parent, parts):
            objects[part.id] = part
    for holder_id in _held_in_parts(scene.objects):
        holder = objects[holder_id]
        contents = [objects[c.id] for c in scene.objects if c.parent == holder_id]
        for item in place_contents(holder, contents):
            objects[item.id] = item
    return scene.with_objects([objects[obj.id] for obj in scene.objects])


def _parents_first(objects: Iterable[SceneObject]) -> list[str]:
    """Ids of objects with parts, each after the object it is itself a part of."""
    listed = list(objects)
    by_id = {obj.id: obj for obj in listed}
    owners = {obj.part_of for obj in listed if obj.part_of in by_id}

    def depth(object_id: str) -> int:
        seen, n = {object_id}, 0
        while (up := by_id[object_id].part_of) in by_id and up not in seen:
            seen.add(up)
            object_id, n = up, n + 1
        return n

    return sorted((o for o in owners if o is not None), key=lambda o: (depth(o), o))


def _held_in_parts(objects: Iterable[SceneObject]) -> list[str]:
    """Ids of the holders whose contents follow a part: parts holding things, then what
    rests on those things, top-down."""
    listed = list(objects)
    holders = {obj.parent for obj in listed if obj.parent is not None}
    found = [obj.id for obj in listed if obj.part_of is not None and obj.id in holders]
    frontier = list(found)
    while frontier:
        inner = [c.id for c in listed if c.parent in frontier and c.id in holders]
        found += [i for i in inner if i not in found]
        frontier = inner
    return found
