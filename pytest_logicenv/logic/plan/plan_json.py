"""Our JSON form of a plan (``{"format": "logicenv-plan/1", ...}``), written and read back.

It carries realization and goal facts and round-trips exactly. Reading reports every shape
problem of a document at once, in one :class:`~pytest_logicenv.errors.PlanError`.

>>> from pytest_logicenv.logic.plan.plan_model import Factor, Leaf, Plan, Query, Subtask
>>> window = Factor("window", "Is the window open?", ("yes", "no"))
>>> tree = Query("window", (("yes", Leaf("Close it.")), ("no", Leaf("Do nothing."))))
>>> plan = Plan("Close the window.", (Subtask("window", (window,), tree),))
>>> plan_from_json(plan_to_json(plan)) == plan
True
>>> plan_from_json({"format": PLAN_FORMAT, "task": 3, "subtasks": []})
Traceback (most recent call last):
...
pytest_logicenv.errors.PlanError: plan: 1 problem
  [syntax] task: the task description must be a string, got 3
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from typing import Any

from pytest_logicenv.bounded import shown
from pytest_logicenv.errors import FactError, PlanError, Violation
from pytest_logicenv.logic.facts import Fact, parse_facts, to_json
from pytest_logicenv.logic.plan.plan_model import Factor, Leaf, Node, Plan, Query, Subtask
from pytest_logicenv.logic.plan.problems import Problems

#: Version of our plan JSON format.
PLAN_FORMAT = "logicenv-plan/1"
#: The keys each part of the document may have. Besides them, comments are welcome: keys
#: starting with ``_`` and those of :data:`COMMENT_KEYS`.
KEYS = {
    "plan": ("format", "task", "rooms", "types", "setting", "subtasks", "decomposition"),
    "subtask": ("name", "factors", "tree"),
    "factor": ("id", "question", "domain", "answers", "realization"),
    "query": ("query", "branches"),
    "leaf": ("action", "goal"),
}
COMMENT_KEYS = ("note", "notes", "comment", "description")

# --------------------------------------------------------------------------- writing


def _facts_json(facts: tuple[Fact, ...]) -> list[dict[str, Any]]:
    return [to_json(fact) for fact in facts]


def _node_json(node: Node) -> dict[str, Any]:
    if isinstance(node, Leaf):
        return {"action": node.action, "goal": _facts_json(node.goal)}
    return {"query": node.factor, "branches": {v: _node_json(c) for v, c in node.branches}}


def _factor_json(factor: Factor) -> dict[str, Any]:
    return {
        "id": factor.id,
        "question": factor.question,
        "domain": list(factor.domain),
        "answers": dict(factor.answers),
        "realization": {v: _facts_json(fs) for v, fs in factor.realizations.items()},
    }


def _subtask_json(subtask: Subtask) -> dict[str, Any]:
    return {
        "name": subtask.name,
        "factors": [_factor_json(f) for f in subtask.factors],
        "tree": _node_json(subtask.tree),
    }


def plan_to_json(plan: Plan) -> dict[str, Any]:
    """Our JSON form of a plan (``plan_from_json`` reads it back to an equal plan)."""
    document: dict[str, Any] = {"format": PLAN_FORMAT, "task": plan.task, "rooms": list(plan.rooms)}
    if plan.types:  # left out without one: existing plans keep their text
        document["types"] = plan.types
    document["setting"] = _facts_json(plan.setting)
    document["subtasks"] = [_subtask_json(subtask) for subtask in plan.subtasks]
    return document


def dump_plan(plan: Plan) -> str:
    """Our JSON form as text, indented for review in pull requests."""
    return json.dumps(plan_to_json(plan), indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- reading


class _Reader(Problems):
    """Reads each part of the document, noting a problem and going on with a stand-in."""

    def known_keys(self, data: Mapping[str, Any], part: str, location: str) -> None:
        """A key the part does not have is a typo (``"setings"``), not something to drop
        silently and then report as the dozen problems its absence causes."""
        allowed = KEYS[part]
        for key in data:
            if key in allowed or key in COMMENT_KEYS or str(key).startswith("_"):
                continue
            close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}?" if close else f"a {part} has {', '.join(allowed)}"
            where = f"{location}.{key}" if location else str(key)
            self.fail(
                where, f"unknown key {shown(key)} ({hint}); comments go under keys starting _"
            )

    def text(self, data: Mapping[str, Any], key: str, location: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{location}.{key}", f"expected a non-empty string, got {shown(value)}")
            return ""
        return value

    def items(self, data: Mapping[str, Any], key: str, location: str, message: str) -> list[Any]:
        """``data[key]`` when it is a list, else no items."""
        value = data.get(key)
        if not isinstance(value, list):
            self.fail(location, message)
            return []
        return value

    def mapping(
        self, data: Mapping[str, Any], key: str, location: str, message: str
    ) -> Mapping[Any, Any]:
        """``data[key]`` when it is an object (missing or empty: an empty one)."""
        value = data.get(key) or {}
        if not isinstance(value, Mapping):
            self.fail(f"{location}.{key}", message)
            return {}
        return value

    def facts(self, data: Any, location: str) -> tuple[Fact, ...]:
        try:
            return parse_facts(data, location)
        except FactError as error:
            self.violations.append(Violation("facts", error.location, error.reason))
            return ()

    def node(self, data: Any, location: str) -> Node:
        if not isinstance(data, Mapping):
            self.fail(location, "a tree node must be an object with 'query' or 'action'")
            return Leaf("")
        if "query" in data:
            self.known_keys(data, "query", location)
            return self.query(data, location)
        if "action" in data:
            self.known_keys(data, "leaf", location)
            return self.leaf(data, location)
        self.fail(location, "a tree node needs 'query' (a decision) or 'action' (a leaf)")
        return Leaf("")

    def query(self, data: Mapping[str, Any], location: str) -> Query:
        branches = data.get("branches")
        if not isinstance(branches, Mapping):  # required, so no "or {}" as for answers
            self.fail(f"{location}.branches", "a query needs 'branches': {value: node}")
            branches = {}
        factor = data["query"] if isinstance(data["query"], str) else ""
        if not factor:
            self.fail(f"{location}.query", "name the factor this node asks about")
        return Query(
            factor,
            tuple(
                (str(value), self.node(child, f"{location}.branches.{value}"))
                for value, child in branches.items()
            ),
        )

    def leaf(self, data: Mapping[str, Any], location: str) -> Leaf:
        action = data["action"] if isinstance(data["action"], str) else ""
        if not isinstance(data["action"], str):
            self.fail(f"{location}.action", "a leaf's action must be a string")
        return Leaf(action, self.facts(data.get("goal"), f"{location}.goal"))

    def domain(self, data: Mapping[str, Any], location: str) -> tuple[str, ...]:
        domain = data.get("domain")
        if not isinstance(domain, list) or not all(isinstance(v, str) for v in domain):
            self.fail(f"{location}.domain", f"expected a list of value names, got {shown(domain)}")
            return ()
        return tuple(domain)

    def factor(self, data: Any, location: str) -> Factor:
        if not isinstance(data, Mapping):
            self.fail(location, "a factor must be an object with id, question and domain")
            return Factor("", "", ())
        self.known_keys(data, "factor", location)
        domain = self.domain(data, location)
        answers = self.mapping(data, "answers", location, "expected an object {value: answer text}")
        realization = self.mapping(
            data, "realization", location, "expected an object {value: [facts]}"
        )
        return Factor(
            id=self.text(data, "id", location),
            question=self.text(data, "question", location),
            domain=domain,
            answers={str(k): str(v) for k, v in answers.items()},
            realizations={
                str(value): self.facts(facts, f"{location}.realization.{value}")
                for value, facts in realization.items()
            },
        )

    def subtask(self, data: Any, location: str) -> Subtask | None:
        if not isinstance(data, Mapping):
            self.fail(location, "a subtask must be an object with name, factors and tree")
            return None
        self.known_keys(data, "subtask", location)
        factors = self.items(data, "factors", f"{location}.factors", "expected a list of factors")
        if "tree" not in data:
            self.fail(f"{location}.tree", "missing: every subtask needs a decision tree")
        return Subtask(
            name=self.text(data, "name", location),
            factors=tuple(
                self.factor(f, f"{location}.factors[{j}]") for j, f in enumerate(factors)
            ),
            tree=self.node(data.get("tree"), f"{location}.tree"),
        )

    def rooms(self, data: Mapping[str, Any]) -> tuple[str, ...]:
        rooms = data.get("rooms") or []
        if not isinstance(rooms, list) or not all(isinstance(r, str) for r in rooms):
            self.fail("rooms", "expected a list of room types such as ['Kitchen']")
            return ()
        return tuple(rooms)

    def types(self, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail("types", f"the type file is a path (e.g. 'types.toml'), got {shown(value)}")
            return ""
        return value

    def task(self, value: Any) -> str:
        if not isinstance(value, str):
            self.fail("task", f"the task description must be a string, got {shown(value)}")
            return ""
        return value


def plan_from_json(data: Any, source: str = "plan") -> Plan:
    """Read our plan form; every shape problem is reported at once in one :class:`PlanError`."""
    if not isinstance(data, Mapping):
        raise PlanError(source, [Violation("syntax", "plan", "a plan must be a JSON object")])
    reader = _Reader()
    reader.known_keys(data, "plan", "")
    if data.get("format") != PLAN_FORMAT:
        reader.fail("format", f"expected {PLAN_FORMAT!r}, got {shown(data.get('format'))}")
    subtasks_data = reader.items(data, "subtasks", "subtasks", "expected a list of subtasks")
    rooms = reader.rooms(data)
    subtasks = [reader.subtask(item, f"subtasks[{i}]") for i, item in enumerate(subtasks_data)]
    plan = Plan(
        task=reader.task(data.get("task", "")),
        subtasks=tuple(subtask for subtask in subtasks if subtask is not None),
        setting=reader.facts(data.get("setting"), "setting"),
        rooms=rooms,
        types=reader.types(data["types"]) if "types" in data else "",
    )
    if reader.violations:
        raise PlanError(source, reader.violations)
    return plan
