"""The ``independence`` rule: subtasks share no factor (paper 4.2).

A factor is shared when two subtasks define the same id, ask the same question, or when one
subtask's tree asks about another's factor. The first subtask to define a factor or ask a
question owns it; the later ones are told to merge or rename.
"""

from __future__ import annotations

from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.plan import Factor, Plan, Subtask
from pytest_logicenv.logic.rules.common import Found, queries, subtask_location


def _owners(plan: Plan) -> tuple[dict[str, str], dict[str, str]]:
    """The subtask that first defines each factor id, and first asks each question."""
    factor_owner: dict[str, str] = {}
    question_owner: dict[str, str] = {}
    for subtask in plan.subtasks:
        for factor in subtask.factors:
            factor_owner.setdefault(factor.id, subtask.name)
            question_owner.setdefault(_question_key(factor), subtask.name)
    return factor_owner, question_owner


def _question_key(factor: Factor) -> str:
    """The question, lower case with its whitespace normalized."""
    return " ".join(factor.question.lower().split())


def _shared_factor(factor: Factor, subtask: Subtask, owner: str, where: str) -> Found:
    if owner != subtask.name:
        yield Violation(
            "independence",
            f"{where}.factors",
            f"factor {factor.id!r} also belongs to subtask {owner!r}; "
            "subtasks must not share factors: merge the two subtasks, or give each "
            "its own factor",
        )


def _shared_question(factor: Factor, subtask: Subtask, owner: str, where: str) -> Found:
    if owner != subtask.name:
        yield Violation(
            "independence",
            f"{where}.factors",
            f"the question {factor.question!r} is also asked in subtask {owner!r}; "
            "one uncertain factor belongs to one subtask: merge them",
        )


def _foreign_queries(subtask: Subtask, factor_owner: dict[str, str], where: str) -> Found:
    """Queries on a factor that another subtask defines."""
    own = {f.id for f in subtask.factors}
    for location, node in queries(subtask.tree, f"{where}.tree"):
        owner = factor_owner.get(node.factor)
        if node.factor not in own and owner not in (None, subtask.name):
            yield Violation(
                "independence",
                location,
                f"the query asks about {node.factor!r}, a factor of subtask "
                f"{owner!r}; a subtask may only ask about its own factors",
            )


def check_independence(plan: Plan) -> Found:
    """Every independence violation of ``plan``, in document order."""
    factor_owner, question_owner = _owners(plan)
    for i, subtask in enumerate(plan.subtasks):
        where = subtask_location(i, subtask)
        for factor in subtask.factors:
            yield from _shared_factor(factor, subtask, factor_owner[factor.id], where)
            yield from _shared_question(
                factor, subtask, question_owner[_question_key(factor)], where
            )
        yield from _foreign_queries(subtask, factor_owner, where)
