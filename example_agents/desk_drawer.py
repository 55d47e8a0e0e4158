"""Desk Drawer as behavior-tree policies: drawers told apart by what they are a part of and
where they are in it.

The task (``tasks/desk_drawer.json``, plan ``plans/desk_drawer.json``): in a bedroom with a
desk (one drawer) and a dresser (three drawers, ``level`` top, middle and bottom), put a pen
that is on the desk in the desk drawer and close it, and close the dresser's top drawer if it
is open. The policies name the drawers with selectors: ``Select("Drawer", part_of="Desk")``,
``Select("Drawer", part_of="Dresser", attrs={"level": "top"})``.

The situations that reveal each fault, by the plan's factors:

``correct``
    checks both and has a branch for each answer: passes in all 4;
``counterfactual``
    puts the pen in the desk drawer without opening it: ``pen=yes``;
``unreachable``
    checks and closes the dresser's *bottom* drawer (the level copied wrong), leaving the top
    one open: ``top_drawer=yes``;
``lackbranch``
    looks for a pen on the desk until it sees one, without a limit: with none it never
    finishes: ``pen=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Close, Exists, GoTo, IsOpen, Open, PickUp, PutIn, Select

Behaviour = py_trees.behaviour.Behaviour

DESK_DRAWER = Select("Drawer", part_of="Desk")
TOP = Select("Drawer", part_of="Dresser", attrs={"level": "top"})
BOTTOM = Select("Drawer", part_of="Dresser", attrs={"level": "bottom"})


def _pen(*, open_it: bool = True, retry: bool = False) -> Behaviour:
    opening = [Open(DESK_DRAWER)] if open_it else []
    store = sequence(
        "Store",
        GoTo("pen"),
        PickUp("pen"),
        GoTo(DESK_DRAWER),
        *opening,
        PutIn("pen", DESK_DRAWER),
        Close(DESK_DRAWER),
    )
    seen = Exists("pen", on="desk")
    if retry:  # look until it sees one: a perception retry with no limit
        return sequence("Pen", py_trees.decorators.FailureIsRunning("UntilSeen", seen), store)
    return when("Pen", seen, store)


def _dresser(drawer: Select = TOP) -> Behaviour:
    return when("Dresser", IsOpen(drawer), sequence("Shut", GoTo(drawer), Close(drawer)))


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("DeskDrawer", _pen(), _dresser())


def counterfactual_policy() -> Behaviour:
    """Puts the pen in the desk drawer without opening it."""
    return sequence("DeskDrawer", _pen(open_it=False), _dresser())


def unreachable_policy() -> Behaviour:
    """Checks and closes the dresser's bottom drawer."""
    return sequence("DeskDrawer", _pen(), _dresser(BOTTOM))


def lackbranch_policy() -> Behaviour:
    """Looks for a pen on the desk until it sees one, without a limit."""
    return sequence("DeskDrawer", _pen(retry=True), _dresser())


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
