"""The paper's Clean Living Room (its Table 6 and Figures 6-9), as runnable policies and scenes.

The task: put a toy on the floor in its box (red for dolls, white for other toys), put a book on
the floor on the sofa, and clean the mark on the floor with the wet wipes on the table or, if
there are none, with the mop. Its plan has three independent subtasks and 3 x 2 x 2 = 12
situations; :func:`situations` builds a scene and the goal facts for each.

The policies, each a py_trees factory with a BehaviorTree.CPP twin in
``clean_living_room.xml`` (:func:`xml_policy`):

``correct``
    checks every condition and has a branch for each answer (Figure 6);
``counterfactual``
    puts a non-doll toy in the white box without picking it up (Figure 7);
``unreachable``
    picks up a doll and never puts it in the red box (Figure 8);
``lackbranch``
    always cleans with the wet wipes, with no plan for when there are none (Figure 9).

The subtasks run in the order book, stain, toy. With one hand, the Figure 8 agent still holding
the doll would break the next pick-up's precondition if the toy came first; last, it leaves
the goal unmet, which is the fault Figure 8 shows.

>>> from pytest_logicenv.runner import run_policy
>>> [run_policy(correct_policy, s.scene, goal=s.goal).kind for s in situations()][:3]
['pass', 'pass', 'pass']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import py_trees

from ..btxml import XmlPolicy, load_bt_xml
from ..facts import Fact, parse_fact
from ..leaves import (
    Clean,
    Drop,
    Exists,
    GoTo,
    HasAttr,
    PickUp,
    PutIn,
    PutOn,
)
from ..scene import AgentStart, Provenance, Room, Scene, SceneObject

XML_PATH = Path(__file__).with_name("clean_living_room.xml")
ROOM = "living_room"
#: The plan's questions, as the situation lines of explanations show them.
TOY_Q = "There is a toy on the floor?"
TOY_TYPE_Q = "What is the type of the toy on the floor?"
BOOK_Q = "There is a book on the floor?"
WIPES_Q = "There is a wet wipe on the table?"

Behaviour = py_trees.behaviour.Behaviour


# --------------------------------------------------------------------------- scenes


def _obj(
    id: str,
    type: str,
    size: tuple[float, float, float],
    at: tuple[float, float],
    properties: tuple[str, ...],
    **fields: object,
) -> SceneObject:
    x, z = at
    return SceneObject(
        id, type, room=ROOM, size=size, position=(x, size[1] / 2, z),
        properties=properties, **fields,  # type: ignore[arg-type]
    )  # fmt: skip


# Things a living room holds besides the task's objects, to make scenes realistically full.
_CLUTTER: tuple[tuple[str, tuple[float, float, float], tuple[str, ...], str | None], ...] = (
    ("FloorLamp", (0.4, 1.6, 0.4), ("toggleable",), None),
    ("Pillow", (0.4, 0.15, 0.4), ("pickupable",), "sofa_1"),
    ("HousePlant", (0.4, 0.8, 0.4), (), None),
    ("RemoteControl", (0.05, 0.03, 0.15), ("pickupable",), "table_1"),
    ("ArmChair", (0.9, 0.9, 0.9), ("receptacle",), None),
    ("Vase", (0.15, 0.3, 0.15), ("pickupable", "breakable"), None),
    ("Television", (1.2, 0.7, 0.2), ("toggleable",), None),
    ("GarbageCan", (0.3, 0.4, 0.3), ("receptacle",), None),
    ("Newspaper", (0.3, 0.02, 0.4), ("pickupable",), "table_1"),
    ("SideTable", (0.5, 0.6, 0.5), ("receptacle",), None),
    ("Statue", (0.15, 0.3, 0.15), ("pickupable",), None),
    ("Laptop", (0.35, 0.03, 0.25), ("pickupable", "openable", "toggleable"), None),
)


def living_room_scene(toy: str | None, book: bool, wipes: bool, *, clutter: int = 0) -> Scene:
    """The living room of one situation: ``toy`` is ``"doll"``, ``"other"`` or ``None`` (no
    toy on the floor); ``clutter`` adds that many objects that play no part in the task."""
    objects = [
        _obj("sofa_1", "Sofa", (2.0, 0.9, 0.9), (1.5, 4.4), ("receptacle",), role="sofa"),
        _obj("table_1", "CoffeeTable", (1.2, 0.45, 0.6), (1.5, 3.0), ("receptacle",),
             role="table"),
        _obj("mop_1", "Mop", (0.3, 1.2, 0.3), (2.4, 3.0), ("pickupable", "cleaning_tool"),
             role="mop", custom_type=True),
        _obj("red_box_1", "ToyBox", (0.6, 0.4, 0.4), (4.5, 0.5), ("receptacle",),
             role="red_box", attrs={"colour": "red"}, custom_type=True),
        _obj("white_box_1", "ToyBox", (0.6, 0.4, 0.4), (5.3, 0.5), ("receptacle",),
             role="white_box", attrs={"colour": "white"}, custom_type=True),
        _obj("stain_1", "Stain", (0.5, 0.01, 0.5), (3.0, 2.0), ("dirtyable",), role="stain",
             states={"dirty": True}, custom_type=True),
    ]  # fmt: skip
    if toy is not None:
        objects.append(
            _obj("toy_1", "Toy", (0.25, 0.3, 0.15), (2.0, 1.0), ("pickupable",), role="toy",
                 attrs={"kind": toy}, custom_type=True)
        )  # fmt: skip
    if book:
        objects.append(
            _obj("book_1", "Book", (0.2, 0.05, 0.3), (4.0, 2.5), ("pickupable", "openable"),
                 role="book")
        )  # fmt: skip
    if wipes:
        objects.append(
            _obj("wet_wipes_1", "WetWipes", (0.2, 0.05, 0.1), (1.2, 3.0),
                 ("pickupable", "cleaning_tool"), role="wet_wipes", parent="table_1",
                 custom_type=True)
        )  # fmt: skip
    for index in range(clutter):
        type_, size, properties, parent = _CLUTTER[index % len(_CLUTTER)]
        spot = (0.3 + 0.5 * (index % 11), 0.3 + 0.4 * (index // 11))
        objects.append(
            _obj(f"{type_.lower()}_{index}", type_, size, spot, properties, parent=parent)
        )
    toy_text = "no" if toy is None else toy
    return Scene(
        f"clean_living_room-toy={toy_text}-book={'yes' if book else 'no'}"
        f"-wipes={'yes' if wipes else 'no'}",
        rooms=(Room(ROOM, "LivingRoom", ((0, 0), (6, 0), (6, 5), (0, 5))),),
        objects=tuple(objects),
        agent=AgentStart(ROOM, (0.5, 0.5)),
        provenance=Provenance(designer="hand-built example"),
    )


@dataclass(frozen=True)
class Situation:
    """One situation of the task: its conditions in words, its scene and its goal facts."""

    conditions: tuple[tuple[str, str], ...]
    scene: Scene
    goal: tuple[Fact, ...]

    @property
    def id(self) -> str:
        return self.scene.id.removeprefix("clean_living_room-")


def situations(*, clutter: int = 0) -> tuple[Situation, ...]:
    """All 12 situations (every combination of the three subtasks' paths)."""
    result = []
    for toy in ("doll", "other", None):
        for book in (True, False):
            for wipes in (True, False):
                conditions = [(TOY_Q, "NO" if toy is None else "YES")]
                goal: list[Mapping[str, object]] = [{"state": "stain", "dirty": False}]
                if toy is not None:
                    conditions.append((TOY_TYPE_Q, "doll" if toy == "doll" else "other types"))
                    box = "red_box" if toy == "doll" else "white_box"
                    goal.append({"in": ["toy", box]})
                conditions += [
                    (BOOK_Q, "YES" if book else "NO"),
                    (WIPES_Q, "YES" if wipes else "NO"),
                ]
                if book:
                    goal.append({"on": ["book", "sofa"]})
                scene = living_room_scene(toy, book, wipes, clutter=clutter)
                result.append(
                    Situation(tuple(conditions), scene, tuple(parse_fact(g) for g in goal))
                )
    return tuple(result)


# --------------------------------------------------------------------------- policies


def _sequence(name: str, *children: Behaviour) -> Behaviour:
    """BT.CPP's ``Sequence``: with memory."""
    return py_trees.composites.Sequence(name, memory=True, children=list(children))


def _fallback(name: str, *children: Behaviour) -> Behaviour:
    """BT.CPP's ``Fallback``: with memory."""
    return py_trees.composites.Selector(name, memory=True, children=list(children))


def _unless(name: str, condition: Behaviour, then: Behaviour) -> Behaviour:
    """Nothing to do unless ``condition`` holds, else ``then``."""
    return _fallback(name, py_trees.decorators.Inverter(f"not {condition.name}", condition), then)


def _carry(
    item: str, place: str, *, into: bool, pick_up: bool = True, put: bool = True
) -> Behaviour:
    fetch = [GoTo(item), PickUp(item)] if pick_up else [GoTo(item)]
    put_down = [PutIn(item, place) if into else PutOn(item, place)] if put else []
    return _sequence("CarryInto" if into else "CarryOnto", *fetch, GoTo(place), *put_down)


def _place_book() -> Behaviour:
    return _unless("PlaceBook", Exists("book", on="Floor"), _carry("book", "sofa", into=False))


def _with_wipes() -> Behaviour:
    return _sequence(
        "WithWipes",
        GoTo("wet_wipes"),
        PickUp("wet_wipes"),
        GoTo("stain"),
        Clean("stain", "wet_wipes"),
        GoTo("table"),
        PutOn("wet_wipes", "table"),
    )


def _clean_stain() -> Behaviour:
    with_mop = _sequence(
        "WithMop", GoTo("mop"), PickUp("mop"), GoTo("stain"), Clean("stain", "mop"), Drop("mop")
    )
    wipes_there = _sequence("WipesOnTable", Exists("wet_wipes", on="table"), _with_wipes())
    return _fallback("CleanStain", wipes_there, with_mop)


def _place_toy(*, pick_up_other: bool = True, put_doll: bool = True) -> Behaviour:
    doll = _sequence(
        "Doll", HasAttr("toy", kind="doll"), _carry("toy", "red_box", into=True, put=put_doll)
    )
    other = _carry("toy", "white_box", into=True, pick_up=pick_up_other)
    return _unless("PlaceToy", Exists("toy", on="Floor"), _fallback("ByKind", doll, other))


def correct_policy() -> Behaviour:
    """Figure 6: a branch for every situation."""
    return _sequence("CleanLivingRoom", _place_book(), _clean_stain(), _place_toy())


def counterfactual_policy() -> Behaviour:
    """Figure 7: puts a non-doll toy in the white box without picking it up."""
    return _sequence(
        "CleanLivingRoom", _place_book(), _clean_stain(), _place_toy(pick_up_other=False)
    )


def unreachable_policy() -> Behaviour:
    """Figure 8: picks up the doll but never puts it in the red box."""
    return _sequence("CleanLivingRoom", _place_book(), _clean_stain(), _place_toy(put_doll=False))


def lackbranch_policy() -> Behaviour:
    """Figure 9: always cleans with the wet wipes; no plan for when there are none."""
    return _sequence("CleanLivingRoom", _place_book(), _with_wipes(), _place_toy())


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
