"""The files of a task's cache entry, as bytes: the plan, the selected trajectories, one scene
each (with its picture and AI2-THOR house), the LLM exchanges, and the manifest, which records
the SHA-256 of every other file the entry's tests read (``files``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_logicenv.cache import (
    CACHE_FORMAT,
    LLM_LOG,
    MANIFEST,
    PLAN,
    SCENES,
    TRAJECTORIES,
    Entry,
    digests,
    dumps,
    file_hash,
    safe_file_name,
    text_hash,
)
from pytest_logicenv.logic.plan import Plan, plan_to_json, type_names
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.pipeline.cached import TRAJECTORIES_FORMAT, USED_TYPES
from pytest_logicenv.pipeline.derived import trajectory_record
from pytest_logicenv.pipeline.kept_scenes import DESIGNED_FOR
from pytest_logicenv.pipeline.task_request import TaskRequest
from pytest_logicenv.pipeline.witness_files import witness_file
from pytest_logicenv.render import render_svg
from pytest_logicenv.scenes.export import to_house
from pytest_logicenv.scenes.scene_json import scene_to_json
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.version import __version__
from pytest_logicenv.witness import WitnessResult

PROCEDURAL = "procedural designer"


@dataclass(frozen=True)
class Made:
    """What one generation made, and who made it."""

    plan: Plan
    plan_record: Mapping[str, Any]  # who made the plan (the manifest's "plan")
    trajectories: tuple[Trajectory, ...]
    scenes: Mapping[str, Scene]  # by trajectory id
    exchanges: Sequence[Mapping[str, Any]]  # every LLM exchange, as JSON
    designer: str | None  # who designed the scenes when not the procedural designer
    notes: Sequence[str]
    #: By trajectory id, the key of the facts an LLM designed each scene for (the manifest's
    #: ``scenes.designed_for``, see ``kept_scenes.py``); the intact files of the scenes a
    #: rebuild kept, by path in the entry, as first written.
    designed_for: Mapping[str, str] = field(default_factory=dict)
    kept_files: Mapping[str, bytes] = field(default_factory=dict)
    #: By trajectory id, each scene's witness (``pipeline/witnesses.py``), written beside it.
    witnesses: Mapping[str, WitnessResult] = field(default_factory=dict)


def entry_files(
    made: Made,
    request: TaskRequest,
    settings: Mapping[str, Any],
    kept: Mapping[str, bytes] | None = None,
) -> tuple[dict[str, bytes], list[dict[str, Any]]]:
    """Every file of the entry by its path in the entry, and the trajectory records.
    ``kept`` are files of the entry this one replaces that it carries over (the LLM
    exchanges behind a plan that is kept); the new files win over them.

    Nothing in them depends on the run or on the test that asked (no node id, time or run
    id): regenerating an unchanged task rewrites the committed files byte for byte.
    """
    plan_bytes = dumps(plan_to_json(made.plan))
    plan_record = {**made.plan_record, "sha256": file_hash(plan_bytes)}
    records = [trajectory_record(made.plan, t) for t in made.trajectories]
    files = {**(kept or {}), PLAN: plan_bytes, **exchange_files(made.exchanges)}
    for trajectory in made.trajectories:
        made_now = _scene_files(made.scenes[trajectory.id], trajectory.id)
        files.update({name: made.kept_files.get(name, data) for name, data in made_now.items()})
        if trajectory.id in made.witnesses:
            stem = f"{SCENES}/{safe_file_name(trajectory.id)}"
            files.update(witness_file(stem, made.witnesses[trajectory.id]))
    files[TRAJECTORIES] = dumps(
        {
            "format": TRAJECTORIES_FORMAT,
            "strategy": request.select,
            "plan_sha256": plan_record["sha256"],
            "trajectories": records,
        }
    )
    manifest = _manifest(made, request, settings, plan_record)
    files[MANIFEST] = dumps({**manifest, "files": digests(files)})
    return files, records


def exchange_files(exchanges: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
    """The ``llm/<key>.json`` files of some exchanges, each named by its request's hash: the
    same question keeps the same file name."""
    files = {}
    for exchange in exchanges:
        name = exchange.get("key") or file_hash(dumps(exchange))[:16]
        files[f"{LLM_LOG}/{safe_file_name(str(name))}.json"] = dumps(exchange)
    return files


def _scene_files(scene: Scene, trajectory_id: str) -> dict[str, bytes]:
    """A scene, its picture and its AI2-THOR house, side by side in the entry."""
    stem = f"{SCENES}/{safe_file_name(trajectory_id)}"
    return {
        f"{stem}.json": dumps(scene_to_json(scene)),
        f"{stem}.svg": render_svg(scene).encode("utf-8"),
        f"{stem}.house.json": dumps(to_house(scene)),
    }


def _manifest(
    made: Made,
    request: TaskRequest,
    settings: Mapping[str, Any],
    plan_record: Mapping[str, Any],
) -> dict[str, Any]:
    scenes: dict[str, Any] = {
        "made_by": made.designer or PROCEDURAL,
        "seed": request.seed,
        "count": len(made.trajectories),
    }
    if made.designed_for:  # LLM designs only: the procedural designer's manifests stay as were
        scenes[DESIGNED_FOR] = {t.id: made.designed_for[t.id] for t in made.trajectories}
    return {
        "format": CACHE_FORMAT,
        "generator": f"pytest-logicenv {__version__}",
        "task": request.task,
        "task_sha256": text_hash(request.task),
        "settings": dict(settings),
        **_used_types(made.plan, request),
        "plan": dict(plan_record),
        "scenes": scenes,
        "notes": list(made.notes),
    }


def recorded_exchanges(entry: Entry) -> dict[str, bytes]:
    """The LLM exchanges an entry recorded, by path in the entry: a rebuild carries them
    over, since they are the only record of how its plan (or scenes) came about."""
    folder = entry.root / LLM_LOG
    try:
        return {
            f"{LLM_LOG}/{path.name}": path.read_bytes() for path in sorted(folder.glob("*.json"))
        }
    except OSError:
        return {}


def _used_types(plan: Plan, request: TaskRequest) -> dict[str, Any]:
    """The manifest's ``types``: the digest of each user type the plan uses (left out when
    it uses none, so entries made without a type file stay as they were)."""
    used = request.type_digests(type_names(plan))
    return {USED_TYPES: used} if used else {}
