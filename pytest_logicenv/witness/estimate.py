"""The goal-distance estimate that orders the witness search: calls a goal fact still needs.

Only the order of the search depends on it, never what counts as a witness (the facts
evaluator judges that), so it may be rough: a relation needs the object picked up, carried
and put (four calls, two when it is held already), a state a walk and a switch per state
named, anything else a few calls. It is not admissible (a call can make several facts true),
which costs only the shortest sequence, not a found one's validity.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pytest_logicenv.logic.facts import (
    And,
    Fact,
    Held,
    Not,
    Or,
    Related,
    State,
    evaluate,
    false_facts,
    matches,
)
from pytest_logicenv.sim.world import HELD, WorldObject, WorldState
from pytest_logicenv.witness.achievers import (
    Achiever,
    achievers,
    best_binding,
    broken_rules,
    fits,
    fixers,
    nearest_objects,
    physical,
)

#: Calls a false fact is counted as needing, by form, when no effect makes it true at once.
CARRY, PUT, SWITCH, OTHER = 4, 2, 2, 3
#: Calls counted for each precondition an achiever still breaks.
PER_BROKEN = 1.5
#: How many levels of fixers (the calls that make a broken precondition hold) are counted.
FIXER_DEPTH = 1
#: The cost of an achiever a rule no action changes rules out (it never counts).
UNFIT = float("inf")
#: What a goal fact true at the start and made false since counts, of its estimate.
UNDONE = 0.5


class Memory:
    """The achievers and fixers found during one witness search, shared by its stages and
    its search of the whole: an achiever found from one state serves every later state (it
    names objects, not places), so each is looked for once. One that was not found is looked
    for again each time the states estimated (by all the searches) have doubled."""

    def __init__(self) -> None:
        self.estimated = 0
        self.achievers: dict[tuple[int, int], tuple[Achiever, ...]] = {}
        self.fixers: dict[FixerKey, tuple[Achiever, ...]] = {}
        self.retry: dict[object, int] = {}
        #: Called between trials; the search running sets it to raise
        #: :class:`~pytest_logicenv.witness.achievers.OutOfTime` when its time is up.
        self.stop: Callable[[], None] = lambda: None

    def due(self, key: object, found: tuple[Achiever, ...] | None) -> bool:
        """Whether ``key``'s achievers are to be looked for (again) now."""
        return found is None or (not found and self.estimated >= self.retry[key])


#: An achiever's precondition whose fixers are looked for: action, rule, binding.
FixerKey = tuple[str, int, tuple[tuple[str, str], ...]]


class Estimate:
    """``estimate(world)``: calls the false goal facts need; ``met(world)``: none is false.
    ``ever_true`` collects the indices of the goal facts true in some state it estimated;
    ``relevant`` the objects the achievers found so far act on, and the tools they would
    take (a call on one of them is tried before the others, :mod:`.state_search`).

    A fact's achievers are looked for in the first state it is false in (a fact true at the
    start, such as a knob that is off, has none until a state switches it), and looked for
    again while none is found, each time the states estimated have doubled (heat needs a
    burner on before putting a potato on it cooks it)."""

    def __init__(self, goals: Sequence[Fact], memory: Memory | None = None) -> None:
        self.goals = tuple(goals)
        self.memory = memory or Memory()
        self.ever_true: set[int] = set()
        self.relevant: set[str] = set()
        # Each goal fact's parts (a conjunction's), estimated apart.
        self._atoms = [atoms(fact) for fact in self.goals]
        self._estimated = 0
        # The memory's entries this search has taken its relevant objects from.
        self._taken: set[object] = set()
        # The achievers' costs in the state being estimated (by identity and depth).
        self._costs: dict[tuple[int, int], float] = {}
        # The goal facts true at the start: one the search made false (a faucet switched on
        # to wet a cloth) is cheap to restore, and counts less, so the way there is not
        # blocked by it.
        self._undone: set[int] = set()

    def relevant_in(self, world: WorldState) -> frozenset[str]:
        """The relevant objects in ``world``: those of the achievers found so far, what the
        agent holds (to put it down), the closed containers that hide any of them (to open
        them) and what heat and water act through (sources, basins and the controls that
        switch them, as the physics names them)."""
        found = set(self.relevant)
        held = world.held()
        if held is not None:
            found.add(held.id)
        for obj_id in list(found):
            container = world.enclosure(world.objects[obj_id])
            if container is not None:
                found.add(container.id)
        found.update(obj.id for obj in world.objects.values() if physical(obj))
        return frozenset(found)

    def met(self, world: WorldState) -> bool:
        return not false_facts(self.goals, world)

    def __call__(self, world: WorldState) -> float:
        self._estimated += 1
        self.memory.estimated += 1
        false = [i for i, fact in enumerate(self.goals) if not evaluate(fact, world)]
        if self._estimated == 1:
            self._undone = set(range(len(self.goals))).difference(false)
        self.ever_true.update(set(range(len(self.goals))).difference(false))
        # Every object, hidden ones too: the knife in a closed drawer is the tool Slice needs,
        # and it is relevant (so is the drawer hiding it) before the drawer is opened.
        seen = list(world.objects.values())
        self._costs.clear()
        return sum(
            self._cost(i, world, seen) * (UNDONE if i in self._undone else 1.0) for i in false
        )

    def _cost(self, goal: int, world: WorldState, seen: Sequence[WorldObject]) -> float:
        """For each part of the fact still false, one call for its nearest achiever, and more
        for each precondition it still breaks; without achievers, the rough count by form."""
        total = 0.0
        for index, atom in enumerate(self._atoms[goal]):
            if evaluate(atom, world):
                continue
            found = self._found((goal, index), atom, world, seen)
            if not found:
                total += _cost(atom, world)
            else:
                cost = min(self._achiever_cost(world, achiever, seen) for achiever in found)
                total += cost if cost < UNFIT else _cost(atom, world)
        return total

    def _achiever_cost(
        self,
        world: WorldState,
        achiever: Achiever,
        seen: Sequence[WorldObject],
        depth: int = FIXER_DEPTH,
    ) -> float:
        """One call, and for each precondition it breaks the cost of its nearest fixer (the
        same, ``depth`` levels down), or :data:`PER_BROKEN` (once per state: the achievers
        of several facts share fixers, a walk most of all); :data:`UNFIT` when a rule no
        action changes rules it out."""
        key = (id(achiever), depth)
        known = self._costs.get(key)
        if known is None:
            known = self._costs[key] = self._first_cost(world, achiever, seen, depth)
        return known

    def _first_cost(
        self, world: WorldState, achiever: Achiever, seen: Sequence[WorldObject], depth: int
    ) -> float:
        bound = best_binding(world, achiever, seen)
        if not fits(world, achiever, bound):
            return UNFIT
        total = 1.0 + (PER_BROKEN if achiever.running else 0.0)
        for rule in broken_rules(world, achiever.spec, bound):
            found = self._fixers_of(world, achiever, bound, rule, seen) if depth else ()
            costs = (self._achiever_cost(world, fixer, seen, depth - 1) for fixer in found)
            cost = min(costs, default=UNFIT)
            total += cost if cost < UNFIT else PER_BROKEN
        return total

    def _fixers_of(
        self,
        world: WorldState,
        achiever: Achiever,
        bound: dict[str, str],
        rule: int,
        seen: Sequence[WorldObject],
    ) -> tuple[Achiever, ...]:
        """The fixers of a broken precondition, found once; none found yet are looked for
        again each time the states estimated have doubled (a faucet that fills what is held
        only where the agent stands at its sink)."""
        key = (achiever.spec.name, rule, tuple(sorted(bound.items())))
        memory = self.memory
        found = memory.fixers.get(key)
        if memory.due(key, found):
            found = memory.fixers[key] = fixers(world, achiever.spec, bound, rule, memory.stop)
            memory.retry[key] = 2 * memory.estimated
            self._taken.discard(key)
        return self._take(key, found or (), world, seen)

    def _take(
        self,
        key: object,
        found: tuple[Achiever, ...],
        world: WorldState,
        seen: Sequence[WorldObject],
    ) -> tuple[Achiever, ...]:
        """``found``, the objects of which are now relevant to this search."""
        if found and key not in self._taken:
            self._taken.add(key)
            for achiever in found:
                self.relevant.update(nearest_objects(world, achiever, seen))
        return found

    def _found(
        self, key: tuple[int, int], atom: Fact, world: WorldState, seen: Sequence[WorldObject]
    ) -> tuple[Achiever, ...]:
        memory = self.memory
        found = memory.achievers.get(key)
        if memory.due(key, found):
            found = memory.achievers[key] = achievers(world, atom, memory.stop)
            memory.retry[key] = 2 * memory.estimated
            self._taken.discard(key)
        return self._take(key, found or (), world, seen)


def atoms(fact: Fact) -> tuple[Fact, ...]:
    """The parts of a fact estimated apart: a conjunction's (a state with several names stays
    whole: measured, splitting it made the search slower, docs/explanation/witness.md)."""
    match fact:
        case And(parts):
            return tuple(atom for part in parts for atom in atoms(part))
        case State(ref, states) if len(states) > 1:
            return tuple(State(ref, {name: value}) for name, value in states.items())
        case _:
            return (fact,)


def _cost(fact: Fact, world: WorldState) -> float:
    """Calls the false ``fact`` needs, roughly."""
    match fact:
        case And(parts):
            return sum(_cost(part, world) for part in parts if not evaluate(part, world))
        case Or(parts):
            return min((_cost(part, world) for part in parts), default=OTHER)
        case Related("near", _, _) | Not():
            return OTHER
        case Related(_, subject, _):
            return PUT if _held(world, subject) else CARRY
        case Held(ref):
            return PUT if not _held(world, ref) else 0
        case State(ref, states):
            return SWITCH * max(1, len(states))
        case _:
            return OTHER


def _held(world: WorldState, ref: str) -> bool:
    held = world.held()
    return held is not None and held.relation == HELD and matches(held, ref)
