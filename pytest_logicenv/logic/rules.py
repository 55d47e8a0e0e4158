"""Rule checks on a plan (paper 4.2): independence, syntax, grounding.

The paper refines LLM plans in a loop: rule checks find what is wrong, and the errors go back
to the model. The same checks guard hand-written plans. Each problem is a
:class:`~pytest_logicenv.errors.Violation` with a code, a location in the plan and a message
that says what to change, readable by a person and usable as feedback to an LLM.

* ``independence``: no factor is shared across subtasks (by id, by question, or by a query
  that asks about another subtask's factor).
* ``syntax``: well-formed trees (a query has branches, a leaf has an action), non-empty
  domains, unique subtask names, factor ids and values, names fit for test ids.
* ``grounding``: every query names a factor of its own subtask, its branches are exactly the
  factor's domain, no factor is asked twice on one path or never asked, and facts use known
  object types and roles bound by some ``exists ... as``.

>>> from pytest_logicenv.logic.plan import Factor, Leaf, Plan, Query, Subtask
>>> window = Factor("window", "Is the window open?", ("yes", "no"))
>>> tree = Query("window", (("yes", Leaf("Close it.")),))
>>> for violation in check_plan(Plan("", (Subtask("window", (window,), tree),))):
...     print(violation.code, violation.location)
...     print(violation.message)
grounding subtasks[0](window).tree
the query on 'window' has no branch for value 'no'; add one (every value of the factor's ...
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Collection, Iterable

from pytest_logicenv.errors import PlanError, Violation
from pytest_logicenv.logic.facts import FLOOR, bound_roles, is_type_ref, references
from pytest_logicenv.logic.plan import Leaf, Node, Plan, Query, Subtask, located_facts

_NAME = re.compile(r"^[a-z0-9][a-z0-9_]*$")


def check_plan(
    plan: Plan,
    *,
    known_types: Collection[str] | None = None,
    require_facts: bool = False,
) -> list[Violation]:
    """Every rule violation of ``plan``, in document order.

    ``known_types`` (the catalog's types) enables the type check of facts; ``require_facts``
    makes a missing realization of a factor value an error (the plugin needs facts to build
    scenes; the paper's plain form has none).
    """
    violations: list[Violation] = []
    violations += _check_syntax(plan)
    violations += _check_independence(plan)
    for i, subtask in enumerate(plan.subtasks):
        violations += _check_grounding(subtask, f"subtasks[{i}]({subtask.name})")
    violations += _check_facts(plan, known_types, require_facts)
    return violations


def validate_plan(
    plan: Plan,
    source: str = "plan",
    *,
    known_types: Collection[str] | None = None,
    require_facts: bool = False,
) -> Plan:
    """Return ``plan`` unchanged, or raise a :class:`PlanError` listing every violation."""
    violations = check_plan(plan, known_types=known_types, require_facts=require_facts)
    if violations:
        raise PlanError(source, violations)
    return plan


def _duplicates(items: Iterable[str]) -> list[str]:
    return [item for item, count in Counter(items).items() if count > 1]


def _check_syntax(plan: Plan) -> list[Violation]:
    found: list[Violation] = []
    if not plan.subtasks:
        found.append(Violation("syntax", "subtasks", "the plan has no subtasks; add at least one"))
    for name in _duplicates(s.name for s in plan.subtasks):
        found.append(
            Violation("syntax", "subtasks", f"two subtasks are named {name!r}; rename one")
        )
    for factor_id in _duplicates(f.id for f in plan.factors):
        found.append(
            Violation("syntax", "factors", f"factor id {factor_id!r} is defined twice; rename one")
        )
    for i, subtask in enumerate(plan.subtasks):
        where = f"subtasks[{i}]({subtask.name})"
        if not _NAME.match(subtask.name):
            found.append(
                Violation(
                    "syntax",
                    f"{where}.name",
                    f"subtask name {subtask.name!r} must be lower case letters, digits and "
                    "underscores (it becomes part of test ids)",
                )
            )
        for j, factor in enumerate(subtask.factors):
            at = f"{where}.factors[{j}]({factor.id})"
            if not _NAME.match(factor.id):
                found.append(
                    Violation(
                        "syntax",
                        f"{at}.id",
                        f"factor id {factor.id!r} must be lower case letters, digits and "
                        "underscores",
                    )
                )
            if not factor.domain:
                found.append(
                    Violation(
                        "syntax",
                        f"{at}.domain",
                        "the domain is empty; list the factor's possible values",
                    )
                )
            elif len(factor.domain) == 1:
                found.append(
                    Violation(
                        "syntax",
                        f"{at}.domain",
                        f"a factor with one value ({factor.domain[0]!r}) is not uncertain; "
                        "add the other values or drop the factor",
                    )
                )
            for value in _duplicates(factor.domain):
                found.append(Violation("syntax", f"{at}.domain", f"value {value!r} appears twice"))
            for value in factor.domain:
                if not _NAME.match(value):
                    found.append(
                        Violation(
                            "syntax",
                            f"{at}.domain",
                            f"value {value!r} must be lower case letters, digits and "
                            "underscores (put the original wording in 'answers')",
                        )
                    )
        found += _check_tree_shape(subtask.tree, f"{where}.tree")
    return found


def _check_tree_shape(node: Node, where: str) -> list[Violation]:
    if isinstance(node, Leaf):
        if not node.action.strip():
            return [Violation("syntax", where, "a leaf needs an action text, e.g. 'Do nothing.'")]
        return []
    found: list[Violation] = []
    if not node.branches:
        found.append(Violation("syntax", where, f"the query on {node.factor!r} has no branches"))
    for value in _duplicates(v for v, _ in node.branches):
        found.append(Violation("syntax", where, f"branch {value!r} appears twice"))
    for value, child in node.branches:
        found += _check_tree_shape(child, f"{where}.branches.{value}")
    return found


def _check_independence(plan: Plan) -> list[Violation]:
    found: list[Violation] = []
    owner: dict[str, str] = {}
    for subtask in plan.subtasks:
        for factor in subtask.factors:
            owner.setdefault(factor.id, subtask.name)
    questions: dict[str, str] = {}
    for i, subtask in enumerate(plan.subtasks):
        where = f"subtasks[{i}]({subtask.name})"
        for factor in subtask.factors:
            if owner.get(factor.id) not in (None, subtask.name):
                found.append(
                    Violation(
                        "independence",
                        f"{where}.factors",
                        f"factor {factor.id!r} also belongs to subtask {owner[factor.id]!r}; "
                        "subtasks must not share factors: merge the two subtasks, or give each "
                        "its own factor",
                    )
                )
            key = " ".join(factor.question.lower().split())
            other = questions.setdefault(key, subtask.name)
            if other != subtask.name:
                found.append(
                    Violation(
                        "independence",
                        f"{where}.factors",
                        f"the question {factor.question!r} is also asked in subtask {other!r}; "
                        "one uncertain factor belongs to one subtask: merge them",
                    )
                )
        own = {f.id for f in subtask.factors}
        for location, node in _queries(subtask.tree, f"{where}.tree"):
            if node.factor not in own and owner.get(node.factor) not in (None, subtask.name):
                found.append(
                    Violation(
                        "independence",
                        location,
                        f"the query asks about {node.factor!r}, a factor of subtask "
                        f"{owner[node.factor]!r}; a subtask may only ask about its own factors",
                    )
                )
    return found


def _queries(node: Node, where: str) -> Iterable[tuple[str, Query]]:
    if isinstance(node, Query):
        yield where, node
        for value, child in node.branches:
            yield from _queries(child, f"{where}.branches.{value}")


def _check_grounding(subtask: Subtask, where: str) -> list[Violation]:
    found: list[Violation] = []
    factors = {f.id: f for f in subtask.factors}
    asked: set[str] = set()

    def visit(node: Node, location: str, on_path: tuple[str, ...]) -> None:
        if isinstance(node, Leaf):
            return
        asked.add(node.factor)
        factor = factors.get(node.factor)
        if factor is None:
            known = ", ".join(factors) or "none"
            found.append(
                Violation(
                    "grounding",
                    location,
                    f"the query asks about {node.factor!r}, which subtask {subtask.name!r} does "
                    f"not define (its factors: {known}); fix the name or add the factor",
                )
            )
        else:
            if node.factor in on_path:
                found.append(
                    Violation(
                        "grounding",
                        location,
                        f"{node.factor!r} is asked again below its own answer; remove the "
                        "repeated query",
                    )
                )
            labels = [value for value, _ in node.branches]
            for value in factor.domain:
                if value not in labels:
                    found.append(
                        Violation(
                            "grounding",
                            location,
                            f"the query on {node.factor!r} has no branch for value {value!r}; "
                            "add one (every value of the factor's domain needs a branch)",
                        )
                    )
            for value in labels:
                if value not in factor.domain:
                    found.append(
                        Violation(
                            "grounding",
                            f"{location}.branches.{value}",
                            f"branch {value!r} is not a value of {node.factor!r} "
                            f"(domain: {', '.join(factor.domain)}); rename it or remove it",
                        )
                    )
        for value, child in node.branches:
            visit(child, f"{location}.branches.{value}", (*on_path, node.factor))

    visit(subtask.tree, f"{where}.tree", ())
    for j, factor in enumerate(subtask.factors):
        if factor.id not in asked:
            found.append(
                Violation(
                    "grounding",
                    f"{where}.factors[{j}]({factor.id})",
                    f"factor {factor.id!r} is never asked in the tree; ask it or remove it",
                )
            )
    return found


def _did_you_mean(name: str, candidates: Collection[str]) -> str:
    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _check_facts(
    plan: Plan, known_types: Collection[str] | None, require_facts: bool
) -> list[Violation]:
    found: list[Violation] = []
    located = list(located_facts(plan))
    roles: set[str] = set()
    for _, fact in located:
        roles |= set(bound_roles(fact))
    for location, fact in located:
        for ref in sorted(references(fact)):
            if ref in (FLOOR, "floor"):
                continue
            if is_type_ref(ref):
                if known_types is not None and ref not in known_types:
                    found.append(
                        Violation(
                            "grounding",
                            location,
                            f"unknown object type {ref!r}{_did_you_mean(ref, known_types)}; "
                            "use a catalog type (`logicenv types` lists them) or add a custom "
                            "type",
                        )
                    )
            elif ref not in roles:
                found.append(
                    Violation(
                        "grounding",
                        location,
                        f"role {ref!r} is never bound{_did_you_mean(ref, roles)}; bind it "
                        f'with an exists fact (e.g. {{"exists": "Sofa", "as": "{ref}"}}) in the '
                        "setting or a realization, or refer to a type (capitalized) instead",
                    )
                )
    for i, subtask in enumerate(plan.subtasks):
        for j, factor in enumerate(subtask.factors):
            at = f"subtasks[{i}]({subtask.name}).factors[{j}]({factor.id}).realization"
            for value in factor.realizations:
                if value not in factor.domain:
                    found.append(
                        Violation(
                            "grounding",
                            f"{at}.{value}",
                            f"{value!r} is not a value of {factor.id!r} "
                            f"(domain: {', '.join(factor.domain)})",
                        )
                    )
            if require_facts:
                for value in factor.domain:
                    if not factor.realizations.get(value):
                        found.append(
                            Violation(
                                "facts",
                                f"{at}.{value}",
                                f"no realization facts for {factor.id}={value}: say what a "
                                'scene must contain for it, e.g. [{"exists": "Toy", "where": '
                                '{"on": "Floor"}}]',
                            )
                        )
    return found
