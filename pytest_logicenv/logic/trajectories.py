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
['toy=doll-window=yes', 'toy=other-window=no', 'toy=no-window=yes']
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from pytest_logicenv.errors import SelectionError
from pytest_logicenv.logic.facts import Fact
from pytest_logicenv.logic.plan import Leaf, Node, Plan, Query, Subtask

STRATEGIES: tuple[str, ...] = ("minimal", "greedy", "pairwise", "exhaustive")
#: Trajectory ids longer than this keep a readable prefix and end in a hash.
MAX_ID_LENGTH = 80
#: Strategies that walk the Cartesian product refuse products larger than this.
MAX_PRODUCT = 2_000_000
#: Candidate trajectories a search may test before it gives up on a path.
SEARCH_BUDGET = 20_000
_BOOLEAN_VALUES = frozenset({"yes", "no", "true", "false", "y", "n"})


@dataclass(frozen=True)
class Step:
    """One answered question on a path."""

    factor: str
    value: str


@dataclass(frozen=True)
class DecisionPath:
    """A root-to-leaf path through one subtask's tree; ``index`` is its DFS position."""

    subtask: str
    index: int
    steps: tuple[Step, ...]
    leaf: Leaf
    label: str = ""

    @property
    def conditions(self) -> tuple[tuple[str, str], ...]:
        return tuple((step.factor, step.value) for step in self.steps)

    @property
    def key(self) -> str:
        """A readable, unique name: ``toy:toy=yes/toy_type=doll``."""
        return f"{self.subtask}:" + "/".join(f"{s.factor}={s.value}" for s in self.steps)


@dataclass(frozen=True)
class Trajectory:
    """One path per subtask, in plan order: a situation the agent may meet."""

    id: str
    paths: tuple[DecisionPath, ...]

    @property
    def conditions(self) -> tuple[tuple[str, str], ...]:
        """The union of the paths' ``(factor, value)`` conditions, in plan order."""
        return tuple(c for path in self.paths for c in path.conditions)

    @property
    def goal(self) -> tuple[Fact, ...]:
        """The conjunction of the leaves' goal facts."""
        return tuple(fact for path in self.paths for fact in path.leaf.goal)


@dataclass(frozen=True)
class Selection:
    """The trajectories a strategy chose, with what a report needs to judge them."""

    strategy: str
    trajectories: tuple[Trajectory, ...]
    total_paths: int
    combinations: int
    notes: tuple[str, ...] = field(default=())


#: Decides whether a combination of paths (one per subtask, plan order) can exist in a scene.
Feasible = Callable[[Sequence[DecisionPath]], bool]


# --------------------------------------------------------------------------- paths


def _walk(node: Node, steps: tuple[Step, ...]) -> Iterator[tuple[tuple[Step, ...], Leaf]]:
    if isinstance(node, Leaf):
        yield steps, node
        return
    for value, child in node.branches:
        yield from _walk(child, (*steps, Step(node.factor, value)))


def _labels(steps_list: Sequence[tuple[Step, ...]]) -> list[str]:
    """Short labels: the last answer where it is unambiguous, else the whole path."""
    lasts = [steps[-1].value if steps else "" for steps in steps_list]
    labels = []
    for steps, last in zip(steps_list, lasts, strict=True):
        if not steps:
            labels.append("")
        elif lasts.count(last) == 1 and (len(steps) == 1 or last not in _BOOLEAN_VALUES):
            labels.append(last)
        else:
            labels.append(".".join(step.value for step in steps))
    return labels


def subtask_paths(subtask: Subtask) -> tuple[DecisionPath, ...]:
    """The decision paths of one subtask, depth first in branch order."""
    walked = list(_walk(subtask.tree, ()))
    labels = _labels([steps for steps, _ in walked])
    return tuple(
        DecisionPath(subtask.name, i, steps, leaf, label)
        for i, ((steps, leaf), label) in enumerate(zip(walked, labels, strict=True))
    )


def plan_paths(plan: Plan) -> tuple[tuple[DecisionPath, ...], ...]:
    """Every subtask's decision paths, in plan order."""
    return tuple(subtask_paths(subtask) for subtask in plan.subtasks)


def trajectory_id(paths: Sequence[DecisionPath]) -> str:
    """A stable id fit for a pytest id: ``toy=doll-book=no-wipe=yes``, hashed when too long."""
    text = "-".join(f"{p.subtask}={p.label}" for p in paths if p.label) or "default"
    if len(text) <= MAX_ID_LENGTH:
        return text
    digest = hashlib.sha1(text.encode()).hexdigest()[:10]
    return f"{text[: MAX_ID_LENGTH - 11]}~{digest}"


def make_trajectory(paths: Sequence[DecisionPath]) -> Trajectory:
    return Trajectory(trajectory_id(paths), tuple(paths))


# --------------------------------------------------------------------------- strategies


def select(plan: Plan, strategy: str = "minimal", feasible: Feasible | None = None) -> Selection:
    """Choose trajectories for ``plan`` with ``strategy``.

    ``feasible`` excludes combinations that cannot exist; the rest are covered again. A path
    that no feasible trajectory can hold is a :class:`SelectionError` that names it.
    """
    if strategy not in STRATEGIES:
        raise SelectionError(
            f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}"
        )
    paths = plan_paths(plan)
    if not paths:
        raise SelectionError("the plan has no subtasks, so there is nothing to select")
    chosen: list[tuple[DecisionPath, ...]]
    notes: list[str] = []
    if strategy == "minimal":
        chosen = _minimal(paths, feasible)
    elif strategy == "greedy":
        chosen = _greedy(paths, feasible)
    elif strategy == "pairwise":
        chosen = _pairwise(paths, feasible, notes)
    else:
        chosen = list(iter_exhaustive(paths, feasible, limit=MAX_PRODUCT))
    _require_full_coverage(paths, chosen)
    return Selection(
        strategy=strategy,
        trajectories=tuple(make_trajectory(c) for c in chosen),
        total_paths=sum(len(p) for p in paths),
        combinations=math.prod(len(p) for p in paths),
        notes=tuple(notes),
    )


def _require_full_coverage(
    paths: Sequence[Sequence[DecisionPath]], chosen: Sequence[Sequence[DecisionPath]]
) -> None:
    covered = {(p.subtask, p.index) for combo in chosen for p in combo}
    missing = [p for group in paths for p in group if (p.subtask, p.index) not in covered]
    if missing:
        listed = "; ".join(p.key for p in missing)
        raise SelectionError(
            f"no feasible trajectory holds {len(missing)} decision path(s): {listed}. "
            "Either the feasibility rule excludes every combination with them, or the plan "
            "asks for a situation that cannot exist: fix the plan or the rule."
        )


def _search(
    paths: Sequence[Sequence[DecisionPath]],
    fixed: dict[int, int],
    preference: Callable[[int], Sequence[int]],
    feasible: Feasible,
) -> tuple[DecisionPath, ...] | None:
    """Depth-first search for a feasible combination that holds the ``fixed`` path indices,
    trying each subtask's paths in ``preference(k)`` order, within :data:`SEARCH_BUDGET`."""
    budget = [SEARCH_BUDGET]
    chosen: list[DecisionPath] = []

    def dfs(k: int) -> tuple[DecisionPath, ...] | None:
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


def _minimal(
    paths: Sequence[Sequence[DecisionPath]], feasible: Feasible | None
) -> list[tuple[DecisionPath, ...]]:
    counts = [len(group) for group in paths]
    if feasible is None:
        # Side by side: trajectory i takes path i of each subtask, cycling the shorter lists.
        return [
            tuple(group[i % n] for group, n in zip(paths, counts, strict=True))
            for i in range(max(counts))
        ]
    uncovered = [set(range(n)) for n in counts]
    chosen: list[tuple[DecisionPath, ...]] = []
    unreachable: set[tuple[int, int]] = set()
    while True:
        target = next(
            (
                (k, j)
                for k, n in enumerate(counts)
                for j in range(n)
                if j in uncovered[k] and (k, j) not in unreachable
            ),
            None,
        )
        if target is None:
            break
        start = len(chosen)

        def preference(k: int, start: int = start) -> list[int]:
            rotation = [(start + r) % counts[k] for r in range(counts[k])]
            return sorted(rotation, key=lambda index: index not in uncovered[k])

        combo = _search(paths, {target[0]: target[1]}, preference, feasible)
        if combo is None:
            unreachable.add(target)
            continue
        chosen.append(combo)
        for k, path in enumerate(combo):
            uncovered[k].discard(path.index)
    return chosen


def _greedy(
    paths: Sequence[Sequence[DecisionPath]], feasible: Feasible | None
) -> list[tuple[DecisionPath, ...]]:
    """Algorithm 1 of the paper over the Cartesian product, in lexicographic order."""
    size = math.prod(len(group) for group in paths)
    if size > MAX_PRODUCT:
        raise SelectionError(
            f"greedy scans the Cartesian product, here {size:,} combinations (limit "
            f"{MAX_PRODUCT:,}); use --strategy minimal or pairwise for plans this large"
        )
    chosen: list[tuple[DecisionPath, ...]] = []
    candidates: list[tuple[tuple[DecisionPath, ...], frozenset[tuple[int, int]]]] = []
    pool: set[tuple[int, int]] = set()
    for combo in itertools.product(*paths):
        if feasible is not None and not feasible(combo):
            continue
        constraints = frozenset((k, p.index) for k, p in enumerate(combo))
        if pool.isdisjoint(constraints):
            chosen.append(combo)  # prioritize: every constraint is new
            pool |= constraints
        elif not constraints <= pool:
            candidates.append((combo, constraints))  # partly new: keep as a candidate
    for combo, constraints in candidates:  # Update: take candidates that still add something
        if not constraints <= pool:
            chosen.append(combo)
            pool |= constraints
    return chosen


def iter_exhaustive(
    paths: Sequence[Sequence[DecisionPath]],
    feasible: Feasible | None = None,
    limit: int | None = None,
) -> Iterator[tuple[DecisionPath, ...]]:
    """The feasible part of the Cartesian product, lazily, in lexicographic order."""
    size = math.prod(len(group) for group in paths)
    if limit is not None and size > limit:
        raise SelectionError(
            f"exhaustive would make {size:,} trajectories (limit {limit:,}); "
            "use --strategy minimal or pairwise"
        )
    for combo in itertools.product(*paths):
        if feasible is None or feasible(combo):
            yield combo


def _pairwise(
    paths: Sequence[Sequence[DecisionPath]], feasible: Feasible | None, notes: list[str]
) -> list[tuple[DecisionPath, ...]]:
    counts = [len(group) for group in paths]
    if len(paths) < 2:
        return _minimal(paths, feasible)
    rows = _pairwise_rows(counts)
    combos = [tuple(paths[k][j] for k, j in enumerate(row)) for row in rows]
    if feasible is None:
        return combos
    kept = [combo for combo in combos if feasible(combo)]
    covered = _pairs_of([[p.index for p in combo] for combo in kept])
    missing = sorted(_all_pairs(counts) - covered)
    excluded = 0
    while missing:
        (k1, j1, k2, j2) = missing[0]

        def preference(k: int) -> list[int]:
            return list(range(counts[k]))

        combo = _search(paths, {k1: j1, k2: j2}, preference, feasible)
        if combo is None:
            excluded += 1
            missing.pop(0)
            continue
        kept.append(combo)
        covered |= _pairs_of([[p.index for p in combo]])
        missing = [pair for pair in missing if pair not in covered]
    if excluded:
        notes.append(f"{excluded} path pair(s) excluded: no feasible trajectory holds them")
    return kept


def _all_pairs(counts: Sequence[int]) -> set[tuple[int, int, int, int]]:
    return {
        (k1, j1, k2, j2)
        for k1, k2 in itertools.combinations(range(len(counts)), 2)
        for j1 in range(counts[k1])
        for j2 in range(counts[k2])
    }


def _pairs_of(rows: Sequence[Sequence[int]]) -> set[tuple[int, int, int, int]]:
    return {
        (k1, row[k1], k2, row[k2])
        for row in rows
        for k1, k2 in itertools.combinations(range(len(row)), 2)
    }


#: Above this many path pairs only IPOG runs: the row-by-row greedy costs far more time there.
GREEDY_PAIR_LIMIT = 5_000


def _pairwise_rows(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """The smaller of two deterministic covering arrays: IPOG, which grows parameter by
    parameter, and a row-by-row density greedy, which often does better on many parameters
    with few values (4^8: 34 rows against 46)."""
    rows = _ipog(counts)
    if len(_all_pairs(counts)) <= GREEDY_PAIR_LIMIT:
        greedy = _density_rows(counts)
        if len(greedy) < len(rows):
            rows = greedy
    return rows


def _density_rows(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """Rows built one at a time: start from the path that most pairs still lack, then give
    every other subtask the path that covers the most missing pairs with those chosen."""
    missing = _all_pairs(counts)
    rows: list[tuple[int, ...]] = []
    while missing:
        tally: dict[tuple[int, int], int] = {}
        for k1, j1, k2, j2 in missing:
            tally[(k1, j1)] = tally.get((k1, j1), 0) + 1
            tally[(k2, j2)] = tally.get((k2, j2), 0) + 1
        start = max(sorted(tally), key=lambda kv: tally[kv])
        row = {start[0]: start[1]}
        for k in range(len(counts)):
            if k in row:
                continue
            best, best_gain = 0, -1
            for j in range(counts[k]):
                gain = sum(
                    ((q, row[q], k, j) if q < k else (k, j, q, row[q])) in missing for q in row
                )
                if gain > best_gain:
                    best, best_gain = j, gain
            row[k] = best
        chosen = tuple(row[k] for k in range(len(counts)))
        rows.append(chosen)
        missing -= _pairs_of([chosen])
    return rows


def _ipog(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """A pairwise covering array by In-Parameter-Order growth (Lei and Tai), deterministic.

    Parameters are added largest domain first; each is grown horizontally (a value per
    existing row, chosen to cover the most new pairs) and then vertically (rows for the pairs
    still missing, filling don't-care cells before adding rows).
    """
    order = sorted(range(len(counts)), key=lambda k: -counts[k])
    sizes = [counts[k] for k in order]
    rows: list[list[int | None]] = [[a, b] for a in range(sizes[0]) for b in range(sizes[1])]
    for p in range(2, len(sizes)):
        missing = {
            (q, vq, vp) for q in range(p) for vq in range(sizes[q]) for vp in range(sizes[p])
        }
        for r, row in enumerate(rows):
            if r < sizes[p]:
                best = r  # the first rows take each value once, as IPOG prescribes
            else:
                best, best_gain = 0, -1
                for vp in range(sizes[p]):
                    gain = sum((q, row[q], vp) in missing for q in range(p) if row[q] is not None)
                    if gain > best_gain:
                        best, best_gain = vp, gain
            row.append(best)
            missing -= {(q, row[q], best) for q in range(p) if row[q] is not None}
        for q, vq, vp in sorted(missing):
            for row in rows:
                if row[p] == vp and row[q] is None:
                    row[q] = vq
                    break
            else:
                fresh: list[int | None] = [None] * (p + 1)
                fresh[q], fresh[p] = vq, vp
                rows.append(fresh)
    result: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for r, row in enumerate(rows):
        filled = [v if v is not None else r % sizes[q] for q, v in enumerate(row)]
        original = [0] * len(counts)
        for position, k in enumerate(order):
            original[k] = filled[position]
        key = tuple(original)
        if key not in seen:
            seen.add(key)
            result.append(key)
    return result


def jaccard(first: Sequence[Trajectory], second: Sequence[Trajectory]) -> float:
    """Jaccard index of two trajectory sets, comparing trajectories by their conditions
    (paper 5.4); 1.0 for two empty sets."""
    return jaccard_index(
        [frozenset(t.conditions) for t in first], [frozenset(t.conditions) for t in second]
    )


def jaccard_index(first: Iterable[Hashable], second: Iterable[Hashable]) -> float:
    """``|A & B| / |A | B|`` of two collections taken as sets; 1.0 when both are empty."""
    a, b = set(first), set(second)
    return len(a & b) / len(a | b) if a | b else 1.0


def situation(plan: Plan, paths: Sequence[DecisionPath]) -> tuple[tuple[str, str], ...]:
    """The paths' conditions in the plan's own words: ``(question, answer)`` pairs."""
    pairs = []
    for path in paths:
        for step in path.steps:
            factor = plan.factor(step.factor)
            pairs.append((factor.question, factor.answer(step.value)))
    return tuple(pairs)


def trajectory_for(plan: Plan, conditions: Sequence[tuple[str, str]]) -> Trajectory:
    """The trajectory of ``plan`` that ``conditions`` describe (e.g. a scene's provenance):
    per subtask, the longest path all of whose conditions hold."""
    held = set(conditions)
    chosen = []
    for group in plan_paths(plan):
        consistent = [path for path in group if set(path.conditions) <= held]
        if not consistent:
            raise SelectionError(
                f"the conditions {sorted(held)} match no decision path of subtask "
                f"{group[0].subtask!r}; is this scene from another plan?"
            )
        chosen.append(max(consistent, key=lambda path: len(path.steps)))
    return make_trajectory(chosen)


__all__ = [
    "STRATEGIES",
    "DecisionPath",
    "Feasible",
    "Query",
    "Selection",
    "Step",
    "Trajectory",
    "iter_exhaustive",
    "jaccard",
    "make_trajectory",
    "plan_paths",
    "select",
    "situation",
    "subtask_paths",
    "trajectory_for",
    "trajectory_id",
]
