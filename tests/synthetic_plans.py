"""Synthetic plans of a given size, to test and benchmark trajectory selection.

>>> plan = synthetic_plan(3, 4)
>>> len(plan.subtasks), [len(s.factors[0].domain) for s in plan.subtasks]
(3, [4, 4, 4])
"""

from __future__ import annotations

from pytest_logicenv.logic.plan import Factor, Leaf, Plan, Query, Subtask


def synthetic_plan(subtasks: int, paths: int) -> Plan:
    """``subtasks`` independent subtasks, each one query with ``paths`` answers."""
    built = []
    for k in range(subtasks):
        values = tuple(f"v{j}" for j in range(paths))
        factor = Factor(f"f{k}", f"Which value does factor {k} take?", values)
        tree = Query(factor.id, tuple((v, Leaf(f"Handle {v}.")) for v in values))
        built.append(Subtask(f"s{k}", (factor,), tree))
    return Plan(task=f"synthetic {subtasks}x{paths}", subtasks=tuple(built))
