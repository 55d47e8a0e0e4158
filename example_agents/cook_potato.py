"""Cook Potato as behavior-tree policies: a stove's burners and the knobs that switch them.

The task (``tasks/cook_potato.json``, plan ``plans/cook_potato.json``): the pan goes on the
stove's front-left burner (it is there already, or in a closed cabinet of the counter); the
potato (on the counter, or in the closed fridge) goes in the pan; the front-left knob is
switched on, which switches on the burner it controls and cooks the potato through the pan,
and off again. Cabinets and the fridge are closed again.

The stove's parts are named by selectors, as a robot programmer names them:
``Select("StoveBurner", attrs={"position": "front_left"})`` and the knob at the same
position; the rest by the plan's roles (``pan``, ``potato``, ``cabinet``, ``fridge``).
A knob switches only the burner at its own position, and what is in a closed cabinet or
fridge is out of sight until it is opened.

Each policy is a py_trees factory with a BehaviorTree.CPP v4 twin in ``cook_potato.xml``
(:func:`xml_policy`); both give identical traces. The situations that reveal each fault, by
the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 4;
``counterfactual``
    reaches for the pan in the cabinet without opening the cabinet: ``pan=cabinet``;
``unreachable``
    puts the pan from the cabinet on the back-right burner, but switches the front-left
    knob, so the potato stays raw: ``pan=cabinet``;
``lackbranch``
    looks for the potato on the counter only, no plan for when it is in the fridge (the tree
    returns FAILURE): ``potato=fridge``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import py_trees

from pytest_logicenv import XmlPolicy, load_bt_xml
from pytest_logicenv.sim.controls import fallback, sequence
from pytest_logicenv.sim.leaves import (
    Close,
    Exists,
    GoTo,
    Open,
    PickUp,
    PutIn,
    PutOn,
    Select,
    ToggleOff,
    ToggleOn,
)

XML_PATH = Path(__file__).with_name("cook_potato.xml")

Behaviour = py_trees.behaviour.Behaviour

FRONT_LEFT = {"position": "front_left"}
KNOB = Select("StoveKnob", attrs=FRONT_LEFT)


def _burner(position: str = "front_left") -> Select:
    return Select("StoveBurner", attrs={"position": position})


def _pan_from_cabinet(*, open_it: bool = True, burner: str = "front_left") -> Behaviour:
    opening = [Open("cabinet")] if open_it else []
    closing = [Close("cabinet")] if open_it else []
    return sequence(
        "PanFromCabinet",
        GoTo("cabinet"),
        *opening,
        PickUp("pan"),
        *closing,
        GoTo(_burner(burner)),
        PutOn("pan", _burner(burner)),
    )


def _pan(*, open_cabinet: bool = True, burner: str = "front_left") -> Behaviour:
    on_stove = Exists("pan", on="burner")
    return fallback("Pan", on_stove, _pan_from_cabinet(open_it=open_cabinet, burner=burner))


def _potato(*, from_fridge: bool = True) -> Behaviour:
    on_counter = sequence(
        "FromCounter", Exists("potato", on="counter"), GoTo("potato"), PickUp("potato")
    )
    in_fridge = sequence(
        "FromFridge", GoTo("fridge"), Open("fridge"), PickUp("potato"), Close("fridge")
    )
    take = fallback("TakePotato", on_counter, *([in_fridge] if from_fridge else []))
    return sequence(
        "Cook",
        take,
        GoTo("pan"),
        PutIn("potato", "pan"),
        GoTo(KNOB),
        ToggleOn(KNOB),
        ToggleOff(KNOB),
    )


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("CookPotato", _pan(), _potato())


def counterfactual_policy() -> Behaviour:
    """Takes the pan out of the cabinet without opening it."""
    return sequence("CookPotato", _pan(open_cabinet=False), _potato())


def unreachable_policy() -> Behaviour:
    """Puts the pan from the cabinet on the back-right burner; switches the front-left knob."""
    return sequence("CookPotato", _pan(burner="back_right"), _potato())


def lackbranch_policy() -> Behaviour:
    """Looks for the potato on the counter only."""
    return sequence("CookPotato", _pan(), _potato(from_fridge=False))


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
#: The BehaviorTree IDs of their twins in ``cook_potato.xml``.
XML_TREES: Mapping[str, str] = {
    "correct": "CookPotato",
    "counterfactual": "CookPotatoCounterfactual",
    "unreachable": "CookPotatoUnreachable",
    "lackbranch": "CookPotatoLackbranch",
}


def xml_policy(kind: str) -> XmlPolicy:
    """The BehaviorTree.CPP twin of ``POLICIES[kind]``."""
    return load_bt_xml(XML_PATH, tree=XML_TREES[kind])
