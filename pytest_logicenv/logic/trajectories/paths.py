"""Decision paths, trajectories and their ids: what the selection strategies choose among.

A *decision path* is one root-to-leaf walk through a subtask's tree; a *trajectory* picks one
path per subtask and so describes one situation the agent may meet. Since subtasks share no
factor, any path of one subtask combines with any path of another.

>>> from pytest_logicenv.logic.plan import plan_from_paper
>>> plan = plan_from_paper([{"Is the window open?": {"YES": "Close it.", "NO": "Do nothing."}}])
>>> [path.key for path in subtask_paths(plan.subtasks[0])]
['window:window=yes', 'window:window=no']
>>> make_trajectory(plan_paths(plan)[0][:1]).id
'window=yes'
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from pytest_logicenv.errors import SelectionError
from pytest_logicenv.logic.facts import Fact
from pytest_logicenv.logic.plan import Leaf, Node, Plan, Subtask

#: Trajectory ids longer than this keep a readable prefix and end in a hash.
MAX_ID_LENGTH = 80


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
    #: What the path reads as in a trajectory id (``toy_type=doll``; see :func:`_labels`).
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


#: Every subtask's decision paths, in plan order (what :func:`plan_paths` returns).
Paths = Sequence[Sequence[DecisionPath]]
#: One path per subtask, in plan order: a trajectory before it has an id.
Combo = tuple[DecisionPath, ...]
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
    """Labels that read as the condition they stand for: the last answer as ``factor=value``
    (``bowl_empty=no``) where no other path of the subtask ends in it, else the whole path
    (``toy=yes.toy_type=doll``)."""
    lasts = [f"{steps[-1].factor}={steps[-1].value}" if steps else "" for steps in steps_list]
    labels = []
    for steps, last in zip(steps_list, lasts, strict=True):
        if not steps or lasts.count(last) == 1:
            labels.append(last)
        else:
            labels.append(".".join(f"{step.factor}={step.value}" for step in steps))
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


# --------------------------------------------------------------------------- trajectories


def trajectory_id(paths: Sequence[DecisionPath]) -> str:
    """A stable id fit for a pytest id, made of the factor and value ids it answers, one
    label per subtask (``toy_type=doll-book=no-wipe=yes``); hashed when too long. Factor ids
    are unique in a plan and values in a factor, so ids are unique in a selection."""
    text = "-".join(p.label for p in paths if p.label) or "default"
    if len(text) <= MAX_ID_LENGTH:
        return text
    digest = hashlib.sha1(text.encode()).hexdigest()[:10]
    return f"{text[: MAX_ID_LENGTH - 11]}~{digest}"


def make_trajectory(paths: Sequence[DecisionPath]) -> Trajectory:
    return Trajectory(trajectory_id(paths), tuple(paths))


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


# --------------------------------------------------------------------------- comparing sets


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
