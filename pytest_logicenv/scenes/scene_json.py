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
pytest_logicenv.errors.SceneError: s.json: malformed scene (KeyError: 'id' is missing)
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
        **({"role": door.role} if door.role is not None else {}),
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
        # A KeyError's text is its key's repr: read its message as written.
        detail = error.args[0] if isinstance(error, KeyError) and error.args else error
        raise SceneError(f"{source}: malformed scene ({type(error).__name__}: {detail})") from None


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
        id=_str(data, "id"),
        rooms=tuple(_room(r) for r in _parts(data, "rooms")),
        walls=tuple(_wall(w) for w in _parts(data, "walls")),
        doors=tuple(_door(d) for d in _parts(data, "doors")),
        windows=tuple(_window(w) for w in _parts(data, "windows")),
        objects=tuple(_object(o) for o in _parts(data, "objects")),
        agent=None if agent is None else _agent(_table(agent, "'agent'")),
        relations=tuple(_relation(r) for r in _parts(data, "relations")),
        provenance=_provenance(provenance),
    )


# A field of the wrong type is refused, never coerced: bool("yes") is True, str(5) is "5",
# and a forged scene behind a fixed digest must not read as a valid one.
_REQUIRED: Any = object()


def _get(
    data: Mapping[str, Any], key: str, kinds: tuple[type, ...], what: str, default: Any
) -> Any:
    if key not in data:
        if default is _REQUIRED:
            raise KeyError(f"{what}{key!r} is missing")
        return default
    value = data[key]
    if isinstance(value, bool) and bool not in kinds:
        kinds = ()  # True is an int to Python, not to a scene
    if not isinstance(value, kinds):
        names = " or ".join("null" if k is type(None) else _KIND_NAMES[k] for k in kinds or (int,))
        raise TypeError(f"{what}{key!r} must be {names}, got {_shown(value)}")
    return value


_KIND_NAMES = {str: "a string", bool: "true or false", int: "a number", float: "a number"}


def _str(data: Mapping[str, Any], key: str, what: str = "", default: Any = _REQUIRED) -> str:
    return str(_get(data, key, (str,), what, default))


def _opt_str(data: Mapping[str, Any], key: str, what: str = "") -> str | None:
    value = _get(data, key, (str, type(None)), what, None)
    return None if value is None else str(value)


def _flag(data: Mapping[str, Any], key: str, what: str, default: bool) -> bool:
    return bool(_get(data, key, (bool,), what, default))


def _number(data: Mapping[str, Any], key: str, what: str = "", default: Any = _REQUIRED) -> float:
    return float(_get(data, key, (int, float), what, default))


def _whole(data: Mapping[str, Any], key: str, what: str, default: int) -> int:
    return int(_get(data, key, (int,), what, default))


def _numbers(value: Any, count: int, what: str) -> tuple[float, ...]:
    ok = isinstance(value, list | tuple) and len(value) == count
    if not ok or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        raise TypeError(f"{what} must be a list of {count} numbers, got {_shown(value)}")
    return tuple(float(v) for v in value)


def _point(value: Any, what: str = "a point") -> Point:
    x, y = _numbers(value, 2, what)
    return x, y


def _vector(value: Any, what: str = "a vector") -> Vector:
    x, y, z = _numbers(value, 3, what)
    return x, y, z


def _room(data: Mapping[str, Any]) -> Room:
    what = f"room {data.get('id')!r}: "
    polygon = data.get("polygon")
    if not isinstance(polygon, list):
        raise TypeError(f"{what}'polygon' must be a list of points, got {_shown(polygon)}")
    return Room(
        _str(data, "id", what),
        _str(data, "type", what),
        tuple(_point(p, f"{what}a point of 'polygon'") for p in polygon),
        _str(data, "floor_material", what, ""),
        _str(data, "wall_material", what, ""),
    )


def _wall(data: Mapping[str, Any]) -> Wall:
    what = f"wall {data.get('id')!r}: "
    return Wall(
        _str(data, "id", what),
        _names(data.get("rooms"), f"{what}'rooms'"),
        _point(data.get("start"), f"{what}'start'"),
        _point(data.get("end"), f"{what}'end'"),
        _number(data, "height", what, 2.5),
        _str(data, "material", what, ""),
    )


def _door(data: Mapping[str, Any]) -> Door:
    what = f"door {data.get('id')!r}: "
    return Door(
        _str(data, "id", what),
        _str(data, "wall", what),
        _names(data.get("rooms"), f"{what}'rooms'"),
        _number(data, "offset", what),
        _number(data, "width", what, 0.9),
        _number(data, "height", what, 2.1),
        _flag(data, "open", what, True),
        _str(data, "asset_id", what, ""),
        _opt_str(data, "role", what),
    )


def _window(data: Mapping[str, Any]) -> Window:
    what = f"window {data.get('id')!r}: "
    return Window(
        _str(data, "id", what),
        _str(data, "wall", what),
        _str(data, "room", what),
        _number(data, "offset", what),
        _number(data, "width", what, 1.2),
        _number(data, "height", what, 1.2),
        _number(data, "sill", what, 0.9),
        _flag(data, "open", what, False),
        _str(data, "asset_id", what, ""),
        _opt_str(data, "role", what),
    )


def _object(data: Mapping[str, Any]) -> SceneObject:
    what = f"object {data.get('id')!r}: "
    rotation = _whole(data, "rotation", what, 0)
    if rotation not in (0, 90, 180, 270):
        raise ValueError(f"{what}rotation must be 0, 90, 180 or 270")
    states = _table(data.get("states", {}), f"{what}'states'")
    attrs = _table(data.get("attrs", {}), f"{what}'attrs'")
    return SceneObject(
        id=_str(data, "id", what),
        type=_str(data, "type", what),
        asset_id=_str(data, "asset_id", what, ""),
        role=_opt_str(data, "role", what),
        room=_str(data, "room", what, ""),
        size=_vector(data.get("size", (0.3, 0.3, 0.3)), f"{what}'size'"),
        position=_vector(data.get("position", (0, 0, 0)), f"{what}'position'"),
        rotation=rotation,
        parent=_opt_str(data, "parent", what),
        relation=_str(data, "relation", what, "on"),
        states={str(k): _flag(states, k, f"{what}state ", False) for k in states},
        attrs={str(k): _str(attrs, k, f"{what}attr ") for k in attrs},
        properties=_names(data.get("properties", []), f"{what}'properties'"),
        task=_flag(data, "task", what, False),
        custom_type=_flag(data, "custom_type", what, False),
        accepts=_names(data.get("accepts", []), f"{what}'accepts'"),
        part_of=_opt_str(data, "part_of", what),
        priority=_whole(data, "priority", what, PRIORITY_ENRICHMENT),
    )


def _agent(data: Mapping[str, Any]) -> AgentStart:
    return AgentStart(
        _str(data, "room", "the agent's "),
        _point(data.get("position", (0, 0)), "the agent's 'position'"),
    )


def _relation(data: Mapping[str, Any]) -> SpatialRelation:
    what = "a relation's "
    return SpatialRelation(
        kind=_str(data, "kind", what),
        subject=_str(data, "subject", what),
        target=_opt_str(data, "target", what),
        priority=_whole(data, "priority", what, 1),
        reason=_str(data, "reason", what, ""),
    )


def _provenance(data: Mapping[str, Any]) -> Provenance:
    what = "'provenance': "
    conditions = data.get("conditions", ())
    return Provenance(
        trajectory=_opt_str(data, "trajectory", what),
        conditions=tuple(_pair(c, f"{what}a condition") for c in conditions),
        designer=_str(data, "designer", what, ""),
        seed=_whole(data, "seed", what, 0),
        kept=tuple(_relation(r) for r in _parts(data, "kept")),
        dropped=tuple(_relation(r) for r in _parts(data, "dropped")),
        notes=_names(data.get("notes", []), "'notes'"),
        dropped_objects=tuple(_dropped_object(d) for d in _parts(data, "dropped_objects")),
    )


def _pair(value: Any, what: str) -> tuple[str, str]:
    names = _names(value, what)
    if len(names) != 2:
        raise TypeError(f"{what} must be [factor, value], got {_shown(value)}")
    return names[0], names[1]


def _dropped_object(data: Mapping[str, Any]) -> DroppedObject:
    what = f"dropped object {data.get('id')!r}: "
    return DroppedObject(
        id=_str(data, "id", what),
        type=_str(data, "type", what),
        room=_str(data, "room", what, ""),
        priority=_whole(data, "priority", what, PRIORITY_ENRICHMENT),
        reason=_str(data, "reason", what, ""),
    )
