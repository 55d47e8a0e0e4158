"""Goal facts no sequence of actions can make true, proved before any search.

A goal fact false at the start becomes true only through an action's declared changes
(:class:`~pytest_logicenv.sim.actions.Change`: ``PutIn`` puts its ``object`` port ``in`` its
``target``) or a rule of heat and water (:data:`~pytest_logicenv.sim.physics.SETTLINGS`); an
attribute through neither. When every such change is ruled out, for every object the fact
names, by a rule no action changes (a property, the types a receptacle takes, the room it has
when empty, whether anything can hold the object at all), no state the actions reach makes the
fact true: the verdict is ``impossible`` whatever the budget, in the rules' own words
("basket has room for blanket, but blanket (0.9 x 0.1 x 0.6 m) is larger than basket ...").
Two goal facts that ask one object for opposite states are never true together either.

The proof is sound, not complete: a fact it does not rule out is left to the search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from pytest_logicenv.logic.facts import FLOOR, Attr, Fact, Held, Related, State, describe, evaluate
from pytest_logicenv.sim.actions import ACTIONS, ActionSpec, Change
from pytest_logicenv.sim.physics import SETTLINGS, controlled_by
from pytest_logicenv.sim.preconditions import Broken
from pytest_logicenv.sim.world import WorldObject, WorldState
from pytest_logicenv.witness.achievers import can_be_held
from pytest_logicenv.witness.blockers import KEPT, Blocker, Goal, Refusal, call_text
from pytest_logicenv.witness.calls import Partial
from pytest_logicenv.witness.estimate import atoms

#: What a rule asks that no action changes: a property, the types a receptacle takes, the room
#: it has when nothing is in it (sizes never change).
STATIC_KINDS = frozenset({"property", "accepts", "room"})
#: The most pairs of objects a placement is proved for (more: left to the search).
MAX_PAIRS = 2000
#: The most receptacles a placement is proved for (each is tried emptied, on a world copy).
MAX_EMPTIED = 16
#: A blocker's note for a goal fact that asks the opposite of another's.
OPPOSITE = "asks the opposite state of another goal fact: never together with the other goal facts"


def ruled_out(world: WorldState, goals: Sequence[Goal]) -> tuple[Blocker, ...]:
    """The blockers of the goal facts no sequence of actions makes true from ``world`` (none
    when the rules leave each possible)."""
    found = [blocker for goal in goals if (blocker := _never(world, goal)) is not None]
    return (*found, *_opposites(world, goals))


def _never(world: WorldState, goal: Goal) -> Blocker | None:
    for atom in atoms(goal.fact):
        if evaluate(atom, world):
            continue
        refusals = _refusals(world, atom)
        if refusals is not None:
            return Blocker(goal.leaf, describe(goal.fact), refusals[:KEPT])
    return None


def _refusals(world: WorldState, atom: Fact) -> tuple[Refusal, ...] | None:
    """What rules out every change that could make ``atom`` true (``None``: some change may)."""
    match atom:
        case Attr():
            return ()  # no action's changes set an attribute
        case Related(relation, subject, target) if relation in ("on", "in") and target != FLOOR:
            subjects, targets = world.candidates(subject), world.candidates(target)
            if len(subjects) * len(targets) > MAX_PAIRS:
                return None
            pairs = [(s, t) for s in subjects for t in targets if s is not t]
            return _all_refused(world, relation, pairs)
        case Held(ref):
            return _each_refused(world, world.candidates(ref), "held", "", True)
        case State(ref, states) if len(states) == 1:
            ((name, value),) = states.items()
            objects = world.candidates(ref)
            if any(_settles(obj, name, value) for obj in objects):
                return None
            return _each_refused(world, objects, "state", name, value)
    return None


def _all_refused(
    world: WorldState, relation: str, pairs: Sequence[tuple[WorldObject, WorldObject]]
) -> tuple[Refusal, ...] | None:
    found: list[Refusal] = []
    emptied_for: dict[str, WorldState] = {}
    for spec, change in _changes(lambda c: c.kind == relation and bool(c.target)):
        for subject, target in pairs:
            if target.id not in emptied_for:
                if len(emptied_for) >= MAX_EMPTIED:
                    return None  # too many copies of the world to prove it: left to the search
                emptied_for[target.id] = _emptied(world, target)
            emptied = emptied_for[target.id]
            bound = {
                change.port: emptied.objects[subject.id],
                change.target: emptied.objects[target.id],
            }
            refusal = _static_refusal(emptied, spec, bound)
            if refusal is None:
                return None
            found.append(refusal)
    return tuple(found)


def _each_refused(
    world: WorldState, objects: Sequence[WorldObject], kind: str, state: str, value: bool
) -> tuple[Refusal, ...] | None:
    found: list[Refusal] = []
    for spec, change in _changes(
        lambda c: (c.kind, c.state, c.value) == (kind, state, value if kind == "state" else True)
    ):
        for obj in objects:
            # A control (a stove knob) switches what it controls with itself.
            for acting in (obj, *_controls_of(world, obj)):
                refusal = _static_refusal(world, spec, {change.port: acting})
                if refusal is None:
                    return None
                found.append(refusal)
    return tuple(found)


def _changes(wanted: Callable[[Change], bool]) -> Iterator[tuple[ActionSpec, Change]]:
    """The actions' declared changes that ``wanted`` picks."""
    for spec in ACTIONS.values():
        for change in spec.changes:
            if wanted(change):
                yield spec, change


def _settles(obj: WorldObject, state: str, value: bool) -> bool:
    """Whether heat or water can give ``obj`` the state (by the property the rule needs)."""
    return any(
        (s.state, s.value) == (state, value) and (not s.needs or obj.has(s.needs))
        for s in SETTLINGS
    )


def _controls_of(world: WorldState, obj: WorldObject) -> list[WorldObject]:
    return [c for c in world.objects.values() if c.part_of and obj in controlled_by(world, c)]


def _emptied(world: WorldState, target: WorldObject) -> WorldState:
    """A copy of ``world`` with nothing on or in ``target`` (the most room it ever has)."""
    if not world.children(target):
        return world
    twin = world.copy()
    twin.unload(twin.objects[target.id])
    return twin


def _static_refusal(
    world: WorldState, spec: ActionSpec, bound: Mapping[str, WorldObject]
) -> Refusal | None:
    """The first rule no action changes that ``spec`` breaks with ``bound``, in words."""
    for rule in spec.preconditions:
        needs = rule.requires
        if needs is None:
            continue
        broken: Broken | None = None
        if needs.kind in STATIC_KINDS:
            try:
                broken = rule.check(world, Partial(dict(bound)))
            except KeyError:
                continue
        elif (
            needs.kind == "held"
            and needs.port in bound
            and not can_be_held(world, bound[needs.port])
        ):
            obj = bound[needs.port]
            broken = Broken(f"the agent holds {obj.label}", (f"nothing can pick up {obj.label}",))
        if broken is not None:
            labels = [bound[p].label if p in bound else "?" for p in spec.ports]
            return Refusal(
                call_text(spec.name, labels), rule.code, broken.requirement, broken.facts
            )
    return None


def _opposites(world: WorldState, goals: Sequence[Goal]) -> Iterator[Blocker]:
    """The goal facts that ask one object (named alone) for the opposite of an earlier one."""
    asked: dict[tuple[str, str], bool] = {}
    for goal in goals:
        for atom in atoms(goal.fact):
            if not isinstance(atom, State) or len(atom.states) != 1:
                continue
            objects = world.candidates(atom.ref)
            if len(objects) != 1:
                continue
            ((name, value),) = atom.states.items()
            key = (objects[0].id, name)
            if asked.setdefault(key, value) != value:
                yield Blocker(goal.leaf, describe(goal.fact), (), OPPOSITE)
                break
