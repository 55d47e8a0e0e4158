"""Partial runs: which scenes of each marked test function the run selected, out of every
scene of its cache entry, so that the report can say how many scenes ran and judge a declared
fault only on what ran.

Whatever narrowed the run (node ids, ``-k``, ``-m``, ``--deselect``, ``--lf``, a plugin), the
items left once collection is finished are the selection; a function's scenes are those its
entry holds. Node ids never reach pytest's deselect hook, so the selection is read from the
session's items, not from that hook.

Under pytest-xdist the workers collect, not the controller that reports: every worker collects
the same items (xdist checks that) before the controller splits them among the workers, so
each worker's selection is the whole run's; each hands it over in its ``workeroutput``
(:data:`WORKER_KEY`), and the controller, where the records of every worker meet, takes it in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from pytest_logicenv.report.records import RunRecord
from pytest_logicenv.report.report_model import SceneSelection
from pytest_logicenv.session.collection import CaseParam

#: The ``workeroutput`` key the selection travels under.
WORKER_KEY = "logicenv_selection"


@dataclass(frozen=True)
class Selected:
    """Per test function, the trajectories of the items the run selected, and of every
    scene of its entry."""

    selected: Mapping[str, frozenset[str]] = field(default_factory=dict)
    scenes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Each function's cache entry (its root), so a selected scene that ran nothing (skipped
    #: by a marker before its fixture) still counts, at 0%, in its task's row.
    entries: Mapping[str, str] = field(default_factory=dict)

    def joined(self, other: Selected) -> Selected:
        functions = set(self.selected) | set(other.selected)
        selected = {
            f: self.selected.get(f, frozenset()) | other.selected.get(f, frozenset())
            for f in functions
        }
        return Selected(
            selected, {**self.scenes, **other.scenes}, {**self.entries, **other.entries}
        )

    def unrecorded(self, records: Iterable[RunRecord]) -> list[RunRecord]:
        """An empty record for every selected scene no item's record covers (a test skipped
        by its marker never sets its fixture up): its task is listed, at 0%, and counted."""
        seen = {(record.function, record.trajectory) for record in records}
        return [
            RunRecord(function, f"{function}[{trajectory}]", self.entries[function], trajectory)
            for function, trajectories in sorted(self.selected.items())
            if function in self.entries
            for trajectory in sorted(trajectories)
            if (function, trajectory) not in seen
        ]

    def selection(self) -> SceneSelection:
        """What the report compares the records with."""
        return SceneSelection(scenes=dict(self.scenes), selected=dict(self.selected))

    def to_json(self) -> dict[str, Any]:
        return {
            "scenes": {f: list(t) for f, t in sorted(self.scenes.items())},
            "selected": {f: sorted(t) for f, t in sorted(self.selected.items())},
            "entries": dict(sorted(self.entries.items())),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Selected:
        scenes = dict(data.get("scenes") or {})
        selected = dict(data.get("selected") or {})
        return cls(
            {str(f): frozenset(map(str, t)) for f, t in selected.items()},
            {str(f): tuple(map(str, t)) for f, t in scenes.items()},
            {str(f): str(e) for f, e in dict(data.get("entries") or {}).items()},
        )


def selected_in(
    items: Iterable[pytest.Item],
    entry_scenes: Mapping[str, tuple[str, ...]],
    entries: Mapping[str, str] | None = None,
) -> Selected:
    """The scenes (test function, trajectory) of the run's ``logic_env`` items, every scene
    of their functions' entries (``entry_scenes``) and the entries' roots (``entries``)."""
    found: dict[str, set[str]] = {}
    for item in items:
        param = getattr(getattr(item, "callspec", None), "params", {}).get("logic_env")
        if isinstance(param, CaseParam):
            found.setdefault(param.function, set()).add(param.case.trajectory_id)
    scenes = {f: entry_scenes[f] for f in found if f in entry_scenes}
    roots = {f: root for f, root in (entries or {}).items() if f in found}
    return Selected({f: frozenset(t) for f, t in found.items()}, scenes, roots)
