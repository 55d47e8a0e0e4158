"""The goal-distance estimate that orders the witness search: calls a goal fact still needs.

Only the order of the search depends on it, never what counts as a witness (the facts
evaluator judges that), so it may be rough: a relation needs the object picked up, carried
and put (four calls, two when it is held already), a state a walk and a switch per state
named, anything else a few calls. It is not admissible (a call can make several facts true),
which costs only the shortest sequence, not a found one's validity.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from pytest_logicenv.sim.world import HELD, WorldState

#: Calls a false fact is counted as needing, by form.
CARRY, PUT, SWITCH, OTHER = 4, 2, 2, 3


class Estimate:
    """``estimate(world)``: calls the false goal facts need; ``met(world)``: none is false.
    ``ever_true`` collects the indices of the goal facts true in some state it estimated."""

    def __init__(self, goals: Sequence[Fact]) -> None:
        self.goals = tuple(goals)
        self.ever_true: set[int] = set()

    def met(self, world: WorldState) -> bool:
        return not false_facts(self.goals, world)

    def __call__(self, world: WorldState) -> float:
        false = [i for i, fact in enumerate(self.goals) if not evaluate(fact, world)]
        self.ever_true.update(set(range(len(self.goals))).difference(false))
        return sum(_cost(self.goals[i], world) for i in false)


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
