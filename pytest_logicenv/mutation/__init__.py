"""Policy mutation: faulty twins of a policy, made from the faults programmers make, and the
mutation score of the environments that must tell them apart.

The paper measures fault detection with faulty policies written by hand. Mutation makes them
from any policy, py_trees or BehaviorTree.CPP XML alike, so that users measure their own
environments: a mutant the scenes cannot tell from the policy (a *survivor*) is a situation no
scene has, or a change nothing can see.

* :mod:`~pytest_logicenv.mutation.tree`: a built tree as the operators see it (sequences,
  fallbacks, actions, conditions), addressed by paths, edited, and its signature;
* :mod:`~pytest_logicenv.mutation.task_knowledge`: what the plan says that operators need (roles
  and their types, the goals' atoms, what is inside what);
* :mod:`~pytest_logicenv.mutation.operators`: the operators and the fault class each models;
* :mod:`~pytest_logicenv.mutation.mutants`: a policy's mutants as policies, the equivalent
  and duplicate ones discarded;
* :mod:`~pytest_logicenv.mutation.scores`: mutants run in a scene, and the score over scenes.

The plugin's side is ``session/mutate.py`` (``--logicenv-mutate``) and the report's
``report/mutation.py``. The names below are imported on first use: the report reads scores
without loading the operators and py_trees.

>>> from pytest_logicenv.mutation import mutants_of
>>> mutants_of.__module__
'pytest_logicenv.mutation.mutants'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_logicenv.deferred import deferred_names

if TYPE_CHECKING:
    from pytest_logicenv.mutation.mutants import MutantPolicy, Mutants, factory, mutants_of
    from pytest_logicenv.mutation.operators import OPERATORS, Edit, Mutation, Operator
    from pytest_logicenv.mutation.scores import (
        FAULT_CLASSES,
        NOTHING_TO_MUTATE,
        MutantVerdict,
        MutationReport,
        PolicyScore,
        run_mutants,
        score_policy,
    )

_MUTANTS = "pytest_logicenv.mutation.mutants"
_OPERATORS = "pytest_logicenv.mutation.operators"
_RESULTS = "pytest_logicenv.mutation.scores"
#: Public name -> the module that defines it.
_LAZY = {
    "MutantPolicy": _MUTANTS,
    "Mutants": _MUTANTS,
    "factory": _MUTANTS,
    "mutants_of": _MUTANTS,
    "OPERATORS": _OPERATORS,
    "Edit": _OPERATORS,
    "Mutation": _OPERATORS,
    "Operator": _OPERATORS,
    "FAULT_CLASSES": _RESULTS,
    "NOTHING_TO_MUTATE": _RESULTS,
    "MutantVerdict": _RESULTS,
    "MutationReport": _RESULTS,
    "PolicyScore": _RESULTS,
    "run_mutants": _RESULTS,
    "score_policy": _RESULTS,
}

__all__ = [
    "FAULT_CLASSES",
    "NOTHING_TO_MUTATE",
    "OPERATORS",
    "Edit",
    "MutantPolicy",
    "MutantVerdict",
    "Mutants",
    "Mutation",
    "MutationReport",
    "Operator",
    "PolicyScore",
    "factory",
    "mutants_of",
    "run_mutants",
    "score_policy",
]

__getattr__ = deferred_names(__name__, _LAZY)
