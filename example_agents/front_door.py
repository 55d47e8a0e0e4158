"""Front Door as behavior-tree policies: the door to the outside and the door to the
kitchen, told apart by their ``kind`` as a person tells them apart.

The task (``tasks/front_door.json``, plan ``plans/front_door.json``): in a living room next to
a kitchen, close the front door if it is open and open the door to the kitchen if it is
closed. Doors are openings in the walls of the floor plan with an open state; the front door
is in an exterior wall (``kind`` ``front``), the kitchen's in the wall the two rooms share
(``kind`` ``interior``), so the policies name them with selectors:
``Select("Door", attrs={"kind": "front"})``, ``IsOpen(Select("Door", room="Kitchen"))``.

The situations that reveal each fault, by the plan's factors:

``correct``
    checks both doors and has a branch for each answer: passes in all 4;
``counterfactual``
    closes the front door without looking whether it is open: ``front_door=no``;
``unreachable``
    opens the kitchen door first, then, the front door being open, closes whichever door it
    finds open first (``any=True``): the kitchen's, leaving the front door open:
    ``front_door=yes``;
``lackbranch``
    has no branch for a closed kitchen door: it waits for the door to be seen open (as if
    someone else would open it), without a limit, and with the door closed it never
    finishes: ``kitchen_door=yes``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Close, GoTo, IsClosed, IsOpen, Open, Select

Behaviour = py_trees.behaviour.Behaviour

FRONT = Select("Door", attrs={"kind": "front"})
KITCHEN = Select("Door", room="Kitchen", attrs={"kind": "interior"})


def _front(*, look: bool = True, door: Select = FRONT) -> Behaviour:
    shut = sequence("ShutFront", GoTo(door), Close(door))
    return when("Front", IsOpen(FRONT), shut) if look else shut


def _kitchen(*, wait: bool = False) -> Behaviour:
    if wait:  # look until it is seen open: a retry with no limit, and no branch to open it
        return py_trees.decorators.FailureIsRunning("UntilOpen", IsOpen(KITCHEN))
    open_it = sequence("OpenKitchen", GoTo(KITCHEN), Open(KITCHEN))
    return when("Kitchen", IsClosed(KITCHEN), open_it)


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("Doors", _front(), _kitchen())


def counterfactual_policy() -> Behaviour:
    """Closes the front door without looking whether it is open."""
    return sequence("Doors", _front(look=False), _kitchen())


def unreachable_policy() -> Behaviour:
    """Opens the kitchen door, then closes whichever door it finds open first."""
    any_open = Select("Door", states={"open": True}, any=True)
    return sequence("Doors", _kitchen(), _front(door=any_open))


def lackbranch_policy() -> Behaviour:
    """Waits for the kitchen door to be seen open, without a limit."""
    return sequence("Doors", _front(), _kitchen(wait=True))


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
