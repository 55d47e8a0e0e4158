"""The plan's types: factors, decision trees of queries and leaves, subtasks, the plan.

This is Definition 1 of the reference paper made concrete. A *factor* is an uncertain
environment variable with a finite domain; a ``(factor, value)`` pair is an atomic condition.
Each *subtask* owns its factors (subtasks share none) and a decision tree whose query nodes
ask about one factor, with one branch per value, and whose leaves say what the agent does and
which goal facts must then hold.

>>> window = Factor("window", "Is the window open?", ("yes", "no"))
>>> tree = Query("window", (("yes", Leaf("Close it.")), ("no", Leaf("Do nothing."))))
>>> plan = Plan("Close the window.", (Subtask("window", (window,), tree),))
>>> plan.conditions
(('window', 'yes'), ('window', 'no'))
>>> [location for location, _ in iter_nodes(tree)]
['tree', 'tree.branches.yes', 'tree.branches.no']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from pytest_logicenv.logic.facts import FLOOR, Fact, is_type_ref, references


@dataclass(frozen=True)
class Factor:
    """An uncertain environment variable: ``domain`` holds its value ids in order.

    ``answers`` maps each value id to the answer text it came from (``"other types"``);
    ``realizations`` maps a value id to the scene facts that make it true, when known.
    """

    id: str
    question: str
    domain: tuple[str, ...]
    answers: Mapping[str, str] = field(default_factory=dict)
    realizations: Mapping[str, tuple[Fact, ...]] = field(default_factory=dict)

    def answer(self, value: str) -> str:
        """The original answer text of ``value``."""
        return self.answers.get(value, value)


@dataclass(frozen=True)
class Leaf:
    """What the agent does in one situation, and the goal facts that must then hold."""

    action: str
    goal: tuple[Fact, ...] = ()


@dataclass(frozen=True)
class Query:
    """A question about ``factor``; ``branches`` are ``(value, subtree)`` pairs in order."""

    factor: str
    branches: tuple[tuple[str, Node], ...]

    def child(self, value: str) -> Node:
        for branch_value, node in self.branches:
            if branch_value == value:
                return node
        raise KeyError(value)


Node: TypeAlias = Query | Leaf


@dataclass(frozen=True)
class Subtask:
    """One independent part of the task, with the factors its tree asks about."""

    name: str
    factors: tuple[Factor, ...]
    tree: Node

    def factor(self, factor_id: str) -> Factor:
        for factor in self.factors:
            if factor.id == factor_id:
                return factor
        raise KeyError(factor_id)


@dataclass(frozen=True)
class Plan:
    """The task text, its subtasks, and the setting facts that hold in every scene."""

    task: str
    subtasks: tuple[Subtask, ...]
    setting: tuple[Fact, ...] = ()
    rooms: tuple[str, ...] = ()
    #: The type file the plan's facts need, relative to the plan file ("" for none).
    types: str = ""

    @property
    def factors(self) -> tuple[Factor, ...]:
        return tuple(f for subtask in self.subtasks for f in subtask.factors)

    def factor(self, factor_id: str) -> Factor:
        for factor in self.factors:
            if factor.id == factor_id:
                return factor
        raise KeyError(factor_id)

    @property
    def conditions(self) -> tuple[tuple[str, str], ...]:
        """Every atomic condition ``(factor id, value)``: the paper's C_total."""
        return tuple((f.id, value) for f in self.factors for value in f.domain)

    @property
    def has_facts(self) -> bool:
        """Whether every value of every factor has realization facts."""
        return all(
            value in factor.realizations and factor.realizations[value]
            for factor in self.factors
            for value in factor.domain
        )


def iter_nodes(node: Node, location: str = "tree") -> Iterator[tuple[str, Node]]:
    """Every node of a tree with its location, depth first."""
    yield location, node
    if isinstance(node, Query):
        for value, child in node.branches:
            yield from iter_nodes(child, f"{location}.branches.{value}")


def located_facts(plan: Plan) -> Iterator[tuple[str, Fact]]:
    """Every fact of a plan (setting, realizations, goals) with its location in the plan."""
    for k, fact in enumerate(plan.setting):
        yield f"setting[{k}]", fact
    for i, subtask in enumerate(plan.subtasks):
        where = f"subtasks[{i}]({subtask.name})"
        for j, factor in enumerate(subtask.factors):
            for value, facts in factor.realizations.items():
                for k, fact in enumerate(facts):
                    yield f"{where}.factors[{j}]({factor.id}).realization.{value}[{k}]", fact
        for location, node in iter_nodes(subtask.tree, f"{where}.tree"):
            if isinstance(node, Leaf):
                for k, fact in enumerate(node.goal):
                    yield f"{location}.goal[{k}]", fact


def type_names(plan: Plan) -> frozenset[str]:
    """Every object type the plan's facts name (``Floor`` aside)."""
    return frozenset(
        ref
        for _, fact in located_facts(plan)
        for ref in references(fact)
        if is_type_ref(ref) and ref != FLOOR
    )
