"""JI against the ground truth's best minimal cover, as a careful judge reads the paper's JI.

A minimal selection of a plan whose subtasks have ``n_1 ... n_k`` paths holds ``max n_i``
situations (one path per subtask each), and there are many: a model's situations are judged
against the one that shares most of them. A set of ``m`` distinct situations lies inside some
minimal cover exactly when, for every subtask, the paths it leaves out fit in the ``max n_i -
m`` situations still free: ``n_i - used_i <= max n_i - m``.

>>> paths = [["a:1", "a:2"], ["b:1", "b:2"]]
>>> best_jaccard(paths, [("a:1", "b:2"), ("a:2", "b:1")]), best_jaccard(paths, [None])
(1.0, 0.0)
>>> best_jaccard(paths, [("a:1", "b:1"), ("a:1", "b:2")])  # no minimal cover holds both
0.3333333333333333
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

#: Subsets of a model's situations tried at most; past it, the largest found so far stands.
MAX_SUBSETS = 50_000

#: A situation by its path keys, one per subtask, in plan order.
Situation = tuple[str, ...]


def best_jaccard(paths: Sequence[Sequence[str]], made: Sequence[Situation | None]) -> float:
    """The Jaccard index of ``made`` (``None``: a scene that realizes no situation, one no
    cover has) against the minimal cover of ``paths`` (path keys per subtask) it best
    matches."""
    size = max((len(group) for group in paths), default=0)
    distinct = sorted({m for m in made if m is not None})
    total = len(distinct) + sum(m is None for m in made)
    shared = _most_shared(paths, distinct, size)
    union = total + size - shared
    return shared / union if union else 1.0


def _most_shared(paths: Sequence[Sequence[str]], made: Sequence[Situation], size: int) -> int:
    tried = 0
    for count in range(min(len(made), size), 0, -1):
        for subset in itertools.combinations(made, count):
            tried += 1
            if tried > MAX_SUBSETS:
                return _greedy(paths, made, size)
            if _fits(paths, subset, size):
                return count
    return 0


def _fits(paths: Sequence[Sequence[str]], subset: Sequence[Situation], size: int) -> bool:
    """Whether ``subset`` can be completed into a cover of ``size`` situations."""
    free = size - len(subset)
    return all(
        len(group) - len({situation[i] for situation in subset}) <= free
        for i, group in enumerate(paths)
    )


def _greedy(paths: Sequence[Sequence[str]], made: Sequence[Situation], size: int) -> int:
    """How many of ``made``, taken in order while they still fit, one cover holds."""
    kept: list[Situation] = []
    for situation in made:
        if _fits(paths, [*kept, situation], size):
            kept.append(situation)
    return len(kept)
