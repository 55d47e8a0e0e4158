"""The behavior plan: subtasks, their uncertain factors, and one decision tree each.

This is Definition 1 of the reference paper made concrete. A *factor* is
an uncertain environment variable with a finite domain; a ``(factor, value)`` pair is an atomic
condition. Each *subtask* owns its factors (subtasks share none) and a decision tree whose query
nodes ask about one factor, with one branch per value, and whose leaves say what the agent
does and which goal facts must then hold.

Two JSON forms are read:

* ours (``{"format": "logicenv-plan/1", ...}``), which carries realization and goal facts and
  round-trips exactly (:func:`plan_to_json` / :func:`plan_from_json`);
* the paper's plain form (its Table 6; key ``plan`` of ``shared/tasks/*.json``): a list of
  nested ``{question: {answer: subtree-or-action}}`` objects (:func:`plan_from_paper`).
  Factors and their domains are derived from the questions and answers; facts stay absent
  until someone (a person or an LLM) supplies them.

>>> plan = plan_from_paper([{"Is the window open?": {"YES": "Close it.", "NO": "Do nothing."}}],
...                        task="Close the window if it is open.")
>>> plan.subtasks[0].name, plan.subtasks[0].factors[0].domain
('window', ('yes', 'no'))
>>> plan_from_json(plan_to_json(plan)) == plan
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any, TypeAlias

from pytest_logicenv.errors import FactError, PlanError, Violation
from pytest_logicenv.logic.facts import Fact, parse_facts, to_json

#: Version of our plan JSON format.
PLAN_FORMAT = "logicenv-plan/1"


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


# --------------------------------------------------------------------------- our JSON form


def _facts_json(facts: tuple[Fact, ...]) -> list[dict[str, Any]]:
    return [to_json(fact) for fact in facts]


def _node_json(node: Node) -> dict[str, Any]:
    if isinstance(node, Leaf):
        return {"action": node.action, "goal": _facts_json(node.goal)}
    return {"query": node.factor, "branches": {v: _node_json(c) for v, c in node.branches}}


def plan_to_json(plan: Plan) -> dict[str, Any]:
    """Our JSON form of a plan (``plan_from_json`` reads it back to an equal plan)."""
    return {
        "format": PLAN_FORMAT,
        "task": plan.task,
        "rooms": list(plan.rooms),
        "setting": _facts_json(plan.setting),
        "subtasks": [
            {
                "name": subtask.name,
                "factors": [
                    {
                        "id": f.id,
                        "question": f.question,
                        "domain": list(f.domain),
                        "answers": dict(f.answers),
                        "realization": {v: _facts_json(fs) for v, fs in f.realizations.items()},
                    }
                    for f in subtask.factors
                ],
                "tree": _node_json(subtask.tree),
            }
            for subtask in plan.subtasks
        ],
    }


class _Reader:
    """Collects every shape problem of a document instead of stopping at the first."""

    def __init__(self) -> None:
        self.violations: list[Violation] = []

    def fail(self, location: str, message: str) -> None:
        self.violations.append(Violation("syntax", location, message))

    def text(self, data: Mapping[str, Any], key: str, location: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{location}.{key}", f"expected a non-empty string, got {value!r}")
            return ""
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
            branches = data.get("branches")
            if not isinstance(branches, Mapping):
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
        if "action" in data:
            action = data["action"] if isinstance(data["action"], str) else ""
            if not isinstance(data["action"], str):
                self.fail(f"{location}.action", "a leaf's action must be a string")
            return Leaf(action, self.facts(data.get("goal"), f"{location}.goal"))
        self.fail(location, "a tree node needs 'query' (a decision) or 'action' (a leaf)")
        return Leaf("")

    def factor(self, data: Any, location: str) -> Factor:
        if not isinstance(data, Mapping):
            self.fail(location, "a factor must be an object with id, question and domain")
            return Factor("", "", ())
        domain = data.get("domain")
        if not isinstance(domain, list) or not all(isinstance(v, str) for v in domain):
            self.fail(f"{location}.domain", f"expected a list of value names, got {domain!r}")
            domain = []
        answers = data.get("answers") or {}
        if not isinstance(answers, Mapping):
            self.fail(f"{location}.answers", "expected an object {value: answer text}")
            answers = {}
        realization = data.get("realization") or {}
        if not isinstance(realization, Mapping):
            self.fail(f"{location}.realization", "expected an object {value: [facts]}")
            realization = {}
        return Factor(
            id=self.text(data, "id", location),
            question=self.text(data, "question", location),
            domain=tuple(domain),
            answers={str(k): str(v) for k, v in answers.items()},
            realizations={
                str(value): self.facts(facts, f"{location}.realization.{value}")
                for value, facts in realization.items()
            },
        )


def _task_text(reader: _Reader, value: Any) -> str:
    if not isinstance(value, str):
        reader.fail("task", f"the task description must be a string, got {value!r}")
        return ""
    return value


def plan_from_json(data: Any, source: str = "plan") -> Plan:
    """Read our plan form; every shape problem is reported at once in one :class:`PlanError`."""
    reader = _Reader()
    if not isinstance(data, Mapping):
        raise PlanError(source, [Violation("syntax", "plan", "a plan must be a JSON object")])
    if data.get("format") != PLAN_FORMAT:
        reader.fail("format", f"expected {PLAN_FORMAT!r}, got {data.get('format')!r}")
    subtasks_data = data.get("subtasks")
    if not isinstance(subtasks_data, list):
        reader.fail("subtasks", "expected a list of subtasks")
        subtasks_data = []
    rooms = data.get("rooms") or []
    if not isinstance(rooms, list) or not all(isinstance(r, str) for r in rooms):
        reader.fail("rooms", "expected a list of room types such as ['Kitchen']")
        rooms = []
    subtasks = []
    for i, item in enumerate(subtasks_data):
        location = f"subtasks[{i}]"
        if not isinstance(item, Mapping):
            reader.fail(location, "a subtask must be an object with name, factors and tree")
            continue
        factors_data = item.get("factors")
        if not isinstance(factors_data, list):
            reader.fail(f"{location}.factors", "expected a list of factors")
            factors_data = []
        if "tree" not in item:
            reader.fail(f"{location}.tree", "missing: every subtask needs a decision tree")
        subtasks.append(
            Subtask(
                name=reader.text(item, "name", location),
                factors=tuple(
                    reader.factor(f, f"{location}.factors[{j}]") for j, f in enumerate(factors_data)
                ),
                tree=reader.node(item.get("tree"), f"{location}.tree"),
            )
        )
    plan = Plan(
        task=_task_text(reader, data.get("task", "")),
        subtasks=tuple(subtasks),
        setting=reader.facts(data.get("setting"), "setting"),
        rooms=tuple(rooms),
    )
    if reader.violations:
        raise PlanError(source, reader.violations)
    return plan


# --------------------------------------------------------------------------- the paper's form

# Words that carry no meaning in a question, for deriving short readable names.
_STOPWORDS = frozenset(
    [
        "there",
        "is",
        "are",
        "a",
        "an",
        "the",
        "any",
        "some",
        "does",
        "do",
        "did",
        "has",
        "have",
        "what",
        "which",
        "where",
        "who",
        "how",
        "it",
        "its",
        "this",
        "that",
        "of",
        "to",
        "for",
        "with",
        "be",
        "being",
        "been",
        "currently",
        "still",
        "my",
        "your",
    ]
)
# Words after which a name should stop ("a toy | on the floor", "the window | open").
_STOP_AFTER = frozenset(
    [
        "on",
        "in",
        "at",
        "inside",
        "under",
        "near",
        "by",
        "from",
        "into",
        "onto",
        "off",
        "open",
        "closed",
        "dirty",
        "clean",
        "empty",
        "full",
        "turned",
        "switched",
        "lit",
        "broken",
        "wet",
        "dry",
        "available",
        "present",
    ]
)


def slug(text: str) -> str:
    """``"Other Types!"`` -> ``"other_types"``: lower case, ``[a-z0-9_]`` only."""
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9]+", "_", text.lower())).strip("_")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def question_name(question: str, exclude: frozenset[str] = frozenset()) -> str:
    """A short name for a question: its first content words, up to two.

    >>> question_name("There is a wet wipe on the table?")
    'wipe'
    >>> question_name("What is the type of the toy on the floor?", frozenset({"toy"}))
    'type'
    """
    picked: list[str] = []
    for word in _words(question):
        if word in _STOPWORDS or word in exclude:
            if picked:
                break
            continue
        if word in _STOP_AFTER:
            if picked:
                break
            continue
        picked.append(word)
        if len(picked) == 2:
            break
    if not picked:  # only state words left ("Is the towel dirty?"): they are the content
        picked = [w for w in _words(question) if w not in _STOPWORDS and w not in exclude][:1]
    return "_".join(picked) or slug(question)[:24] or "factor"


def answer_value(answer: str) -> str:
    """A value id for an answer: ``"YES"`` -> ``"yes"``, ``"in the fridge"`` -> ``"fridge"``."""
    words = _words(answer)
    while len(words) > 1 and words[0] in {"in", "on", "at", "the", "a", "an", "inside", "under"}:
        words = words[1:]
    return "_".join(words) or "value"


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}_{n}", n + 1
    taken.add(candidate)
    return candidate


class _PaperTree:
    """Reads one subtask tree of the paper's form, deriving its factors on the way."""

    def __init__(self, reader: _Reader, name: str, taken_factors: set[str]) -> None:
        self.reader = reader
        self.name = name
        self.taken_factors = taken_factors
        self.factors: dict[str, Factor] = {}  # question -> factor, in order of appearance

    def read(self, node: Any, where: str) -> Node:
        if isinstance(node, str):
            return Leaf(node)
        if not isinstance(node, Mapping) or len(node) != 1:
            self.reader.fail(
                where,
                "expected an action string or an object with exactly one question, "
                f"got {json.dumps(node)[:80]}",
            )
            return Leaf("")
        question, answers = next(iter(node.items()))
        if not isinstance(answers, Mapping) or not answers:
            self.reader.fail(where, f"question {question!r} needs an object of answers")
            return Leaf("")
        values = [answer_value(a) for a in answers]
        if len(set(values)) != len(values):
            values = [slug(a) or f"value_{k}" for k, a in enumerate(answers)]
        factor = self.factors.get(question)
        if factor is None:
            if self.factors:  # a nested question: name it after the subtask and itself
                exclude = frozenset(self.name.split("_"))
                base = f"{self.name}_{question_name(question, exclude)}"
            else:
                base = self.name
            factor = Factor(
                id=_unique(base, self.taken_factors),
                question=question,
                domain=tuple(values),
                answers=dict(zip(values, answers, strict=True)),
            )
            self.factors[question] = factor
        branches = tuple(
            (value, self.read(child, f"{where}.{question!r}.{answer!r}"))
            for value, (answer, child) in zip(values, answers.items(), strict=True)
        )
        return Query(factor.id, branches)


def plan_from_paper(
    data: Any, task: str = "", rooms: tuple[str, ...] = (), source: str = "plan"
) -> Plan:
    """Read the paper's plain plan form (a list of nested question objects).

    Subtask names come from each root question, factor ids from each question (unique across
    the plan), value ids from the answers. Realization and goal facts are left empty.
    """
    reader = _Reader()
    if not isinstance(data, list) or not data:
        raise PlanError(
            source,
            [Violation("syntax", "plan", "the paper's form is a non-empty list of subtask trees")],
        )
    taken_subtasks: set[str] = set()
    taken_factors: set[str] = set()
    subtasks = []
    for i, item in enumerate(data):
        name = ""
        if isinstance(item, Mapping) and len(item) == 1:
            name = _unique(question_name(next(iter(item))), taken_subtasks)
        builder = _PaperTree(reader, name, taken_factors)
        tree = builder.read(item, f"plan[{i}]")
        subtasks.append(Subtask(name or f"subtask_{i + 1}", tuple(builder.factors.values()), tree))
    if reader.violations:
        raise PlanError(source, reader.violations)
    return Plan(task=task, subtasks=tuple(subtasks), rooms=tuple(rooms))


def plan_from_document(data: Any, source: str = "plan") -> Plan:
    """Read any accepted plan document: ours, the paper's list, or a task file with ``plan``."""
    if isinstance(data, Mapping) and "format" in data:
        return plan_from_json(data, source)
    if isinstance(data, Mapping) and "plan" in data:
        rooms = data.get("rooms") or ()
        return plan_from_paper(
            data["plan"],
            task=str(data.get("description", "")),
            rooms=tuple(rooms) if isinstance(rooms, list) else (),
            source=source,
        )
    if isinstance(data, list):
        return plan_from_paper(data, source=source)
    raise PlanError(
        source,
        [
            Violation(
                "syntax",
                "plan",
                f'not a plan: expected our format (with "format": "{PLAN_FORMAT}"), '
                "the paper's list of question trees, or a task file with a 'plan' key",
            )
        ],
    )


def load_plan(path: str | FilePath) -> Plan:
    """Read a plan file in any accepted form; errors name the file."""
    path = FilePath(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PlanError(str(path), [Violation("syntax", "file", "no such file")]) from None
    except OSError as error:
        raise PlanError(str(path), [Violation("syntax", "file", str(error))]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise PlanError(
            str(path),
            [
                Violation(
                    "syntax",
                    f"line {error.lineno} column {error.colno}",
                    f"not valid JSON: {error.msg}",
                )
            ],
        ) from None
    return plan_from_document(data, str(path))


def dump_plan(plan: Plan) -> str:
    """Our JSON form as text, indented for review in pull requests."""
    return json.dumps(plan_to_json(plan), indent=2, ensure_ascii=False) + "\n"
