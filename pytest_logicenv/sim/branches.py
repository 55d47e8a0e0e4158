"""Diagnosis by branch: a policy that did what another situation asks lacks this one's branch.

A run that returns SUCCESS with a goal fact false is ``unreachable``, unless the goal that is
false belongs to a subtask whose *other* leaf's goal holds and the policy never checked the
question that separates the two leaves: then it took that leaf's branch here, as if the
situation were that one (it put every toy in the toy box, dolls included), and the fault is
the missing branch, ``lackbranch``. The diagnosis names the branch taken and the factor never
checked. "Checked" means some condition the policy evaluated tested what the two answers'
realization facts differ in (an attribute such as ``kind``, a state such as ``dirty``, what an
object rests on): a policy that asked whether the toy is a doll and still put it in the wrong
box has the branch, with the wrong action in it, and stays ``unreachable``.

The branches come from the plan: :func:`branches_of` lists, per subtask, this trajectory's
decision path and the subtask's other paths, with their leaves' goals. A leaf with no goal
facts (``Do nothing``) holds anywhere and explains nothing, so it is never the branch taken.

>>> from pytest_logicenv.logic.plan import plan_from_paper
>>> from pytest_logicenv.logic.trajectories import select
>>> plan = plan_from_paper([{"Is the window open?": {"YES": "Close it.", "NO": "Do nothing."}}])
>>> [str(b.taken) for b in branches_of(plan, select(plan).trajectories[0])]
['Is the window open? = YES: Close it.']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_logicenv.logic.facts import (
    Absent,
    And,
    Attr,
    Exists,
    Fact,
    Held,
    Not,
    Or,
    Related,
    State,
    World,
    evaluate_all,
)
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import DecisionPath, Trajectory, subtask_paths

#: What a fact tests: ``(kind, key, value)`` items, e.g. ``("attr", "kind", "doll")``.
Tested = frozenset[tuple[str, str, str]]


@dataclass(frozen=True)
class Answer:
    """One answered question of a branch: the factor, its question, the value, the answer in
    the plan's words, and what the value's realization facts test."""

    factor: str
    question: str
    value: str
    text: str
    tests: Tested = frozenset()


@dataclass(frozen=True)
class Branch:
    """One leaf of a subtask: the answers that lead to it, its action and its goal facts."""

    subtask: str
    answers: tuple[Answer, ...]
    action: str
    goal: tuple[Fact, ...]

    @property
    def situation(self) -> tuple[tuple[str, str], ...]:
        """The answers in the plan's words: ``(question, answer)`` pairs."""
        return tuple((answer.question, answer.text) for answer in self.answers)

    def __str__(self) -> str:
        said = "; ".join(f"{q} = {a}" for q, a in self.situation) or "always"
        return f"{said}: {self.action}"


@dataclass(frozen=True)
class SubtaskBranches:
    """This situation's branch of one subtask (``taken`` by a correct policy) and the
    subtask's other branches."""

    taken: Branch
    others: tuple[Branch, ...]


@dataclass(frozen=True)
class BranchDiagnosis:
    """The branch a policy took instead of this situation's: at ``expected`` (this
    situation's answer) it did what ``assumed`` (another answer to the same question) asks.
    ``checked`` says whether it checked the question at all (a condition tested what the two
    answers differ in): if not, it lacks the branch; if it did, the branch it has is wrong."""

    expected_branch: Branch
    taken: Branch
    expected: Answer
    assumed: Answer
    checked: bool

    @property
    def question(self) -> str:
        return self.expected.question

    def __str__(self) -> str:
        said = (
            f"in subtask {self.taken.subtask!r} the policy did what {self.question} = "
            f"{self.assumed.text} asks ({self.taken.action}), but here {self.question} = "
            f"{self.expected.text} ({self.expected_branch.action})"
        )
        if self.checked:
            return f"{said}; it checked {self.question} and still took that branch"
        return f"{said}; it never checked: {self.question}"

    def to_json(self) -> dict[str, Any]:
        return {
            "subtask": self.taken.subtask,
            "factor": self.expected.factor,
            "question": self.question,
            "answer": self.expected.text,
            "assumed": self.assumed.text,
            "taken": [list(pair) for pair in self.taken.situation],
            "action": self.taken.action,
            "expected_action": self.expected_branch.action,
            "checked": self.checked,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BranchDiagnosis:
        """The diagnosis :meth:`to_json` wrote, as far as its explanation needs (the
        branches' goals and realizations are not written)."""
        subtask, factor, question = str(data["subtask"]), str(data["factor"]), data["question"]
        expected = Answer(factor, str(question), "", str(data["answer"]))
        assumed = Answer(factor, str(question), "", str(data["assumed"]))
        said = tuple(Answer("", str(q), "", str(a)) for q, a in data.get("taken", ()))
        taken = Branch(subtask, said, str(data.get("action", "")), ())
        mine = Branch(subtask, (), str(data.get("expected_action", "")), ())
        return cls(mine, taken, expected, assumed, bool(data.get("checked", False)))


def branches_of(plan: Plan, trajectory: Trajectory) -> tuple[SubtaskBranches, ...]:
    """Per subtask, the trajectory's branch and the subtask's other branches."""
    result = []
    for subtask, path in zip(plan.subtasks, trajectory.paths, strict=True):
        others = [p for p in subtask_paths(subtask) if p.index != path.index]
        result.append(SubtaskBranches(_branch(plan, path), tuple(_branch(plan, p) for p in others)))
    return tuple(result)


def _branch(plan: Plan, path: DecisionPath) -> Branch:
    answers = []
    for step in path.steps:
        factor = plan.factor(step.factor)
        facts = factor.realizations.get(step.value, ())
        tests = frozenset(item for fact in facts for item in tested(fact))
        answers.append(
            Answer(factor.id, factor.question, step.value, factor.answer(step.value), tests)
        )
    return Branch(path.subtask, tuple(answers), path.leaf.action, path.leaf.goal)


def diagnose(
    world: World, branches: Sequence[SubtaskBranches], checked: Sequence[Fact] = ()
) -> list[BranchDiagnosis]:
    """For every subtask whose goal is false in ``world`` while another of its branches'
    goals holds, the branch taken (the one closest to this situation's); empty when some
    subtask's false goal has no such branch, since then the fault is not a branch taken.
    ``checked`` are the facts the policy's conditions checked during the run."""
    seen = frozenset((kind, key) for fact in checked for kind, key, _ in tested(fact))
    found = []
    for subtask in branches:
        if evaluate_all(subtask.taken.goal, world):
            continue
        held = [b for b in subtask.others if b.goal and evaluate_all(b.goal, world)]
        if not held:
            return []
        closest = max(held, key=lambda b: _shared(b.answers, subtask.taken.answers))
        found.append(_diagnosis(subtask.taken, closest, seen))
    return found


def _shared(first: Sequence[Answer], second: Sequence[Answer]) -> int:
    """How many leading answers two branches share."""
    count = 0
    for a, b in zip(first, second, strict=False):
        if (a.factor, a.value) != (b.factor, b.value):
            break
        count += 1
    return count


def _diagnosis(
    expected: Branch, taken: Branch, seen: frozenset[tuple[str, str]]
) -> BranchDiagnosis:
    split = _shared(expected.answers, taken.answers)  # they part at one question
    mine, theirs = expected.answers[split], taken.answers[split]
    differ = {(kind, key) for kind, key, _ in mine.tests ^ theirs.tests}
    return BranchDiagnosis(expected, taken, mine, theirs, checked=bool(differ & seen))


def tested(fact: Fact) -> set[tuple[str, str, str]]:
    """What a fact tests, whatever it names: attributes and states with their values, what
    objects rest on or in, rooms, holding; presence as ``present``/``absent``."""
    match fact:
        case Exists() | Absent():
            presence = "present" if isinstance(fact, Exists) else "absent"
            items = {("attr", k, v) for k, v in fact.attrs.items()}
            items |= {("state", k, str(v)) for k, v in fact.states.items()}
            where = (("on", fact.where.on), ("in", fact.where.in_), ("room", fact.where.room))
            items |= {(kind, ref, presence) for kind, ref in where if ref is not None}
            return items
        case Attr(_, attrs):
            return {("attr", k, v) for k, v in attrs.items()}
        case State(_, states):
            return {("state", k, str(v)) for k, v in states.items()}
        case Related(relation, _, target):
            return {(relation, target, "")}
        case Held():
            return {("held", "", "")}
        case And(items) | Or(items):
            return set().union(*(tested(item) for item in items))
        case Not(item):
            return tested(item)
    return set()  # pragma: no cover
