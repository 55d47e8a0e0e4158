"""Every scene of an entry proved solvable before it is used: its witness, or the error.

After the scenes are built, :func:`prove` searches each one's witness
(:func:`~pytest_logicenv.witness.find_witness`, within the run's budget). A scene without one
is no valid environment: the entry is not written, and the error names, for each such scene,
the leaf, the goal fact and what blocks it, and whose plan it is. The witnesses are written
beside their scenes (``scenes/<trajectory>.witness.json``, :mod:`.witness_files`) and listed
in the manifest with their digests, like every file of the entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pytest_logicenv.errors import NoWitnessError
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.witness import Budget, WitnessResult, find_witness


def prove(
    trajectories: Sequence[Trajectory],
    scenes: Mapping[str, Scene],
    budget: Budget,
    source: str,
) -> dict[str, WitnessResult]:
    """Each scene's witness, by trajectory id; a :class:`NoWitnessError` when some scene has
    none, naming ``source`` (the plan) and each blocked leaf and goal fact."""
    results = {t.id: find_witness(scenes[t.id], t, budget) for t in trajectories}
    failed = {tid: result for tid, result in results.items() if not result.solved}
    if failed:
        raise NoWitnessError(unsolvable(failed, source, budget), failed)
    return results


def unsolvable(failed: Mapping[str, WitnessResult], source: str, budget: Budget) -> str:
    """The message of a :class:`NoWitnessError`: each scene's verdict and blockers, and the
    fixes (the plan's goal facts, or a larger budget when the search ran out)."""
    lines = [f"{source}: no sequence of actions does the task in {len(failed)} scene(s):"]
    for tid, result in failed.items():
        lines.append(f"  scene {tid}: {result.explain()}".replace("\n", "\n  "))
    lines.append(
        "  fix: change the goal facts of those leaves (or what the setting and realizations "
        "make the scene hold) so that the simulator's actions can make them true"
    )
    if any(result.verdict != "impossible" for result in failed.values()):
        lines.append(
            f"  or give the search more room than {budget}: --logicenv-witness-steps=N, "
            "--logicenv-witness-ms=MS (ini: logicenv_witness_steps, logicenv_witness_ms)"
        )
    return "\n".join(lines)
