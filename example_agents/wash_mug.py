"""Wash Mug as behavior-tree policies: a kitchen sink with its basin and faucet, and a
cabinet of the counter.

The task (``tasks/wash_mug.json``, plan ``plans/wash_mug.json``): a dirty mug on the dining
table is washed in the sink basin under the running faucet, the faucet turned off and the
water poured out, then the mug goes in a cabinet of the counter, which is closed again; a
clean mug goes straight into the cabinet. The house plant is watered from the watering can on
the counter, filled at the sink first when it is empty. Objects are named by the plan's roles
(``mug``, ``basin``, ``faucet``, ``cabinet``, ``watering_can``, ``plant``, ...).

Water comes only from a running faucet: what stands in the basin while it runs is washed and
filled (so a washed mug holds water), and a can is filled held at the faucet. ``Empty`` and
``Pour`` need the container in hand.

The situations that reveal each fault, by the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 6;
``counterfactual``
    pours the water out of the washed mug while it still stands in the basin (``Empty``
    needs it held): ``mug_dirty=yes``;
``unreachable``
    puts the mug in the cabinet and walks away with the cabinet door open: ``mug=yes``;
``lackbranch``
    goes for the mug on the table without looking whether there is one, no plan for when
    there is none: ``mug=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import fallback, sequence, when
from pytest_logicenv.sim.leaves import (
    Close,
    Empty,
    Exists,
    Fill,
    GoTo,
    IsDirty,
    IsFilled,
    Open,
    PickUp,
    Pour,
    PutIn,
    PutOn,
    ToggleOff,
    ToggleOn,
)

Behaviour = py_trees.behaviour.Behaviour


def _wash(*, empty_held: bool = True) -> Behaviour:
    """Wash the dirty mug in the basin; it comes out in hand, its water poured out."""
    empty = [PickUp("mug"), Empty("mug")] if empty_held else [Empty("mug"), PickUp("mug")]
    return sequence(
        "Wash",
        IsDirty("mug"),
        GoTo("mug"),
        PickUp("mug"),
        GoTo("basin"),
        PutIn("mug", "basin"),
        ToggleOn("faucet"),
        ToggleOff("faucet"),
        *empty,
    )


def _store(*, close: bool = True) -> Behaviour:
    """The held mug into the cabinet."""
    closing = [Close("cabinet")] if close else []
    return sequence("Store", GoTo("cabinet"), Open("cabinet"), PutIn("mug", "cabinet"), *closing)


def _put_mug_away(*, empty_held: bool = True, close: bool = True) -> Behaviour:
    take = fallback(
        "Take", _wash(empty_held=empty_held), sequence("Clean", GoTo("mug"), PickUp("mug"))
    )
    return sequence("PutMugAway", take, _store(close=close))


def _mug(put_away: Behaviour) -> Behaviour:
    return when("Mug", Exists("mug", on="dining_table"), put_away)


def _water_plant() -> Behaviour:
    fill = sequence(
        "FillCan", GoTo("faucet"), ToggleOn("faucet"), Fill("watering_can"), ToggleOff("faucet")
    )
    return sequence(
        "WaterPlant",
        GoTo("watering_can"),
        PickUp("watering_can"),
        fallback("Filled", IsFilled("watering_can"), fill),
        GoTo("plant"),
        Pour("watering_can", "plant"),
        GoTo("counter"),
        PutOn("watering_can", "counter"),
    )


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("WashMug", _mug(_put_mug_away()), _water_plant())


def counterfactual_policy() -> Behaviour:
    """Pours the water out of the washed mug before taking it out of the basin."""
    return sequence("WashMug", _mug(_put_mug_away(empty_held=False)), _water_plant())


def unreachable_policy() -> Behaviour:
    """Leaves the cabinet open."""
    return sequence("WashMug", _mug(_put_mug_away(close=False)), _water_plant())


def lackbranch_policy() -> Behaviour:
    """Always goes for the mug on the table; no plan for when there is none."""
    return sequence("WashMug", _put_mug_away(), _water_plant())


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
