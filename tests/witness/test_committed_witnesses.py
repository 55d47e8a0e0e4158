"""Every scene of the committed example cache has a witness, cached beside it, that replays
green in its situation: each example environment is proved solvable."""

from __future__ import annotations

import pytest
from committed_scenes import CommittedScene, committed_scenes

from pytest_logicenv.pipeline.witness_files import read_witness
from pytest_logicenv.sim.judge import judge, situation_of
from pytest_logicenv.witness import as_policy

SCENES = list(committed_scenes())


def test_the_example_cache_has_scenes() -> None:
    assert len(SCENES) >= 30


@pytest.mark.parametrize("item", SCENES, ids=[item.name for item in SCENES])
def test_its_witness_replays_green(item: CommittedScene) -> None:
    witness = read_witness(item.case.entry_root, item.case.trajectory_id)
    assert witness is not None, f"{item.case.witness_path} is missing"
    assert witness.solved, witness.explain()
    situation = situation_of(item.plan, item.trajectory, item.scene)
    outcome = judge(as_policy(witness), situation)
    assert outcome.kind == "pass", outcome.explain()
