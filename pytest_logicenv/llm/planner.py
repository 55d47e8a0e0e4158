"""Behavior plan derivation (paper 4.2): task text -> Plan, by an LLM, checked by rules.

The model works through the paper's three steps in one conversation, answering each with a
JSON object:

1. **task decomposition** into mutually independent subtasks;
2. **uncertain factor identification** for each subtask (questions with finite answers);
3. **behavior plan generation**: one decision tree per subtask over its own factors, in our
   plan format, with what the paper leaves implicit made explicit: the facts that realize
   every factor value in a scene, the ``setting`` facts true in every scene, and the goal
   facts of every leaf.

A worked example (the paper's Clean Living Room, formalized by hand:
``data/example_plan_clean_living_room.json``) shows the model each step's answer. Answers
are parsed tolerantly but only as JSON, then read by
:func:`~pytest_logicenv.logic.plan.plan_from_json` and checked by
:func:`~pytest_logicenv.logic.rules.check_plan`; every violation goes back to the model,
which answers again (the paper's rule-guided iterative refinement), up to ``max_rounds``
answers per step.

>>> from pytest_logicenv.llm.protocol import CallableLLM
>>> example = example_plan()
>>> steps = iter([{"subtasks": example_decomposition()}, factors_answer(plan_to_json(example)),
...               plan_to_json(example)])
>>> llm = CallableLLM(lambda messages: json.dumps(next(steps)), model="canned")
>>> derivation = derive_plan(example.task, ["LivingRoom"], llm)
>>> derivation.plan == example, derivation.rounds, len(derivation.exchanges)
(True, 1, 3)
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from pytest_logicenv.errors import LLMError, PlanDerivationError, PlanError, Rejected, Violation
from pytest_logicenv.llm.conversation import Conversation
from pytest_logicenv.llm.exchange import Exchange, exchange_to_json
from pytest_logicenv.llm.protocol import LLM
from pytest_logicenv.logic.facts import STATES
from pytest_logicenv.logic.plan import PLAN_FORMAT, Plan, plan_from_json, plan_to_json
from pytest_logicenv.logic.rules import check_plan

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


@dataclass(frozen=True)
class PlanDerivation:
    """A derived plan and how it was made: ``model`` is who made it, ``rounds`` how many plan
    answers were checked (1: the first passed), ``rejected`` the violations of each answer
    sent back, ``exchanges`` every LLM exchange of the three steps, in order."""

    plan: Plan
    model: str
    rounds: int
    rejected: tuple[tuple[Violation, ...], ...]
    exchanges: tuple[Exchange, ...]


def derive_plan(
    task: str,
    rooms: Sequence[str],
    llm: LLM,
    *,
    known_types: Collection[str] | Mapping[str, str] | None = None,
    max_rounds: int = 3,
) -> PlanDerivation:
    """Derive a checked plan for ``task`` in ``rooms`` with ``llm``.

    ``known_types`` (the catalog's types) are offered to the model and enforced by the checks;
    without them any CamelCase type passes. A mapping also gives the model a note per type
    (:func:`type_vocabulary` makes one from the catalog, e.g. which kinds a ``Toy`` has).
    The plan's ``task`` and ``rooms`` are the ones given, whatever the model writes.

    Raises :class:`PlanDerivationError` listing what was still wrong after ``max_rounds``
    answers to a step, and :class:`~pytest_logicenv.errors.LLMError` when the endpoint fails.
    """
    if not task.strip():
        raise LLMError("cannot derive a plan for an empty task description; describe the task")
    if max_rounds < 1:
        raise LLMError(f"max_rounds must be at least 1, got {max_rounds}")
    rooms = tuple(rooms)
    types = sorted(known_types) if known_types is not None else None
    notes = known_types if isinstance(known_types, Mapping) else {}
    talk = Conversation(llm, system_prompt(types, notes), max_rounds, PlanDerivationError)
    talk.step("plan.decompose", decomposition_prompt(task, rooms), _read_decomposition)
    talk.step("plan.factors", FACTORS_PROMPT, _read_factors)

    def read_plan(data: dict[str, Any]) -> Plan:
        return _checked_plan(data, task, rooms, types)

    plan = talk.step("plan.tree", PLAN_PROMPT, read_plan)
    return PlanDerivation(
        plan=plan,
        model=llm.model,
        rounds=len(talk.rejected) + 1,
        rejected=tuple(talk.rejected),
        exchanges=tuple(talk.exchanges),
    )


class LLMPlanner:
    """The plugin's plan source: ``name`` says who makes plans (``llm:<model>``), ``derive``
    returns the plan and its exchanges as the JSON objects the cache writes."""

    def __init__(
        self,
        llm: LLM,
        *,
        known_types: Collection[str] | Mapping[str, str] | None = None,
        max_rounds: int = 3,
    ) -> None:
        self.llm = llm
        self.known_types = known_types
        self.max_rounds = max_rounds

    @property
    def name(self) -> str:
        return f"llm:{self.llm.model}"

    def derive(self, task: str, rooms: Sequence[str]) -> tuple[Plan, list[dict[str, Any]]]:
        derivation = derive_plan(
            task, rooms, self.llm, known_types=self.known_types, max_rounds=self.max_rounds
        )
        return derivation.plan, [exchange_to_json(e) for e in derivation.exchanges]


def type_vocabulary(catalog: Catalog) -> dict[str, str]:
    """Every catalog type, with its description as a note for the custom ones (the types
    AI2-THOR lacks, whose attributes the model cannot know)."""
    return {
        name: obj_type.description if obj_type.custom else ""
        for name, obj_type in catalog.types.items()
    }


# --------------------------------------------------------------------------- reading answers


def _named_list(data: dict[str, Any], what: str) -> list[dict[str, Any]]:
    items = data.get("subtasks")
    if not isinstance(items, list) or not items:
        raise Rejected(
            [Violation("syntax", "subtasks", f"expected a non-empty list of {what} objects")]
        )
    problems = [
        Violation("syntax", f"subtasks[{i}]", f"expected an object with a string 'name' ({what})")
        for i, item in enumerate(items)
        if not isinstance(item, dict) or not isinstance(item.get("name"), str)
    ]
    if problems:
        raise Rejected(problems)
    return items


def _read_decomposition(data: dict[str, Any]) -> list[dict[str, Any]]:
    return _named_list(data, "subtask")


def _read_factors(data: dict[str, Any]) -> list[dict[str, Any]]:
    items = _named_list(data, "subtask-with-factors")
    problems = [
        Violation("syntax", f"subtasks[{i}].factors", "expected a list of factor objects")
        for i, item in enumerate(items)
        if not isinstance(item.get("factors"), list)
    ]
    if problems:
        raise Rejected(problems)
    return items


def _checked_plan(
    data: dict[str, Any], task: str, rooms: tuple[str, ...], known_types: list[str] | None
) -> Plan:
    # The caller's task text and rooms are authoritative (the cache keys on them).
    document = {**data, "format": PLAN_FORMAT, "task": task, "rooms": list(rooms)}
    try:
        plan = plan_from_json(document, "answer")
    except PlanError as error:
        raise Rejected(error.violations) from None
    violations = check_plan(plan, known_types=known_types, require_facts=True)
    if violations:
        raise Rejected(violations)
    return plan


# --------------------------------------------------------------------------- prompts


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


def _without_task(document: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in document.items() if k not in ("task", "rooms")}


def _compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


def system_prompt(known_types: Sequence[str] | None, notes: Mapping[str, str] | None = None) -> str:
    """The instructions, the plan and facts formats, the rules and the worked example;
    ``notes`` describe some of the known types."""
    example = example_plan()
    notes = notes or {}
    types = (
        "Use only these object types: "
        + ", ".join(f"{t} ({notes[t]})" if notes.get(t) else t for t in known_types)
        + "."
        if known_types is not None
        else f"Use {DEFAULT_TYPES_HINT}."
    )
    return f"""\
You derive behavior plans for testing household robot agents in simulation. A plan captures \
every situation the agent may meet while doing a task, as decision trees whose paths are \
the situations. You work in three steps; answer each step with one JSON object and nothing \
else.

Step 1, task decomposition: split the task into mutually independent subtasks. Subtasks have \
no order between them and share no uncertain factor; keep together what depends on the same \
uncertain factor, and keep apart what does not.
Step 2, uncertain factor identification: for each subtask, the uncertain facts of the \
environment that change what the agent must do: is an object there, where is it, which kind \
is it, what state is it in. The task marks them with words like "may", "if", "either/or", \
"preferably", "otherwise". Miss none of them, and invent none: what the task says is present \
is present and works.
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
text and the rooms are filled in for you: leave them out.

Facts are JSON objects:
- {{"exists": T, "as": role, "where": {{"on": R}} or {{"in": R}}, "attrs": {{...}}, \
"states": {{...}}}}: some object of type T matches ("as", "where", "attrs", "states" optional); \
"where" may also hold "room" and "part_of": drawers, cabinets, shelves, a sink's basin and \
faucet, a stove's burners and knobs are parts ({{"exists": "Drawer", "as": "drawer", "where": \
{{"part_of": "dresser"}}}}), and things rest in them ({{"in": ["sock", "drawer"]}})
- {{"absent": T, "where": ..., "attrs": ..., "states": ...}}: no such object
- {{"on": [A, B]}}, {{"in": [A, B]}}, {{"near": [A, B]}}: a relation between objects
- {{"held": A}}: the agent holds A
- {{"state": A, "<state>": true|false}}, {{"attr": A, "<name>": "<value>"}}
- {{"and": [...]}}, {{"or": [...]}}, {{"not": fact}}
A reference starting with a capital letter is an object type ("Floor" is the floor); a lower \
case one is a role, bound by an "exists" fact with "as". States: {", ".join(STATES)}. \
{types}

Rules (your answer is checked against them):
- Subtask names, factor ids and values are lower case letters, digits and underscores, \
short and unique: they become test ids. Keep the original answer wording in "answers".
- Every factor has at least two values. A subtask asks only its own factors; no factor or \
question belongs to two subtasks.
- Each query has exactly one branch per value of its factor; every factor is asked, and \
never twice on one path.
- Every value of every factor has realization facts that make it true in a scene, and \
different values have different facts (e.g. "yes": exists, "no": absent).
- Every role is bound by an "exists" with "as" in the setting or a realization. The setting \
holds in every scene, so it holds nothing a factor makes uncertain.
- Every leaf has an action, and goal facts that can be checked once the action is done.

Example.
Task: {example.task}
Rooms: {", ".join(example.rooms)}
Step 1 answer: {_compact({"subtasks": example_decomposition()})}
Step 2 answer: {_compact(factors_answer(plan_to_json(example)))}
Step 3 answer: {_compact(_without_task(plan_to_json(example)))}
"""


def decomposition_prompt(task: str, rooms: Sequence[str]) -> str:
    """The first user message: the task and step 1."""
    where = ", ".join(rooms) if rooms else "not given; infer them from the task"
    return (
        f"Task: {task}\nRooms: {where}\n\n"
        "Step 1, task decomposition. Answer with JSON: "
        '{"subtasks": [{"name": "<subtask>", "covers": "<the part of the task it covers>"}]}'
    )


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
