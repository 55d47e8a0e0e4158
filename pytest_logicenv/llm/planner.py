"""Behavior plan derivation (paper 4.2): task text -> Plan, by an LLM, checked by rules.

The model works through the paper's three steps in one conversation, answering each with a
JSON object (the prompts are :mod:`~pytest_logicenv.llm.plan_prompts`'):

1. **task decomposition** into mutually independent subtasks;
2. **uncertain factor identification** for each subtask (questions with finite answers);
3. **behavior plan generation**: one decision tree per subtask over its own factors, in our
   plan format, with what the paper leaves implicit made explicit: the facts that realize
   every factor value in a scene, the ``setting`` facts true in every scene, and the goal
   facts of every leaf.

Answers are parsed tolerantly but only as JSON, read by
:func:`~pytest_logicenv.logic.plan.plan_from_json` and checked by everything that would reject
the plan later: the plan rules (:func:`~pytest_logicenv.logic.rules.check_plan`) and, with a
catalog, what the scene stages find (:func:`~pytest_logicenv.scenes.feasibility.world_violations`:
states a type cannot have, rooms, parts, designs that cannot hold a situation) and goals no
action reaches (:func:`~pytest_logicenv.sim.achievable.goal_violations`). Every
violation goes back to the model, which answers again (the paper's rule-guided iterative
refinement), up to ``max_rounds`` answers per step; then :class:`PlanDerivationError` holds
the last violations, every exchange and, when the last answer was a plan, that plan document,
for a person to fix. What the scenes of an accepted plan show (one without a witness) goes
back in the same conversation (:meth:`PlanDialogue.refine`), checked the same way.

>>> import json
>>> from pytest_logicenv.llm.protocol import CallableLLM
>>> from pytest_logicenv.logic.plan import plan_to_json
>>> example = example_plan()
>>> steps = iter([{"subtasks": example_decomposition()}, factors_answer(plan_to_json(example)),
...               plan_to_json(example)])
>>> llm = CallableLLM(lambda messages: json.dumps(next(steps)), model="canned")
>>> derivation = derive_plan(example.task, ["LivingRoom"], llm)
>>> derivation.plan == example, derivation.rounds, len(derivation.exchanges)
(True, 1, 3)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytest_logicenv.errors import LLMError, PlanError, Rejected, SceneError, Violation
from pytest_logicenv.llm.conversation import Conversation
from pytest_logicenv.llm.exchange import Exchange, PlanDerivationError, exchange_to_json
from pytest_logicenv.llm.plan_prompts import (
    DEFAULT_TYPES_HINT,
    EXAMPLE_PLAN,
    FACTORS_PROMPT,
    PLAN_PROMPT,
    SCENES_HEADING,
    decomposition_prompt,
    example_decomposition,
    example_plan,
    factors_answer,
    system_prompt,
)
from pytest_logicenv.llm.protocol import LLM
from pytest_logicenv.logic.plan import PLAN_FORMAT, Plan, plan_from_json
from pytest_logicenv.logic.rules import check_plan
from pytest_logicenv.scenes.design.templates import unknown_rooms
from pytest_logicenv.scenes.feasibility import world_violations
from pytest_logicenv.sim.achievable import goal_violations

if TYPE_CHECKING:
    from pytest_logicenv.scenes.catalog import Catalog

__all__ = [
    "DEFAULT_TYPES_HINT",
    "EXAMPLE_PLAN",
    "LLMPlanner",
    "PlanDerivation",
    "PlanDialogue",
    "acceptance_violations",
    "decomposition_prompt",
    "derive_plan",
    "example_decomposition",
    "example_plan",
    "factors_answer",
    "system_prompt",
    "type_vocabulary",
]

#: The purpose of the plan step's exchanges: a failing derivation's plan is this step's.
TREE_STEP = "plan.tree"
#: The purpose of the exchanges that send what the scenes of a plan showed back to the model.
SCENES_STEP = "plan.scenes"


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


def check_rooms(rooms: Sequence[str], given: str = "rooms") -> None:
    """Rooms the designer has no type for are the caller's error, found before any request
    (the model could never fix them): a :class:`SceneError` naming the known room types."""
    problem = unknown_rooms(rooms)
    if problem is not None:
        raise SceneError(f"{given} {list(rooms)!r}: {problem}")


def derive_plan(
    task: str,
    rooms: Sequence[str],
    llm: LLM,
    *,
    known_types: Collection[str] | Mapping[str, str] | None = None,
    catalog: Catalog | None = None,
    strategy: str = "minimal",
    max_rounds: int = 3,
) -> PlanDerivation:
    """Derive a checked plan for ``task`` in ``rooms`` with ``llm``.

    With a ``catalog``, the model is shown the types the task names (what each can be and
    hold), may use only the catalog's types, and each plan answer must also pass what the
    scene stages check (:func:`acceptance_violations`, with the run's selection
    ``strategy``). Without one, ``known_types`` (a mapping also gives a note per type) are
    offered and enforced; with neither, any CamelCase type passes. The plan's ``task`` is the
    one given, and so are its ``rooms`` when some are given.

    Raises :class:`PlanDerivationError` listing what was still wrong after ``max_rounds``
    answers to a step (with the last plan answer, as a plan document, when there was one),
    and :class:`~pytest_logicenv.errors.LLMError` when the endpoint fails.
    """
    dialogue = PlanDialogue(
        task,
        rooms,
        llm,
        known_types=known_types,
        catalog=catalog,
        strategy=strategy,
        max_rounds=max_rounds,
    )
    return dialogue.derive()


class PlanDialogue:
    """One derivation's conversation (:func:`derive_plan`'s), kept open so that what a later
    stage finds in the accepted plan (its scenes without a witness) goes back to the model in
    it: :meth:`refine` is one more step, refined as every step is."""

    def __init__(
        self,
        task: str,
        rooms: Sequence[str],
        llm: LLM,
        *,
        known_types: Collection[str] | Mapping[str, str] | None = None,
        catalog: Catalog | None = None,
        strategy: str = "minimal",
        max_rounds: int = 3,
    ) -> None:
        if not task.strip():
            raise LLMError("cannot derive a plan for an empty task description; describe the task")
        if max_rounds < 1:
            raise LLMError(f"max_rounds must be at least 1, got {max_rounds}")
        self.task, self.rooms = task, tuple(rooms)
        check_rooms(self.rooms)
        if catalog is not None and known_types is None:
            known_types = frozenset(catalog.types)
        self._types = sorted(known_types) if known_types is not None else None
        notes = known_types if isinstance(known_types, Mapping) else {}
        self._catalog, self._strategy = catalog, strategy
        self._answered: list[dict[str, Any]] = []  # the plan documents the model answered with
        system = system_prompt(self._types, notes, catalog)
        self._talk = Conversation(llm, system, max_rounds, self._fail)
        self.model = llm.model

    def derive(self) -> PlanDerivation:
        """The three steps: the plan, and every exchange of the conversation."""
        talk = self._talk
        talk.step(
            "plan.decompose",
            decomposition_prompt(self.task, self.rooms, self._catalog),
            _read_decomposition,
        )
        talk.step("plan.factors", FACTORS_PROMPT, _read_factors)
        return self._derivation(talk.step(TREE_STEP, PLAN_PROMPT, self._read_plan), since=0)

    def refine(self, violations: Sequence[Violation]) -> PlanDerivation:
        """The plan the model answers when told ``violations`` of its last accepted plan
        (what its scenes showed), checked as every plan answer is; the derivation's
        exchanges are this step's only."""
        since = len(self._talk.exchanges)
        plan = self._talk.resume(SCENES_STEP, violations, self._read_plan, heading=SCENES_HEADING)
        return self._derivation(plan, since=since)

    def _derivation(self, plan: Plan, *, since: int) -> PlanDerivation:
        talk = self._talk
        return PlanDerivation(
            plan=plan,
            model=self.model,
            rounds=len(talk.rejected) + 1,
            rejected=tuple(talk.rejected),
            exchanges=tuple(talk.exchanges[since:]),
        )

    def _read_plan(self, data: dict[str, Any]) -> Plan:
        document = _plan_document(data, self.task, self.rooms)
        self._answered.append(document)
        return _checked_plan(document, self._types, self._catalog, self._strategy)

    def _fail(
        self, what: str, violations: Sequence[Violation], exchanges: tuple[Exchange, ...]
    ) -> LLMError:
        plan_step = what.startswith((TREE_STEP, SCENES_STEP))
        last = self._answered[-1] if self._answered and plan_step else None
        return PlanDerivationError(what, violations, exchanges, document=last)


def acceptance_violations(
    plan: Plan,
    *,
    known_types: Collection[str] | None = None,
    catalog: Catalog | None = None,
    strategy: str = "minimal",
) -> list[Violation]:
    """Everything a derived plan must pass: the plan rules (facts required), then, with a
    ``catalog``, what the scene stages would reject and the goals no action of the simulator
    reaches (:func:`~pytest_logicenv.sim.achievable.goal_violations`). ``logicenv plan`` and
    the planner's refinement loop apply the same."""
    if catalog is not None and known_types is None:
        known_types = frozenset(catalog.types)
    violations = check_plan(plan, known_types=known_types, require_facts=True)
    if violations or catalog is None:
        return violations
    # the designer and the simulator's rules, lazily: a plan without facts needs neither
    return [*world_violations(plan, catalog, strategy=strategy), *goal_violations(plan, catalog)]


class LLMPlanner:
    """The plugin's plan source: ``name`` says who makes plans (``llm:<model>``), ``derive``
    returns the plan and its exchanges as the JSON objects the cache writes; a derivation
    that fails raises :class:`PlanDerivationError` (its exchanges and last plan for the
    cache to keep)."""

    def __init__(
        self,
        llm: LLM,
        *,
        known_types: Collection[str] | Mapping[str, str] | None = None,
        catalog: Catalog | None = None,
        strategy: str = "minimal",
        max_rounds: int = 3,
    ) -> None:
        self.llm = llm
        self.known_types = known_types
        self.catalog = catalog
        self.strategy = strategy
        self.max_rounds = max_rounds
        self._dialogue: PlanDialogue | None = None

    @property
    def name(self) -> str:
        return f"llm:{self.llm.model}"

    def derive(self, task: str, rooms: Sequence[str]) -> tuple[Plan, list[dict[str, Any]]]:
        self._dialogue = PlanDialogue(
            task,
            rooms,
            self.llm,
            known_types=self.known_types,
            catalog=self.catalog,
            strategy=self.strategy,
            max_rounds=self.max_rounds,
        )
        return self._recorded(self._dialogue.derive())

    def refine(self, violations: Sequence[Violation]) -> tuple[Plan, list[dict[str, Any]]]:
        """The plan the model answers, in the conversation of the last :meth:`derive`, when
        told ``violations`` of that plan's scenes; the exchanges are the new ones."""
        if self._dialogue is None:
            raise LLMError("refine() needs a derived plan: call derive() first")
        return self._recorded(self._dialogue.refine(violations))

    @staticmethod
    def _recorded(derivation: PlanDerivation) -> tuple[Plan, list[dict[str, Any]]]:
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


def _plan_document(data: dict[str, Any], task: str, rooms: tuple[str, ...]) -> dict[str, Any]:
    """The answer as a plan document: the caller's task text, and rooms when it gave some
    (the cache keys on them); otherwise the rooms the model inferred."""
    model_rooms = data.get("rooms")
    if rooms or not isinstance(model_rooms, list):
        model_rooms = list(rooms)
    return {**data, "format": PLAN_FORMAT, "task": task, "rooms": model_rooms}


def _checked_plan(
    document: dict[str, Any],
    known_types: list[str] | None,
    catalog: Catalog | None,
    strategy: str,
) -> Plan:
    try:
        plan = plan_from_json(document, "answer")
    except PlanError as error:
        raise Rejected(error.violations) from None
    violations = acceptance_violations(
        plan, known_types=known_types, catalog=catalog, strategy=strategy
    )
    if violations:
        raise Rejected(violations)
    return plan
