"""Model answers for the breakfast task (``example_agents/tasks/breakfast.json``): each step's
correct answer, and plans that are well-formed JSON but logically wrong."""

from __future__ import annotations

import copy
import json
from typing import Any

from helpers import TASKS

from pytest_logicenv.llm.planner import factors_answer

BREAKFAST = json.loads((TASKS / "breakfast.json").read_text(encoding="utf-8"))
TASK = BREAKFAST["description"]
TYPES = frozenset(
    {"DiningTable", "Fridge", "Mug", "CoffeeMachine", "Toaster", "Plate", "CounterTop"}
    | {"Bowl", "Milk", "Bread", "Apple"}
)

DECOMPOSITION = {
    "subtasks": [
        {"name": "drink", "covers": "milk from the fridge into the mug, else coffee"},
        {"name": "food", "covers": "toast the bread on the counter, else an apple on the plate"},
    ]
}
# A correct step-3 answer, as a model would write it (no task text: the planner fills it in).
GOOD_PLAN: dict[str, Any] = {
    "format": "logicenv-plan/1",
    "setting": [
        {"exists": "DiningTable", "as": "table"},
        {"exists": "Fridge", "as": "fridge", "states": {"open": False}},
        {"exists": "Mug", "as": "mug"},
        {"exists": "CoffeeMachine", "as": "coffee_machine"},
        {"exists": "CounterTop", "as": "counter"},
        {"exists": "Toaster", "as": "toaster"},
        {"exists": "Plate", "as": "plate", "where": {"on": "table"}},
        {"exists": "Bowl", "as": "fruit_bowl"},
    ],
    "subtasks": [
        {
            "name": "drink",
            "factors": [
                {
                    "id": "milk",
                    "question": "Is there milk in the fridge?",
                    "domain": ["yes", "no"],
                    "answers": {"yes": "YES", "no": "NO"},
                    "realization": {
                        "yes": [{"exists": "Milk", "as": "milk", "where": {"in": "fridge"}}],
                        "no": [{"absent": "Milk"}],
                    },
                }
            ],
            "tree": {
                "query": "milk",
                "branches": {
                    "yes": {
                        "action": "Open the fridge, take the milk, pour it into the mug.",
                        "goal": [{"state": "mug", "filled": True}],
                    },
                    "no": {
                        "action": "Put the mug in the coffee machine and turn it on.",
                        "goal": [
                            {"in": ["mug", "coffee_machine"]},
                            {"state": "coffee_machine", "toggled": True},
                        ],
                    },
                },
            },
        },
        {
            "name": "food",
            "factors": [
                {
                    "id": "bread",
                    "question": "Is there bread on the counter?",
                    "domain": ["yes", "no"],
                    "realization": {
                        "yes": [{"exists": "Bread", "as": "bread", "where": {"on": "counter"}}],
                        "no": [{"absent": "Bread"}],
                    },
                },
                {
                    "id": "apple",
                    "question": "Where is the apple?",
                    "domain": ["fridge", "bowl"],
                    "answers": {"fridge": "in the fridge", "bowl": "in the fruit bowl"},
                    "realization": {
                        "fridge": [{"exists": "Apple", "as": "apple", "where": {"in": "fridge"}}],
                        "bowl": [{"exists": "Apple", "as": "apple", "where": {"in": "fruit_bowl"}}],
                    },
                },
            ],
            "tree": {
                "query": "bread",
                "branches": {
                    "yes": {
                        "action": "Put the bread in the toaster and turn the toaster on.",
                        "goal": [
                            {"in": ["bread", "toaster"]},
                            {"state": "toaster", "toggled": True},
                        ],
                    },
                    "no": {
                        "query": "apple",
                        "branches": {
                            "fridge": {
                                "action": "Take the apple from the fridge, put it on the plate.",
                                "goal": [{"on": ["apple", "plate"]}],
                            },
                            "bowl": {
                                "action": "Take the apple from the bowl, put it on the plate.",
                                "goal": [{"on": ["apple", "plate"]}],
                            },
                        },
                    },
                },
            },
        },
    ],
}


def shared_factor_plan() -> dict[str, Any]:
    """Logically wrong: the food subtask also asks the drink subtask's milk question."""
    plan = copy.deepcopy(GOOD_PLAN)
    food = plan["subtasks"][1]
    food["factors"].append(copy.deepcopy(plan["subtasks"][0]["factors"][0]))
    food["tree"]["branches"]["yes"] = {
        "query": "milk",
        "branches": {
            "yes": {"action": "Toast the bread.", "goal": [{"in": ["bread", "toaster"]}]},
            "no": {"action": "Toast the bread.", "goal": [{"in": ["bread", "toaster"]}]},
        },
    }
    return plan


def missing_branch_plan() -> dict[str, Any]:
    """Logically wrong: the apple query has no branch for the fruit bowl."""
    plan = copy.deepcopy(GOOD_PLAN)
    del plan["subtasks"][1]["tree"]["branches"]["no"]["branches"]["bowl"]
    return plan


# The step-2 answer that goes with it.
FACTORS = factors_answer(GOOD_PLAN)


def two_room_plan() -> dict[str, Any]:
    """The breakfast plan in a kitchen and a dining room, every object's room stated: the
    table in the dining room, the rest in the kitchen (or on or in something there)."""
    plan = copy.deepcopy(GOOD_PLAN)
    for fact in plan["setting"]:
        if "where" not in fact:
            room = "DiningRoom" if fact["as"] == "table" else "Kitchen"
            fact["where"] = {"room": room}
    return plan


TWO_ROOM_PLAN = two_room_plan()
