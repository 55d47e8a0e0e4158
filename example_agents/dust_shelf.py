"""Dust Shelf as behavior-tree policies: a dusty shelving unit wiped with a dry duster.

The task (``tasks/dust_shelf.json``, plan ``plans/dust_shelf.json``): a dusty shelving unit
is wiped with the duster, which is in the drawer of the side table or on the coffee table, and
the duster goes back where it was (the drawer closed again). Objects are named by the plan's
roles (``shelf``, ``duster``, ``drawer``, ``side_table``, ``coffee_table``). A shelving unit
gets dusty (``dirtyable``, a household extension), and a ``Duster`` cleans it dry: it is a
cleaning tool that is not wettable, so ``Clean`` asks for no water.

The situations that reveal each fault, by the plan's factors:

``correct``
    checks whether the shelf is dusty and where the duster is: passes in all 3;
``counterfactual``
    takes the duster out of the drawer without opening it: ``duster=drawer``;
``unreachable``
    puts the duster back in the drawer and leaves it open: ``duster=drawer``;
``lackbranch``
    always puts the duster away in the drawer, never looking where it was:
    ``duster=coffee_table`` (it did what the drawer's situation asks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import fallback, sequence, when
from pytest_logicenv.sim.leaves import (
    Clean,
    Close,
    GoTo,
    IsDirty,
    IsIn,
    IsOn,
    Open,
    PickUp,
    PutIn,
    PutOn,
)

Behaviour = py_trees.behaviour.Behaviour


def _wipe() -> tuple[Behaviour, ...]:
    return GoTo("shelf"), Clean("shelf", "duster")


def _from_table() -> Behaviour:
    return sequence(
        "FromTable",
        IsOn("duster", "coffee_table"),
        GoTo("duster"),
        PickUp("duster"),
        *_wipe(),
        GoTo("coffee_table"),
        PutOn("duster", "coffee_table"),
    )


def _from_drawer(*, open_it: bool = True, close: bool = True) -> Behaviour:
    # What a closed drawer holds is seen once it is open.
    opening = [Open("drawer"), IsIn("duster", "drawer")] if open_it else []
    closing = [Close("drawer")] if close else []
    return sequence(
        "FromDrawer",
        GoTo("drawer"),
        *opening,
        PickUp("duster"),
        *_wipe(),
        GoTo("drawer"),
        PutIn("duster", "drawer"),
        *closing,
    )


def _dust(*duster: Behaviour) -> Behaviour:
    return when("Dust", IsDirty("shelf"), fallback("Duster", *duster))


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return _dust(_from_table(), _from_drawer())


def counterfactual_policy() -> Behaviour:
    """Takes the duster out of the drawer without opening it."""
    return _dust(_from_table(), _from_drawer(open_it=False))


def unreachable_policy() -> Behaviour:
    """Leaves the drawer open."""
    return _dust(_from_table(), _from_drawer(close=False))


def lackbranch_policy() -> Behaviour:
    """Opens the drawer and puts the duster away in it, wherever it was, never looking."""
    anywhere = sequence(
        "AnyDuster",
        GoTo("drawer"),
        Open("drawer"),
        GoTo("duster"),
        PickUp("duster"),
        *_wipe(),
        GoTo("drawer"),
        PutIn("duster", "drawer"),
        Close("drawer"),
    )
    return _dust(anywhere)


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
