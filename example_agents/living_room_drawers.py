"""Living Room Drawers as behavior-tree policies: the drawers and cabinets of two pieces of
furniture, told apart by what they are a part of.

The task (``tasks/living_room_drawers.json``, plan ``plans/living_room_drawers.json``): a
remote control on the sofa goes in the drawer of the TV stand, a key chain on the coffee
table in the drawer of the side table, each drawer closed after; an open cabinet door of the
TV stand is closed.

The living room has two drawers (and the TV stand two cabinets), so the policies name them
with selectors, as a person would: ``Open("Drawer", part_of="TVStand")``, ``Open("Drawer",
part_of="SideTable")``, ``Close("Cabinet", part_of="TVStand", states={"open": True})``. The
remote control and the key chain are named by the plan's roles (``remote``, ``keys``).

The situations that reveal each fault, by the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 8;
``counterfactual``
    puts the remote control in the TV stand's drawer without opening it: ``remote=yes``;
``unreachable``
    puts the key chain in the TV stand's drawer too (the ``part_of`` of the remote's code,
    copied): ``keys=yes``;
``lackbranch``
    looks for the key chain again and again until it sees one (in case its camera missed
    it), without a limit: with none on the coffee table it never finishes: ``keys=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import (
    Check,
    Close,
    Exists,
    GoTo,
    Open,
    PickUp,
    PutIn,
    Select,
)

Behaviour = py_trees.behaviour.Behaviour

OPEN_TV_CABINET = {"exists": "Cabinet", "where": {"part_of": "TVStand"}, "states": {"open": True}}


def _into_drawer(item: str, furniture: str, *, open_it: bool = True) -> Behaviour:
    """Carry ``item`` into the drawer of ``furniture`` (a type) and close it."""
    drawer = Select("Drawer", part_of=furniture)
    opening = [Open(drawer)] if open_it else []
    return sequence(
        f"Into{furniture}Drawer",
        GoTo(item),
        PickUp(item),
        GoTo(drawer),
        *opening,
        PutIn(item, drawer),
        Close(drawer),
    )


def _remote(*, open_drawer: bool = True) -> Behaviour:
    store = _into_drawer("remote", "TVStand", open_it=open_drawer)
    return when("Remote", Exists("remote", on="sofa"), store)


def _keys(*, furniture: str = "SideTable", retry: bool = False) -> Behaviour:
    seen = Exists("keys", on="coffee_table")
    store = _into_drawer("keys", furniture)
    if retry:  # look until it sees them: a perception retry with no limit
        return sequence("Keys", py_trees.decorators.FailureIsRunning("UntilSeen", seen), store)
    return when("Keys", seen, store)


def _cabinet() -> Behaviour:
    door = Select("Cabinet", part_of="TVStand", states={"open": True})
    return when("Cabinet", Check(OPEN_TV_CABINET), sequence("Shut", GoTo(door), Close(door)))


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("LivingRoomDrawers", _remote(), _keys(), _cabinet())


def counterfactual_policy() -> Behaviour:
    """Puts the remote control in the TV stand's drawer without opening it."""
    return sequence("LivingRoomDrawers", _remote(open_drawer=False), _keys(), _cabinet())


def unreachable_policy() -> Behaviour:
    """Puts the key chain in the TV stand's drawer."""
    return sequence("LivingRoomDrawers", _remote(), _keys(furniture="TVStand"), _cabinet())


def lackbranch_policy() -> Behaviour:
    """Looks for the key chain until it sees one, without a limit."""
    return sequence("LivingRoomDrawers", _remote(), _keys(retry=True), _cabinet())


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
