"""The facts language: what a scene must contain, and what must hold when a task is done.

One small JSON language serves four purposes: a factor value's *realization* (the scene facts
that make "the wet wipes are on the table" true), a decision-tree leaf's *goal*, a plan's fixed
*setting* (the sofa and the toy boxes present in every scene), and *coverage* (a condition is
covered when its facts are found true in a scene that was run). One evaluator answers a fact on
anything that implements the small :class:`World` protocol: a generated Scene and the
simulator's world state both do, so "the scene realizes the trajectory" and "the goal holds"
are the same code.

References name objects. A reference that starts with an upper-case letter is an object *type*
(AI2-THOR's vocabulary: ``Sofa``, ``Apple``; ``Floor`` is the floor of the object's room);
any other reference is a *role* (``red_box``), bound by an ``"as"`` in an ``exists`` fact.

>>> fact = parse_fact({"exists": "Toy", "as": "toy", "where": {"on": "Floor"},
...                    "attrs": {"kind": "doll"}})
>>> describe(fact)
'a Toy (toy) on Floor with kind=doll'
>>> to_json(parse_fact({"in": ["toy", "red_box"]}))
{'in': ['toy', 'red_box']}

The forms, what a ``where`` may hold and the states are listed in
``docs/reference/facts.md``; states are the booleans of :data:`STATES`.

Where the language lives, one concept per module (this package re-exports every public name,
so ``from pytest_logicenv.logic.facts import ...`` is the import to use):

* :mod:`.fact_model`: the vocabulary (states, ``Floor``) and one frozen dataclass per form;
* :mod:`.fact_json`: :func:`parse_fact` (one small reader per form, dispatched through
  ``READERS``) and :func:`to_json`;
* :mod:`.walk`: :func:`walk`, :func:`references`, :func:`bound_roles`;
* :mod:`.describe`: :func:`describe`, the English rendering (:func:`goal_text`, a goal fact
  in the goal's words);
* :mod:`.evaluate`: the :class:`World` protocol, :func:`evaluate` and its variants.

**Adding a fact form** (say ``{"part": [a, b]}``): a dataclass in ``fact_model.py`` joined to the
``Fact`` union; a reader in ``fact_json.py`` and its line in ``READERS`` (the listed order is
the order keywords are tried) and in the unknown-fact message; then one ``case`` in each of
``to_json``, ``describe``, ``walk._own_references`` and ``evaluate._holds``. Each ``match``
ends in ``not_a_fact``, so ``mypy`` names every function that still lacks the new case; and
a row in ``docs/reference/facts.md``.

**Adding a where qualifier** (say ``"of": "TVStand"``): a field on ``Where`` (and its
``is_empty``) in ``fact_model.py``, its key in ``fact_json.WHERE_KEYS`` and a line in
``read_where``/``where_json``; then ``walk.where_references`` if it names an object,
``describe.where_text`` and ``evaluate._is_where``; and its key in ``docs/reference/facts.md``
(a test checks it is there).
"""

from pytest_logicenv.logic.facts.describe import describe, goal_text
from pytest_logicenv.logic.facts.evaluate import (
    ObjectView,
    World,
    evaluate,
    evaluate_all,
    false_facts,
    matches,
    role_names,
    selected,
)
from pytest_logicenv.logic.facts.fact_json import parse_fact, parse_facts, to_json
from pytest_logicenv.logic.facts.fact_model import (
    EXCLUSIVE_STATES,
    FLOOR,
    INNER_PARTS,
    RELATIONS,
    STATE_ALIASES,
    STATES,
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
    Where,
    canonical_state,
    is_type_ref,
)
from pytest_logicenv.logic.facts.walk import bound_roles, references, walk

__all__ = [
    "EXCLUSIVE_STATES",
    "FLOOR",
    "INNER_PARTS",
    "RELATIONS",
    "STATES",
    "STATE_ALIASES",
    "Absent",
    "And",
    "Attr",
    "Exists",
    "Fact",
    "Held",
    "Not",
    "ObjectView",
    "Or",
    "Related",
    "State",
    "Where",
    "World",
    "bound_roles",
    "canonical_state",
    "describe",
    "evaluate",
    "evaluate_all",
    "false_facts",
    "goal_text",
    "is_type_ref",
    "matches",
    "parse_fact",
    "parse_facts",
    "references",
    "role_names",
    "selected",
    "to_json",
    "walk",
]
