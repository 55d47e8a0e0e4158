"""Wet Shirt as behavior-tree policies: a shirt in the washing machine of a laundry room.

The task (``tasks/wet_shirt.json``, plan ``plans/wet_shirt.json``): a wet shirt in the washing
machine is hung on the drying rack, a dry one goes in the laundry basket, and the machine is
closed again. Objects are named by the plan's roles (``washer``, ``shirt``, ``rack``,
``basket``). Clothes get wet (``wettable``, a household extension), so a scene can hold a wet
shirt and ``IsWet`` tells it from a dry one.

The situations that reveal each fault, by the plan's factors:

``correct``
    opens the machine, looks for the shirt and how wet it is: passes in all 3;
``counterfactual``
    closes the machine on the wet shirt before taking it out (``PickUp`` from a closed
    machine): ``shirt_wet=yes``;
``unreachable``
    closes the machine only after hanging a wet shirt, so a dry one leaves it open:
    ``shirt_wet=no``;
``lackbranch``
    takes the shirt out without looking whether there is one: ``shirt=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import fallback, sequence, when
from pytest_logicenv.sim.leaves import Close, Exists, GoTo, IsWet, Open, PickUp, PutIn, PutOn

Behaviour = py_trees.behaviour.Behaviour


def _hang(*, close_first: bool = False, close_after: bool = False) -> Behaviour:
    """A wet shirt onto the drying rack."""
    before = [Close("washer")] if close_first else []
    after = [GoTo("washer"), Close("washer")] if close_after else []
    return sequence(
        "Hang",
        IsWet("shirt"),
        *before,
        PickUp("shirt"),
        GoTo("rack"),
        PutOn("shirt", "rack"),
        *after,
    )


def _basket() -> Behaviour:
    """A dry shirt into the laundry basket."""
    return sequence("ToBasket", PickUp("shirt"), GoTo("basket"), PutIn("shirt", "basket"))


def _wet_shirt(
    *, check: bool = True, close_first: bool = False, close_at_end: bool = True
) -> Behaviour:
    place = fallback(
        "Place", _hang(close_first=close_first, close_after=not close_at_end), _basket()
    )
    shirt = when("Shirt", Exists("shirt", in_="washer"), place) if check else place
    closing = [GoTo("washer"), Close("washer")] if close_at_end else []
    return sequence("WetShirt", GoTo("washer"), Open("washer"), shirt, *closing)


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return _wet_shirt()


def counterfactual_policy() -> Behaviour:
    """Closes the machine on a wet shirt before taking it out."""
    return _wet_shirt(close_first=True)


def unreachable_policy() -> Behaviour:
    """Closes the machine only after hanging a wet shirt."""
    return _wet_shirt(close_at_end=False)


def lackbranch_policy() -> Behaviour:
    """Takes the shirt out without looking whether there is one."""
    return _wet_shirt(check=False)


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
