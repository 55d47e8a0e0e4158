"""Hypothesis strategies for random, well-formed plans."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from pytest_logicenv.logic.plan import Factor, Leaf, Node, Plan, Query, Subtask


@st.composite
def subtask_trees(draw: st.DrawFn, name: str, max_depth: int = 3) -> Subtask:
    """A random decision tree whose every query asks a fresh factor of this subtask."""
    counter = itertools.count()
    factors: list[Factor] = []

    def node(depth: int) -> Node:
        if depth > 0 and (depth >= max_depth or draw(st.booleans())):
            return Leaf(f"act {draw(st.integers(0, 9))}")
        factor_id = f"{name}_f{next(counter)}"
        values = tuple(f"v{i}" for i in range(draw(st.integers(2, 4))))
        factors.append(Factor(factor_id, f"What is {factor_id}?", values))
        return Query(factor_id, tuple((value, node(depth + 1)) for value in values))

    tree = node(0)
    return Subtask(name, tuple(factors), tree)


@st.composite
def plans(draw: st.DrawFn, max_subtasks: int = 5, max_depth: int = 3) -> Plan:
    count = draw(st.integers(1, max_subtasks))
    subtasks = tuple(draw(subtask_trees(f"s{k}", max_depth)) for k in range(count))
    return Plan(task="random", subtasks=subtasks)
