"""Depth-first search for one feasible trajectory that holds given paths.

The strategies that honour a feasibility rule (``minimal``, ``pairwise``) use it to cover a
path, or a pair of paths, that their fast construction left uncovered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pytest_logicenv.logic.trajectories.paths import Combo, DecisionPath, Feasible, Paths

#: Candidate trajectories a search may test before it gives up on a path.
SEARCH_BUDGET = 20_000

#: The order in which a search tries subtask ``k``'s path indices.
Preference = Callable[[int], Sequence[int]]


def search(
    paths: Paths, fixed: dict[int, int], preference: Preference, feasible: Feasible
) -> Combo | None:
    """Depth-first search for a feasible combination that holds the ``fixed`` path indices,
    trying each subtask's paths in ``preference(k)`` order, within :data:`SEARCH_BUDGET`."""
    budget = [SEARCH_BUDGET]
    chosen: list[DecisionPath] = []

    def dfs(k: int) -> Combo | None:
        if k == len(paths):
            budget[0] -= 1
            combo = tuple(chosen)
            return combo if feasible(combo) else None
        options = [fixed[k]] if k in fixed else preference(k)
        for j in options:
            if budget[0] <= 0:
                return None
            chosen.append(paths[k][j])
            found = dfs(k + 1)
            chosen.pop()
            if found is not None:
                return found
        return None

    return dfs(0)
