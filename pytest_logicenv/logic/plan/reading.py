"""A plan as a person reads it: the task, what every scene has, and each subtask's decision
tree with the facts that make each answer true and the goals of each leaf, in plain English
(``logicenv show``, the HTML report's review section).

>>> from pytest_logicenv.logic.facts import parse_facts
>>> from pytest_logicenv.logic.plan import Query
>>> window = Factor("window", "Is the window open?", ("yes", "no"), {"yes": "Yes", "no": "No"},
...     {"yes": parse_facts([{"state": "Window", "open": True}], "r"),
...      "no": parse_facts([{"state": "Window", "open": False}], "r")})
>>> tree = Query("window", (("yes", Leaf("Close it.", parse_facts(
...     [{"state": "Window", "open": False}], "g"))), ("no", Leaf("Do nothing."))))
>>> plan = Plan("Close the window.", (Subtask("window", (window,), tree),))
>>> print("\\n".join(plan_reading(plan)))
Task: Close the window.
<BLANKLINE>
Subtask 1 of 1: window
  Is the window open?
  - Yes, when the scene has: Window is open
      do: Close it.
      then: Window is not open
  - No, when the scene has: Window is not open
      do: Do nothing.
      then: (no goal)
"""

from __future__ import annotations

from pytest_logicenv.logic.facts import Fact, describe
from pytest_logicenv.logic.plan.plan_model import Factor, Leaf, Node, Plan, Subtask

_STEP = "  "


def _facts(facts: tuple[Fact, ...]) -> str:
    return "; ".join(describe(fact) for fact in facts)


def _answer(factor: Factor, value: str) -> str:
    facts = factor.realizations.get(value, ())
    said = factor.answer(value)
    return f"{said}, when the scene has: {_facts(facts)}" if facts else f"{said} (no facts)"


def _node(plan: Plan, subtask: Subtask, node: Node, depth: int) -> list[str]:
    pad = _STEP * depth
    if isinstance(node, Leaf):
        goal = _facts(node.goal) or "(no goal)"
        return [f"{pad}do: {node.action}", f"{pad}then: {goal}"]
    factor = subtask.factor(node.factor)
    lines = [f"{pad}{factor.question}"]
    for value, child in node.branches:
        lines.append(f"{pad}- {_answer(factor, value)}")
        lines += _node(plan, subtask, child, depth + 2)
    return lines


def _head(plan: Plan) -> list[str]:
    lines = [f"Task: {' '.join(plan.task.split())}"]
    if plan.rooms:
        lines.append(f"Rooms: {', '.join(plan.rooms)}")
    if plan.setting:
        lines.append("Every scene has:")
        lines += [f"{_STEP}- {describe(fact)}" for fact in plan.setting]
    return lines


def plan_reading(plan: Plan) -> list[str]:
    """The plan in lines of plain text: the task, the rooms and setting, then per subtask its
    questions, each answer with the facts that realize it, and at each leaf what the agent
    does and what must then hold."""
    lines = _head(plan)
    count = len(plan.subtasks)
    for number, subtask in enumerate(plan.subtasks, 1):
        lines += ["", f"Subtask {number} of {count}: {subtask.name}"]
        lines += _node(plan, subtask, subtask.tree, 1)
    return lines
