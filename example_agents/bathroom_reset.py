"""Bathroom Reset as behavior-tree policies.

The task (``tasks/bathroom_reset.json``, plan ``plans/bathroom_reset.json``): a towel on the
floor goes in the laundry basket if it is dirty and on the towel holder if it is clean; a
window that is open is closed; a light that is on is switched off, last, as the agent leaves.
Objects are named by the plan's roles (``towel``, ``laundry_basket``, ``light``, ...). The
laundry basket has a lid (AI2-THOR's LaundryHamper opens), so the towel goes in only once the
basket is open; the policies close it again.

Each policy is a py_trees factory with a BehaviorTree.CPP v4 twin in ``bathroom_reset.xml``
(:func:`xml_policy`); both give identical traces. The situations that reveal each fault, by
the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 12;
``counterfactual``
    puts the dirty towel in the laundry basket without opening it:
    ``towel=yes``, ``towel_dirty=yes``;
``unreachable``
    goes to the light switch when the light is on but leaves without switching it off:
    ``light=yes``;
``lackbranch``
    takes the towel from the floor without looking whether there is one, no plan for when
    there is none: ``towel=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import py_trees

from pytest_logicenv import XmlPolicy, load_bt_xml
from pytest_logicenv.sim.controls import carry, fallback, sequence, when
from pytest_logicenv.sim.leaves import (
    Close,
    Exists,
    GoTo,
    IsClosed,
    IsDirty,
    IsOpen,
    IsToggledOn,
    Open,
    PickUp,
    PutIn,
    ToggleOff,
)

XML_PATH = Path(__file__).with_name("bathroom_reset.xml")

Behaviour = py_trees.behaviour.Behaviour


def _into_basket(*, open_it: bool = True) -> Behaviour:
    opening = [when("OpenBasket", IsClosed("laundry_basket"), Open("laundry_basket"))]
    return sequence(
        "IntoBasket",
        GoTo("towel"),
        PickUp("towel"),
        GoTo("laundry_basket"),
        *(opening if open_it else []),
        PutIn("towel", "laundry_basket"),
        Close("laundry_basket"),
    )


def _put_towel_away(*, open_basket: bool = True) -> Behaviour:
    dirty = sequence("Dirty", IsDirty("towel"), _into_basket(open_it=open_basket))
    return fallback("ByDirt", dirty, carry("towel", "towel_holder"))


def _towel(put_away: Behaviour) -> Behaviour:
    return when("Towel", Exists("towel", on="Floor"), put_away)


def _window() -> Behaviour:
    return when("Window", IsOpen("window"), sequence("Shut", GoTo("window"), Close("window")))


def _light() -> Behaviour:
    return when(
        "Light", IsToggledOn("light"), sequence("SwitchOff", GoTo("light"), ToggleOff("light"))
    )


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("BathroomReset", _towel(_put_towel_away()), _window(), _light())


def counterfactual_policy() -> Behaviour:
    """Puts the dirty towel in the laundry basket without opening it."""
    towel = _towel(_put_towel_away(open_basket=False))
    return sequence("BathroomReset", towel, _window(), _light())


def unreachable_policy() -> Behaviour:
    """Goes to the light switch but leaves the light on. (Hanging every towel on the holder,
    dirty or not, would do what the clean-towel situation asks without checking the dirt:
    that is a missing branch, ``lackbranch``.)"""
    light = when("Light", IsToggledOn("light"), sequence("SwitchOff", GoTo("light")))
    return sequence("BathroomReset", _towel(_put_towel_away()), _window(), light)


def lackbranch_policy() -> Behaviour:
    """Always takes the towel from the floor; no plan for when there is none."""
    return sequence("BathroomReset", _put_towel_away(), _window(), _light())


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
#: The BehaviorTree IDs of their twins in ``bathroom_reset.xml``.
XML_TREES: Mapping[str, str] = {
    "correct": "BathroomReset",
    "counterfactual": "BathroomResetCounterfactual",
    "unreachable": "BathroomResetUnreachable",
    "lackbranch": "BathroomResetLackbranch",
}


def xml_policy(kind: str) -> XmlPolicy:
    """The BehaviorTree.CPP twin of ``POLICIES[kind]``."""
    return load_bt_xml(XML_PATH, tree=XML_TREES[kind])
