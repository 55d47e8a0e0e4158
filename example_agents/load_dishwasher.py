"""Load Dishwasher as behavior-tree policies: an appliance that is not opened while it runs.

The task (``tasks/load_dishwasher.json``, plan ``plans/load_dishwasher.json``): the dirty
plate on the dining table goes in the dishwasher, which is closed and started; but a running
dishwasher is not opened (AI2-THOR's rule for its microwave, here for every appliance), so
then the plate goes in the sink basin. A clean bowl left in the dishwasher is put away in a
cabinet of the counter first. Objects are named by the plan's roles (``plate``,
``dishwasher``, ``basin``, ``cabinet``) and the bowl by a selector, ``Bowl`` in the
dishwasher.

What is in the closed dishwasher is out of sight: the policy opens it before it looks for a
bowl.

Each policy is a py_trees factory with a BehaviorTree.CPP v4 twin in ``load_dishwasher.xml``
(:func:`xml_policy`); both give identical traces. The situations that reveal each fault, by
the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 3;
``counterfactual``
    opens the dishwasher without looking whether it runs: ``running=yes``;
``unreachable``
    loads the plate and closes the dishwasher but never starts it: ``running=no``;
``lackbranch``
    loads the plate without looking for clean dishes, as if the dishwasher were empty, and
    leaves the bowl in it: ``clean_bowl=yes``.
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
    IsToggledOn,
    Open,
    PickUp,
    PutIn,
    ToggleOn,
)

XML_PATH = Path(__file__).with_name("load_dishwasher.xml")

Behaviour = py_trees.behaviour.Behaviour


def _unload_bowl() -> Behaviour:
    """At the open dishwasher: a clean bowl in it goes in the cabinet."""
    put_away = sequence(
        "PutAway",
        PickUp("Bowl", in_="dishwasher"),
        GoTo("cabinet"),
        Open("cabinet"),
        PutIn("Bowl", "cabinet"),
        Close("cabinet"),
    )
    return when("Unload", Exists("Bowl", in_="dishwasher"), put_away)


def _load(*, unload: bool = True, start: bool = True) -> Behaviour:
    return sequence(
        "Load",
        GoTo("dishwasher"),
        Open("dishwasher"),
        *([_unload_bowl()] if unload else []),
        carry("plate", "dishwasher", into=True),
        Close("dishwasher"),
        *([ToggleOn("dishwasher")] if start else []),
    )


def _dishes(load: Behaviour, *, check_running: bool = True) -> Behaviour:
    if not check_running:
        return load
    running = sequence("Running", IsToggledOn("dishwasher"), carry("plate", "basin", into=True))
    return fallback("Dishes", running, load)


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return _dishes(_load())


def counterfactual_policy() -> Behaviour:
    """Opens the dishwasher without looking whether it runs."""
    return _dishes(_load(), check_running=False)


def unreachable_policy() -> Behaviour:
    """Never starts the dishwasher."""
    return _dishes(_load(start=False))


def lackbranch_policy() -> Behaviour:
    """Never looks for clean dishes in the dishwasher."""
    return _dishes(_load(unload=False))


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
#: The BehaviorTree IDs of their twins in ``load_dishwasher.xml``.
XML_TREES: Mapping[str, str] = {
    "correct": "LoadDishwasher",
    "counterfactual": "LoadDishwasherCounterfactual",
    "unreachable": "LoadDishwasherUnreachable",
    "lackbranch": "LoadDishwasherLackbranch",
}


def xml_policy(kind: str) -> XmlPolicy:
    """The BehaviorTree.CPP twin of ``POLICIES[kind]``."""
    return load_bt_xml(XML_PATH, tree=XML_TREES[kind])
