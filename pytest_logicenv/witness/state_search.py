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
from dataclasses import dataclass, replace

from pytest_logicenv.logic.facts import Fact
from pytest_logicenv.sim.actions import perform
from pytest_logicenv.sim.world import WorldState
from pytest_logicenv.witness.achievers import OutOfTime
from pytest_logicenv.witness.calls import Call, Refused, calls
from pytest_logicenv.witness.estimate import Estimate, Memory
from pytest_logicenv.witness.verdict import STATES, STEPS, TIME, WALL

#: What a call on none of the objects the goal facts' achievers act on waits (in calls).
ASIDE = 4.0
#: How much more the estimate counts than the calls made (> 1: greedier, finds longer
#: sequences faster; measured in docs/explanation/witness.md).
WEIGHT = 2.0


@dataclass(frozen=True)
class Limits:
    """How far one search may go: calls in the sequence, milliseconds, states kept."""

    max_steps: int
    max_ms: float
    max_states: int = 200_000
    #: When (``time.monotonic()``) the search stops whatever CPU time is left: the budget
    #: counts CPU time, so that a loaded machine finds the same witness, and this cap keeps
    #: a starved one from waiting without end.
    wall_deadline: float = float("inf")


@dataclass(frozen=True)
class Searched:
    """What one search found: the calls (``None`` when none), whether the whole space was
    exhausted, why it stopped otherwise, the states it saw, the closest one and the goal
    facts (by index) true in some state seen."""

    calls: tuple[Call, ...] | None
    exhausted: bool
    stopped_by: str  # "", or :data:`~pytest_logicenv.witness.verdict.STEPS`, TIME, WALL, STATES
    states: int
    elapsed_ms: float
    closest: WorldState
    ever_true: frozenset[int] = frozenset()


@dataclass
class _Node:
    """A state reached by some calls; ``rest`` (a second entry for the same state): the calls
    on objects outside ``rest`` are still to be tried from it."""

    world: WorldState
    calls: tuple[Call, ...]
    rest: frozenset[str] | None = None


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


def search_in_stages(
    start: WorldState,
    goals: Sequence[Fact],
    limits: Limits,
    refused: Refused | None = None,
    clock: Callable[[], float] = time.process_time,
    memory: Memory | None = None,
) -> Searched | None:
    """The goal facts one more at a time, each stage from where the last one ended (the
    facts so far must still hold at its end): many small searches instead of one large
    one. ``None`` when a stage finds nothing (the caller then searches the whole)."""
    began, world, memory = clock(), start, memory or Memory()
    done: tuple[Call, ...] = ()
    states = 0
    for stage in range(1, len(goals) + 1):
        spent = (clock() - began) * 1000
        left = replace(limits, max_steps=limits.max_steps - len(done), max_ms=limits.max_ms - spent)
        if left.max_steps < 0 or left.max_ms <= 0:
            return None
        found = search(world, goals[:stage], left, refused, clock, memory)
        states += found.states
        if found.calls is None:
            return None
        world, done = found.closest, (*done, *found.calls)
    elapsed = (clock() - began) * 1000
    return Searched(done, False, "", states, elapsed, world, frozenset(range(len(goals))))


def search(
    start: WorldState,
    goals: Sequence[Fact],
    limits: Limits,
    refused: Refused | None = None,
    clock: Callable[[], float] = time.process_time,
    memory: Memory | None = None,
) -> Searched:
    """Weighted best-first search from ``start`` to a state where every fact of ``goals``
    holds. A state's calls on the objects relevant to the goal facts are tried at once; the
    others wait :data:`ASIDE` calls longer, in one entry of the frontier."""
    return _Run(goals, limits, refused, clock, memory).search(start)


class _Run:
    """The state of one search: frontier, states seen, the closest state, the clock."""

    def __init__(
        self,
        goals: Sequence[Fact],
        limits: Limits,
        refused: Refused | None,
        clock: Callable[[], float],
        memory: Memory | None = None,
    ) -> None:
        self.estimate = Estimate(goals, memory)
        self.estimate.memory.stop = self._check_time
        self.limits, self.refused, self.clock = limits, refused, clock
        self.began = clock()
        self.tie = itertools.count()
        self.seen: set[Hashable] = set()
        self.frontier: list[tuple[float, int, _Node]] = []
        self.closest: tuple[float, WorldState] = (float("inf"), WorldState.__new__(WorldState))
        self.cut = ""

    def search(self, start: WorldState) -> Searched:
        try:
            return self._search(start)
        except OutOfTime as stopped:
            return self._stop(str(stopped))

    def _search(self, start: WorldState) -> Searched:
        self.seen.add(state_key(start))
        self._push(_Node(start, ()), 0.0)
        while self.frontier:
            priority, _, node = heapq.heappop(self.frontier)
            if node.rest is None and self.estimate.met(node.world):
                self.closest = (0.0, node.world)
                return self._stop("", node.calls)
            if len(node.calls) >= self.limits.max_steps:
                self.cut = STEPS
                continue
            stopped = self._expand(node, priority)
            if stopped:
                return self._stop(stopped)
        return self._stop(self.cut, exhausted=not self.cut)

    def _push(self, node: _Node, aside: float) -> None:
        h = self.estimate(node.world)
        if h < self.closest[0]:
            self.closest = (h, node.world)
        priority = len(node.calls) + WEIGHT * h + aside
        heapq.heappush(self.frontier, (priority, next(self.tie), node))

    def _expand(self, node: _Node, priority: float) -> str:
        """Push the node's successors (the relevant ones, or the rest); what stopped the
        search, if anything."""
        relevant = self.estimate.relevant_in(node.world)
        if node.rest is None:
            found = calls(node.world, self.refused, among=relevant)
            later = _Node(node.world, node.calls, relevant)
            heapq.heappush(self.frontier, (priority + ASIDE, next(self.tie), later))
        else:
            found = calls(node.world, self.refused, besides=node.rest)
        for call in found:
            self._check_time()
            world = node.world.copy()
            if perform(world, call.action, call.arguments).violation:
                continue
            key = state_key(world)
            if key in self.seen:
                continue
            self.seen.add(key)
            if len(self.seen) > self.limits.max_states:
                return STATES
            self._push(_Node(world, (*node.calls, call)), 0.0 if node.rest is None else ASIDE)
        return ""

    def _check_time(self) -> None:
        """Raise :class:`OutOfTime` (naming why) when the CPU time or the wall clock is up."""
        if self._elapsed() > self.limits.max_ms:
            raise OutOfTime(TIME)
        if time.monotonic() > self.limits.wall_deadline:
            raise OutOfTime(WALL)

    def _elapsed(self) -> float:
        return (self.clock() - self.began) * 1000

    def _stop(
        self, why: str, found: tuple[Call, ...] | None = None, exhausted: bool = False
    ) -> Searched:
        true = frozenset(self.estimate.ever_true)
        closest = self.closest[1]
        return Searched(found, exhausted, why, len(self.seen), self._elapsed(), closest, true)
