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
* ``consistency``: goal facts that can hold together (within a leaf and across subtasks), and
  factor values whose facts tell them apart (none the same as, or implied by, another's).

One module per family (:mod:`.syntax`, :mod:`.independence`, :mod:`.grounding` for the trees,
:mod:`.plan_facts` for the facts, :mod:`.consistency` for what facts mean together, with
:mod:`.implication`; what they share in :mod:`.common`), each rule
a small generator; a new rule is a function in
its family's module, called where its part of the plan is visited so the violations stay in
document order.

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

from collections.abc import Collection

from pytest_logicenv.errors import PlanError, Violation
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.rules.common import subtask_location
from pytest_logicenv.logic.rules.consistency import check_distinct_values, check_goals
from pytest_logicenv.logic.rules.grounding import check_grounding
from pytest_logicenv.logic.rules.independence import check_independence
from pytest_logicenv.logic.rules.plan_facts import check_facts
from pytest_logicenv.logic.rules.syntax import check_syntax


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
    violations = [*check_syntax(plan), *check_independence(plan)]
    for i, subtask in enumerate(plan.subtasks):
        violations += check_grounding(subtask, subtask_location(i, subtask))
    violations += check_facts(plan, known_types, require_facts)
    violations += [*check_goals(plan), *check_distinct_values(plan)]
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


__all__ = ["check_plan", "validate_plan"]
