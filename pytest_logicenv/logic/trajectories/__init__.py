"""Decision paths and the choice of trajectories that cover them (paper 4.3, Algorithm 1).

A *decision path* is one root-to-leaf walk through a subtask's tree; a *trajectory* picks one
path per subtask and so describes one situation the agent may meet. Since subtasks share no
factor, any path of one subtask combines with any path of another.

Strategies, all deterministic:

``minimal`` (the default)
    Covers every path with exactly ``max_k paths(k)`` trajectories, which is the minimum: a
    trajectory holds one path per subtask, so the subtask with the most paths needs that many.
    It walks the path lists side by side and never builds the Cartesian product.
``greedy``
    The paper's Algorithm 1, faithfully: scan the Cartesian product, take trajectories whose
    paths are all new, keep partly new ones as candidates, then add candidates that still bring
    a new path (its final *Update* step).
``pairwise``
    Every pair of paths from two different subtasks appears together in some trajectory
    (combinatorial interaction testing, by the IPOG construction), for policies whose subtasks
    interfere.
``exhaustive``
    The whole product, generated lazily.

>>> from pytest_logicenv.logic.plan import plan_from_paper
>>> plan = plan_from_paper([
...     {"Is there a toy on the floor?": {"YES": {"What type is the toy?": {
...         "doll": "Put it in the red box.", "other": "Put it in the white box."}},
...         "NO": "Do nothing."}},
...     {"Is the window open?": {"YES": "Close it.", "NO": "Do nothing."}}])
>>> [t.id for t in select(plan, "minimal").trajectories]
['toy_type=doll-window=yes', 'toy_type=other-window=no', 'toy=no-window=yes']

The modules (this package re-exports their public names; import from here):

* :mod:`.paths`: decision paths, trajectories, their ids, and comparing trajectory sets;
* :mod:`.selection`: :func:`select`, :class:`Selection` and the strategy registry;
* :mod:`.minimal`, :mod:`.product` (``greedy``, ``exhaustive``), :mod:`.pairwise`: the
  strategies; :mod:`.ipog`: the covering array ``pairwise`` starts from; :mod:`.search`: the
  feasible-trajectory search two of them share.

**Adding a strategy** is one function ``(paths, feasible, notes) -> combinations`` in a module
of its own, plus one line in ``selection.STRATEGY_REGISTRY``; :data:`STRATEGIES`, the
``--strategy`` options and the ``select=`` marker argument follow from the registry.
"""

from pytest_logicenv.logic.plan import Query
from pytest_logicenv.logic.trajectories.pairwise import GREEDY_PAIR_LIMIT
from pytest_logicenv.logic.trajectories.paths import (
    MAX_ID_LENGTH,
    DecisionPath,
    Feasible,
    Step,
    Trajectory,
    jaccard,
    jaccard_index,
    make_trajectory,
    plan_paths,
    situation,
    subtask_paths,
    trajectory_for,
    trajectory_id,
)
from pytest_logicenv.logic.trajectories.product import MAX_PRODUCT, iter_exhaustive
from pytest_logicenv.logic.trajectories.search import SEARCH_BUDGET
from pytest_logicenv.logic.trajectories.selection import (
    STRATEGIES,
    STRATEGY_REGISTRY,
    Selection,
    Strategy,
    select,
)

__all__ = [
    "GREEDY_PAIR_LIMIT",
    "MAX_ID_LENGTH",
    "MAX_PRODUCT",
    "SEARCH_BUDGET",
    "STRATEGIES",
    "STRATEGY_REGISTRY",
    "DecisionPath",
    "Feasible",
    "Query",
    "Selection",
    "Step",
    "Strategy",
    "Trajectory",
    "iter_exhaustive",
    "jaccard",
    "jaccard_index",
    "make_trajectory",
    "plan_paths",
    "select",
    "situation",
    "subtask_paths",
    "trajectory_for",
    "trajectory_id",
]
