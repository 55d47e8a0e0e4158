"""Policy runs read back from JSON files, for drawing them (``logicenv render --trace``).

A run is an :class:`~pytest_logicenv.sim.outcome.Outcome` as its ``to_json`` writes it: an
object with its ``kind``, ``scene``, ``trace`` and the rest. A file may hold one run, the
``{"outcomes": [...]}`` that ``logicenv run --json`` prints, or the JSON report
(``--logicenv-report=json:PATH``), which carries every run of the session: every run found in
the file counts, wherever it is nested.

>>> run = {"kind": "pass", "scene": "toy=yes", "trace": []}
>>> [found.outcome.kind for found in runs_in({"outcomes": [run, {**run, "scene": "toy=no"}]})]
['pass', 'pass']
>>> pick_run(runs_in([run]), "toy=yes").scene
'toy=yes'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_logicenv.bounded import read_json_file
from pytest_logicenv.errors import RunFileError
from pytest_logicenv.sim.outcome import KINDS, Outcome


@dataclass(frozen=True)
class FoundRun:
    """A run found in a file, with what its surroundings say of it (the JSON report names
    the test and the policy beside each outcome)."""

    outcome: Outcome
    label: str = ""

    def describe(self) -> str:
        where = f"{self.label}: " if self.label else ""
        return where + self.outcome.headline()


def load_runs(path: str | Path) -> list[FoundRun]:
    """Every run in the JSON file at ``path``."""
    try:
        document = read_json_file(Path(path), RunFileError)
    except OSError as error:
        raise RunFileError(f"{path}: cannot read the run file ({error.strerror})") from None
    try:
        return runs_in(document)
    except RunFileError as error:
        raise RunFileError(f"{path}: {error}") from None


def runs_in(document: Any) -> list[FoundRun]:
    """Every run in a JSON document, in document order."""
    return [FoundRun(Outcome.from_json(run), label) for run, label in _run_objects(document, "")]


def _run_objects(value: Any, label: str) -> Iterator[tuple[dict[str, Any], str]]:
    if isinstance(value, dict):
        if value.get("kind") in KINDS and isinstance(value.get("trace"), list):
            yield value, label
            return
        named = " ".join(str(value[key]) for key in ("test", "policy") if value.get(key))
        for item in value.values():
            yield from _run_objects(item, named or label)
    elif isinstance(value, list):
        for item in value:
            yield from _run_objects(item, label)


def pick_run(runs: Sequence[FoundRun], scene_id: str, choice: str | None = None) -> Outcome:
    """The run in scene ``scene_id``: the only one, else the one ``choice`` names: its number
    among the scene's runs (from 1) or a text only its label contains (a policy's name). The
    error lists the runs to choose from."""
    return numbered_run(runs, scene_id, choice)[1]


def numbered_run(
    runs: Sequence[FoundRun], scene_id: str, choice: str | None = None
) -> tuple[int, Outcome]:
    """:func:`pick_run`'s run with its number among the scene's runs (from 1)."""
    here = [run for run in runs if run.outcome.scene == scene_id]
    if not here:
        scenes = sorted({run.outcome.scene for run in runs})
        listed = ", ".join(scenes) if scenes else "none"
        raise RunFileError(
            f"no run in scene {scene_id!r} (runs found in: {listed}); give the scene the run "
            "was made in"
        )
    if choice is None and len(here) == 1:
        return 1, here[0].outcome
    if choice is not None and choice.isdigit() and 1 <= int(choice) <= len(here):
        return int(choice), here[int(choice) - 1].outcome
    named = [
        (number, run)
        for number, run in enumerate(here, start=1)
        if choice and not choice.isdigit() and choice in run.label
    ]
    if len(named) == 1:
        return named[0][0], named[0][1].outcome
    choices = "; ".join(f"{i}: {run.describe()}" for i, run in enumerate(here, start=1))
    raise RunFileError(
        f"{len(here)} runs in scene {scene_id!r}; choose one with --run N or --run TEXT ({choices})"
    )
