"""The situation of a cache entry's scene, as the ``logic_env`` fixture judges runs in it.

A case (one environment of a marked test) is judged by the entry's plan, the trajectory its
conditions name and the plan's known names. :func:`case_situation` is that rule, for the
fixture, the evaluation and ``logicenv run --scene cache/ENTRY/scenes/ID.json`` alike, which
finds the entry and its case from the scene file's place (:func:`scene_file_situation`). The
situation carries the scene's witness, so each of them shows a failing run how the scene is
solved.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pytest_logicenv.cache import SCENES, TRAJECTORIES, Entry
from pytest_logicenv.errors import CacheError, LogicEnvError
from pytest_logicenv.logic.coverage import true_conditions
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import trajectory_for
from pytest_logicenv.pipeline.cached import case_from_record, load_plan_of
from pytest_logicenv.pipeline.entry_reads import SharedSet, derived
from pytest_logicenv.pipeline.task_request import Case
from pytest_logicenv.pipeline.witness_files import read_witness
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.judge import Situation, plan_names, situation_of


def case_situation(
    case: Case,
    plan: Plan,
    scene: Scene,
    *,
    known: frozenset[str] | None = None,
    max_ticks: int | None = None,
) -> Situation:
    """The situation ``case`` of ``plan`` is in ``scene``, with the entry's witness of it;
    ``known`` defaults to the plan's names (pass them when they are cached). A malformed
    witness file is a :class:`CacheError`."""
    trajectory = trajectory_for(plan, case.conditions)
    names = plan_names(plan) if known is None else known
    found = situation_of(plan, trajectory, scene, known=names, max_ticks=max_ticks)
    return replace(found, witness=_sequence(case))


def shared_situation(
    case: Case, plan: Plan, scene: Scene, *, max_ticks: int | None = None
) -> Situation:
    """:func:`case_situation`, made once for every item of the case while ``plan`` and
    ``scene`` are the ones :mod:`~pytest_logicenv.pipeline.entry_reads` keeps (a situation is
    immutable: each run starts from it afresh), the plan's names once for all its cases."""
    key = ("situation", str(case.entry_root), case.trajectory_id, case.conditions, max_ticks)
    root = case.entry_root
    names = derived(("names", str(root)), (plan,), lambda: SharedSet(plan_names(plan)), root)
    return derived(
        key,
        (plan, scene),
        lambda: case_situation(case, plan, scene, known=names, max_ticks=max_ticks),
        case.scene_path,  # kept with its scene: see entry_reads.scene_at
    )


def scene_conditions(case: Case, plan: Plan, scene: Scene) -> tuple[tuple[str, str], ...]:
    """The plan's conditions whose facts hold in the case's scene, found once per scene (the
    report's coverage counts them, from the run record)."""
    key = ("holds", str(case.entry_root), case.trajectory_id)

    def holding() -> tuple[tuple[str, str], ...]:
        return tuple(sorted(true_conditions(plan, scene)))

    return derived(key, (plan, scene), holding, case.scene_path)


def entry_of(scene_path: Path) -> Entry | None:
    """The cache entry a scene file lies in (``ENTRY/scenes/ID.json`` beside the entry's
    manifest and trajectories), or ``None``."""
    folder = scene_path.resolve().parent
    if folder.name != SCENES:
        return None
    entry = Entry(folder.parent)
    return entry if entry.exists() and entry.trajectories_path.is_file() else None


def scene_file_situation(scene_path: Path, scene: Scene) -> Situation | None:
    """The situation of a scene file of a cache entry (``None``: it lies in none); an entry
    whose plan or trajectories cannot be read, or that lists no case of this file, is a
    :class:`CacheError` that says how to fix it."""
    entry = entry_of(scene_path)
    if entry is None:
        return None
    fix = f"delete {entry.root} and run pytest again to regenerate it"
    case = _case_of(entry, scene_path, fix)
    return case_situation(case, load_plan_of(entry, fix=fix), scene)


def scene_file_witness(scene_path: Path) -> str:
    """The passing sequence of a scene file's witness in its cache entry ("": it lies in
    none, or has no witness), for a situation of the scene made from another source."""
    entry = entry_of(scene_path)
    if entry is None:
        return ""
    fix = f"delete {entry.root} and run pytest again to regenerate it"
    return _sequence(_case_of(entry, scene_path, fix))


def _sequence(case: Case) -> str:
    witness = read_witness(case.entry_root, case.trajectory_id)
    return witness.sequence if witness is not None and witness.solved else ""


def _case_of(entry: Entry, scene_path: Path, fix: str) -> Case:
    data = entry.read_json(entry.trajectories_path, fix=fix)
    try:
        cases = [case_from_record(entry.root, record) for record in data["trajectories"]]
    except (KeyError, TypeError, ValueError, AttributeError, LogicEnvError) as error:
        raise CacheError(f"{entry.trajectories_path}: malformed ({error}); {fix}") from None
    wanted = scene_path.resolve()
    for case in cases:
        if case.scene_path.resolve() == wanted:
            return case
    raise CacheError(
        f"{scene_path}: the entry's {TRAJECTORIES} lists no situation of this scene file; "
        f"pass --plan PLAN.json, or {fix}"
    )
