"""Why a goal fact was never made true: the calls on its objects the simulator refused.

While the search runs, :class:`Refusals` hears of every call a precondition refused
(:mod:`~pytest_logicenv.witness.calls`) and keeps, for each goal fact, the refusals that bound
the most of the fact's objects and got furthest through the action's preconditions: for
``{"in": ["blanket", "basket"]}`` that is ``PutIn(blanket, basket)`` broken at its room rule,
"blanket (0.9 x 0.5 x 0.6 m) is larger than basket (0.35 x 0.2 x 0.3 m)", rather than a
``PutIn`` before the blanket was picked up. The words are the simulator's own.

Only the calls that could make the fact true count, when there are any: those of the actions
whose declared changes (:class:`~pytest_logicenv.sim.actions.Change`) make a part of it true,
with the fact's object in the changed port (``Slice(lemon, ?)`` for "lemon is sliced", never
``PutIn(lemon, coffee_machine)``, which got further through its own rules). A fact no declared
change makes (cooked: heat does it) is told by the refusals on its objects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_logicenv.logic.facts import (
    FLOOR,
    And,
    Fact,
    Held,
    Related,
    State,
    describe,
    matches,
    references,
)
from pytest_logicenv.sim.actions import ACTIONS, Change
from pytest_logicenv.sim.preconditions import Broken
from pytest_logicenv.sim.world import WorldState

#: Refused calls kept per goal fact (the best-scored, distinct).
KEPT = 3


@dataclass(frozen=True)
class Goal:
    """A goal fact and the leaf it is the goal of (``toy:toy=yes (Place the toy in ...)``)."""

    fact: Fact
    leaf: str = ""


@dataclass(frozen=True)
class Refusal:
    """A call the simulator refused: as written (``PutIn(blanket, basket)``), the rule
    broken, what it requires and what was true instead (the simulator's words)."""

    call: str
    rule: str
    requirement: str
    facts: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.call} needs {self.requirement}, but {'; '.join(self.facts)}"

    def to_json(self) -> dict[str, Any]:
        return {
            "call": self.call,
            "rule": self.rule,
            "requirement": self.requirement,
            "facts": list(self.facts),
        }


@dataclass(frozen=True)
class Blocker:
    """A goal fact no witness made true: its leaf, the fact in words and what blocked it
    (the refused calls on its objects; empty when none was refused, e.g. no action changes
    what it names)."""

    leaf: str
    fact: str
    refusals: tuple[Refusal, ...]
    #: Said instead of the refusals, when the fact itself can be made true.
    note: str = ""

    def __str__(self) -> str:
        where = f"leaf {self.leaf}: " if self.leaf else ""
        if self.note:
            return f"{where}{self.fact}: {self.note}"
        if not self.refusals:
            return f"{where}{self.fact}: no action call on its objects changes it"
        return f"{where}{self.fact}: " + "; ".join(str(r) for r in self.refusals)

    def to_json(self) -> dict[str, Any]:
        return {
            "leaf": self.leaf,
            "fact": self.fact,
            "refusals": [refusal.to_json() for refusal in self.refusals],
            "note": self.note,
        }


#: The best refusals heard for one goal fact, by call as written: (score, refusal).
Kept = dict[str, tuple[tuple[int, int], Refusal]]


class Refusals:
    """The best refusals per goal fact, heard during one search: those of the calls that could
    make it true, and those of any other call on its objects (told only when there are none
    of the first)."""

    def __init__(self, world: WorldState, goals: Sequence[Goal]) -> None:
        self._labels = {obj.id: obj.label for obj in world.objects.values()}
        self._objects = [
            {o.id for o in world.objects.values() if any(matches(o, r) for r in references(g.fact))}
            for g in goals
        ]
        self._achieving = [achieving_ports(goal.fact) for goal in goals]
        self._best: list[Kept] = [{} for _ in goals]
        self._other: list[Kept] = [{} for _ in goals]

    def __call__(
        self, action: str, ids: tuple[str, ...], index: int, code: str, broken: Broken
    ) -> None:
        for goal, objects in enumerate(self._objects):
            bound = len(objects.intersection(ids))
            if bound:
                ports = self._achieving[goal].get(action, ())
                achieves = any(ids[i] in objects for i in ports if i < len(ids))
                kept = self._best[goal] if achieves else self._other[goal]
                self._keep(kept, (bound, index), action, ids, code, broken)

    def _keep(
        self,
        best: Kept,
        score: tuple[int, int],
        action: str,
        ids: tuple[str, ...],
        code: str,
        broken: Broken,
    ) -> None:
        top = max((kept for kept, _ in best.values()), default=score)
        if score < top or (score == top and len(best) >= KEPT):
            return
        call = call_text(action, [self._labels.get(i, i) for i in ids])
        best[call] = (score, Refusal(call, code, broken.requirement, broken.facts))
        for other in [c for c, (kept, _) in best.items() if kept < score]:
            del best[other]

    def blockers(self, goals: Sequence[Goal], unmet: Sequence[int]) -> tuple[Blocker, ...]:
        """The blockers of the goals at indices ``unmet``."""
        return tuple(
            Blocker(
                goals[i].leaf,
                describe(goals[i].fact),
                tuple(refusal for _, refusal in list(self._told(i).values())[:KEPT]),
            )
            for i in unmet
        )

    def _told(self, goal: int) -> Kept:
        return self._best[goal] or self._other[goal]


def achieving_ports(fact: Fact) -> dict[str, tuple[int, ...]]:
    """The actions whose declared changes make a part of ``fact`` true, each with the
    positions of the ports that change (where the fact's objects go): ``{"Slice": (0,)}``
    for a sliced lemon."""
    found: dict[str, set[int]] = {}
    for part in _parts(fact):
        for spec in ACTIONS.values():
            for change in spec.changes:
                if _makes(change, part):
                    found.setdefault(spec.name, set()).add(spec.ports.index(change.port))
    return {action: tuple(sorted(ports)) for action, ports in found.items()}


def _parts(fact: Fact) -> tuple[Fact, ...]:
    if isinstance(fact, And):
        return tuple(atom for item in fact.items for atom in _parts(item))
    return (fact,)


def _makes(change: Change, fact: Fact) -> bool:
    """Whether ``change`` makes ``fact`` (one part of a goal) true for the object it changes."""
    match fact:
        case State(_, states):
            return change.kind == "state" and states.get(change.state) == change.value
        case Related(relation, _, target):
            return change.kind == relation and bool(change.target) == (target != FLOOR)
        case Held():
            return change.kind == "held"
    return False


def call_text(action: str, labels: Sequence[str]) -> str:
    """A call as written, ``?`` for a port not bound: ``PutIn(blanket, ?)``."""
    ports = ACTIONS[action].ports
    shown = [*labels, *("?" for _ in ports[len(labels) :])]
    return f"{action}({', '.join(shown)})"


def blocker_from_json(data: Mapping[str, Any]) -> Blocker:
    """The blocker :meth:`Blocker.to_json` wrote."""
    refusals = tuple(
        Refusal(str(r["call"]), str(r["rule"]), str(r["requirement"]), tuple(r["facts"]))
        for r in data.get("refusals", [])
    )
    return Blocker(
        str(data.get("leaf", "")), str(data["fact"]), refusals, str(data.get("note", ""))
    )


#: A blocker's note for a goal fact that holds in some state, never with all the others.
NOT_TOGETHER = "holds in some reachable state but never together with the other goal facts"
