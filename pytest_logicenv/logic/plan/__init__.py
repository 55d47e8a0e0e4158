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

The modules (this package re-exports their public names; import from here): :mod:`.plan_model`
(the types), :mod:`.plan_json` (ours), :mod:`.paper` (the paper's form) with :mod:`.names`
(ids derived from its text), :mod:`.documents` (any form, from a document or a file) and
:mod:`.problems` (collecting a document's shape problems), and :mod:`.reading` (a plan in plain
English, as a person reviews it).
"""

from pytest_logicenv.logic.plan.documents import load_plan, plan_from_document, plan_type_file
from pytest_logicenv.logic.plan.names import answer_value, question_name, slug
from pytest_logicenv.logic.plan.paper import plan_from_paper
from pytest_logicenv.logic.plan.plan_json import (
    PLAN_FORMAT,
    dump_plan,
    plan_from_json,
    plan_to_json,
)
from pytest_logicenv.logic.plan.plan_model import (
    Factor,
    Leaf,
    Node,
    Plan,
    Query,
    Subtask,
    iter_nodes,
    located_facts,
    type_names,
)
from pytest_logicenv.logic.plan.reading import plan_reading

__all__ = [
    "PLAN_FORMAT",
    "Factor",
    "Leaf",
    "Node",
    "Plan",
    "Query",
    "Subtask",
    "answer_value",
    "dump_plan",
    "iter_nodes",
    "load_plan",
    "located_facts",
    "plan_from_document",
    "plan_from_json",
    "plan_from_paper",
    "plan_reading",
    "plan_to_json",
    "plan_type_file",
    "question_name",
    "slug",
    "type_names",
]
