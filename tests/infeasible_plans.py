"""Plans whose goals no action reaches (issue 21's "Why", as a capable model wrote them),
each beside the plan a model that follows the feedback answers with.

Each is a step-3 plan document (``logicenv-plan/1``) with one subtask and one yes/no factor;
the task text and rooms are :data:`TASKS`'. Hand-written here: none is model output.
"""

from __future__ import annotations

import copy
from typing import Any

Doc = dict[str, Any]


def _plan(
    setting: list[Doc], question: str, yes: list[Doc], no: list[Doc], goals: tuple[Doc, Doc]
) -> Doc:
    return {
        "format": "logicenv-plan/1",
        "setting": setting,
        "subtasks": [
            {
                "name": "chore",
                "factors": [
                    {
                        "id": "case",
                        "question": question,
                        "domain": ["yes", "no"],
                        "answers": {"yes": "YES", "no": "NO"},
                        "realization": {"yes": yes, "no": no},
                    }
                ],
                "tree": {
                    "query": "case",
                    "branches": {
                        "yes": {"action": "Do it.", "goal": [goals[0]]},
                        "no": {"action": "Do it too.", "goal": [goals[1]]},
                    },
                },
            }
        ],
    }


def _blanket(basket: str) -> Doc:
    return _plan(
        [{"exists": "Bed", "as": "bed"}, {"exists": basket, "as": "basket"}],
        "Is the blanket on the bed?",
        [{"exists": "Blanket", "as": "blanket", "where": {"on": "bed"}}],
        [{"exists": "Blanket", "as": "blanket", "where": {"on": "Floor"}}],
        ({"in": ["blanket", "basket"]}, {"in": ["blanket", "basket"]}),
    )


def _alarm(goal: Doc) -> Doc:
    return _plan(
        [{"exists": "SideTable", "as": "table"}],
        "Is the alarm clock on the side table?",
        [{"exists": "AlarmClock", "as": "alarm_clock", "where": {"on": "table"}}],
        [{"exists": "AlarmClock", "as": "alarm_clock", "where": {"on": "Floor"}}],
        (goal, goal),
    )


def _cat_food(source: Doc) -> Doc:
    return _plan(
        [{"exists": "SideTable", "as": "table"}, source],
        "Is the cat's bowl on the floor?",
        [{"exists": "Bowl", "as": "bowl", "where": {"on": "Floor"}}],
        [{"exists": "Bowl", "as": "bowl", "where": {"on": "table"}}],
        ({"state": "bowl", "filled": True}, {"state": "bowl", "filled": True}),
    )


def _dryer(full: list[Doc], empty: list[Doc]) -> Doc:
    return _plan(
        [
            {"exists": "ClothesDryer", "as": "dryer", "states": {"open": True}},
            {"exists": "LaundryHamper", "as": "hamper", "states": {"open": True}},
            {"exists": "Cloth", "as": "clothes", "where": {"on": "Floor"}},
        ],
        "Is the dryer full?",
        full,
        empty,
        ({"in": ["clothes", "hamper"]}, {"in": ["clothes", "dryer"]}),
    )


BLANKET = _blanket("Basket")
BLANKET_FIXED = _blanket("LaundryBasket")
ALARM = _alarm({"attr": "alarm_clock", "alarm": "off"})
ALARM_FIXED = _alarm({"held": "alarm_clock"})
CAT_FOOD = _cat_food({"exists": "FoodContainer", "as": "food_container", "where": {"on": "table"}})
CAT_FOOD_FIXED = _cat_food(
    {
        "exists": "Kettle",
        "as": "food_container",
        "where": {"on": "table"},
        "states": {"filled": True},
    }
)
DRYER = _dryer([{"attr": "dryer", "load": "full"}], [{"attr": "dryer", "load": "empty"}])
DRYER_FIXED = _dryer(
    [{"exists": "Towel", "as": "towel", "where": {"in": "dryer"}}],
    [{"absent": "Towel", "where": {"in": "dryer"}}],
)

#: Task text and rooms of each plan above, by name.
TASKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "blanket": ("In the bedroom, put the blanket in the basket.", ("Bedroom",)),
    "alarm": ("In the bedroom, turn the alarm clock off.", ("Bedroom",)),
    "cat_food": ("In the living room, fill the cat's bowl with cat food.", ("LivingRoom",)),
    "dryer": (
        "In the laundry room, put the clothes in the dryer, or in the hamper if it is full.",
        ("LaundryRoom",),
    ),
}
#: Each failing plan, its fixed twin, and a phrase of the message that must name the blocker.
CASES: dict[str, tuple[Doc, Doc, str]] = {
    "blanket": (BLANKET, BLANKET_FIXED, "types that take a 0.90 x 0.60 m Blanket in them"),
    "alarm": (ALARM, ALARM_FIXED, "attributes never change; an AlarmClock is not toggleable"),
    "cat_food": (CAT_FOOD, CAT_FOOD_FIXED, "food_container (a FoodContainer) cannot be filled"),
    "dryer": (DRYER, DRYER_FIXED, "labelled full still takes what is put in it"),
}


def document(name: str, plan: Doc) -> Doc:
    """``plan`` as a whole plan document, with its task and rooms."""
    task, rooms = TASKS[name]
    return {**copy.deepcopy(plan), "task": task, "rooms": list(rooms)}


def _on_stove(kind: str, role: str, task: str) -> Doc:
    """A plan of the issue's two layout failures: ``role`` (a ``kind``) on the stove, or on
    the counter to be moved there. Its facts can all hold: a scene must be built."""
    plan = _plan(
        [{"exists": "Stove", "as": "stove"}, {"exists": "CounterTop", "as": "counter"}],
        f"Is the {role} on the stove already?",
        [{"exists": kind, "as": role, "where": {"on": "stove"}}],
        [{"exists": kind, "as": role, "where": {"on": "counter"}}],
        ({"on": [role, "stove"]}, {"on": [role, "stove"]}),
    )
    return {**plan, "task": task, "rooms": ["Kitchen"]}


#: The two plans whose every scene broke Table 1 through the stove's burners (issue 21).
POT_ON_STOVE = _on_stove("Pot", "pot", "In the kitchen, put the pot on the stove.")
CHICKEN_ON_STOVE = _on_stove(
    "FoodContainer", "chicken", "In the kitchen, keep the chicken warm on the stove."
)
