"""Upper Cabinet as behavior-tree policies: cabinets told apart by where they are, as a
person tells them apart.

The task (``tasks/upper_cabinet.json``, plan ``plans/upper_cabinet.json``): a kitchen with a
wall cabinet (two upper cabinets, left and right) over the counter, and a sink set into the
counter with a cabinet under it. A plate may be in the upper left cabinet: put it on the
dining table and close the cabinet; close the cabinet under the sink if it is open. The
kitchen has five cabinets (the counter's two lower ones, the wall cabinet's two, the sink's),
so the policies name them by their position attributes and wholes:
``Select("Cabinet", attrs={"level": "upper", "position": "left"})``,
``Select("Cabinet", part_of="Sink")``. A plate in a closed cabinet is hidden: the policy
opens the cabinet before it looks for the plate in ``upper_cabinet`` (the plan's role).

The situations that reveal each fault, by the plan's factors:

``correct``
    opens the upper left cabinet, takes the plate if one is there, closes the cabinet, and
    closes the cabinet under the sink when it is open: passes in all 4;
``counterfactual``
    closes the upper cabinet as soon as it sees the plate, then reaches for the plate in the
    closed cabinet: ``plate=yes``;
``unreachable``
    opens the upper *right* cabinet (the position copied wrong), sees no plate and leaves
    it: ``plate=yes``;
``lackbranch``
    has no branch for an open cabinet under the sink: it waits for the cabinet to be seen
    closed, without a limit: ``sink_cabinet=yes``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import (
    Close,
    Exists,
    GoTo,
    IsClosed,
    IsOpen,
    Open,
    PickUp,
    PutOn,
    Select,
)

Behaviour = py_trees.behaviour.Behaviour

UPPER_LEFT = Select("Cabinet", attrs={"level": "upper", "position": "left"})
UPPER_RIGHT = Select("Cabinet", attrs={"level": "upper", "position": "right"})
UNDER_SINK = Select("Cabinet", part_of="Sink")


def _plate(*, cabinet: Select = UPPER_LEFT, close_first: bool = False) -> Behaviour:
    take = [PickUp("Plate"), GoTo("DiningTable"), PutOn("Plate", on="DiningTable")]
    if close_first:  # shuts the cabinet on the plate before taking it
        found = sequence("Take", Close(cabinet), *take)
    else:
        found = sequence("Take", *take, GoTo(cabinet), Close(cabinet))
    seen = Exists("Plate", in_="upper_cabinet")  # the plan's role: the one it opened, if right
    return sequence(
        "Plate",
        GoTo(cabinet),
        Open(cabinet),
        py_trees.composites.Selector(
            "PlateOrNot", memory=False, children=[sequence("Found", seen, found), Close(cabinet)]
        ),
    )


def _sink(*, wait: bool = False) -> Behaviour:
    if wait:  # look until it is seen closed: a retry with no limit, and no branch to close it
        return py_trees.decorators.FailureIsRunning("UntilClosed", IsClosed(UNDER_SINK))
    shut = sequence("Shut", GoTo(UNDER_SINK), Close(UNDER_SINK))
    return when("SinkCabinet", IsOpen(UNDER_SINK), shut)


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("UpperCabinet", _plate(), _sink())


def counterfactual_policy() -> Behaviour:
    """Closes the upper cabinet on the plate before taking it."""
    return sequence("UpperCabinet", _plate(close_first=True), _sink())


def unreachable_policy() -> Behaviour:
    """Looks in the upper right cabinet."""
    return sequence("UpperCabinet", _plate(cabinet=UPPER_RIGHT), _sink())


def lackbranch_policy() -> Behaviour:
    """Waits for the cabinet under the sink to be seen closed, without a limit."""
    return sequence("UpperCabinet", _plate(), _sink(wait=True))


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
