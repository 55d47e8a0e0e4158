"""AI2-THOR's own object types, as real iTHOR scenes report them.

The ``procthor`` package ships ``databases/ai2thor-object-metadata.json`` (43 MB): every object
of AI2-THOR's 120 iTHOR scenes (30 kitchens, living rooms, bedrooms, bathrooms) and 75 RoboTHOR
apartments, with the properties AI2-THOR gives it (``openable``, ``canFillWithLiquid``, ...)
and what it rests on (``parentReceptacles``). It holds 118 object types, among them the ones
ProcTHOR's asset database has no asset for (Cabinet, Drawer, SinkBasin, StoveBurner, Mirror,
...). Reading it takes a second, so :func:`summarize` boils it down once to a small table,
committed as ``pytest_logicenv/data/ai2thor-types.json`` and read by the catalog; ``python -m
pytest_logicenv.scenes.catalog.metadata`` writes it again (a test holds it to the installed
file).

Per type the table keeps: ``instances``; ``properties``, the share of instances with each of
our property names (:data:`~pytest_logicenv.scenes.catalog.properties.METADATA_PROPERTIES`);
``size``, the median bounding box ``(x, y, z)`` in metres, as if unrotated; ``rooms``, the share
of the scenes of each room type that hold one; ``parents``, the share of instances resting on
each type; ``part_of``, the types whose object id it extends (AI2-THOR names a sink's basin
``Sink|...|SinkBasin``); ``controls``, the types it switches (a stove knob, its burner).

>>> scenes = {"kitchens": [[{"objectType": "Faucet", "objectId": "Faucet|1", "toggleable": True,
...   "parentReceptacles": ["Sink|2"], "rotation": {"y": 90.0},
...   "axisAlignedBoundingBox": {"size": {"x": 0.1, "y": 0.3, "z": 0.2}}},
...   {"objectType": "Sink", "objectId": "Sink|2", "receptacle": True, "rotation": {"y": 0},
...   "axisAlignedBoundingBox": {"size": {"x": 0.7, "y": 1.0, "z": 0.7}}}]]}
>>> faucet = summarize(scenes)["Faucet"]
>>> faucet["properties"], faucet["size"], faucet["rooms"], faucet["parents"]
({'toggleable': 1.0}, [0.2, 0.3, 0.1], {'Kitchen': 1.0}, {'Sink': 1.0})
"""

from __future__ import annotations

import importlib.util
import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog.properties import METADATA_PROPERTIES

#: The committed summary the catalog reads.
SUMMARY_FILE = Path(__file__).resolve().parents[2] / "data" / "ai2thor-types.json"
#: The metadata's scene groups that are room types, by our room type names.
SCENE_ROOMS: Mapping[str, str] = {
    "kitchens": "Kitchen",
    "living_rooms": "LivingRoom",
    "bedrooms": "Bedroom",
    "bathrooms": "Bathroom",
}
_DIGITS = 3

Raw = Mapping[str, Any]


def summarize(scenes_by_group: Mapping[str, Iterable[Iterable[Raw]]]) -> dict[str, Any]:
    """The per-type table of the module docstring, from the metadata's ``{group: [scene,
    ...]}`` (a scene is its list of objects); types sorted by name."""
    instances: dict[str, list[Raw]] = defaultdict(list)
    parent_types: dict[str, Counter[str]] = defaultdict(Counter)
    part_of: dict[str, Counter[str]] = defaultdict(Counter)
    scenes_with: dict[str, Counter[str]] = defaultdict(Counter)
    scene_count: Counter[str] = Counter()
    for group, scenes in scenes_by_group.items():
        room = SCENE_ROOMS.get(group)
        for scene in scenes:
            objects = list(scene)
            type_of = {str(o["objectId"]): str(o["objectType"]) for o in objects}
            for obj in objects:
                name = str(obj["objectType"])
                instances[name].append(obj)
                parent_types[name].update(_parents(obj, type_of))
                part_of[name].update(_owner(str(obj["objectId"]), name))
            if room is not None:
                scene_count[room] += 1
                for name in set(type_of.values()):
                    scenes_with[name][room] += 1
    return {
        name: _entry(
            instances[name], parent_types[name], part_of[name], scenes_with[name], scene_count
        )
        for name in sorted(instances)
    }


def _parents(obj: Raw, type_of: Mapping[str, str]) -> set[str]:
    """The types an object rests on (``Floor`` included), each once."""
    return {type_of.get(p, p.split("|")[0]) for p in obj.get("parentReceptacles") or ()}


def _owner(object_id: str, name: str) -> list[str]:
    """The type whose id this object's id extends: ``Sink|x|y|z|SinkBasin`` -> ``Sink``."""
    head, _, rest = object_id.partition("|")
    return [head] if head != name and rest.endswith(f"|{name}") else []


def _entry(
    objects: list[Raw],
    parents: Counter[str],
    owners: Counter[str],
    scenes_with: Counter[str],
    scene_count: Counter[str],
) -> dict[str, Any]:
    n = len(objects)
    controls = Counter(c.split("|")[0] for o in objects for c in o.get("controlledObjects") or ())
    return {
        "instances": n,
        "properties": _shares(
            Counter(
                ours for o in objects for thor, ours in METADATA_PROPERTIES.items() if o.get(thor)
            ),
            n,
        ),
        "size": _median_size(objects),
        "rooms": {
            room: round(scenes_with[room] / scene_count[room], _DIGITS)
            for room in sorted(scenes_with)
        },
        "parents": _shares(parents, n),
        "part_of": _shares(owners, n),
        "controls": _shares(controls, n),
    }


def _shares(counts: Counter[str], total: int) -> dict[str, float]:
    return {key: round(count / total, _DIGITS) for key, count in sorted(counts.items())}


def _median_size(objects: list[Raw]) -> list[float]:
    """The median bounding box, each turned back to rotation 0 (AI2-THOR reports the box
    aligned with the world's axes, so a quarter turn swaps x and z)."""
    sizes = []
    for obj in objects:
        box = (obj.get("axisAlignedBoundingBox") or {}).get("size")
        if not box:
            continue
        x, y, z = float(box["x"]), float(box["y"]), float(box["z"])
        turn = float((obj.get("rotation") or {}).get("y", 0.0)) % 180
        if 45 < turn < 135:
            x, z = z, x
        sizes.append((x, y, z))
    if not sizes:
        return [0.0, 0.0, 0.0]
    return [round(statistics.median(axis), _DIGITS) for axis in zip(*sizes, strict=True)]


# --------------------------------------------------------------------------- the committed table


@cache
def thor_types() -> Mapping[str, Mapping[str, Any]]:
    """The committed summary (read once)."""
    try:
        data: Mapping[str, Mapping[str, Any]] = json.loads(SUMMARY_FILE.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise SceneError(
            f"{SUMMARY_FILE}: cannot read AI2-THOR's type table ({error}); reinstall "
            "pytest-logicenv, or write it again with "
            "'python -m pytest_logicenv.scenes.catalog.metadata'"
        ) from None
    return data


def databases_dir() -> Path:
    """The ``procthor/databases`` folder, found without importing ``procthor``."""
    spec = importlib.util.find_spec("procthor")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = Path(location) / "databases"
        if (path / "asset-database.json").is_file():
            return path
    raise SceneError(
        "the procthor package's databases were not found; install it with "
        "'pip install procthor==0.0.1.dev2' (a dependency of pytest-logicenv)"
    )


def summary_text(metadata_file: Path) -> str:
    """The summary of ``metadata_file`` as the committed file holds it."""
    raw = json.loads(metadata_file.read_text("utf-8"))
    return json.dumps(summarize(raw), indent=1, sort_keys=True) + "\n"


def main() -> None:  # pragma: no cover - run by hand when procthor's metadata changes
    SUMMARY_FILE.write_text(summary_text(databases_dir() / "ai2thor-object-metadata.json"))
    print(f"wrote {SUMMARY_FILE}")


if __name__ == "__main__":  # pragma: no cover
    main()
