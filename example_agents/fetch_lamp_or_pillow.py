"""The paper's Fetch Lamp or Pillow (its Appendix E case 1) as behavior-tree policies.

The task (``tasks/fetch_lamp_or_pillow.json``, plan ``plans/fetch_lamp_or_pillow.json``): the
agent starts in the living room of a house with a kitchen, a study and a bedroom; if there is
a pan in the kitchen it brings the desk lamp from the study, otherwise the pillow from the
bedroom, and puts what it brings on the living room sofa. Objects are named by the plan's
roles (``pan``, ``desk_lamp``, ``pillow``, ``sofa``); the agent walks to the kitchen (the room
type ``Kitchen``) to look for the pan.

The policies are py_trees factories (no XML twins). The situations that reveal each fault, by
the plan's factors:

``correct``
    checks for the pan and has a branch for each answer: passes in both;
``counterfactual``
    puts the desk lamp on the sofa without walking back to the living room: ``pan=yes``;
``unreachable``
    brings the desk lamp to the living room but drops it on the floor: ``pan=yes``;
``lackbranch``
    brings the desk lamp when there is a pan, with no plan for when there is none (the tree
    returns FAILURE): ``pan=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import carry, fallback, sequence
from pytest_logicenv.sim.leaves import Drop, Exists, GoTo, PickUp, PutOn

Behaviour = py_trees.behaviour.Behaviour


def _pan_in_kitchen(bring_lamp: Behaviour) -> Behaviour:
    return sequence("PanInKitchen", GoTo("Kitchen"), Exists("pan", room="Kitchen"), bring_lamp)


def correct_policy() -> Behaviour:
    """The desk lamp if there is a pan in the kitchen, else the pillow."""
    return fallback("Fetch", _pan_in_kitchen(carry("desk_lamp", "sofa")), carry("pillow", "sofa"))


def counterfactual_policy() -> Behaviour:
    """Puts the desk lamp on the sofa while still standing in the study."""
    lamp = sequence("CarryOnto", GoTo("desk_lamp"), PickUp("desk_lamp"), PutOn("desk_lamp", "sofa"))
    return fallback("Fetch", _pan_in_kitchen(lamp), carry("pillow", "sofa"))


def unreachable_policy() -> Behaviour:
    """Brings the desk lamp to the living room but drops it on the floor."""
    lamp = sequence(
        "CarryOnto", GoTo("desk_lamp"), PickUp("desk_lamp"), GoTo("sofa"), Drop("desk_lamp")
    )
    return fallback("Fetch", _pan_in_kitchen(lamp), carry("pillow", "sofa"))


def lackbranch_policy() -> Behaviour:
    """No plan for when there is no pan in the kitchen."""
    return _pan_in_kitchen(carry("desk_lamp", "sofa"))


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
