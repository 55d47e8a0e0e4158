"""SceVR from witnesses: the share of a task's scenes that a witness solves in its situation.

The paper's SceVR runs a hand-written correct policy; a task set without one still gets this
figure. Each scene's cached witness (``scenes/<trajectory>.witness.json``, made when the entry
was) is replayed as a policy in the scene's situation, judged as the policies are: a scene
counts as valid when that run passes. A scene that realizes no situation, or whose entry has
no witness, counts as invalid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pytest_logicenv.pipeline.task_request import Case
from pytest_logicenv.pipeline.witness_files import read_witness
from pytest_logicenv.sim.judge import Situation, judge
from pytest_logicenv.witness import as_policy


def witness_scevr(cases: Sequence[Case], targets: Sequence[Situation | None]) -> float | None:
    """The percentage of scenes whose witness passes in their situation (``None`` without
    scenes)."""
    if not cases:
        return None
    valid = 0
    for case, target in zip(cases, targets, strict=True):
        witness = read_witness(case.entry_root, case.trajectory_id)
        if target is None or witness is None or not witness.solved:
            continue
        # The witness names the scene's own objects (its ids and roles), which a ground truth's
        # names need not include: no name check, the scene itself binds them.
        valid += judge(as_policy(witness), replace(target, known=None), twice=False).kind == "pass"
    return 100.0 * valid / len(cases)
