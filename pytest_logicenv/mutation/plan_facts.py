"""What the mutation operators need to know of a task, read from its plan's facts (and rooms).

* the type of each role (``exists Box as red_box``): an action retargeted to another object
  of the same type names another role of that type;
* what the goals ask, as atoms (``on book sofa``, ``state window open False``): the action
  that makes a goal atom true is the one an unreachable mutant deletes;
* what is inside what (``exists Apple as apple where in fridge``): picking the apple up
  depends on opening the fridge.

>>> from pytest_logicenv.llm.planner import example_plan
>>> facts = TaskFacts.of(example_plan())
>>> sorted(facts.roles_of_type("ToyBox"))
['red_box', 'white_box']
>>> sorted(atom for atom in facts.goal_atoms if atom[0] == "in")
[('in', 'toy', 'red_box'), ('in', 'toy', 'white_box')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from pytest_logicenv.logic.facts import Exists, Fact, Held, Related, State, walk
from pytest_logicenv.logic.plan import Leaf, Plan, iter_nodes, located_facts

#: A fact an action makes true, as a tuple: ``("on", subject, target)``, ``("held", ref)``,
#: ``("state", ref, state, value)``.
Atom = tuple[object, ...]


@dataclass(frozen=True)
class TaskFacts:
    """Roles and their types, the goals' atoms, and what the facts put inside what."""

    role_types: Mapping[str, str]
    goal_atoms: frozenset[Atom]
    inside: Mapping[str, str]  # object (role or type) -> the container it is in
    rooms: tuple[str, ...] = ()  # the plan's room types

    @classmethod
    def of(cls, plan: Plan | None) -> TaskFacts:
        if plan is None:
            return cls({}, frozenset(), {})
        facts = [fact for _, fact in located_facts(plan)]
        initial = [*plan.setting, *_realizations(plan)]  # what scenes hold, not the goals
        return cls(_role_types(facts), frozenset(_goal_atoms(plan)), _inside(initial), plan.rooms)

    def roles_of_type(self, type_name: str) -> list[str]:
        return [role for role, found in self.role_types.items() if found == type_name]


def _role_types(facts: Iterable[Fact]) -> dict[str, str]:
    found: dict[str, str] = {}
    for fact in facts:
        for item in walk(fact):
            if isinstance(item, Exists) and item.as_ is not None:
                found.setdefault(item.as_, item.ref)
    return found


def _realizations(plan: Plan) -> Iterable[Fact]:
    for factor in plan.factors:
        for facts in factor.realizations.values():
            yield from facts


def _goal_atoms(plan: Plan) -> Iterable[Atom]:
    for subtask in plan.subtasks:
        for _, node in iter_nodes(subtask.tree):
            if isinstance(node, Leaf):
                for fact in node.goal:
                    yield from atoms(fact)


def atoms(fact: Fact) -> Iterable[Atom]:
    """The relations, holdings and states a fact asks for (negated ones too: a policy may
    make ``not open`` true by closing)."""
    for item in walk(fact):
        if isinstance(item, Related):
            yield (item.relation, item.subject, item.target)
        elif isinstance(item, Held):
            yield ("held", item.ref)
        elif isinstance(item, State):
            for state, value in item.states.items():
                yield ("state", item.ref, state, value)


def _inside(facts: Iterable[Fact]) -> dict[str, str]:
    found: dict[str, str] = {}
    for fact in facts:
        for item in walk(fact):
            if isinstance(item, Exists) and item.where.in_ is not None:
                found.setdefault(item.as_ or item.ref, item.where.in_)
            elif isinstance(item, Related) and item.relation == "in":
                found.setdefault(item.subject, item.target)
    return found
