"""BT.CPP 4.9's TryCatch, as its source (``try_catch_node.cpp``) runs it: the real engine of
the differential tests is 4.8, which has no TryCatch, so these pin the source's rules."""

from __future__ import annotations

import pytest
from bt_helpers import Step, build, ticked

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.bt.node import halt_child

S, F, R, K = "SUCCESS", "FAILURE", "RUNNING", "SKIPPED"


def test_the_try_block_runs_as_a_sequence() -> None:
    body = '<TryCatch><Step name="A" results="RS"/><Step name="B"/><Step name="C"/></TryCatch>'
    assert ticked(body, 2) == ([R, S], ["A", "A", "B"])  # C, the catch block, never runs


def test_a_failure_resets_the_try_block_and_runs_the_catch_block_to_completion() -> None:
    body = (
        '<TryCatch><Step name="A"/><Step name="B" results="F"/>'
        '<Step name="Catch" results="RS"/></TryCatch>'
    )
    statuses, log = ticked(body, 3)
    assert statuses == [R, F, F]  # the third tick starts the try block again (Catch: S now)
    assert log == ["A", "B", "Catch", "Catch", "A", "B", "Catch"]


def test_try_children_all_skipped_skip_the_node() -> None:
    body = '<TryCatch><Step _skipIf="true"/><Step name="Catch"/></TryCatch>'
    assert ticked(body, 1) == ([K], [])


def test_catch_on_halt_runs_the_catch_block_when_halted_in_the_try_block() -> None:
    for flag, expected in (("true", ["A", "A halted", "Catch"]), ("false", ["A", "A halted"])):
        root = build(
            f'<TryCatch catch_on_halt="{flag}"><Step name="A" results="R"/>'
            '<Step name="Catch"/></TryCatch>'
        )
        root.tick_once()
        halt_child(root)
        assert Step.log == expected, flag


def test_one_child_is_refused_when_loaded() -> None:
    with pytest.raises(PolicyError, match="<TryCatch>: needs at least 2 child node"):
        build("<TryCatch><Step/></TryCatch>")
