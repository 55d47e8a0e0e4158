"""Where each example policy's fault shows: the one table the example tests and the test suite
read.

Each example module (``clean_living_room.py``, ...) has a correct policy and three faulty
ones, named by the fault class they have. For each faulty policy the table gives the class its
test declares (``expect_fault``) and the situation that reveals it: the answer to one of the
plan's factors (``toy_type=other_types``). In every other situation the policy passes; the
correct policy passes everywhere.

>>> EXAMPLE_FAULTS["clean_living_room"]["lackbranch"]
Fault(declared='lackbranch', factor='wipe', answer='no')
>>> expected_outcome("clean_living_room", "lackbranch", {"toy": "no", "book": "no", "wipe": "no"})
'lackbranch'
>>> expected_outcome("clean_living_room", "correct", {"wipe": "no"})
'pass'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest


@dataclass(frozen=True)
class Fault:
    """A faulty policy's declared fault class, and the factor answer that reveals it."""

    declared: str
    factor: str
    answer: str

    def revealed_by(self, conditions: Mapping[str, str]) -> bool:
        """Whether a situation (factor -> answer; nested factors may be absent) shows it."""
        return conditions.get(self.factor) == self.answer


#: task (the example module's name) -> faulty policy -> its fault; ``correct`` has none.
EXAMPLE_FAULTS: Mapping[str, Mapping[str, Fault]] = {
    "bathroom_mirror": {
        "counterfactual": Fault("counterfactual", "mirror", "yes"),
        "unreachable": Fault("unreachable", "mirror", "yes"),
        "lackbranch": Fault("lackbranch", "refill", "no"),
    },
    "bathroom_reset": {
        "counterfactual": Fault("counterfactual", "towel_dirty", "yes"),
        "unreachable": Fault("unreachable", "light", "yes"),
        "lackbranch": Fault("lackbranch", "towel", "no"),
    },
    "breakfast": {
        "counterfactual": Fault("counterfactual", "bread_apple", "fridge"),
        "unreachable": Fault("unreachable", "milk", "no"),
        "lackbranch": Fault("lackbranch", "milk", "no"),
    },
    "cat_food": {
        "counterfactual": Fault("counterfactual", "food", "cabinet"),
        "unreachable": Fault("unreachable", "food", "cabinet"),
        "lackbranch": Fault("lackbranch", "food", "counter"),
    },
    "clean_living_room": {  # the paper's Figures 7-9
        "counterfactual": Fault("counterfactual", "toy_type", "other_types"),
        "unreachable": Fault("unreachable", "toy_type", "doll"),
        "lackbranch": Fault("lackbranch", "wipe", "no"),
    },
    "cook_potato": {
        "counterfactual": Fault("counterfactual", "pan", "cabinet"),
        "unreachable": Fault("unreachable", "pan", "cabinet"),
        "lackbranch": Fault("lackbranch", "potato", "fridge"),
    },
    "dust_shelf": {
        "counterfactual": Fault("counterfactual", "duster", "drawer"),
        "unreachable": Fault("unreachable", "duster", "drawer"),
        "lackbranch": Fault("lackbranch", "duster", "coffee_table"),
    },
    "fetch_lamp_or_pillow": {
        "counterfactual": Fault("counterfactual", "pan", "yes"),
        "unreachable": Fault("unreachable", "pan", "yes"),
        "lackbranch": Fault("lackbranch", "pan", "no"),
    },
    "desk_drawer": {
        "counterfactual": Fault("counterfactual", "pen", "yes"),
        "unreachable": Fault("unreachable", "top_drawer", "yes"),
        "lackbranch": Fault("lackbranch", "pen", "no"),
    },
    "front_door": {
        "counterfactual": Fault("counterfactual", "front_door", "no"),
        "unreachable": Fault("unreachable", "front_door", "yes"),
        "lackbranch": Fault("lackbranch", "kitchen_door", "yes"),
    },
    "living_room_drawers": {
        "counterfactual": Fault("counterfactual", "remote", "yes"),
        "unreachable": Fault("unreachable", "keys", "yes"),
        "lackbranch": Fault("lackbranch", "keys", "no"),
    },
    "living_room_pillow_toy": {
        "counterfactual": Fault("counterfactual", "wipes", "yes"),
        "unreachable": Fault("unreachable", "toy", "yes"),
        "lackbranch": Fault("lackbranch", "sofa_pillow", "no"),
    },
    "load_dishwasher": {
        "counterfactual": Fault("counterfactual", "running", "yes"),
        "unreachable": Fault("unreachable", "running", "no"),
        "lackbranch": Fault("lackbranch", "clean_bowl", "yes"),
    },
    "slice_lemon": {
        "counterfactual": Fault("counterfactual", "knife", "drawer"),
        "unreachable": Fault("unreachable", "knife", "drawer"),
        "lackbranch": Fault("lackbranch", "knife", "table"),
    },
    "study_night": {
        "counterfactual": Fault("counterfactual", "window", "no"),
        "unreachable": Fault("unreachable", "window", "yes"),
        "lackbranch": Fault("lackbranch", "book", "drawer"),
    },
    "tidy_bed": {
        "counterfactual": Fault("counterfactual", "clock", "yes"),
        "unreachable": Fault("unreachable", "book_kind", "essay"),
        "lackbranch": Fault("lackbranch", "book_kind", "other"),
    },
    "tidy_garage": {
        "counterfactual": Fault("counterfactual", "shoes", "yes"),
        "unreachable": Fault("unreachable", "box_open", "yes"),
        "lackbranch": Fault("lackbranch", "shoes", "no"),
    },
    "upper_cabinet": {
        "counterfactual": Fault("counterfactual", "plate", "yes"),
        "unreachable": Fault("unreachable", "plate", "yes"),
        "lackbranch": Fault("lackbranch", "sink_cabinet", "yes"),
    },
    "wash_mug": {
        "counterfactual": Fault("counterfactual", "mug_dirty", "yes"),
        "unreachable": Fault("unreachable", "mug", "yes"),
        "lackbranch": Fault("lackbranch", "mug", "no"),
    },
    "wet_shirt": {
        "counterfactual": Fault("counterfactual", "shirt_wet", "yes"),
        "unreachable": Fault("unreachable", "shirt_wet", "no"),
        "lackbranch": Fault("lackbranch", "shirt", "no"),
    },
}


def declared_fault(task: str, policy: str) -> str | None:
    """The fault class the test of ``policy`` declares (``None`` for the correct one)."""
    fault = EXAMPLE_FAULTS[task].get(policy)
    return fault.declared if fault else None


def expected_outcome(task: str, policy: str, conditions: Mapping[str, str]) -> str:
    """The outcome kind ``policy`` must have in a situation: its fault where that shows,
    else ``pass``."""
    fault = EXAMPLE_FAULTS[task].get(policy)
    return fault.declared if fault and fault.revealed_by(conditions) else "pass"


def policy_params(
    task: str, factories: Mapping[str, Any], xml_twin: Callable[[str], Any] | None = None
) -> list[Any]:
    """``(policy, expect_fault)`` parameters for one test over a task's policies: each py_trees
    factory (test id its name) and, when the module has them, its BehaviorTree.CPP twin
    (``counterfactual_xml``)."""
    params = [
        pytest.param(factory, declared_fault(task, name), id=name)
        for name, factory in factories.items()
    ]
    if xml_twin is not None:
        params += [
            pytest.param(xml_twin(name), declared_fault(task, name), id=f"{name}_xml")
            for name in factories
        ]
    return params
