"""The paper's Clean Living Room (its Table 6 and Figures 6-9) as behavior-tree policies.

The task (``tasks/clean_living_room.json``, plan ``plans/clean_living_room.json``): put a toy
on the floor in its box (red for dolls, white for other toys), put a book on the floor on the
sofa, and clean the mark on the floor with the wet wipes on the table or, if there are none,
with the mop. Objects are named by the plan's roles (``toy``, ``red_box``, ``wet_wipes``, ...).

Each policy is a py_trees factory with a BehaviorTree.CPP v4 twin in
``clean_living_room.xml`` (:func:`xml_policy`); both give identical traces:

``correct``
    checks every condition and has a branch for each answer (Figure 6);
``counterfactual``
    puts a non-doll toy in the white box without picking it up (Figure 7);
``unreachable``
    picks up a doll and never puts it in the red box (Figure 8);
``lackbranch``
    always cleans with the wet wipes, with no plan for when there are none (Figure 9).

The subtasks run in the order book, stain, toy. With one hand, the Figure 8 agent still holding
the doll would break the next pick-up's precondition if the toy came first; last, it leaves the
goal unmet, which is the fault Figure 8 shows.

Run one in a scene with ``logicenv run example_agents/clean_living_room.xml --scene S.json``
or ``logicenv run example_agents/clean_living_room.py:correct_policy --scene S.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import py_trees

from pytest_logicenv import XmlPolicy, load_bt_xml
from pytest_logicenv.sim.controls import fallback, sequence, when
from pytest_logicenv.sim.leaves import Clean, Drop, Exists, GoTo, HasAttr, PickUp, PutIn, PutOn

XML_PATH = Path(__file__).with_name("clean_living_room.xml")

Behaviour = py_trees.behaviour.Behaviour


def _carry(
    item: str, place: str, *, into: bool, pick_up: bool = True, put: bool = True
) -> Behaviour:
    fetch = [GoTo(item), PickUp(item)] if pick_up else [GoTo(item)]
    put_down = [PutIn(item, place) if into else PutOn(item, place)] if put else []
    return sequence("CarryInto" if into else "CarryOnto", *fetch, GoTo(place), *put_down)


def _place_book() -> Behaviour:
    return when("PlaceBook", Exists("book", on="Floor"), _carry("book", "sofa", into=False))


def _with_wipes() -> Behaviour:
    return sequence(
        "WithWipes",
        GoTo("wet_wipes"),
        PickUp("wet_wipes"),
        GoTo("stain"),
        Clean("stain", "wet_wipes"),
        GoTo("table"),
        PutOn("wet_wipes", "table"),
    )


def _clean_stain() -> Behaviour:
    with_mop = sequence(
        "WithMop", GoTo("mop"), PickUp("mop"), GoTo("stain"), Clean("stain", "mop"), Drop("mop")
    )
    wipes_there = sequence("WipesOnTable", Exists("wet_wipes", on="table"), _with_wipes())
    return fallback("CleanStain", wipes_there, with_mop)


def _place_toy(*, pick_up_other: bool = True, put_doll: bool = True) -> Behaviour:
    doll = sequence(
        "Doll", HasAttr("toy", kind="doll"), _carry("toy", "red_box", into=True, put=put_doll)
    )
    other = _carry("toy", "white_box", into=True, pick_up=pick_up_other)
    return when("PlaceToy", Exists("toy", on="Floor"), fallback("ByKind", doll, other))


def correct_policy() -> Behaviour:
    """Figure 6: a branch for every situation."""
    return sequence("CleanLivingRoom", _place_book(), _clean_stain(), _place_toy())


def counterfactual_policy() -> Behaviour:
    """Figure 7: puts a non-doll toy in the white box without picking it up."""
    return sequence(
        "CleanLivingRoom", _place_book(), _clean_stain(), _place_toy(pick_up_other=False)
    )


def unreachable_policy() -> Behaviour:
    """Figure 8: picks up the doll but never puts it in the red box."""
    return sequence("CleanLivingRoom", _place_book(), _clean_stain(), _place_toy(put_doll=False))


def lackbranch_policy() -> Behaviour:
    """Figure 9: always cleans with the wet wipes; no plan for when there are none."""
    return sequence("CleanLivingRoom", _place_book(), _with_wipes(), _place_toy())


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
#: The BehaviorTree IDs of their twins in ``clean_living_room.xml``.
XML_TREES: Mapping[str, str] = {
    "correct": "CleanLivingRoom",
    "counterfactual": "CleanLivingRoomCounterfactual",
    "unreachable": "CleanLivingRoomUnreachable",
    "lackbranch": "CleanLivingRoomLackbranch",
}


def xml_policy(kind: str) -> XmlPolicy:
    """The BehaviorTree.CPP twin of ``POLICIES[kind]``."""
    return load_bt_xml(XML_PATH, tree=XML_TREES[kind])
