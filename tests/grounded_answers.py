"""Model answers for tasks whose plans the world model must judge: a mirror only some types
can have dirty, a task across two rooms, and plans naming types, rooms and parts that do not
exist. Each is a function of its variation so tests can script the model's rounds."""

from __future__ import annotations

import copy
from typing import Any

from pytest_logicenv.llm.planner import factors_answer

MIRROR_TASK = (
    "In the bathroom there is a mirror and a cloth. If the mirror is dirty, wipe it with the "
    "cloth; otherwise leave it."
)
MIRROR_DECOMPOSITION = {"subtasks": [{"name": "mirror", "covers": "wipe the mirror if dirty"}]}


def mirror_plan(mirror_type: str = "Mirror") -> dict[str, Any]:
    """The mirror plan; with ``Painting`` it passes the plan rules but asks a dirty Painting."""
    return {
        "format": "logicenv-plan/1",
        "setting": [
            {"exists": mirror_type, "as": "mirror"},
            {"exists": "Cloth", "as": "cloth"},
        ],
        "subtasks": [
            {
                "name": "mirror",
                "factors": [
                    {
                        "id": "mirror_dirty",
                        "question": "Is the mirror dirty?",
                        "domain": ["yes", "no"],
                        "realization": {
                            "yes": [{"state": "mirror", "dirty": True}],
                            "no": [{"state": "mirror", "dirty": False}],
                        },
                    }
                ],
                "tree": {
                    "query": "mirror_dirty",
                    "branches": {
                        "yes": {
                            "action": "Wipe the mirror with the cloth.",
                            "goal": [{"state": "mirror", "dirty": False}],
                        },
                        "no": {
                            "action": "Leave it.",
                            "goal": [{"state": "mirror", "dirty": False}],
                        },
                    },
                },
            }
        ],
    }


MIRROR_FACTORS = factors_answer(mirror_plan())

STUDY_TASK = (
    "The house has a living room and a study. There may be a book on the desk in the study: "
    "if there is, bring it to the sofa in the living room."
)
STUDY_ROOMS = ["LivingRoom", "Study"]
STUDY_DECOMPOSITION = {"subtasks": [{"name": "book", "covers": "bring the book to the sofa"}]}


def study_plan(
    *, rooms: bool = True, setting: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The two-room plan: the sofa in the living room, the desk in the study (``rooms``:
    stated; else left to the designer, which the checks refuse), the book on the desk."""
    sofa: dict[str, Any] = {"exists": "Sofa", "as": "sofa"}
    desk: dict[str, Any] = {"exists": "Desk", "as": "desk"}
    if rooms:
        sofa["where"] = {"room": "LivingRoom"}
        desk["where"] = {"room": "Study"}
    return {
        "format": "logicenv-plan/1",
        "setting": setting if setting is not None else [sofa, desk],
        "subtasks": [
            {
                "name": "book",
                "factors": [
                    {
                        "id": "book_on_desk",
                        "question": "Is there a book on the desk?",
                        "domain": ["yes", "no"],
                        "realization": {
                            "yes": [{"exists": "Book", "as": "book", "where": {"on": "desk"}}],
                            "no": [{"absent": "Book"}],
                        },
                    }
                ],
                "tree": {
                    "query": "book_on_desk",
                    "branches": {
                        "yes": {
                            "action": "Bring the book to the sofa.",
                            "goal": [{"on": ["book", "sofa"]}],
                        },
                        "no": {"action": "Do nothing.", "goal": [{"absent": "Book"}]},
                    },
                },
            }
        ],
    }


STUDY_FACTORS = factors_answer(study_plan())


def with_setting(plan: dict[str, Any], *facts: dict[str, Any]) -> dict[str, Any]:
    """``plan`` with ``facts`` added to its setting."""
    changed = copy.deepcopy(plan)
    changed["setting"] += list(facts)
    return changed
