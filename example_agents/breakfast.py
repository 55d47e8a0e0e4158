"""Breakfast as behavior-tree policies.

The task (``tasks/breakfast.json``, plan ``plans/breakfast.json``): for the drink, milk from
the fridge is poured into the mug, or, without milk, the mug goes in the coffee machine and
the machine is switched on; for the food, bread on the counter goes in the toaster and the
toaster is switched on, or, without bread, the apple goes on the plate, from the fruit bowl or
from the fridge. The fridge is closed at the start and must be closed at the end. Objects are
named by the plan's roles (``fridge``, ``milk``, ``mug``, ``apple``, ...).

The agent cannot see into the closed fridge, so it opens the fridge before it looks for the
milk; it puts the milk back after pouring, since it has one hand and the food comes next.

Each policy is a py_trees factory with a BehaviorTree.CPP v4 twin in ``breakfast.xml``
(:func:`xml_policy`); both give identical traces. The situations that reveal each fault, by
the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 6;
``counterfactual``
    takes the apple from the fridge without opening it: ``bread=no``, ``bread_apple=fridge``;
``unreachable``
    puts the mug in the coffee machine but never switches the machine on: ``milk=no``;
``lackbranch``
    always pours milk, with no plan for when there is none: ``milk=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import py_trees

from pytest_logicenv import XmlPolicy, load_bt_xml
from pytest_logicenv.sim.controls import carry, fallback, sequence
from pytest_logicenv.sim.leaves import (
    Close,
    Exists,
    GoTo,
    Open,
    PickUp,
    Pour,
    PutIn,
    PutOn,
    ToggleOn,
)

XML_PATH = Path(__file__).with_name("breakfast.xml")

Behaviour = py_trees.behaviour.Behaviour


def _pour_milk() -> Behaviour:
    """At the open fridge: pour the milk into the mug, put it back and close the fridge."""
    return sequence(
        "PourMilk",
        PickUp("milk"),
        GoTo("mug"),
        Pour("milk", "mug"),
        GoTo("fridge"),
        PutIn("milk", "fridge"),
        Close("fridge"),
    )


def _coffee(*, switch_on: bool = True) -> Behaviour:
    """At the open fridge: close it and make coffee in the mug."""
    brew = [ToggleOn("coffee_machine")] if switch_on else []
    return sequence("Coffee", Close("fridge"), carry("mug", "coffee_machine", into=True), *brew)


def _drink(*, switch_on: bool = True) -> Behaviour:
    milk = sequence("MilkInFridge", Exists("milk", in_="fridge"), _pour_milk())
    coffee = _coffee(switch_on=switch_on)
    return sequence("Drink", GoTo("fridge"), Open("fridge"), fallback("ByMilk", milk, coffee))


def _always_milk() -> Behaviour:
    return sequence("Drink", GoTo("fridge"), Open("fridge"), _pour_milk())


def _apple_from_fridge(*, open_it: bool = True) -> Behaviour:
    opened = [Open("fridge"), Exists("apple", in_="fridge")] if open_it else []
    closed = [Close("fridge")] if open_it else []
    return sequence(
        "AppleInFridge",
        GoTo("fridge"),
        *opened,
        PickUp("apple"),
        *closed,
        GoTo("plate"),
        PutOn("apple", "plate"),
    )


def _food(*, open_fridge: bool = True) -> Behaviour:
    toast = sequence(
        "Toast",
        Exists("bread", on="counter"),
        carry("bread", "toaster", into=True),
        ToggleOn("toaster"),
    )
    from_bowl = sequence("AppleInBowl", Exists("apple", in_="fruit_bowl"), carry("apple", "plate"))
    return fallback("Food", toast, from_bowl, _apple_from_fridge(open_it=open_fridge))


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("Breakfast", _drink(), _food())


def counterfactual_policy() -> Behaviour:
    """Takes the apple from the fridge without opening it."""
    return sequence("Breakfast", _drink(), _food(open_fridge=False))


def unreachable_policy() -> Behaviour:
    """Puts the mug in the coffee machine but never switches the machine on."""
    return sequence("Breakfast", _drink(switch_on=False), _food())


def lackbranch_policy() -> Behaviour:
    """Always pours milk; no plan for when there is none."""
    return sequence("Breakfast", _always_milk(), _food())


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
#: The BehaviorTree IDs of their twins in ``breakfast.xml``.
XML_TREES: Mapping[str, str] = {
    "correct": "Breakfast",
    "counterfactual": "BreakfastCounterfactual",
    "unreachable": "BreakfastUnreachable",
    "lackbranch": "BreakfastLackbranch",
}


def xml_policy(kind: str) -> XmlPolicy:
    """The BehaviorTree.CPP twin of ``POLICIES[kind]``."""
    return load_bt_xml(XML_PATH, tree=XML_TREES[kind])
