"""Partial runs: which scenes of each marked test function the run selected, out of every
scene of its cache entry, so that the report can say how many scenes ran and judge a declared
fault only on what ran.

Whatever narrowed the run (node ids, ``-k``, ``-m``, ``--deselect``, ``--lf``, a plugin), the
items left once collection is finished are the selection; a function's scenes are those its
entry holds (``state.prepared``). Node ids never reach pytest's deselect hook, so the selection
is read from the session's items, not from that hook.

Under pytest-xdist the workers collect, not the controller that reports: every worker collects
the same items (xdist checks that) before the controller splits them among the workers, so
each worker's selection is the whole run's; each hands it over in its ``workeroutput``, and
:class:`XdistHooks` takes it in on the controller, where the records of every worker meet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import pytest

from pytest_logicenv.session.options import LogicEnvState

if TYPE_CHECKING:  # the report's modules load only when a report is made
    from pytest_logicenv.report.report_model import SceneSelection

#: The ``workeroutput`` key the selection travels under.
WORKER_KEY = "logicenv_selection"


def note_selected(state: LogicEnvState, items: Iterable[pytest.Item]) -> None:
    """Remember the scenes (test function, trajectory) of the run's ``logic_env`` items and
    every scene of their functions' entries."""
    from pytest_logicenv.session.collection import CaseParam

    for item in items:
        param = getattr(getattr(item, "callspec", None), "params", {}).get("logic_env")
        if isinstance(param, CaseParam):
            state.selected.setdefault(param.function, set()).add(param.case.trajectory_id)
    for function in state.selected:
        prepared = state.prepared.get(function)
        if prepared is not None:
            cases = prepared[1].cases
            state.scenes[function] = tuple(case.trajectory_id for case in cases)


def selection(state: LogicEnvState) -> SceneSelection:
    """What the report compares the records with."""
    from pytest_logicenv.report.report_model import SceneSelection

    return SceneSelection(
        scenes=dict(state.scenes),
        selected={f: frozenset(t) for f, t in state.selected.items()},
    )


def hand_over(state: LogicEnvState, config: pytest.Config) -> None:
    """On an xdist worker: put the selection where the controller reads it."""
    output = getattr(config, "workeroutput", None)
    if output is not None and state.selected:
        output[WORKER_KEY] = {
            "scenes": {f: list(t) for f, t in sorted(state.scenes.items())},
            "selected": {f: sorted(t) for f, t in sorted(state.selected.items())},
        }


def take_over(state: LogicEnvState, output: Mapping[str, Any]) -> None:
    """On the controller: the selection one worker handed over (each hands the same over)."""
    found = dict(output.get(WORKER_KEY) or {})
    for function, scenes in dict(found.get("scenes") or {}).items():
        state.scenes[str(function)] = tuple(map(str, scenes))
    for function, trajectories in dict(found.get("selected") or {}).items():
        state.selected.setdefault(str(function), set()).update(map(str, trajectories))


class XdistHooks:
    """The controller's side of :func:`hand_over`, registered only when xdist is active (its
    hook would be unknown to pytest otherwise)."""

    def __init__(self, state: LogicEnvState) -> None:
        self.state = state

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        take_over(self.state, getattr(node, "workeroutput", None) or {})
