"""What the planner says to the model (paper 4.2): one system prompt, the same for every task
(the three steps, the plan and facts formats, the rules answers are checked against, the
worked example), and one message per step, the first grounding the task in the world model:
its rooms, and the types it names with what each can be and hold
(:mod:`~pytest_logicenv.llm.world_prompt`).

The worked example is the paper's Clean Living Room, formalized by hand
(``data/example_plan_clean_living_room.json``); the model sees its step-1 and step-3 answers.

>>> print(decomposition_prompt("Close the window.", ["Bedroom", "Study"]).splitlines()[1])
Rooms: Bedroom, Study
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from pytest_logicenv.llm.world_prompt import (
    catalog_listing,
    readings_text,
    relevant_types,
    type_notes,
)
from pytest_logicenv.logic.facts import STATES
from pytest_logicenv.logic.plan import PLAN_FORMAT, Plan, plan_from_json, plan_to_json

if TYPE_CHECKING:
    from pytest_logicenv.scenes.catalog import Catalog

#: The hand-written few-shot example, shipped as package data.
EXAMPLE_PLAN = "example_plan_clean_living_room.json"

# Offered when the caller has no catalog: AI2-THOR's naming, and the project's custom types.
DEFAULT_TYPES_HINT = (
    "AI2-THOR object types in CamelCase (Sofa, CoffeeTable, DiningTable, Fridge, Mug, Apple, "
    "Bread, Toaster, CoffeeMachine, Book, Bed, Pillow, Towel, Window, ...) and, where the task "
    "needs them, the custom types Toy (attrs kind=doll|other), ToyBox (attrs colour), "
    "WetWipes, Mop, Stain (states dirty), Milk, Shelf (attrs level=top|middle|bottom)"
)


# --------------------------------------------------------------------------- the example


@cache
def _example_document() -> dict[str, Any]:
    text = resources.files("pytest_logicenv").joinpath("data", EXAMPLE_PLAN).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def example_plan() -> Plan:
    """The hand-written few-shot example: the paper's Clean Living Room in our format."""
    return plan_from_json(_example_document(), EXAMPLE_PLAN)


def example_decomposition() -> list[dict[str, str]]:
    """The example's step-1 answer: its subtasks and what each covers."""
    return [dict(item) for item in _example_document()["decomposition"]]


def factors_answer(document: Mapping[str, Any]) -> dict[str, Any]:
    """The step-2 answer a plan document implies: each subtask's factors, without facts."""
    return {
        "subtasks": [
            {
                "name": subtask["name"],
                "factors": [
                    {k: v for k, v in factor.items() if k != "realization"}
                    for factor in subtask["factors"]
                ],
            }
            for subtask in document["subtasks"]
        ]
    }


def _compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


# --------------------------------------------------------------------------- the system prompt


def _types_text(
    known_types: Sequence[str] | None, notes: Mapping[str, str], catalog: Catalog | None
) -> str:
    if catalog is not None:
        return (
            f"States: {', '.join(STATES)}. Use only these object types, each with the states "
            "it can have (none listed: it has none) and, where its name misleads, what it is; "
            f"the first message describes the task's own: {catalog_listing(catalog)}.\n"
            f"{STAND_IN_RULE}.\n"
            f"Words in tasks and the types they mean: {readings_text(catalog)}."
        )
    if known_types is None:
        return f"States: {', '.join(STATES)}. Use {DEFAULT_TYPES_HINT}."
    listed = ", ".join(f"{t} ({notes[t]})" if notes.get(t) else t for t in known_types)
    return (
        f"States: {', '.join(STATES)}. Use only these object types (the first message "
        f"describes the task's own): {listed}."
    )


#: What to do with a thing the task names that no type is (a watermelon, a mug rack).
STAND_IN_RULE = (
    "A thing the task names that no type listed is (a watermelon, a mug rack, a pantry): use "
    "the closest type that has what the task needs of it (carried, the states it asks about, "
    'holds things in or on it), name its role after the thing ("as": "watermelon"), and say '
    'so in the action of every leaf that uses it ("... the watermelon (an Apple stands in for '
    'it)")'
)


def system_prompt(
    known_types: Sequence[str] | None,
    notes: Mapping[str, str] | None = None,
    catalog: Catalog | None = None,
) -> str:
    """The instructions, the plan and facts formats, the rules and the worked example;
    ``known_types`` are the types a plan may use (``None``: AI2-THOR's naming), ``notes``
    describe some of them; with a ``catalog`` the types, their states and the words for
    them come from it (:func:`~pytest_logicenv.llm.world_prompt.catalog_listing`)."""
    example = example_plan()
    answer = {k: v for k, v in plan_to_json(example).items() if k not in ("task", "rooms")}
    return f"""\
You derive behavior plans for testing household robot agents in simulation. A plan captures \
every situation the agent may meet while doing a task, as decision trees whose paths are the \
situations. Work in three steps; answer each with one JSON object and nothing else.

Step 1, task decomposition: split the task into mutually independent subtasks: no order \
between them, no shared uncertain factor; keep together what depends on the same factor.
Step 2, uncertain factor identification: per subtask, the uncertain facts of the environment \
that change what the agent must do (is an object there, where, which kind, in what state), \
marked by words like "may", "if", "either/or", "preferably", "otherwise". Miss none, invent \
none: what the task says is present is present and works.
Step 3, behavior plan generation: one decision tree per subtask over its own factors, with \
facts, in this format:

{{"format": "{PLAN_FORMAT}",
 "setting": [<facts true in every situation: the fixed objects the task names, with roles>],
 "subtasks": [{{"name": "<subtask>",
   "factors": [{{"id": "<factor>", "question": "<question?>", "domain": ["<value>", ...],
                "answers": {{"<value>": "<answer wording>"}},
                "realization": {{"<value>": [<facts a scene holds for this value>]}}}}],
   "tree": <node>}}]}}
A node is a query {{"query": "<factor id>", "branches": {{"<value>": <node>, ...}}}} or a leaf \
{{"action": "<what the agent does>", "goal": [<facts that hold once it is done>]}}. The task \
and rooms are filled in for you: leave them out.

Facts are JSON objects:
- {{"exists": T, "as": role, "where": {{...}}, "attrs": {{...}}, "states": {{...}}}}: some \
object of type T matches (all keys but "exists" optional). "where" holds any of "on": R or \
"in": R (what it rests on or in; "Floor" is the floor), "room": one of the task's rooms, \
"part_of": R (drawers, cabinets, shelves, a sink's basin and faucet, a stove's burners and \
knobs are parts: {{"exists": "Drawer", "as": "drawer", "where": {{"part_of": "dresser"}}}}; \
things rest in them: {{"in": ["sock", "drawer"]}})
- {{"absent": T, "where": ..., "attrs": ..., "states": ...}}: no such object
- {{"on": [A, B]}}, {{"in": [A, B]}}, {{"near": [A, B]}}: a relation; {{"held": A}}: the \
agent holds A
- {{"state": A, "<state>": true|false}}, {{"attr": A, "<name>": "<value>"}}
- {{"and": [...]}}, {{"or": [...]}}, {{"not": fact}}
A reference starting with a capital letter is a type; a lower case one is a role, bound by an \
"exists" with "as". \
{_types_text(known_types, notes or {}, catalog)}

Rules (your answer is checked against them):
- Subtask names, factor ids and values are lower case letters, digits and underscores, short \
and unique. Test ids are made of factor=value (toy=yes, toy_type=doll, bowl_empty=no): a \
factor id names the object and what is asked of it. Keep the original wording in "answers".
- Every factor has at least two values. A subtask asks only its own factors.
- Each query has exactly one branch per value of its factor; every factor is asked, and \
never twice on one path.
- Every value of every factor has realization facts that make it true in a scene, and \
different values have different facts (e.g. "yes": exists, "no": absent).
- Every role is bound by an "exists" with "as" in the setting or a realization. The setting \
holds in every scene, so it holds nothing a factor makes uncertain.
- Facts ask of an object only what its type can be and hold (a Mirror can be dirty, a \
Painting cannot); a part belongs to a whole that has such parts.
- In a task with several rooms, every object the setting and the realizations require has \
its room ("where": {{"room": "Kitchen"}}), or rests on, in or is a part of an object whose \
room is stated.
- Every leaf has an action, and goal facts that can be checked once the action is done.

Example.
Task: {example.task}
Rooms: {", ".join(example.rooms)}
Step 1 answer: {_compact({"subtasks": example_decomposition()})}
Step 2 answer: the factors of step 3, without "realization".
Step 3 answer: {_compact(answer)}
"""


# --------------------------------------------------------------------------- the steps


def decomposition_prompt(task: str, rooms: Sequence[str], catalog: Catalog | None = None) -> str:
    """The first user message: the task, its rooms (and, with several, that every object's
    room be stated), the types it names with what they can be and hold, and step 1."""
    lines = [f"Task: {task}", f"Rooms: {', '.join(rooms) if rooms else 'not given; infer them'}"]
    if len(set(rooms)) > 1:
        lines.append(
            f"This task has {len(set(rooms))} rooms: give every object the setting and the "
            'realizations require its room ("where": {"room": "' + rooms[0] + '"}), or put '
            "it on or in an object whose room is given."
        )
    types = relevant_types(task, catalog) if catalog is not None else []
    if catalog is not None and types:
        lines.append("Types the task names (what each can be, hold and where it usually is):")
        lines.append(type_notes(types, catalog))
    lines += [
        "",
        "Step 1, task decomposition. Answer with JSON: "
        '{"subtasks": [{"name": "<subtask>", "covers": "<the part of the task it covers>"}]}',
    ]
    return "\n".join(lines)


FACTORS_PROMPT = (
    "Step 2, uncertain factor identification. For each subtask of step 1, list its uncertain "
    'factors. Answer with JSON: {"subtasks": [{"name": "<subtask>", "factors": [{"id": '
    '"<factor>", "question": "<question?>", "domain": ["<value>", ...], "answers": '
    '{"<value>": "<answer wording>"}}]}]}'
)

PLAN_PROMPT = (
    "Step 3, behavior plan generation. Answer with the complete plan in the plan format: a "
    "decision tree for every subtask, realization facts for every value of every factor, the "
    "setting facts, and goal facts at every leaf."
)

#: Says whose the problems of a later stage's feedback are (``conversation.feedback``): the
#: plan passed every check, and its scenes showed them.
SCENES_HEADING = "Your plan passed the checks, but the scenes built from it show that it"
