"""The scenes an LLM designed that a rebuild of their entry keeps (``--logicenv-designer=llm``).

A model's design costs requests and differs from one asking to the next, so rebuilding an
entry (a damaged picture, an edited ``trajectories.json``, a plan edit) asks the model again
only for the situations whose facts changed. A scene of the old entry is kept for a trajectory
of the new one when

* its JSON is intact: the SHA-256 its manifest records (without a readable manifest: it reads
  as a scene);
* it was designed for the same facts: :func:`design_key` of the trajectory (the plan's setting
  and rooms, the situation's realization facts, the goal), as the manifest records it under
  ``scenes.designed_for`` (an entry that records none: its scene is judged by the next point
  alone);
* and it still realizes the trajectory's facts.

Its files are kept byte for byte where intact; a damaged or missing picture or AI2-THOR house
is made again from its JSON. Nothing here asks a model, so the same rebuild works offline.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_logicenv.bounded import MAX_JSON_CHARS, load_json_text
from pytest_logicenv.cache import SCENES, Entry, dumps, file_hash
from pytest_logicenv.errors import CacheError, LogicEnvError
from pytest_logicenv.logic.facts import to_json
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.pipeline.cached import read_manifest, recorded_digests
from pytest_logicenv.pipeline.task_request import SceneSource
from pytest_logicenv.scenes.realized import require_realized
from pytest_logicenv.scenes.scene_json import scene_from_json
from pytest_logicenv.scenes.scene_model import Scene

#: The manifest's record (under ``scenes``) of the facts each scene was designed for.
DESIGNED_FOR = "designed_for"


def design_key(plan: Plan, trajectory: Trajectory) -> str:
    """A digest of what a situation's scene is designed for: the plan's setting and rooms,
    the realization facts of the situation's conditions and its goal. An edit of an action
    or a question text leaves it unchanged; an edit of a fact changes it."""
    realization = {
        f"{factor}={value}": [
            to_json(fact) for fact in plan.factor(factor).realizations.get(value, ())
        ]
        for factor, value in trajectory.conditions
    }
    facts = {
        "setting": [to_json(fact) for fact in plan.setting],
        "rooms": list(plan.rooms),
        "conditions": realization,
        "goal": [to_json(fact) for fact in trajectory.goal],
    }
    return file_hash(dumps(facts))


@dataclass(frozen=True)
class KeptScene:
    """An intact scene of the old entry: the scene, its intact files as written (the JSON,
    and the picture and house when their digests match) by path in the entry, and the key
    of the facts it was designed for (``None``: the entry does not say)."""

    scene: Scene
    files: Mapping[str, bytes]
    key: str | None


@dataclass(frozen=True)
class KeptScenes:
    """The intact scenes of an entry being rebuilt, by trajectory id."""

    by_id: Mapping[str, KeptScene] = field(default_factory=dict)

    @classmethod
    def read(cls, entry: Entry) -> KeptScenes:
        """The entry's intact scenes (none when it has none, or they cannot be read)."""
        digests, keys = _records(entry)
        kept = {}
        for path in sorted((entry.root / SCENES).glob("*.json")):
            if path.name.endswith(".house.json"):
                continue
            found = _read(path, digests, keys)
            if found is not None and found.scene.provenance.trajectory:
                kept[found.scene.provenance.trajectory] = found
        return cls(kept)

    def get(self, plan: Plan, trajectory: Trajectory) -> KeptScene | None:
        """The kept scene of ``trajectory`` when it was designed for the same facts and
        still realizes them, else ``None`` (the model designs it anew)."""
        kept = self.by_id.get(trajectory.id)
        if kept is None or kept.scene.provenance.conditions != trajectory.conditions:
            return None
        try:
            if kept.key is not None and kept.key != design_key(plan, trajectory):
                return None
            require_realized(kept.scene, plan, trajectory)
        except (LogicEnvError, KeyError):
            return None
        return kept


def _records(entry: Entry) -> tuple[Mapping[str, Any] | None, Mapping[str, Any]]:
    """The manifest's digests (``None``: no readable manifest) and design keys."""
    try:
        manifest = read_manifest(entry, "")
    except CacheError:
        return None, {}
    if isinstance(manifest, str):  # damaged: its digests and keys are lost
        return None, {}
    scenes = manifest.get("scenes")
    keys = scenes.get(DESIGNED_FOR) if isinstance(scenes, dict) else None
    return recorded_digests(manifest), keys if isinstance(keys, dict) else {}


def _read(
    path: Path, digests: Mapping[str, Any] | None, keys: Mapping[str, Any]
) -> KeptScene | None:
    try:
        if path.stat().st_size > MAX_JSON_CHARS:
            return None
        data = path.read_bytes()
        if digests is not None and digests.get(f"{SCENES}/{path.name}") != file_hash(data):
            return None
        parsed = load_json_text(data.decode("utf-8"), str(path), CacheError)
        scene = scene_from_json(parsed, str(path))
    except (OSError, UnicodeDecodeError, LogicEnvError):
        return None
    files = {f"{SCENES}/{path.name}": data, **_intact_derived(path, digests or {})}
    key = keys.get(scene.provenance.trajectory or "")
    return KeptScene(scene, files, key if isinstance(key, str) else None)


def _intact_derived(scene_path: Path, digests: Mapping[str, Any]) -> dict[str, bytes]:
    """The picture and house of a scene whose digests match (the others are made again)."""
    stem = scene_path.name[: -len(".json")]
    intact = {}
    for suffix in (".svg", ".house.json"):
        name = f"{SCENES}/{stem}{suffix}"
        try:
            data = (scene_path.parent / f"{stem}{suffix}").read_bytes()
        except OSError:
            continue
        if digests.get(name) == file_hash(data):
            intact[name] = data
    return intact


class KeepingDesigner:
    """The LLM designer of a rebuild: a situation's kept scene when it has one
    (:meth:`KeptScenes.get`), else the model's design. The model's designer is made only
    when a scene needs it (``designer()``, which raises when no model may be asked)."""

    def __init__(self, kept: KeptScenes, designer: Callable[[], SceneSource]) -> None:
        self.kept = kept
        self._make = designer
        self._designer: SceneSource | None = None
        self.kept_files: dict[str, bytes] = {}  # the intact files of the scenes kept
        self._kept_by: str = ""

    @property
    def name(self) -> str:
        """Who designed the scenes: the model asked now, else the one that made those kept."""
        if self._designer is not None:
            return self._designer.name
        return self._kept_by or "llm"

    def __call__(self, plan: Plan, trajectory: Trajectory, seed: int) -> Scene:
        kept = self.kept.get(plan, trajectory)
        if kept is not None:
            self.kept_files.update(kept.files)
            self._kept_by = self._kept_by or kept.scene.provenance.designer
            return kept.scene
        if self._designer is None:
            self._designer = self._make()
        return self._designer(plan, trajectory, seed)

    def take_exchanges(self) -> list[dict[str, Any]]:
        return [] if self._designer is None else self._designer.take_exchanges()
