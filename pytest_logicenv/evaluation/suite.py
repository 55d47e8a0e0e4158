"""Evaluate every task of a tasks folder: the entry point of ``logicenv eval``."""

from __future__ import annotations

from pathlib import Path

from pytest_logicenv.cache import Cache
from pytest_logicenv.evaluation.policies import unknown_task_notes
from pytest_logicenv.evaluation.results import Evaluation
from pytest_logicenv.evaluation.task import evaluate_task
from pytest_logicenv.pipeline.environments import Builders


def evaluate(
    tasks_dir: Path,
    policies_dir: Path,
    *,
    plans_dir: Path | None = None,
    strategy: str = "minimal",
    seed: int = 0,
    cache_dir: Path = Path("cache"),
    rootdir: Path | None = None,
    builders: Builders | None = None,
    types_file: Path | None = None,
) -> Evaluation:
    """Evaluate every task of ``tasks_dir`` with the policies of ``policies_dir``; the
    designs know the types of ``types_file`` too (a user's type file)."""
    from pytest_logicenv.scenes.catalog.user_types import types_digest

    rootdir = (rootdir or Path.cwd()).resolve()
    cache = Cache((rootdir / cache_dir).resolve() if not cache_dir.is_absolute() else cache_dir)
    task_files = sorted(tasks_dir.glob("*.json"))
    builders = builders or _default_builders(types_file)
    types = types_digest(types_file)
    results = tuple(
        evaluate_task(
            task_file,
            plans_dir or tasks_dir.parent / "plans",
            policies_dir,
            strategy=strategy,
            seed=seed,
            cache=cache,
            builders=builders,
            rootdir=rootdir,
            types=types,
        )
        for task_file in task_files
    )
    notes = unknown_task_notes(policies_dir, {f.stem for f in task_files})
    if not task_files:
        notes.append(f"{tasks_dir}: no task files (*.json)")
    return Evaluation(strategy, results, tuple(notes))


def _default_builders(types_file: Path | None) -> Builders:
    """The procedural designer over the catalog (and the user's types), as the plugin has by
    default."""
    from pytest_logicenv.pipeline.generators import default_scene_builder
    from pytest_logicenv.scenes.catalog.user_types import load_catalog

    catalog = load_catalog(types_file)
    return Builders(
        scene=default_scene_builder(catalog), known_types=lambda: frozenset(catalog.types)
    )
