"""Cat Food as behavior-tree policies: a box of dry cat food poured into the cat's bowl.

The task (``tasks/cat_food.json``, plan ``plans/cat_food.json``): when the cat's bowl on the
floor is empty, cat food is poured into it from its box, which is in a cabinet of the counter
or on the counter, and the box goes back where it was (the cabinet closed again). Objects are
named by the plan's roles (``cat_bowl``, ``cat_food``, ``cabinet``, ``counter``). ``CatFood``
is a pourable food container (a household extension): filled, it pours into a bowl.

The situations that reveal each fault, by the plan's factors:

``correct``
    checks the bowl and where the box is: passes in all 3;
``counterfactual``
    takes the box out of the cabinet without opening it: ``food=cabinet``;
``unreachable``
    puts the box back in the cabinet and leaves it open: ``food=cabinet``;
``lackbranch``
    looks for the box in the cabinet only: ``food=counter``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import fallback, sequence, when
from pytest_logicenv.sim.leaves import (
    Close,
    GoTo,
    InState,
    IsIn,
    IsOn,
    Open,
    PickUp,
    Pour,
    PutIn,
    PutOn,
)

Behaviour = py_trees.behaviour.Behaviour


def _pour() -> tuple[Behaviour, ...]:
    return GoTo("cat_bowl"), Pour("cat_food", "cat_bowl")


def _from_counter() -> Behaviour:
    return sequence(
        "FromCounter",
        IsOn("cat_food", "counter"),
        GoTo("cat_food"),
        PickUp("cat_food"),
        *_pour(),
        GoTo("counter"),
        PutOn("cat_food", "counter"),
    )


def _from_cabinet(*, open_it: bool = True, close: bool = True) -> Behaviour:
    # What a closed cabinet holds is seen once it is open.
    opening = [Open("cabinet"), IsIn("cat_food", "cabinet")] if open_it else []
    closing = [Close("cabinet")] if close else []
    return sequence(
        "FromCabinet",
        GoTo("cabinet"),
        *opening,
        PickUp("cat_food"),
        *_pour(),
        GoTo("cabinet"),
        PutIn("cat_food", "cabinet"),
        *closing,
    )


def _feed(cabinet: Behaviour, *, counter: bool = True) -> Behaviour:
    take = fallback("Feed", _from_counter(), cabinet) if counter else fallback("Feed", cabinet)
    return when("CatFood", InState("cat_bowl", filled=False), take)


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return _feed(_from_cabinet())


def counterfactual_policy() -> Behaviour:
    """Takes the box out of the cabinet without opening it."""
    return _feed(_from_cabinet(open_it=False))


def unreachable_policy() -> Behaviour:
    """Leaves the cabinet open."""
    return _feed(_from_cabinet(close=False))


def lackbranch_policy() -> Behaviour:
    """Looks for the box in the cabinet only."""
    return _feed(_from_cabinet(), counter=False)


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
