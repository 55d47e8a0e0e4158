"""The JSON form of a :class:`~pytest_logicenv.scenes.scene_model.Scene`: one writer and one reader
per part, so that a new field is one line in each, and :func:`load_scene` for a scene file.

Reading checks the format version, and turns any missing key or value of the wrong type into a
:class:`~pytest_logicenv.errors.SceneError` that names the source.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene
>>> scene = Scene("s", rooms=(Room("kitchen", "Kitchen", ((0, 0), (3, 0), (3, 3))),))
>>> scene_from_json(scene_to_json(scene)) == scene
True
>>> scene_from_json({"format": SCENE_FORMAT, "rooms": []}, source="s.json")
Traceback (most recent call last):
...
pytest_logicenv.errors.SceneError: s.json: malformed scene (KeyError: 'id')
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_logicenv.bounded import read_json_file
from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    SCENE_FORMAT,
    AgentStart,
    Door,
    DroppedObject,
    Point,
    Provenance,
    Room,
    Scene,
    SceneObject,
    SpatialRelation,
    Vector,
    Wall,
    Window,
)

# --------------------------------------------------------------------------- writing


def scene_to_json(scene: Scene) -> dict[str, Any]:
    """The JSON form of ``scene`` (:func:`scene_from_json` reads it back to an equal scene)."""
    return {
        "format": SCENE_FORMAT,
        "id": scene.id,
        "rooms": [_room_json(r) for r in scene.rooms],
        "walls": [_wall_json(w) for w in scene.walls],
        "doors": [_door_json(d) for d in scene.doors],
        "windows": [_window_json(w) for w in scene.windows],
        "objects": [_object_json(o) for o in scene.objects],
        "agent": None if scene.agent is None else _agent_json(scene.agent),
        "relations": [_relation_json(r) for r in scene.relations],
        "provenance": _provenance_json(scene.provenance),
    }


def _room_json(room: Room) -> dict[str, Any]:
    return {
        "id": room.id,
        "type": room.type,
        "polygon": [list(p) for p in room.polygon],
        "floor_material": room.floor_material,
        "wall_material": room.wall_material,
    }


def _wall_json(wall: Wall) -> dict[str, Any]:
    return {
        "id": wall.id,
        "rooms": list(wall.rooms),
        "start": list(wall.start),
        "end": list(wall.end),
        "height": wall.height,
        "material": wall.material,
    }


def _door_json(door: Door) -> dict[str, Any]:
    return {
        "id": door.id,
        "wall": door.wall,
        "rooms": list(door.rooms),
        "offset": door.offset,
        "width": door.width,
        "height": door.height,
        "open": door.open,
        "asset_id": door.asset_id,
    }


def _window_json(window: Window) -> dict[str, Any]:
    return {
        "id": window.id,
        "wall": window.wall,
        "room": window.room,
        "offset": window.offset,
        "width": window.width,
        "height": window.height,
        "sill": window.sill,
        "open": window.open,
        "asset_id": window.asset_id,
        "role": window.role,
    }


def _object_json(obj: SceneObject) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": obj.id,
        "type": obj.type,
        "asset_id": obj.asset_id,
        "role": obj.role,
        "room": obj.room,
        "size": list(obj.size),
        "position": list(obj.position),
        "rotation": obj.rotation,
        "parent": obj.parent,
        "relation": obj.relation,
        "states": dict(obj.states),
        "attrs": dict(obj.attrs),
        "properties": list(obj.properties),
        "task": obj.task,
        "custom_type": obj.custom_type,
        "accepts": list(obj.accepts),
    }
    if obj.part_of is not None:  # left out otherwise: scenes without parts stay as they were
        data["part_of"] = obj.part_of
    if obj.priority != PRIORITY_ENRICHMENT:  # likewise for the default priority
        data["priority"] = obj.priority
    return data


def _agent_json(agent: AgentStart) -> dict[str, Any]:
    return {"room": agent.room, "position": list(agent.position)}


def _relation_json(relation: SpatialRelation) -> dict[str, Any]:
    return {
        "kind": relation.kind,
        "subject": relation.subject,
        "target": relation.target,
        "priority": relation.priority,
        "reason": relation.reason,
    }


def _provenance_json(provenance: Provenance) -> dict[str, Any]:
    data: dict[str, Any] = {
        "trajectory": provenance.trajectory,
        "conditions": [list(c) for c in provenance.conditions],
        "designer": provenance.designer,
        "seed": provenance.seed,
        "kept": [_relation_json(r) for r in provenance.kept],
        "dropped": [_relation_json(r) for r in provenance.dropped],
        "notes": list(provenance.notes),
    }
    if provenance.dropped_objects:  # left out otherwise: a scene that holds all stays as was
        data["dropped_objects"] = [_dropped_object_json(d) for d in provenance.dropped_objects]
    return data


def _dropped_object_json(dropped: DroppedObject) -> dict[str, Any]:
    return {
        "id": dropped.id,
        "type": dropped.type,
        "room": dropped.room,
        "priority": dropped.priority,
        "reason": dropped.reason,
    }


# --------------------------------------------------------------------------- reading


def load_scene(path: str | Path) -> Scene:
    """Read a scene file; errors name the file."""
    path = Path(path)
    try:
        data = read_json_file(path, SceneError)
    except FileNotFoundError:
        raise SceneError(f"{path}: no such scene file") from None
    except OSError as error:
        raise SceneError(f"{path}: cannot be read ({error.strerror or error})") from None
    return scene_from_json(data, source=str(path))


def scene_from_json(data: Any, source: str = "scene") -> Scene:
    """Read a scene; a :class:`SceneError` names ``source`` and the bad key."""
    if not isinstance(data, Mapping):
        raise SceneError(f"{source}: a scene must be a JSON object")
    version = data.get("format")
    if version != SCENE_FORMAT:
        raise SceneError(
            f"{source}: scene format {version!r} is not {SCENE_FORMAT!r}; "
            "regenerate it (pytest --logicenv-regenerate)"
        )
    try:
        return _scene(data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise SceneError(f"{source}: malformed scene ({type(error).__name__}: {error})") from None


def _parts(data: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The objects listed under ``key``: a list of JSON objects, or a TypeError naming it
    (``"objects": "nope"`` must not be read as five one-letter objects)."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, Mapping) for item in value):
        raise TypeError(f"{key!r} must be a list of objects, got {_shown(value)}")
    return value


def _names(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{what} must be a list of strings, got {_shown(value)}")
    return tuple(value)


def _table(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TypeError(f"{what} must be an object, got {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _scene(data: Mapping[str, Any]) -> Scene:
    provenance = _table(data.get("provenance") or {}, "'provenance'")
    agent = data.get("agent")
    return Scene(
        id=str(data["id"]),
        rooms=tuple(_room(r) for r in _parts(data, "rooms")),
        walls=tuple(_wall(w) for w in _parts(data, "walls")),
        doors=tuple(_door(d) for d in _parts(data, "doors")),
        windows=tuple(_window(w) for w in _parts(data, "windows")),
        objects=tuple(_object(o) for o in _parts(data, "objects")),
        agent=None if agent is None else _agent(_table(agent, "'agent'")),
        relations=tuple(_relation(r) for r in _parts(data, "relations")),
        provenance=_provenance(provenance),
    )


def _point(value: Any) -> Point:
    return float(value[0]), float(value[1])


def _vector(value: Any) -> Vector:
    return float(value[0]), float(value[1]), float(value[2])


def _room(data: Mapping[str, Any]) -> Room:
    return Room(
        data["id"],
        data["type"],
        tuple((float(p[0]), float(p[1])) for p in data["polygon"]),
        data.get("floor_material", ""),
        data.get("wall_material", ""),
    )


def _wall(data: Mapping[str, Any]) -> Wall:
    return Wall(
        data["id"],
        _names(data["rooms"], "a wall's 'rooms'"),
        _point(data["start"]),
        _point(data["end"]),
        float(data.get("height", 2.5)),
        data.get("material", ""),
    )


def _door(data: Mapping[str, Any]) -> Door:
    return Door(
        data["id"],
        data["wall"],
        _names(data["rooms"], "a door's 'rooms'"),
        float(data["offset"]),
        float(data.get("width", 0.9)),
        float(data.get("height", 2.1)),
        bool(data.get("open", True)),
        data.get("asset_id", ""),
    )


def _window(data: Mapping[str, Any]) -> Window:
    return Window(
        data["id"],
        data["wall"],
        data["room"],
        float(data["offset"]),
        float(data.get("width", 1.2)),
        float(data.get("height", 1.2)),
        float(data.get("sill", 0.9)),
        bool(data.get("open", False)),
        data.get("asset_id", ""),
        data.get("role"),
    )


def _object(data: Mapping[str, Any]) -> SceneObject:
    rotation = int(data.get("rotation", 0))
    if rotation not in (0, 90, 180, 270):
        raise ValueError(f"object {data.get('id')!r}: rotation must be 0, 90, 180 or 270")
    return SceneObject(
        id=str(data["id"]),
        type=str(data["type"]),
        asset_id=data.get("asset_id", ""),
        role=data.get("role"),
        room=data.get("room", ""),
        size=_vector(data.get("size", (0.3, 0.3, 0.3))),
        position=_vector(data.get("position", (0, 0, 0))),
        rotation=rotation,
        parent=data.get("parent"),
        relation=data.get("relation", "on"),
        states={str(k): bool(v) for k, v in _table(data.get("states", {}), "'states'").items()},
        attrs={str(k): str(v) for k, v in _table(data.get("attrs", {}), "'attrs'").items()},
        properties=_names(data.get("properties", []), "'properties'"),
        task=bool(data.get("task", False)),
        custom_type=bool(data.get("custom_type", False)),
        accepts=_names(data.get("accepts", []), "'accepts'"),
        part_of=data.get("part_of"),
        priority=int(data.get("priority", PRIORITY_ENRICHMENT)),
    )


def _agent(data: Mapping[str, Any]) -> AgentStart:
    return AgentStart(data["room"], _point(data.get("position", (0, 0))))


def _relation(data: Mapping[str, Any]) -> SpatialRelation:
    return SpatialRelation(
        kind=str(data["kind"]),
        subject=str(data["subject"]),
        target=data.get("target"),
        priority=int(data.get("priority", 1)),
        reason=data.get("reason", ""),
    )


def _provenance(data: Mapping[str, Any]) -> Provenance:
    return Provenance(
        trajectory=data.get("trajectory"),
        conditions=tuple((str(f), str(v)) for f, v in data.get("conditions", ())),
        designer=data.get("designer", ""),
        seed=int(data.get("seed", 0)),
        kept=tuple(_relation(r) for r in _parts(data, "kept")),
        dropped=tuple(_relation(r) for r in _parts(data, "dropped")),
        notes=_names(data.get("notes", []), "'notes'"),
        dropped_objects=tuple(_dropped_object(d) for d in _parts(data, "dropped_objects")),
    )


def _dropped_object(data: Mapping[str, Any]) -> DroppedObject:
    return DroppedObject(
        id=str(data["id"]),
        type=str(data["type"]),
        room=str(data.get("room", "")),
        priority=int(data.get("priority", PRIORITY_ENRICHMENT)),
        reason=str(data.get("reason", "")),
    )
