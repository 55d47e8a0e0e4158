"""How realistic a scene's placement is, as ProcTHOR and AI2-THOR would have it.

Two measures (``python benchmarks/run.py realism`` prints them over the example scenes):

**Placed as annotated.** Every object that is not a part, judged against its type's placement
annotation (``placement-annotations.json``) and ProcTHOR's asset groups:

* a type that hangs on walls only hangs on a wall;
* an object on the floor is of a type that stands on the floor (annotated ``onFloor``, or stood
  there by an asset group: a house plant, a dining table), and where its type is annotated: in
  a corner (against two walls), on an edge (against one) or in the middle (against none); one
  that stands relative to other furniture (a chair at the table: ``near``, ``side_of``,
  ``in_front_of``, ``face_to``) is where its group puts it;
* an object resting on or in another is small (pickupable), or usually rests there
  (``receptacles.json``), or is not a floor type;
* it is in a room of a type it occurs in (``catalog/rooms.py``: ProcTHOR's room-type weights,
  else the share of AI2-THOR's scenes of that room type that hold one);
* a place or a room a task's fact forces against the annotation (a pillow on the floor, a
  faucet in a bedroom) counts only as the scene's provenance records it (``placement
  exception: ...``, ``room exception: ...``); :attr:`Realism.forced` counts those objects.

**Parts attached.** Every part lies within its whole, in its room, and its whole's type has such
parts; every object has the parts its type is made of (a missing one counts as not attached).

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> room = Room("r", "LivingRoom", ((0, 0), (4, 0), (4, 4), (0, 4)))
>>> plant = SceneObject("plant", "HousePlant", room="r", size=(0.5, 0.6, 0.5),
...                     position=(0.3, 0.3, 2.0))
>>> mid = SceneObject("plant_2", "HousePlant", room="r", size=(0.5, 0.6, 0.5),
...                   position=(2.0, 0.3, 2.0))
>>> measured = measure(Scene("s", rooms=(room,), objects=(plant, mid)), default_catalog())
>>> measured.placed, measured.judged, measured.problems
(1, 2, ('plant_2 (HousePlant) stands against no wall; it goes in a corner or on an edge',))
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_logicenv.scenes.catalog import Catalog, ObjectType, occurs_in, usual_rooms
from pytest_logicenv.scenes.design.placement import EXCEPTION, GROUPING, ROOM_EXCEPTION
from pytest_logicenv.scenes.design.templates import ROOM_TYPES
from pytest_logicenv.scenes.scene_model import EDGE_DISTANCE, Room, Scene, SceneObject
from pytest_logicenv.vocabulary import a_or_an

_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Realism:
    """Counts over one scene or many: objects judged and placed as annotated, parts expected
    and attached, and what was not."""

    placed: int = 0
    judged: int = 0
    attached: int = 0
    parts: int = 0
    problems: tuple[str, ...] = ()
    #: Of the objects placed as annotated, those a task's fact put elsewhere, as recorded.
    forced: int = 0

    def __add__(self, other: Realism) -> Realism:
        return Realism(
            self.placed + other.placed,
            self.judged + other.judged,
            self.attached + other.attached,
            self.parts + other.parts,
            self.problems + other.problems,
            self.forced + other.forced,
        )

    @property
    def placed_percent(self) -> float:
        return 100.0 * self.placed / self.judged if self.judged else 100.0

    @property
    def attached_percent(self) -> float:
        return 100.0 * self.attached / self.parts if self.parts else 100.0


def measure(scene: Scene, catalog: Catalog) -> Realism:
    """Both measures on one scene (objects of types the catalog lacks are not judged)."""
    by_id = {obj.id: obj for obj in scene.objects}
    rooms = {room.id: room for room in scene.rooms}
    grouped = {
        r.subject
        for r in (*scene.relations, *scene.provenance.kept)
        if r.kind in GROUPING and r.target in by_id and _on_floor(by_id[r.target])
    }
    dropped = {(r.kind, r.subject, r.target) for r in scene.provenance.dropped}
    grouped -= {s for kind, s, _ in dropped if kind in GROUPING}
    excepted = {_excepted(note, EXCEPTION) for note in scene.provenance.notes}
    room_excepted = {_excepted(note, ROOM_EXCEPTION) for note in scene.provenance.notes}
    placed, judged, attached, parts, forced, problems = 0, 0, 0, 0, 0, []
    for obj in scene.objects:
        if not catalog.has(obj.type):
            continue
        kind = catalog.type(obj.type)
        if obj.part_of is not None:
            parts += 1
            problem = _attachment(obj, by_id, catalog)
            attached += problem is None
        else:
            judged += 1
            found = [
                (_placement(obj, kind, rooms, by_id, grouped), obj.id in excepted),
                (_room(obj, kind, rooms), obj.id in room_excepted),
            ]
            problem = next((p for p, recorded in found if p is not None and not recorded), None)
            placed += problem is None
            forced += problem is None and any(p is not None for p, _ in found)
            missing = _missing_parts(obj, kind, scene)
            parts += len(missing)
            problems += missing
        if problem is not None:
            problems.append(f"{obj.id} ({obj.type}) {problem}")
    return Realism(placed, judged, attached, parts, tuple(problems), forced)


def _excepted(note: str, prefix: str) -> str:
    """The object a provenance note of the kind ``prefix`` excepts (``""`` for other notes)."""
    if not note.startswith(f"{prefix}: "):
        return ""
    return note.removeprefix(f"{prefix}: ").split(" ", 1)[0]


def _room(obj: SceneObject, kind: ObjectType, rooms: dict[str, Room]) -> str | None:
    """Why ``obj`` is not in a room of a type it occurs in (``None``: it is)."""
    room = rooms.get(obj.room)
    if room is None or occurs_in(kind, room.type):
        return None
    usual = usual_rooms(kind, ROOM_TYPES)
    where = f"its room types: {', '.join(usual)}" if usual else "nor in any room type"
    return f"is in {room.id}, a {room.type}, where {a_or_an(kind.name)} does not occur ({where})"


def _on_floor(obj: SceneObject) -> bool:
    return obj.parent is None and obj.part_of is None and obj.relation == "on"


def _placement(
    obj: SceneObject,
    kind: ObjectType,
    rooms: dict[str, Room],
    by_id: dict[str, SceneObject],
    grouped: set[str],
) -> str | None:
    """Why ``obj`` is not where its type's annotation says (``None``: it is)."""
    wall_only = kind.on_wall and not kind.on_floor
    if obj.relation == "wall":
        return None if kind.on_wall else "hangs on a wall; its type does not"
    if wall_only:
        return "does not hang on a wall, as its type does"
    if obj.parent is not None:
        return _resting(obj, kind, by_id.get(obj.parent))
    if not kind.on_floor and not kind.floor_group:
        return "stands on the floor; ProcTHOR puts its type on furniture"
    if obj.id in grouped or kind.floor_group == "member":
        return None  # placed by its group's anchor, as ProcTHOR's asset groups do
    spots = _spots(kind)
    room = rooms.get(obj.room)
    if not spots or room is None:
        return None
    touching = _walls_touched(obj, room)
    if ("corner" in spots and touching >= 2) or ("edge" in spots and touching >= 1):
        return None
    if "middle" in spots and touching == 0:
        return None
    said = " or ".join(
        {"corner": "in a corner", "edge": "on an edge", "middle": "in the middle"}[s] for s in spots
    )
    where = (
        f"against {touching} wall{'s' if touching != 1 else ''}" if touching else "against no wall"
    )
    return f"stands {where}; it goes {said}"


def _spots(kind: ObjectType) -> tuple[str, ...]:
    """Where on the floor a type goes: its annotation's spots, and its groups' when it
    anchors one (a dining table with its chairs stands in the middle too)."""
    both = set(kind.placement.spots) | set(kind.group_spots)
    return tuple(s for s in ("corner", "edge", "middle") if s in both)


def _resting(obj: SceneObject, kind: ObjectType, parent: SceneObject | None) -> str | None:
    if parent is None or kind.has("pickupable") or not kind.on_floor:
        return None
    if parent.type in kind.parents or parent.type in kind.group_supports:
        return None
    return f"rests on {a_or_an(parent.type)}; its type stands on the floor"


def _walls_touched(obj: SceneObject, room: Room) -> int:
    """How many of the room's sides (grouped by direction) the footprint is within
    ``EDGE_DISTANCE`` of: 2 or more is a corner."""
    x0, z0, x1, z1 = obj.footprint
    rx0, rz0, rx1, rz1 = room.bounds
    near = [
        x0 - rx0 <= EDGE_DISTANCE + _TOLERANCE,
        rx1 - x1 <= EDGE_DISTANCE + _TOLERANCE,
        z0 - rz0 <= EDGE_DISTANCE + _TOLERANCE,
        rz1 - z1 <= EDGE_DISTANCE + _TOLERANCE,
    ]
    return sum(near)


def _attachment(part: SceneObject, by_id: dict[str, SceneObject], catalog: Catalog) -> str | None:
    whole = by_id.get(part.part_of or "")
    if whole is None:
        return f"is a part of {part.part_of!r}, which is not in the scene"
    if catalog.has(whole.type) and part.type not in [
        p.type for p in catalog.type(whole.type).parts
    ]:
        return f"is a part of {a_or_an(whole.type)}, which has no {part.type}"
    if whole.room != part.room:
        return f"is in {part.room}, its whole {whole.id} in {whole.room}"
    inner, outer = part.footprint, whole.footprint
    inside = all(a >= b - 1e-3 for a, b in ((inner[0], outer[0]), (inner[1], outer[1]))) and all(
        a <= b + 1e-3 for a, b in ((inner[2], outer[2]), (inner[3], outer[3]))
    )
    return None if inside else f"lies outside its whole {whole.id}"


def _missing_parts(obj: SceneObject, kind: ObjectType, scene: Scene) -> list[str]:
    """One problem per part the object's type has that the object lacks."""
    missing = []
    for spec in kind.parts:
        if spec.optional:
            continue
        have = sum(1 for p in scene.objects if p.part_of == obj.id and p.type == spec.type)
        missing += [f"{obj.id} ({obj.type}) lacks {a_or_an(spec.type)}"] * max(0, spec.count - have)
    return missing
