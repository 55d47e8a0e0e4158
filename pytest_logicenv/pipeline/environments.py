"""From a task to its environments: the pipeline behind one marked test, with the cache.

``prepare(request, cache, mode)`` returns the environments of one task: the plan, the
selected trajectories and one solved scene each, read from the cache when it holds a fresh
entry, else generated (plan from a plan file or an LLM; scenes from a designer, the layout
solver and the checks) and written to the cache atomically under a lock.

What counts as fresh, like a snapshot tool would judge it:

* the entry's manifest has our format version, and (for ``plan=`` tests) the plan file has
  not changed since;
* ``plan.json`` is the one the trajectories and scenes were made from: editing it by hand
  makes only the trajectories and scenes stale, and they are rebuilt from the edited plan;
* every scene the trajectories name is there.

A miss that needs an LLM when none may be used (for the plan, or for the scenes when an LLM
designs them) is a :class:`CacheError` naming the test, the cache path and the command that
fills it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pytest_logicenv import __version__
from pytest_logicenv.cache import (
    CACHE_FORMAT,
    LLM_LOG,
    MANIFEST,
    PLAN,
    SCENES,
    TRAJECTORIES,
    Cache,
    Entry,
    dumps,
    entry_key,
    file_hash,
    regenerate_hint,
    safe_file_name,
    text_hash,
)
from pytest_logicenv.errors import CacheError, LogicEnvError, PlanError, SceneError
from pytest_logicenv.logic.facts import Fact, parse_facts, to_json
from pytest_logicenv.logic.plan import Plan, load_plan, plan_from_json, plan_to_json
from pytest_logicenv.logic.rules import validate_plan
from pytest_logicenv.logic.trajectories import (
    DecisionPath,
    Trajectory,
    make_trajectory,
    plan_paths,
    select,
)
from pytest_logicenv.logic.trajectories import situation as situation_of
from pytest_logicenv.scenes.model import Scene

TRAJECTORIES_FORMAT = "logicenv-trajectories/1"
HAND_WRITTEN = "hand-written"
PROCEDURAL = "procedural designer"
#: The designer a request uses unless it says otherwise (``--logicenv-designer``).
DEFAULT_DESIGNER = "procedural"

#: Builds one solved, checked scene for a trajectory: ``(plan, trajectory, seed) -> Scene``.
SceneBuilder = Callable[[Plan, Trajectory, int], Scene]


class PlanSource(Protocol):
    """Something that derives a plan from a task (an LLM planner)."""

    @property
    def name(self) -> str:
        """Who makes the plan, as the manifest records it (``llm:deepseek-chat``)."""
        ...

    def derive(self, task: str, rooms: Sequence[str]) -> tuple[Plan, list[dict[str, Any]]]:
        """The plan and the LLM exchanges (as JSON objects) that made it."""
        ...


class SceneSource(Protocol):
    """A scene builder that asks an LLM (``llm_designer.LLMSceneBuilder``)."""

    @property
    def name(self) -> str:
        """Who designs the scenes, as the manifest records it (``llm:deepseek-chat``)."""
        ...

    def __call__(self, plan: Plan, trajectory: Trajectory, seed: int) -> Scene: ...

    def take_exchanges(self) -> list[dict[str, Any]]:
        """The LLM exchanges (as JSON objects) made since the last call."""
        ...


@dataclass(frozen=True)
class TaskRequest:
    """What a ``logic_env`` marker asks for."""

    task: str
    plan_file: Path | None = None
    rooms: tuple[str, ...] = ()
    select: str = "minimal"
    seed: int = 0
    designer: str = DEFAULT_DESIGNER

    def settings(self, rootdir: Path) -> dict[str, Any]:
        """The settings that, with the task text, identify a cache entry."""
        plan_file = None
        if self.plan_file is not None:
            try:
                plan_file = self.plan_file.resolve().relative_to(rootdir.resolve()).as_posix()
            except ValueError:
                plan_file = self.plan_file.resolve().as_posix()
        settings: dict[str, Any] = {
            "select": self.select,
            "seed": self.seed,
            "rooms": list(self.rooms),
            "plan_file": plan_file,
        }
        if self.designer != DEFAULT_DESIGNER:  # left out by default: existing keys stay
            settings["designer"] = self.designer
        return settings


@dataclass(frozen=True)
class Mode:
    """How generation may proceed in this run."""

    regenerate: bool = False
    offline: bool = False
    run_id: str = ""


@dataclass(frozen=True)
class Case:
    """One environment of a task: what a parametrized test item needs, cheap to carry."""

    entry_root: Path
    trajectory_id: str
    situation: tuple[tuple[str, str], ...]
    goal: tuple[Fact, ...]
    conditions: tuple[tuple[str, str], ...]

    @property
    def scene_path(self) -> Path:
        return Entry(self.entry_root).scene_path(self.trajectory_id)

    @property
    def picture_path(self) -> Path:
        return Entry(self.entry_root).scene_path(self.trajectory_id, ".svg")

    @property
    def house_path(self) -> Path:
        return Entry(self.entry_root).scene_path(self.trajectory_id, ".house.json")


@dataclass(frozen=True)
class Environments:
    """A task's cache entry and its cases, in selection order."""

    entry: Entry
    cases: tuple[Case, ...]
    generated: bool = False
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Builders:
    """The pluggable parts of generation. With ``llm_scenes``, an LLM designs the scenes
    instead of ``scene``: it gives the designer when scenes must be made (``None``: no LLM
    is configured, and a cache miss is an error, as for the planner)."""

    scene: SceneBuilder
    planner: Callable[[], PlanSource | None] = lambda: None
    known_types: Callable[[], frozenset[str] | None] = lambda: None
    on_scene: Callable[[Scene, Trajectory], None] = lambda scene, trajectory: None
    llm_scenes: Callable[[], SceneSource | None] | None = None


# --------------------------------------------------------------------------- reading


def _load_cases(entry: Entry, fix: str) -> tuple[Case, ...]:
    data = entry.read_json(entry.trajectories_path, fix=fix)
    try:
        if data.get("format") != TRAJECTORIES_FORMAT:
            raise CacheError(f"{entry.trajectories_path}: format {data.get('format')!r}")
        return tuple(_case(entry.root, item) for item in data["trajectories"])
    except (KeyError, TypeError, ValueError, AttributeError, LogicEnvError) as error:
        raise CacheError(f"{entry.trajectories_path}: malformed ({error}); {fix}") from None


def _case(entry_root: Path, record: Mapping[str, Any]) -> Case:
    """A case from its record in ``trajectories.json`` (the one reader of that record)."""
    return Case(
        entry_root=entry_root,
        trajectory_id=str(record["id"]),
        situation=tuple((str(q), str(a)) for q, a in record["situation"]),
        goal=parse_facts(record.get("goal", []), f"{record['id']}.goal"),
        conditions=tuple((str(f), str(v)) for f, v in record["conditions"]),
    )


def load_plan_of(entry: Entry, fix: str) -> Plan:
    data = entry.read_json(entry.plan_path, fix=fix)
    try:
        return plan_from_json(data, str(entry.plan_path))
    except PlanError as error:
        raise CacheError(f"{error}\nfix the plan by hand, or {fix}") from None


def read_fresh(entry: Entry, request: TaskRequest, fix: str) -> tuple[Case, ...] | str:
    """The entry's cases when everything is fresh, else the reason it is stale."""
    manifest = entry.manifest(fix=fix)
    if manifest.get("format") != CACHE_FORMAT:
        return f"cache format {manifest.get('format')!r} is not {CACHE_FORMAT!r}"
    plan_bytes = _read_bytes(entry.plan_path, fix)
    recorded = _plan_record(manifest)
    if request.plan_file is not None and recorded.get("source_sha256") != file_hash(
        _read_bytes(request.plan_file, fix)
    ):
        return f"the plan file {request.plan_file} changed"
    if recorded.get("sha256") != file_hash(plan_bytes):
        return "plan.json was edited"
    cases = _load_cases(entry, fix)
    missing = [c.trajectory_id for c in cases if not c.scene_path.is_file()]
    if missing:
        return f"scene(s) missing: {', '.join(missing)}"
    return cases


def _plan_record(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The manifest's record of who made the plan (empty when a hand edit broke it: the
    entry is then stale, not a crash)."""
    record = manifest.get("plan")
    return dict(record) if isinstance(record, dict) else {}


def _read_bytes(path: Path, fix: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise CacheError(f"{path}: missing; {fix}") from None


# --------------------------------------------------------------------------- preparing


def prepare(
    request: TaskRequest,
    cache: Cache,
    mode: Mode,
    builders: Builders,
    *,
    nodeid: str,
    rootdir: Path,
) -> Environments:
    """The environments of one task, from the cache or freshly generated."""
    key = entry_key(request.task, request.settings(rootdir))
    entry = cache.entry(key)
    fix = f"delete {entry.root} and run {regenerate_hint(nodeid)}"
    if not mode.regenerate and entry.exists():
        fresh = read_fresh(entry, request, fix)
        if not isinstance(fresh, str):
            return Environments(entry, fresh)
    with cache.lock(key):
        marker = cache.run_marker(key)
        if entry.exists():
            done_this_run = mode.regenerate and _read_marker(marker) == mode.run_id
            if not mode.regenerate or done_this_run:
                fresh = read_fresh(entry, request, fix)
                if not isinstance(fresh, str):
                    return Environments(entry, fresh)
        environments = _generate(
            request, cache, entry, mode, builders, nodeid=nodeid, rootdir=rootdir
        )
        if mode.regenerate:
            marker.write_text(mode.run_id)
        return environments


def _shown(path: Path, rootdir: Path) -> str:
    """A path as the user best reads it: relative to the rootdir when inside it."""
    try:
        return path.resolve().relative_to(rootdir.resolve()).as_posix()
    except ValueError:
        return str(path)


def _read_marker(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _stale_entries(cache: Cache, nodeid: str, current: Entry) -> list[Entry]:
    return [e for e in cache.entries() if e.root != current.root and e.origin() == nodeid]


def _generate(
    request: TaskRequest,
    cache: Cache,
    entry: Entry,
    mode: Mode,
    builders: Builders,
    *,
    nodeid: str,
    rootdir: Path,
) -> Environments:
    files: dict[str, bytes] = {}
    plan_record: dict[str, Any]
    build, designer = builders.scene, None
    if builders.llm_scenes is not None:
        designer = None if mode.offline else builders.llm_scenes()
        if designer is None:
            raise _no_llm(
                "its scenes are designed by an LLM (--logicenv-designer=llm) and there are no "
                "up-to-date cached scenes for this task and settings",
                "or design them procedurally: --logicenv-designer=procedural",
                cache,
                entry,
                mode,
                nodeid=nodeid,
                rootdir=rootdir,
            )
        build = designer
    previous = _previous_plan(entry, request, mode)
    if request.plan_file is not None:
        source = _read_bytes(request.plan_file, f"check the plan= path of {nodeid}")
        plan = load_plan(request.plan_file)
        plan_record = {
            "made_by": HAND_WRITTEN,
            "source": request.settings(rootdir)["plan_file"],
            "source_sha256": file_hash(source),
        }
    elif previous is not None:
        plan, plan_record = previous
    else:
        planner = None if mode.offline else builders.planner()
        if planner is None:
            stale = _stale_entries(cache, nodeid, entry)
            why = (
                f"the task text or settings changed since {_shown(stale[0].root, rootdir)} "
                "was generated"
                if stale
                else "there is no cached plan for this task"
            )
            raise _no_llm(
                why,
                'or give the marker a hand-written plan: plan="path/to/plan.json"',
                cache,
                entry,
                mode,
                nodeid=nodeid,
                rootdir=rootdir,
            )
        plan, exchanges = planner.derive(request.task, request.rooms)
        plan_record = {"made_by": planner.name}
        files.update(_exchange_files(exchanges))
    if request.rooms:
        plan = Plan(plan.task, plan.subtasks, plan.setting, request.rooms)
    if not plan.task:
        plan = Plan(request.task, plan.subtasks, plan.setting, plan.rooms)
    validate_plan(
        plan,
        str(request.plan_file or entry.plan_path),
        known_types=builders.known_types(),
        require_facts=True,
    )
    plan_bytes = dumps(plan_to_json(plan))
    files[PLAN] = plan_bytes
    plan_record["sha256"] = file_hash(plan_bytes)

    trajectories, scenes, notes = _build_scenes(plan, request, builders, build)
    if designer is not None:
        files.update(_exchange_files(designer.take_exchanges()))
    records = []
    for trajectory in trajectories:
        scene = scenes[trajectory.id]
        stem = f"{SCENES}/{safe_file_name(trajectory.id)}"
        files[f"{stem}.json"] = dumps(scene.to_json())
        files.update(_extras(scene, stem))
        situation = situation_of(plan, trajectory.paths)
        records.append(
            {
                "id": trajectory.id,
                "paths": [
                    {
                        "subtask": p.subtask,
                        "steps": [{"factor": s.factor, "value": s.value} for s in p.steps],
                        "action": p.leaf.action,
                    }
                    for p in trajectory.paths
                ],
                "conditions": [list(c) for c in trajectory.conditions],
                "situation": [list(pair) for pair in situation],
                "goal": [to_json(f) for f in trajectory.goal],
            }
        )
    cases = [_case(entry.root, record) for record in records]
    files[TRAJECTORIES] = dumps(
        {
            "format": TRAJECTORIES_FORMAT,
            "strategy": request.select,
            "plan_sha256": plan_record["sha256"],
            "trajectories": records,
        }
    )
    manifest = {
        "format": CACHE_FORMAT,
        "generator": f"pytest-logicenv {__version__}",
        "task": request.task,
        "task_sha256": text_hash(request.task),
        "origin": nodeid,
        "settings": request.settings(rootdir),
        "plan": plan_record,
        "scenes": {
            "made_by": PROCEDURAL if designer is None else designer.name,
            "seed": request.seed,
            "count": len(cases),
        },
        "notes": list(notes),
    }
    files[MANIFEST] = dumps(manifest)
    written = cache.write_entry(entry.key, files)
    return Environments(written, tuple(cases), generated=True, notes=tuple(notes))


def _no_llm(
    why: str,
    otherwise: str,
    cache: Cache,
    entry: Entry,
    mode: Mode,
    *,
    nodeid: str,
    rootdir: Path,
) -> CacheError:
    """A cache miss that needs an LLM when none may be used: why, and how to fix it."""
    how = (
        "LLM calls are off (--logicenv-offline, or the CI variable is set)"
        if mode.offline
        else "no LLM endpoint is configured (set LOGICENV_LLM_BASE_URL and "
        "LOGICENV_LLM_MODEL, or the logicenv_llm_* ini options)"
    )
    return CacheError(
        f"{nodeid}: {why}\n"
        f"  cache entry: {_shown(entry.root, rootdir)}\n"
        f"  {how}\n"
        f"  fix: generate it where an LLM is available with {regenerate_hint(nodeid)}"
        f" and commit {_shown(cache.root, rootdir)}/,\n"
        f"       {otherwise}"
    )


def _exchange_files(exchanges: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
    """The ``llm/<key>.json`` files of some exchanges, each named by its request's hash: the
    same question keeps the same file name."""
    files = {}
    for exchange in exchanges:
        name = exchange.get("key") or file_hash(dumps(exchange))[:16]
        files[f"{LLM_LOG}/{safe_file_name(str(name))}.json"] = dumps(exchange)
    return files


def _previous_plan(
    entry: Entry, request: TaskRequest, mode: Mode
) -> tuple[Plan, dict[str, Any]] | None:
    """The entry's own plan.json, kept when only what depends on it must be rebuilt.

    A plan made by an LLM is re-derived on ``--logicenv-regenerate``; a hand-edited plan is
    kept (that is the point of editing it).
    """
    if request.plan_file is not None or not entry.exists():
        return None
    try:
        manifest = entry.manifest(fix="")
        plan_bytes = entry.plan_path.read_bytes()
    except (OSError, CacheError):
        return None
    record = _plan_record(manifest)
    edited = record.get("sha256") != file_hash(plan_bytes)
    if mode.regenerate and not edited:
        return None
    fix = f"fix {entry.plan_path} or delete {entry.root} to derive the plan anew"
    plan = load_plan_of(entry, fix)
    if edited:
        made_by = str(record.get("made_by", "unknown"))
        if not made_by.startswith("hand-edited"):
            record["made_by"] = f"hand-edited ({made_by})" if made_by != HAND_WRITTEN else made_by
    return plan, record


def _build_scenes(
    plan: Plan, request: TaskRequest, builders: Builders, build: SceneBuilder
) -> tuple[tuple[Trajectory, ...], dict[str, Scene], list[str]]:
    """Select trajectories and build their scenes; a combination whose scene cannot be
    built is excluded and its paths are covered again by other combinations."""
    infeasible: set[tuple[int, ...]] = set()
    failures: list[tuple[Trajectory, str]] = []
    scenes: dict[str, Scene] = {}
    built: dict[tuple[int, ...], Scene] = {}
    realized: set[str] = set()  # keys of the decision paths some built scene holds
    notes: list[str] = []
    total_paths = sum(len(group) for group in plan_paths(plan))
    for _ in range(total_paths + 1):

        def feasible(combo: Sequence[DecisionPath]) -> bool:
            return tuple(p.index for p in combo) not in infeasible

        try:
            selection = select(plan, request.select, feasible if infeasible else None)
        except LogicEnvError as error:
            if not failures:
                raise
            raise _unbuildable(request, failures, realized, error) from None
        new_failure = False
        for trajectory in selection.trajectories:
            signature = tuple(p.index for p in trajectory.paths)
            if signature in built:
                continue
            try:
                scene = _build_one(build, plan, trajectory, request.seed, notes)
            except SceneError as error:
                infeasible.add(signature)
                failures.append((trajectory, str(error)))
                notes.append(f"{trajectory.id}: no valid scene ({error}); excluded")
                new_failure = True
                continue
            built[signature] = scene
            realized.update(path.key for path in trajectory.paths)
            builders.on_scene(scene, trajectory)
        if not new_failure:
            trajectories = tuple(make_trajectory(t.paths) for t in selection.trajectories)
            for trajectory in trajectories:
                scenes[trajectory.id] = built[tuple(p.index for p in trajectory.paths)]
            return trajectories, scenes, notes
    raise SceneError("scene generation kept failing; see the notes")  # pragma: no cover


def _unbuildable(
    request: TaskRequest,
    failures: Sequence[tuple[Trajectory, str]],
    realized: set[str],
    error: LogicEnvError,
) -> SceneError:
    """The decision paths no scene could hold, and why each scene that held them failed."""
    stuck = sorted({p.key for trajectory, _ in failures for p in trajectory.paths} - realized)
    where = f"in {request.plan_file}" if request.plan_file is not None else "in the plan"
    reasons = "\n".join(f"  {trajectory.id}: {why}" for trajectory, why in failures)
    if not stuck:
        return SceneError(f"{error}\nscenes that could not be built:\n{reasons}")
    return SceneError(
        f"no scene can be built for {', '.join(stuck)}: its facts cannot all hold in one "
        f"scene; fix them {where}. Every scene tried for it failed:\n{reasons}"
    )


#: Designs tried per trajectory before it counts as infeasible: a design that cannot be laid
#: out (an overfull shelf) says little about the situation, another seed often fits.
DESIGN_ATTEMPTS = 3
_SEED_STRIDE = 7919


def _build_one(
    build: SceneBuilder, plan: Plan, trajectory: Trajectory, seed: int, notes: list[str]
) -> Scene:
    for attempt in range(DESIGN_ATTEMPTS):
        try:
            scene = build(plan, trajectory, seed + attempt * _SEED_STRIDE)
        except SceneError as error:
            if attempt == DESIGN_ATTEMPTS - 1:
                raise
            notes.append(
                f"{trajectory.id}: design seed {seed + attempt * _SEED_STRIDE} failed ({error})"
            )
            continue
        return scene
    raise AssertionError("unreachable")  # pragma: no cover


def _extras(scene: Scene, stem: str) -> Mapping[str, bytes]:
    """The picture and the AI2-THOR house of a scene, beside it in the entry."""
    from pytest_logicenv.scenes.export import to_house
    from pytest_logicenv.scenes.render import render_svg

    return {
        f"{stem}.svg": render_svg(scene).encode("utf-8"),
        f"{stem}.house.json": dumps(to_house(scene)),
    }
