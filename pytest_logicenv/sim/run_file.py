"""Policy runs read back from JSON files, for drawing them (``logicenv render --trace``).

A run is an :class:`~pytest_logicenv.sim.outcome.Outcome` as its ``to_json`` writes it: an
object with its ``kind``, ``scene``, ``trace`` and the rest. A file may hold one run, the
``{"outcomes": [...]}`` that ``logicenv run --json`` prints, or the JSON report
(``--logicenv-report=json:PATH``), which carries every run of the session: every run found in
the file counts, wherever it is nested.

>>> run = {"kind": "pass", "scene": "toy=yes", "trace": []}
>>> [o.kind for o in runs_in({"outcomes": [run, {**run, "scene": "toy=no"}]})]
['pass', 'pass']
>>> pick_run(runs_in([run]), "toy=yes").scene
'toy=yes'
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pytest_logicenv.errors import RunFileError
from pytest_logicenv.sim.outcome import KINDS, Outcome


def load_runs(path: str | Path) -> list[Outcome]:
    """Every run in the JSON file at ``path``."""
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise RunFileError(f"{path}: cannot read the run file ({error.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RunFileError(f"{path}: not valid JSON ({error})") from None
    try:
        return runs_in(document)
    except RunFileError as error:
        raise RunFileError(f"{path}: {error}") from None


def runs_in(document: Any) -> list[Outcome]:
    """Every run in a JSON document, in document order."""
    return [Outcome.from_json(found) for found in _run_objects(document)]


def _run_objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if value.get("kind") in KINDS and isinstance(value.get("trace"), list):
            yield value
            return
        for item in value.values():
            yield from _run_objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from _run_objects(item)


def pick_run(runs: Sequence[Outcome], scene_id: str, number: int | None = None) -> Outcome:
    """The run in scene ``scene_id``: the only one, or the ``number``-th (from 1) when the
    file holds several; the error lists them to choose from."""
    here = [run for run in runs if run.scene == scene_id]
    if not here:
        scenes = sorted({run.scene for run in runs})
        listed = ", ".join(scenes) if scenes else "none"
        raise RunFileError(
            f"no run in scene {scene_id!r} (runs found in: {listed}); give the scene the run "
            "was made in"
        )
    if number is None and len(here) == 1:
        return here[0]
    if number is not None and 1 <= number <= len(here):
        return here[number - 1]
    choices = "; ".join(f"{i}: {run.headline()}" for i, run in enumerate(here, start=1))
    raise RunFileError(
        f"{len(here)} runs in scene {scene_id!r}; choose one with --run N ({choices})"
    )
