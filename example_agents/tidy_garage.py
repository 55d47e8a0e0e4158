"""Tidy Garage as behavior-tree policies: shoes off the floor, the box closed.

The task (``tasks/tidy_garage.json``, plan ``plans/tidy_garage.json``): shoes on the garage
floor go on the shelving unit, and the box on the floor is closed if it is open.
Objects are named by the plan's roles (``shoes``, ``shelf``, ``box``). A garage is a room type
ProcTHOR lacks (its shelving units, bins and boxes are the reviewed room table's), and
``Shoes`` are of the household type pack.

The situations that reveal each fault, by the plan's factors:

``correct``
    checks for shoes and for the open box: passes in all scenes;
``counterfactual``
    puts the shoes on the shelves without picking them up: ``shoes=yes``;
``unreachable``
    goes to the open box and leaves it open: ``box_open=yes``;
``lackbranch``
    goes for the shoes without looking whether there are any: ``shoes=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import carry, sequence, when
from pytest_logicenv.sim.leaves import Close, Exists, GoTo, IsOpen, PutOn

Behaviour = py_trees.behaviour.Behaviour


def _shoes(*, pick_up: bool = True, check: bool = True) -> Behaviour:
    put = (
        carry("shoes", "shelf")
        if pick_up
        else sequence("Shelve", GoTo("shoes"), GoTo("shelf"), PutOn("shoes", "shelf"))
    )
    return when("Shoes", Exists("shoes", on="Floor"), put) if check else put


def _box(*, close: bool = True) -> Behaviour:
    closing = [Close("box")] if close else []
    return when("Box", IsOpen("box"), sequence("CloseBox", GoTo("box"), *closing))


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("TidyGarage", _shoes(), _box())


def counterfactual_policy() -> Behaviour:
    """Puts the shoes on the shelves without picking them up."""
    return sequence("TidyGarage", _shoes(pick_up=False), _box())


def unreachable_policy() -> Behaviour:
    """Goes to the open box and leaves it open."""
    return sequence("TidyGarage", _shoes(), _box(close=False))


def lackbranch_policy() -> Behaviour:
    """Goes for the shoes without looking whether there are any."""
    return sequence("TidyGarage", _shoes(check=False), _box())


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
