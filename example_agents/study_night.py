"""Study Night as behavior-tree policies: two rooms with a window, a desk and a desk lamp
each, told apart by selectors.

The task (``tasks/study_night.json``, plan ``plans/study_night.json``): the agent starts in
the bedroom, next to the study. The study's window is closed if it is open (the bedroom's
stays open), the study's desk lamp switched off if it is on, and the book brought from the
study (on its desk, or in its desk's closed drawer, which is closed again) to the bedroom's
desk.

``GoTo("Window")`` would name two windows, ``Desk`` two desks: a call that names several
objects without saying which is an error, not a guess. So the policies name the furniture as
a person would, with selectors: ``Close("Window", room="Study")``, ``Open("Drawer",
part_of="Desk", room="Study")``, ``PutOn("book", Select("Desk", room="Bedroom"))``, and the
conditions with facts of the same qualifiers. Only the book is named by the plan's role.

Each policy is a py_trees factory with a BehaviorTree.CPP v4 twin in ``study_night.xml``
(:func:`xml_policy`), whose selectors are ports (``room="Study"``); both give identical
traces. The situations that reveal each fault, by the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 8;
``counterfactual``
    closes the study's window without looking whether it is open: ``window=no``;
``unreachable``
    looks at the study's window but closes the bedroom's (the room in its selector is the
    wrong one): ``window=yes``;
``lackbranch``
    looks for the book on the study's desk only, no plan for when it is in the drawer (the
    tree returns FAILURE): ``book=drawer``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import py_trees

from pytest_logicenv import XmlPolicy, load_bt_xml
from pytest_logicenv.sim.controls import fallback, sequence, when
from pytest_logicenv.sim.leaves import (
    Check,
    Close,
    GoTo,
    Open,
    PickUp,
    PutOn,
    Select,
    ToggleOff,
)

XML_PATH = Path(__file__).with_name("study_night.xml")

Behaviour = py_trees.behaviour.Behaviour

STUDY_WINDOW_OPEN = {"exists": "Window", "where": {"room": "Study"}, "states": {"open": True}}
STUDY_LAMP_ON = {"exists": "DeskLamp", "where": {"room": "Study"}, "states": {"toggled": True}}
BOOK_ON_STUDY_DESK = {"exists": "book", "where": {"on": "Desk", "room": "Study"}}
STUDY_DRAWER = Select("Drawer", part_of="Desk", room="Study")
BEDROOM_DESK = Select("Desk", room="Bedroom")


def _close_window(room: str) -> Behaviour:
    return sequence("Shut", GoTo("Window", room=room), Close("Window", room=room))


def _window(*, check: bool = True, room: str = "Study") -> Behaviour:
    if not check:
        return _close_window(room)
    return when("Window", Check(STUDY_WINDOW_OPEN), _close_window(room))


def _lamp() -> Behaviour:
    switch_off = sequence(
        "SwitchOff", GoTo("DeskLamp", room="Study"), ToggleOff("DeskLamp", room="Study")
    )
    return when("Lamp", Check(STUDY_LAMP_ON), switch_off)


def _book(*, drawer: bool = True) -> Behaviour:
    on_desk = sequence("OnDesk", Check(BOOK_ON_STUDY_DESK), GoTo("book"), PickUp("book"))
    in_drawer = sequence(
        "InDrawer",
        GoTo(STUDY_DRAWER),
        Open(STUDY_DRAWER),
        PickUp("book"),
        Close(STUDY_DRAWER),
    )
    take = fallback("TakeBook", on_desk, *([in_drawer] if drawer else []))
    return sequence("Book", take, GoTo(BEDROOM_DESK), PutOn("book", BEDROOM_DESK))


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("StudyNight", _window(), _lamp(), _book())


def counterfactual_policy() -> Behaviour:
    """Closes the study's window without looking whether it is open."""
    return sequence("StudyNight", _window(check=False), _lamp(), _book())


def unreachable_policy() -> Behaviour:
    """Closes the bedroom's window when the study's is open."""
    return sequence("StudyNight", _window(room="Bedroom"), _lamp(), _book())


def lackbranch_policy() -> Behaviour:
    """Looks for the book on the study's desk only."""
    return sequence("StudyNight", _window(), _lamp(), _book(drawer=False))


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
#: The BehaviorTree IDs of their twins in ``study_night.xml``.
XML_TREES: Mapping[str, str] = {
    "correct": "StudyNight",
    "counterfactual": "StudyNightCounterfactual",
    "unreachable": "StudyNightUnreachable",
    "lackbranch": "StudyNightLackbranch",
}


def xml_policy(kind: str) -> XmlPolicy:
    """The BehaviorTree.CPP twin of ``POLICIES[kind]``."""
    return load_bt_xml(XML_PATH, tree=XML_TREES[kind])
