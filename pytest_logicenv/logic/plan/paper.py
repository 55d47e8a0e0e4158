"""The paper's plain plan form (its Table 6; key ``plan`` of a task file), read into a Plan.

The form is a list of nested ``{question: {answer: subtree-or-action}}`` objects, one per
subtask. Factors and their domains are derived from the questions and answers (names from
:mod:`.names`); facts stay absent until someone (a person or an LLM) supplies them.

>>> plan = plan_from_paper([{"Is the window open?": {"YES": "Close it.", "NO": "Do nothing."}}],
...                        task="Close the window if it is open.")
>>> plan.subtasks[0].name, plan.subtasks[0].factors[0].domain
('window', ('yes', 'no'))
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pytest_logicenv.errors import PlanError, Violation
from pytest_logicenv.logic.plan.names import answer_values, question_name, unique
from pytest_logicenv.logic.plan.plan_model import Factor, Leaf, Node, Plan, Query, Subtask
from pytest_logicenv.logic.plan.problems import Problems


class _PaperTree:
    """Reads one subtask tree of the paper's form, deriving its factors on the way."""

    def __init__(self, problems: Problems, name: str, taken_factors: set[str]) -> None:
        self.problems = problems
        self.name = name
        self.taken_factors = taken_factors
        self.factors: dict[str, Factor] = {}  # question -> factor, in order of appearance

    def read(self, node: Any, where: str) -> Node:
        if isinstance(node, str):
            return Leaf(node)
        if not isinstance(node, Mapping) or len(node) != 1:
            self.problems.fail(
                where,
                "expected an action string or an object with exactly one question, "
                f"got {json.dumps(node)[:80]}",
            )
            return Leaf("")
        question, answers = next(iter(node.items()))
        if not isinstance(answers, Mapping) or not answers:
            self.problems.fail(where, f"question {question!r} needs an object of answers")
            return Leaf("")
        values = answer_values(answers)
        factor = self._factor(question, answers, values)
        branches = tuple(
            (value, self.read(child, f"{where}.{question!r}.{answer!r}"))
            for value, (answer, child) in zip(values, answers.items(), strict=True)
        )
        return Query(factor.id, branches)

    def _factor(self, question: str, answers: Mapping[str, Any], values: list[str]) -> Factor:
        """The factor ``question`` asks about: derived where the question first appears."""
        if question not in self.factors:
            self.factors[question] = Factor(
                id=unique(self._base_name(question), self.taken_factors),
                question=question,
                domain=tuple(values),
                answers=dict(zip(values, answers, strict=True)),
            )
        return self.factors[question]

    def _base_name(self, question: str) -> str:
        """The root question takes the subtask's name; a nested one is named after the
        subtask and itself."""
        if not self.factors:
            return self.name
        return f"{self.name}_{question_name(question, frozenset(self.name.split('_')))}"


def _subtask(
    problems: Problems, item: Any, i: int, taken_subtasks: set[str], taken_factors: set[str]
) -> Subtask:
    name = ""
    if isinstance(item, Mapping) and len(item) == 1:
        name = unique(question_name(next(iter(item))), taken_subtasks)
    builder = _PaperTree(problems, name, taken_factors)
    tree = builder.read(item, f"plan[{i}]")
    return Subtask(name or f"subtask_{i + 1}", tuple(builder.factors.values()), tree)


def plan_from_paper(
    data: Any, task: str = "", rooms: tuple[str, ...] = (), source: str = "plan"
) -> Plan:
    """Read the paper's plain plan form (a list of nested question objects).

    Subtask names come from each root question, factor ids from each question (unique across
    the plan), value ids from the answers. Realization and goal facts are left empty.
    """
    if not isinstance(data, list) or not data:
        raise PlanError(
            source,
            [Violation("syntax", "plan", "the paper's form is a non-empty list of subtask trees")],
        )
    problems = Problems()
    taken_subtasks: set[str] = set()
    taken_factors: set[str] = set()
    subtasks = [
        _subtask(problems, item, i, taken_subtasks, taken_factors) for i, item in enumerate(data)
    ]
    if problems.violations:
        raise PlanError(source, problems.violations)
    return Plan(task=task, subtasks=tuple(subtasks), rooms=tuple(rooms))
