"""Partial runs: which scenes of each marked test function were deselected (``-k``, ``-m``,
``--deselect``, ``--lf``), so that the report can say how many scenes ran and judge a
declared fault only on what ran.

Under pytest-xdist the workers collect and deselect, not the controller that reports: each
worker hands its deselected scenes over in its ``workeroutput`` (they all collect the same
items, so any one of them tells), and :class:`XdistHooks` takes them in on the controller.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from pytest_logicenv.session.options import LogicEnvState

#: The ``workeroutput`` key the deselected scenes travel under.
WORKER_KEY = "logicenv_deselected"


def note_deselected(state: LogicEnvState, items: Iterable[pytest.Item]) -> None:
    """Remember the scenes (test function, trajectory) of deselected ``logic_env`` items."""
    from pytest_logicenv.session.collection import CaseParam

    for item in items:
        param = getattr(getattr(item, "callspec", None), "params", {}).get("logic_env")
        if isinstance(param, CaseParam):
            state.deselected.setdefault(param.function, set()).add(param.case.trajectory_id)


def hand_over(state: LogicEnvState, config: pytest.Config) -> None:
    """On an xdist worker: put the deselected scenes where the controller reads them."""
    output = getattr(config, "workeroutput", None)
    if output is not None and state.deselected:
        output[WORKER_KEY] = {f: sorted(t) for f, t in sorted(state.deselected.items())}


def take_over(state: LogicEnvState, output: Mapping[str, Any]) -> None:
    """On the controller: the deselected scenes one worker handed over."""
    for function, trajectories in dict(output.get(WORKER_KEY) or {}).items():
        state.deselected.setdefault(str(function), set()).update(map(str, trajectories))


class XdistHooks:
    """The controller's side of :func:`hand_over`, registered only when xdist is active (its
    hook would be unknown to pytest otherwise)."""

    def __init__(self, state: LogicEnvState) -> None:
        self.state = state

    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        take_over(self.state, getattr(node, "workeroutput", None) or {})
