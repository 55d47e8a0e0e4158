"""The paper's Living Room Pillow and Toy (its Appendix E case 3) as behavior-tree policies.

The task (``tasks/living_room_pillow_toy.json``, plan ``plans/living_room_pillow_toy.json``):
a sofa pillow on the floor goes on the sofa; a toy on the floor goes in its box (the blue one
for dolls, the white one for other toys); the stain on the floor is cleaned with the wet
wipes on the tea table or, if there are none, with the mop. Objects are named by the plan's
roles (``pillow``, ``toy``, ``blue_box``, ``wet_wipes``, ``mop``, ...).

The policies are py_trees factories (no XML twins). The situations that reveal each fault, by
the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 12;
``counterfactual``
    cleans the stain with the wet wipes without picking them up: ``wipes=yes``;
``unreachable``
    mixes up the toy boxes, dolls in the white one and other toys in the blue one:
    ``toy=yes`` (either kind);
``lackbranch``
    takes the pillow from the floor without looking whether there is one, no plan for when
    there is none: ``sofa_pillow=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import carry, fallback, sequence, when
from pytest_logicenv.sim.leaves import Clean, Drop, Exists, GoTo, HasAttr, PickUp, PutOn

Behaviour = py_trees.behaviour.Behaviour


def _place_pillow(*, look: bool = True) -> Behaviour:
    to_sofa = carry("pillow", "sofa")
    return when("PlacePillow", Exists("pillow", on="Floor"), to_sofa) if look else to_sofa


def _place_toy(*, dolls: str = "blue_box", others: str = "white_box") -> Behaviour:
    doll = sequence("Doll", HasAttr("toy", kind="doll"), carry("toy", dolls, into=True))
    by_kind = fallback("ByKind", doll, carry("toy", others, into=True))
    return when("PlaceToy", Exists("toy", on="Floor"), by_kind)


def _with_wipes(*, pick_up: bool = True) -> Behaviour:
    fetch = [GoTo("wet_wipes"), PickUp("wet_wipes")] if pick_up else [GoTo("wet_wipes")]
    put_back = [GoTo("tea_table"), PutOn("wet_wipes", "tea_table")] if pick_up else []
    return sequence("WithWipes", *fetch, GoTo("stain"), Clean("stain", "wet_wipes"), *put_back)


def _clean_stain(*, pick_up_wipes: bool = True) -> Behaviour:
    with_wipes = _with_wipes(pick_up=pick_up_wipes)
    wipes = sequence("WipesOnTable", Exists("wet_wipes", on="tea_table"), with_wipes)
    mop = sequence(
        "WithMop", GoTo("mop"), PickUp("mop"), GoTo("stain"), Clean("stain", "mop"), Drop("mop")
    )
    return fallback("CleanStain", wipes, mop)


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("PillowAndToy", _place_pillow(), _place_toy(), _clean_stain())


def counterfactual_policy() -> Behaviour:
    """Cleans the stain with the wet wipes without picking them up."""
    return sequence(
        "PillowAndToy", _place_pillow(), _place_toy(), _clean_stain(pick_up_wipes=False)
    )


def unreachable_policy() -> Behaviour:
    """Dolls go in the white box, other toys in the blue one."""
    mixed_up = _place_toy(dolls="white_box", others="blue_box")
    return sequence("PillowAndToy", _place_pillow(), mixed_up, _clean_stain())


def lackbranch_policy() -> Behaviour:
    """Always takes the pillow from the floor; no plan for when there is none."""
    return sequence("PillowAndToy", _place_pillow(look=False), _place_toy(), _clean_stain())


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
