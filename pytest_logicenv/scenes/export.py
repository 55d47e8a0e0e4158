"""Export a Scene as a ProcTHOR house: JSON schema 1.0.0, as AI2-THOR 5 loads it with
``Controller(scene=house)`` (its ``CreateHouse`` action).

The schema, as AI2-THOR's ``ProceduralData.cs``/``ProceduralTools.cs`` read it:

* ``rooms``: ``id``, ``roomType``, ``floorMaterial`` ``{"name": ...}``, ``floorPolygon``
  (``{x, y, z}`` corners, clockwise seen from above as ProcTHOR writes them), ``ceilings``;
* ``walls``: one per room side of each wall segment, ``id``, ``roomId``, ``polygon`` (four
  corners), ``material``; an outside face is a wall of its own with ``roomId`` ``exterior``
  and the polygon reversed. AI2-THOR keys holes by wall id, so a wall carries at most one
  door or window: walls with several are cut into segments;
* ``doors`` and ``windows``: ``assetId``, ``room0``/``room1``, ``wall0``/``wall1``,
  ``holePolygon`` (the hole's min and max corners in ``wall0``'s frame: metres along it from
  its first corner, and height) and ``assetPosition`` (the asset's centre in that frame);
* ``objects``: ``id``, ``assetId`` (a real AI2-THOR asset; custom types export their
  stand-in), ``position`` (bounding-box centre), ``rotation`` ``{x, y, z}`` degrees,
  ``kinematic``, ``openness``/``isOn``/``isDirty``, and ``children`` for what rests on it
  (``export_objects.py``);
* ``proceduralParameters`` (ceiling material, lights, skybox) and ``metadata`` (``schema``
  ``"1.0.0"``, the agent's pose).

``metadata.logicenv`` says what the format cannot: the states AI2-THOR reaches by actions
(``stateActions``, to replay after loading; ``states``), each stand-in asset
(``substitutions``: a type AI2-THOR lacks), each asset chosen over the scene's (``assets``: a
counter's sink, a faucet by its room), the parts AI2-THOR spawns inside their wholes' assets
(``parts``) and every object AI2-THOR cannot show, with the reason (``skipped``: a stain, a
stove's burners, which the counter standing in for the stove lacks; what rested on them rests
on their parent), and every state of the scene the house cannot give AI2-THOR, with the reason
(``lost``: an open wardrobe shown by a Dresser, which does not open; a wet shirt; an open
window; ``export_states.py`` reads the house back to find them).

:data:`HOUSE_SCHEMA_FILE` is the format as a JSON Schema, written from the classes AI2-THOR
reads a house into (``ProceduralHouse`` and what it holds, in ``unity/Assets/Scripts/
ProceduralData.cs`` of allenai/ai2thor): the tests validate every exported house against it.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, Wall
>>> room = Room("kitchen", "Kitchen", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> walls = (Wall("w0", ("kitchen",), (0, 0), (3, 0)),)
>>> house = to_house(Scene("s", rooms=(room,), walls=walls))
>>> house["metadata"]["schema"], [w["id"] for w in house["walls"]]
('1.0.0', ['wall|kitchen|0.00|0.00|3.00|0.00', 'wall|exterior|0.00|0.00|3.00|0.00'])
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog import Catalog, default_catalog
from pytest_logicenv.scenes.export_objects import house_objects
from pytest_logicenv.scenes.export_objects import xyz as _xyz
from pytest_logicenv.scenes.export_states import lost_states
from pytest_logicenv.scenes.scene_model import Door, Point, Room, Scene, Wall, Window

HOUSE_SCHEMA = "1.0.0"
#: The house format as a JSON Schema (draft 2020-12), from AI2-THOR's ProceduralData.cs.
HOUSE_SCHEMA_FILE = Path(__file__).parent.parent / "data" / "procthor-house.schema.json"
EXTERIOR = "exterior"
DEFAULT_FLOOR_MATERIAL = "OrangeCabinet"
DEFAULT_WALL_MATERIAL = "PureWhite"
CEILING_MATERIAL = "PureWhite"
SKYBOX = "SkyAlbany"
AGENT_HEIGHT = 0.95  # the y at which AI2-THOR's default agent stands on the floor


def to_house(scene: Scene, catalog: Catalog | None = None) -> dict[str, Any]:
    """The ProcTHOR house (schema 1.0.0) for ``scene``."""
    catalog = catalog or default_catalog()
    rooms = {room.id: room for room in scene.rooms}
    walls, holes = _walls(scene, rooms)
    objects = house_objects(scene.objects, catalog, {room.id: room.type for room in scene.rooms})
    height = max((w.height for w in scene.walls), default=2.5)
    house: dict[str, Any] = {
        "id": scene.id,
        "rooms": [_room(room) for room in scene.rooms],
        "walls": walls,
        "doors": [_door(door, holes, catalog) for door in scene.doors],
        "windows": [_window(window, holes, catalog) for window in scene.windows],
        "objects": objects.top,
        "proceduralParameters": _parameters(scene.rooms, height),
        "metadata": {
            "schema": HOUSE_SCHEMA,
            "agent": _agent(scene),
            "agentPoses": {
                name: _agent(scene, standing=name != "locobot")
                for name in ("default", "arm", "locobot", "stretch")
            },
            "logicenv": {
                "scene": scene.id,
                "trajectory": scene.provenance.trajectory,
                "skipped": objects.skipped,
                "substitutions": objects.substitutions,
                "assets": objects.assets,
                "parts": objects.parts,
                "stateActions": objects.state_actions,
                "states": objects.states,
            },
        },
    }
    house["metadata"]["logicenv"]["lost"] = lost_states(scene, house, catalog)
    return house


def house_text(house: dict[str, Any]) -> str:
    """The house file's text, as ``logicenv export`` writes it."""
    return json.dumps(house, indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- rooms and walls


def _signed_area(polygon: Sequence[Point]) -> float:
    return sum(
        a[0] * b[1] - b[0] * a[1] for a, b in zip(polygon, (*polygon[1:], polygon[0]), strict=True)
    )


def _clockwise(polygon: Sequence[Point]) -> list[Point]:
    """Corners in ProcTHOR's order: clockwise with x to the right and z up the page."""
    points = list(polygon)
    return points[::-1] if _signed_area(points) > 0 else points


def _room(room: Room) -> dict[str, Any]:
    return {
        "id": room.id,
        "roomType": room.type,
        "floorMaterial": {"name": room.floor_material or DEFAULT_FLOOR_MATERIAL},
        "floorPolygon": [_xyz(x, 0.0, z) for x, z in _clockwise(room.polygon)],
        "ceilings": [],
    }


def _inside(point: Point, polygon: Sequence[Point]) -> bool:
    """Ray casting: whether ``point`` is strictly inside ``polygon``."""
    x, z = point
    inside = False
    for (x0, z0), (x1, z1) in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
        if (z0 > z) != (z1 > z) and x < x0 + (z - z0) * (x1 - x0) / (z1 - z0):
            inside = not inside
    return inside


@dataclass(frozen=True)
class _Hole:
    """Where a door or window sits in the exported walls."""

    wall0: str
    wall1: str
    x0: float  # along wall0 from its first corner, metres


def _wall_id(owner: str, a: Point, b: Point) -> str:
    return (
        f"wall|{owner}|{min(a[0], b[0]):.2f}|{min(a[1], b[1]):.2f}|"
        f"{max(a[0], b[0]):.2f}|{max(a[1], b[1]):.2f}"
    )


def _wall_json(owner: str, a: Point, b: Point, height: float, material: str) -> dict[str, Any]:
    return {
        "id": _wall_id(owner, a, b),
        "roomId": owner,
        "polygon": [
            _xyz(a[0], 0, a[1]),
            _xyz(b[0], 0, b[1]),
            _xyz(b[0], height, b[1]),
            _xyz(a[0], height, a[1]),
        ],
        "material": {"name": material or DEFAULT_WALL_MATERIAL},
    }


def _walls(scene: Scene, rooms: dict[str, Room]) -> tuple[list[dict[str, Any]], dict[str, _Hole]]:
    openings: dict[str, list[Door | Window]] = {}
    every: list[Door | Window] = [*scene.doors, *scene.windows]
    for hole in every:
        openings.setdefault(hole.wall, []).append(hole)
    known = {wall.id for wall in scene.walls}
    for wall_id, holes in openings.items():
        if wall_id not in known:
            raise SceneError(
                f"scene {scene.id!r}: {holes[0].id} is in wall {wall_id!r}, which the scene "
                "does not have; regenerate the scene"
            )
    result: list[dict[str, Any]] = []
    placed: dict[str, _Hole] = {}
    for wall in scene.walls:
        for a, b, opening in _segments(wall, openings.get(wall.id, [])):
            faces = _faces(wall, a, b, rooms)
            for owner, first, second in faces:
                material = rooms[owner].wall_material if owner in rooms else ""
                result.append(_wall_json(owner, first, second, wall.height, material))
            if opening is None:
                continue
            owner0 = _first_room(opening, faces)
            face0 = next(f for f in faces if f[0] == owner0)
            face1 = next((f for f in faces if f[0] != owner0), face0)
            along = opening.offset - _distance(wall.start, a)
            length = _distance(a, b)
            forward = face0[1] == a
            x0 = along if forward else length - along - opening.width
            placed[opening.id] = _Hole(
                _wall_id(face0[0], face0[1], face0[2]),
                _wall_id(face1[0], face1[1], face1[2]),
                x0,
            )
    return result, placed


def _first_room(hole: Door | Window, faces: Sequence[tuple[str, Point, Point]]) -> str:
    """The room whose face of the wall is the hole's ``wall0``: a room, never the outside."""
    rooms = _door_rooms(hole) if isinstance(hole, Door) else (hole.room,)
    for room in rooms:
        if any(face[0] == room for face in faces):
            return room
    return faces[0][0]


def _distance(a: Point, b: Point) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def _segments(
    wall: Wall, holes: Sequence[Door | Window]
) -> list[tuple[Point, Point, Door | Window | None]]:
    """Cut a wall between its openings so that each piece holds at most one."""
    length = _distance(wall.start, wall.end)
    if length <= 0:
        raise SceneError(f"wall {wall.id!r} has no length")
    ordered = sorted(holes, key=lambda h: h.offset)
    cuts = [0.0]
    for before, after in itertools.pairwise(ordered):
        cuts.append((before.offset + before.width + after.offset) / 2)
    cuts.append(length)
    dx, dz = (wall.end[0] - wall.start[0]) / length, (wall.end[1] - wall.start[1]) / length

    def at(t: float) -> Point:
        return (round(wall.start[0] + dx * t, 4), round(wall.start[1] + dz * t, 4))

    pieces: list[tuple[Point, Point, Door | Window | None]] = []
    for i in range(len(cuts) - 1):
        hole = ordered[i] if i < len(ordered) else None
        pieces.append((at(cuts[i]), at(cuts[i + 1]), hole))
    return pieces


def _faces(
    wall: Wall, a: Point, b: Point, rooms: dict[str, Room]
) -> list[tuple[str, Point, Point]]:
    """Each room's face of segment ``a``-``b``, running clockwise around that room (its
    inside on the right, as AI2-THOR draws ProcTHOR's walls); an exterior wall gets its
    outside face too, reversed."""
    faces: list[tuple[str, Point, Point]] = []
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    length = _distance(a, b)
    right = ((b[1] - a[1]) / length * 0.01, -(b[0] - a[0]) / length * 0.01)
    for room_id in wall.rooms:
        room = rooms.get(room_id)
        if room is None:
            continue
        if _inside((mid[0] + right[0], mid[1] + right[1]), room.polygon):
            faces.append((room_id, a, b))
        else:
            faces.append((room_id, b, a))
    if not faces:
        raise SceneError(f"wall {wall.id!r} belongs to no room of the scene ({wall.rooms})")
    if len(faces) == 1:
        _, first, second = faces[0]
        faces.append((EXTERIOR, second, first))
    return faces


def _hole_json(
    hole: Door | Window, place: _Hole, bottom: float, catalog: Catalog
) -> dict[str, Any]:
    asset_id = hole.asset_id
    _, _, offset = catalog.wall_hole(asset_id) if asset_id else (0.0, 0.0, (0.0, 0.0, 0.0))
    asset = catalog.asset(asset_id) if asset_id else None
    size = asset.size if asset is not None else (hole.width, hole.height, 0.1)
    return {
        "id": hole.id,
        "assetId": asset_id,
        "wall0": place.wall0,
        "wall1": place.wall1,
        "holePolygon": [
            _xyz(place.x0, bottom, 0),
            _xyz(place.x0 + hole.width, bottom + hole.height, 0),
        ],
        "assetPosition": _xyz(
            place.x0 + offset[0] + size[0] / 2, bottom + offset[1] + size[1] / 2, 0
        ),
        "openness": 1.0 if hole.open else 0.0,
    }


def _door_rooms(door: Door) -> tuple[str, ...]:
    """The rooms a door joins, without the outside (listed first or second)."""
    return tuple(room for room in door.rooms if room != EXTERIOR)


def _door(door: Door, holes: dict[str, _Hole], catalog: Catalog) -> dict[str, Any]:
    data = _hole_json(door, holes[door.id], 0.0, catalog)
    rooms = _door_rooms(door)
    room0 = rooms[0] if rooms else ""
    asset = catalog.asset(door.asset_id)
    data.update(
        room0=room0,
        room1=rooms[1] if len(rooms) > 1 else room0,
        # ProcTHOR makes a door to the outside fixed (nothing lies beyond it); ours opens and
        # closes like any door, and its state must survive the export.
        openable=asset is not None and "openable" in asset.properties,
    )
    return data


def _window(window: Window, holes: dict[str, _Hole], catalog: Catalog) -> dict[str, Any]:
    data = _hole_json(window, holes[window.id], window.sill, catalog)
    data.update(room0=window.room, room1=window.room, openable=False)
    return data


# --------------------------------------------------------------------------- the rest


def _centre(room: Room) -> Point:
    x0, z0, x1, z1 = room.bounds
    return (x0 + x1) / 2, (z0 + z1) / 2


def _parameters(rooms: Sequence[Room], height: float) -> dict[str, Any]:
    shadow = {
        "type": "Soft",
        "strength": 1,
        "normalBias": 0,
        "bias": 0.05,
        "nearPlane": 0.2,
        "resolution": "FromQualitySettings",
    }
    lights: list[dict[str, Any]] = [
        {
            "id": "DirectionalLight",
            "type": "directional",
            "position": _xyz(0.84, 0.1855, -1.09),
            "rotation": _xyz(43.375, -3.902, -63.618),
            "intensity": 0.35,
            "indirectMultiplier": 1.0,
            "rgb": {"r": 1.0, "g": 1.0, "b": 1.0},
            "shadow": {**shadow, "bias": 0},
        }
    ]
    for room in rooms:
        x, z = _centre(room)
        lights.append(
            {
                "id": f"light|{room.id}",
                "type": "point",
                "position": _xyz(x, height - 0.2, z),
                "intensity": 0.75,
                "range": 15,
                "rgb": {"r": 1.0, "g": 0.855, "b": 0.722},
                "shadow": shadow,
            }
        )
    return {
        "ceilingMaterial": {"name": CEILING_MATERIAL},
        "floorColliderThickness": 1.0,
        "receptacleHeight": 0.7,
        "skyboxId": SKYBOX,
        "reflections": [],
        "lights": lights,
    }


def _agent(scene: Scene, standing: bool = True) -> dict[str, Any]:
    if scene.agent is not None:
        x, z = scene.agent.position
    elif scene.rooms:
        x, z = _centre(scene.rooms[0])
    else:
        x, z = 0.0, 0.0
    pose: dict[str, Any] = {
        "horizon": 30,
        "position": _xyz(x, AGENT_HEIGHT, z),
        "rotation": _xyz(0, 0, 0),
    }
    if standing:
        pose["standing"] = True
    return pose
