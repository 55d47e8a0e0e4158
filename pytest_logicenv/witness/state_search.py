"""Best-first search over the simulator's world states for a sequence of calls that makes
every goal fact true.

A node is a :class:`~pytest_logicenv.sim.world.WorldState`; its successors are the calls
:func:`~pytest_logicenv.witness.calls.calls` grounds, each performed by the simulator on a
copy of the node's world. Nodes are ordered by ``g + WEIGHT * h`` (weighted A*): ``g`` the
calls so far, ``h`` the estimate of :mod:`~pytest_logicenv.witness.estimate` over the goal
facts still false. Two states that agree on every object's place and states and on the
agent are one (:func:`state_key`), so the search ends when no new state is left: with no
node cut by the step budget, that exhausts every state the actions reach, a proof that no
sequence exists. The clock is read before every call performed, so a scene of thousands of
objects ends within its time budget too.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from pytest_logicenv.logic.facts import Fact
from pytest_logicenv.sim.actions import perform
from pytest_logicenv.sim.world import WorldState
from pytest_logicenv.witness.calls import Call, Refused, calls
from pytest_logicenv.witness.estimate import Estimate

#: How much more the estimate counts than the calls made (> 1: greedier, finds longer
#: sequences faster; measured in docs/explanation/witness.md).
WEIGHT = 2.0


@dataclass(frozen=True)
class Limits:
    """How far one search may go: calls in the sequence, milliseconds, states kept."""

    max_steps: int
    max_ms: float
    max_states: int = 200_000


@dataclass(frozen=True)
class Searched:
    """What one search found: the calls (``None`` when none), whether the whole space was
    exhausted, why it stopped otherwise, the states it saw, the closest one and the goal
    facts (by index) true in some state seen."""

    calls: tuple[Call, ...] | None
    exhausted: bool
    stopped_by: str  # "", "steps", "time" or "states"
    states: int
    elapsed_ms: float
    closest: WorldState
    ever_true: frozenset[int] = frozenset()


@dataclass
class _Node:
    world: WorldState
    calls: tuple[Call, ...]


def state_key(world: WorldState) -> Hashable:
    """What tells two states apart: every object's place and states, and the agent."""
    agent = world.agent
    return (
        agent.room,
        agent.spot,
        agent.held,
        agent.position,
        agent.station,
        agent.at,
        agent.stand,
        tuple(
            (o.parent, o.relation, o.room, o.beside, o.box, tuple(sorted(o.states.items())))
            for o in world.objects.values()
        ),
    )


def search(
    start: WorldState,
    goals: Sequence[Fact],
    limits: Limits,
    refused: Refused | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Searched:
    """Weighted A* from ``start`` to a state where every fact of ``goals`` holds."""
    began = clock()
    estimate = Estimate(goals)
    tie = itertools.count()
    seen = {state_key(start)}
    frontier = [(WEIGHT * estimate(start), next(tie), _Node(start, ()))]
    closest, closest_h = start, estimate(start)
    cut = ""

    def stop(why: str) -> Searched:
        elapsed = (clock() - began) * 1000
        true = frozenset(estimate.ever_true)
        return Searched(None, False, why, len(seen), elapsed, closest, true)

    while frontier:
        _, _, node = heapq.heappop(frontier)
        if estimate.met(node.world):
            return Searched(node.calls, False, "", len(seen), (clock() - began) * 1000, closest)
        if len(node.calls) >= limits.max_steps:
            cut = "steps"
            continue
        for call in calls(node.world, refused):
            if (clock() - began) * 1000 > limits.max_ms:
                return stop("time")
            world = node.world.copy()
            if perform(world, call.action, call.arguments).violation:
                continue
            key = state_key(world)
            if key in seen:
                continue
            seen.add(key)
            if len(seen) > limits.max_states:
                return stop("states")
            h = estimate(world)
            if h < closest_h:
                closest, closest_h = world, h
            g = len(node.calls) + 1
            heapq.heappush(frontier, (g + WEIGHT * h, next(tie), _Node(world, (*node.calls, call))))
    elapsed = (clock() - began) * 1000
    return Searched(None, not cut, cut, len(seen), elapsed, closest, frozenset(estimate.ever_true))
