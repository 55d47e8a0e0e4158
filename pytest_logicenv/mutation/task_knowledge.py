"""What the mutation operators need to know of a task, read from its plan's facts (and rooms).

* the type of each role (``exists Box as red_box``): an action retargeted to another object
  of the same type names another role of that type;
* what the goals ask, as atoms (``on book sofa``, ``state window open False``): the action
  that makes a goal atom true is the one an unreachable mutant deletes;
* what is inside what (``exists Apple as apple where in fridge``): picking the apple up
  depends on opening the fridge;
* which roles an action's target can denote: a policy names an object by a role (``book``)
  or by a type with a selector (``Close("Window", room="Study")``), and the goals name roles
  (``study_window``); a selector denotes each role of its type whose facts in the plan do not
  contradict its room, ``part_of`` and attributes (the rest, what it rests on and its
  states, change as the policy acts).

>>> from pytest_logicenv.llm.planner import example_plan
>>> facts = TaskFacts.of(example_plan())
>>> sorted(facts.roles_of_type("ToyBox"))
['red_box', 'white_box']
>>> sorted(atom for atom in facts.goal_atoms if atom[0] == "in")
[('in', 'toy', 'red_box'), ('in', 'toy', 'white_box')]
>>> from pytest_logicenv.sim.selectors import Select
>>> sorted(facts.denoted(Select("ToyBox", attrs={"colour": "red"})))
['ToyBox', 'red_box']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pytest_logicenv.logic.facts import Exists, Fact, Held, Related, State, walk
from pytest_logicenv.logic.plan import Leaf, Plan, iter_nodes, located_facts
from pytest_logicenv.sim.selectors import Select, selector

#: A fact an action makes true, as a tuple: ``("on", subject, target)``, ``("held", ref)``,
#: ``("state", ref, state, value)``.
Atom = tuple[object, ...]


@dataclass(frozen=True)
class TaskFacts:
    """Roles and their types, the goals' atoms, and what the facts put inside what."""

    role_types: Mapping[str, str]
    goal_atoms: frozenset[Atom]
    inside: Mapping[str, str]  # object (role or type) -> the container it is in
    rooms: tuple[str, ...] = ()  # the plan's room types
    #: Each role's ``exists`` facts (one per realization that binds it).
    bindings: Mapping[str, tuple[Exists, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, plan: Plan | None) -> TaskFacts:
        if plan is None:
            return cls({}, frozenset(), {})
        facts = [fact for _, fact in located_facts(plan)]
        initial = [*plan.setting, *_realizations(plan)]  # what scenes hold, not the goals
        return cls(
            _role_types(facts),
            frozenset(_goal_atoms(plan)),
            _inside(initial),
            plan.rooms,
            _bindings(facts),
        )

    def roles_of_type(self, type_name: str) -> list[str]:
        return [role for role, found in self.role_types.items() if found == type_name]

    def denoted(self, target: str | Select) -> frozenset[str]:
        """The names an action's target can stand for: its reference as written, and every
        role of the plan it can denote (a role named is that role alone)."""
        chosen = selector(target)
        if chosen.ref in self.bindings:
            return frozenset({chosen.ref})
        fitting = (role for role in self.bindings if self._fits(chosen, role, frozenset()))
        return frozenset({chosen.ref, *fitting})

    def _fits(self, chosen: Select, role: str, seen: frozenset[str]) -> bool:
        """Whether some binding of ``role`` is of the selector's type and contradicts none
        of its lasting qualifiers (room, whole, attributes)."""
        seen = seen | {role}
        return any(
            bound.ref == chosen.ref
            and all(bound.attrs.get(key, value) == value for key, value in chosen.attrs.items())
            and self._in_room(chosen.room, role)
            and self._part_of(chosen.part_of, bound.where.part_of, seen)
            for bound in self.bindings[role]
        )

    def _in_room(self, room: str | None, role: str) -> bool:
        """A room the plan has rules out the roles the plan places in its other rooms (a
        room id, or a role whose room the plan does not say, may be any)."""
        if room is None or room not in self.rooms:
            return True
        found = self.rooms_of(role)
        return not found or room in found

    def rooms_of(self, role: str, seen: frozenset[str] = frozenset()) -> set[str]:
        """The rooms the plan puts a role in, directly or through what it rests on, is in or
        is a part of (empty: the plan does not say)."""
        found: set[str] = set()
        for bound in self.bindings.get(role, ()) if role not in seen else ():
            where = bound.where
            if where.room is not None:
                found.add(where.room)
                continue
            for link in (where.part_of, where.on, where.in_):
                if link is not None:
                    found |= self.rooms_of(link, seen | {role})
        return found

    def _part_of(self, wanted: str | None, whole: str | None, seen: frozenset[str]) -> bool:
        """Whether a ``part_of`` qualifier can name ``whole``, the role or type the plan
        makes the object a part of (unsaid: it may be)."""
        if wanted is None or whole is None or wanted == whole:
            return True
        if whole not in self.bindings or whole in seen:
            return False
        return self._fits(selector(wanted), whole, seen)


def _role_types(facts: Iterable[Fact]) -> dict[str, str]:
    found: dict[str, str] = {}
    for fact in facts:
        for item in walk(fact):
            if isinstance(item, Exists) and item.as_ is not None:
                found.setdefault(item.as_, item.ref)
    return found


def _bindings(facts: Iterable[Fact]) -> dict[str, tuple[Exists, ...]]:
    found: dict[str, list[Exists]] = {}
    for fact in facts:
        for item in walk(fact):
            if isinstance(item, Exists) and item.as_ is not None:
                found.setdefault(item.as_, []).append(item)
    return {role: tuple(bound) for role, bound in found.items()}


def _realizations(plan: Plan) -> Iterable[Fact]:
    for factor in plan.factors:
        for facts in factor.realizations.values():
            yield from facts


def _goal_atoms(plan: Plan) -> Iterable[Atom]:
    for subtask in plan.subtasks:
        for _, node in iter_nodes(subtask.tree):
            if isinstance(node, Leaf):
                for fact in node.goal:
                    yield from atoms(fact)


def atoms(fact: Fact) -> Iterable[Atom]:
    """The relations, holdings and states a fact asks for (negated ones too: a policy may
    make ``not open`` true by closing)."""
    for item in walk(fact):
        if isinstance(item, Related):
            yield (item.relation, item.subject, item.target)
        elif isinstance(item, Held):
            yield ("held", item.ref)
        elif isinstance(item, State):
            for state, value in item.states.items():
                yield ("state", item.ref, state, value)


def _inside(facts: Iterable[Fact]) -> dict[str, str]:
    found: dict[str, str] = {}
    for fact in facts:
        for item in walk(fact):
            if isinstance(item, Exists) and item.where.in_ is not None:
                found.setdefault(item.as_ or item.ref, item.where.in_)
            elif isinstance(item, Related) and item.relation == "in":
                found.setdefault(item.subject, item.target)
    return found
