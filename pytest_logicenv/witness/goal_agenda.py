"""The order the witness search takes a situation's goal facts in (a *goal agenda*, after
Koehler and Hoffmann's ordering of goals for incremental planning).

An action that changes an object's state acts where it can reach the object: a mug is
cleaned out of the cabinet, not in it. So a fact that places an object comes after the facts
about its states that an action changes (the rules table's declared changes: clean, empty,
slice, wet), and keeps its place before those only heat or cold give (a potato is put in
the pan that cooks it). Otherwise the facts keep the plan's order. Any order finds a sequence
that meets every fact (each stage keeps the facts of the stages before it); this one finds it
in fewer states.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.logic.facts import Exists, Fact, Related, State
from pytest_logicenv.sim.actions import ACTIONS
from pytest_logicenv.witness.blockers import Goal

#: The (state, value) pairs some action sets on an object it is called on.
ACTED: frozenset[tuple[str, bool]] = frozenset(
    (change.state, change.value)
    for spec in ACTIONS.values()
    for change in spec.changes
    if change.kind == "state"
)


def agenda(goals: Sequence[Goal]) -> tuple[Goal, ...]:
    """``goals``, each that places an object moved just after the last fact about that
    object's states an action changes (if it came before it); the rest in their order."""
    last = {_acted_on(goal.fact): index for index, goal in enumerate(goals)}

    def position(index: int) -> float:
        placed = _placed(goals[index].fact)
        if placed is None or placed not in last:
            return index
        return max(index, last[placed] + 0.5)

    return tuple(goals[index] for index in sorted(range(len(goals)), key=position))


def _placed(fact: Fact) -> str | None:
    """The object a fact places, if it places one."""
    match fact:
        case Related(subject=subject):
            return subject
        case Exists(ref=ref, where=where) if not where.is_empty():
            return ref
    return None


def _acted_on(fact: Fact) -> str | None:
    """The object whose states a fact names, when an action sets every one of them."""
    if isinstance(fact, State) and all(item in ACTED for item in fact.states.items()):
        return fact.ref
    return None
