"""Slice Lemon as behavior-tree policies: a lemon sliced with a kitchen knife.

The task (``tasks/slice_lemon.json``, plan ``plans/slice_lemon.json``): a lemon on the counter
that is not sliced yet is sliced with the knife (on the dining table, or in a drawer of the
counter), and the knife goes back where it was (the drawer closed again). Objects are named by
the plan's roles (``lemon``, ``knife``, ``drawer``, ``counter``, ``table``). ``Lemon`` is of
the household type pack; a ``Knife`` cuts (``cutting_tool``, a household extension), so
``Slice`` names it as its tool.

The situations that reveal each fault, by the plan's factors:

``correct``
    checks whether the lemon is sliced and where the knife is: passes in all 3;
``counterfactual``
    takes the knife out of the drawer without opening it: ``knife=drawer``;
``unreachable``
    puts the knife back in the drawer and leaves it open: ``knife=drawer``;
``lackbranch``
    looks for the knife in the drawer only: ``knife=table``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import fallback, sequence
from pytest_logicenv.sim.leaves import (
    Close,
    GoTo,
    InState,
    IsIn,
    IsOn,
    Open,
    PickUp,
    PutIn,
    PutOn,
    Slice,
)

Behaviour = py_trees.behaviour.Behaviour


def _cut() -> tuple[Behaviour, ...]:
    """Slice the lemon with the knife in hand."""
    return GoTo("lemon"), Slice("lemon", "knife")


def _knife_on_table() -> Behaviour:
    return sequence(
        "KnifeOnTable",
        IsOn("knife", "table"),
        GoTo("knife"),
        PickUp("knife"),
        *_cut(),
        GoTo("table"),
        PutOn("knife", "table"),
    )


def _knife_in_drawer(*, open_it: bool = True, close: bool = True) -> Behaviour:
    # What a closed drawer holds is seen once it is open.
    opening = [Open("drawer"), IsIn("knife", "drawer")] if open_it else []
    closing = [Close("drawer")] if close else []
    return sequence(
        "KnifeInDrawer",
        GoTo("drawer"),
        *opening,
        PickUp("knife"),
        *_cut(),
        GoTo("drawer"),
        PutIn("knife", "drawer"),
        *closing,
    )


def _slice_lemon(drawer: Behaviour, *, table: bool = True) -> Behaviour:
    sliced = InState("lemon", sliced=True)
    knife = [_knife_on_table(), drawer] if table else [drawer]
    return fallback("SliceLemon", sliced, *knife)


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return _slice_lemon(_knife_in_drawer())


def counterfactual_policy() -> Behaviour:
    """Takes the knife out of the drawer without opening it."""
    return _slice_lemon(_knife_in_drawer(open_it=False))


def unreachable_policy() -> Behaviour:
    """Leaves the drawer open."""
    return _slice_lemon(_knife_in_drawer(close=False))


def lackbranch_policy() -> Behaviour:
    """Looks for the knife in the drawer only."""
    return _slice_lemon(_knife_in_drawer(), table=False)


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
