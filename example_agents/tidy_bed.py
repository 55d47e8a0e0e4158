"""The paper's Tidy Bed (its Appendix E case 2) as behavior-tree policies.

The task (``tasks/tidy_bed.json``, plan ``plans/tidy_bed.json``): a book on the bed goes on
the bookshelf level for its kind (``top_shelf`` for novels, ``middle_shelf`` for essays,
``bottom_shelf`` for other books), a clock on the bed goes on the desk. Objects are named by
the plan's roles (``book``, ``clock``, ``desk``, ...).

Each policy is a py_trees factory with a BehaviorTree.CPP v4 twin in ``tidy_bed.xml``
(:func:`xml_policy`); both give identical traces. The situations that reveal each fault, by
the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 8;
``counterfactual``
    puts the clock on the desk without picking it up: ``clock=yes``;
``unreachable``
    shelves essays with the novels, on the top level: ``book=yes``, ``book_kind=essay``;
``lackbranch``
    has a shelf for novels and essays only, no plan for other books (the tree returns
    FAILURE): ``book=yes``, ``book_kind=other``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import py_trees

from pytest_logicenv import XmlPolicy, load_bt_xml
from pytest_logicenv.sim.controls import carry, fallback, sequence, when
from pytest_logicenv.sim.leaves import Exists, GoTo, HasAttr, PutOn

XML_PATH = Path(__file__).with_name("tidy_bed.xml")

Behaviour = py_trees.behaviour.Behaviour


def _shelve(kind: str, shelf: str) -> Behaviour:
    return sequence(f"{kind.capitalize()}s", HasAttr("book", kind=kind), carry("book", shelf))


def _shelve_book(*, essays_on: str = "middle_shelf", others: bool = True) -> Behaviour:
    by_kind = [_shelve("novel", "top_shelf"), _shelve("essay", essays_on)]
    if others:
        by_kind.append(carry("book", "bottom_shelf"))
    return when("ShelveBook", Exists("book", on="bed"), fallback("ByKind", *by_kind))


def _clock_to_desk(*, pick_up: bool = True) -> Behaviour:
    if pick_up:
        carried = carry("clock", "desk")
    else:
        carried = sequence("CarryOnto", GoTo("clock"), GoTo("desk"), PutOn("clock", "desk"))
    return when("ClockToDesk", Exists("clock", on="bed"), carried)


def correct_policy() -> Behaviour:
    """A shelf level for every kind of book, and the clock on the desk."""
    return sequence("TidyBed", _shelve_book(), _clock_to_desk())


def counterfactual_policy() -> Behaviour:
    """Puts the clock on the desk without picking it up."""
    return sequence("TidyBed", _shelve_book(), _clock_to_desk(pick_up=False))


def unreachable_policy() -> Behaviour:
    """Shelves essays on the top level, with the novels."""
    return sequence("TidyBed", _shelve_book(essays_on="top_shelf"), _clock_to_desk())


def lackbranch_policy() -> Behaviour:
    """No shelf for books that are neither novels nor essays."""
    return sequence("TidyBed", _shelve_book(others=False), _clock_to_desk())


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
#: The BehaviorTree IDs of their twins in ``tidy_bed.xml``.
XML_TREES: Mapping[str, str] = {
    "correct": "TidyBed",
    "counterfactual": "TidyBedCounterfactual",
    "unreachable": "TidyBedUnreachable",
    "lackbranch": "TidyBedLackbranch",
}


def xml_policy(kind: str) -> XmlPolicy:
    """The BehaviorTree.CPP twin of ``POLICIES[kind]``."""
    return load_bt_xml(XML_PATH, tree=XML_TREES[kind])
