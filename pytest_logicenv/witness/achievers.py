"""The calls that would make a goal fact true, found by trying the simulator's own effects.

For a goal fact, each action's effect (then heat and water) is applied, without its
preconditions, to a copy of the start state with the fact's objects in its ports; the calls
after which the fact holds are its *achievers* (``Clean(stain, ?)`` for "the stain is
clean", ``PutIn(toy, red_box)`` for "the toy is in the red box"). A port the effect does not
read stays open (``?``: any object). How far a state is from a fact is then how many
preconditions its nearest achiever still breaks there, read from the same table. Nothing here
says what an action does: the effect functions say it, by running.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from pytest_logicenv.logic.facts import Fact, evaluate, matches, references
from pytest_logicenv.sim.actions import ACTIONS, ActionSpec
from pytest_logicenv.sim.physics import CONTROLS, SETTLINGS, controlled_by, settle
from pytest_logicenv.sim.preconditions import Requirement
from pytest_logicenv.sim.world import BASIN_TYPES, WATER_SOURCE_TYPES, WorldObject, WorldState
from pytest_logicenv.witness.calls import Partial


@dataclass(frozen=True)
class Achiever:
    """An action whose effect makes a fact true with ``bound`` (port -> object id) in its
    ports; the other ports may hold any object."""

    spec: ActionSpec
    bound: tuple[tuple[str, str], ...]
    #: Found only with every water and heat source running (see :func:`achievers`).
    running: bool = False


#: The kinds of precondition (``Requirement.kind``) no action changes the answer of.
STATIC = frozenset({"property", "accepts"})
#: Whether facts no effect makes true are tried again with the water and heat running.
RUN_SOURCES = True
#: Whether a state (a trial's copy) has what is looked for.
Test = Callable[[WorldState], bool]


class OutOfTime(Exception):
    """Raised by a search's ``stop`` between two trials: its time is up."""


def _go_on() -> None:
    """The ``stop`` of a search without a clock: never stops."""


def achievers(
    start: WorldState, fact: Fact, stop: Callable[[], None] = _go_on
) -> tuple[Achiever, ...]:
    """The achievers of ``fact`` from ``start``'s objects (none when no effect makes it
    true there, e.g. an attribute, or heat that needs a burner switched on first).
    ``stop`` is called after every trial (it raises :class:`OutOfTime` when time is up: a
    trial copies the world, which in a scene of thousands of objects takes milliseconds)."""
    named = [o.id for o in start.objects.values() if any(matches(o, r) for r in references(fact))]
    found = _achieving(start, named, _timed(lambda world: evaluate(fact, world), stop))
    if found or not RUN_SOURCES:
        return found
    # Washing in a basin, cooking in a pan: the effect works once a faucet or burner runs.
    running = _achieving(_running(start), named, _timed(lambda world: evaluate(fact, world), stop))
    return tuple(replace(achiever, running=True) for achiever in running)


def physical(obj: WorldObject) -> bool:
    """Whether heat, cold or water acts through ``obj`` (:mod:`~pytest_logicenv.sim.physics`)."""
    return (
        obj.type in WATER_SOURCE_TYPES
        or obj.type in BASIN_TYPES
        or obj.type in CONTROLS
        or obj.has("heat_source")
        or obj.has("cold_source")
    )


def _running(world: WorldState) -> WorldState:
    """A copy of ``world`` with every water and heat source, and what controls switch, on."""
    hot = world.copy()
    for obj in list(hot.objects.values()):
        if physical(obj) and obj.has("toggleable"):
            for switched in (obj, *controlled_by(hot, obj)):
                hot.set_state(switched, "toggled", True)
    return hot


def _timed(test: Test, stop: Callable[[], None]) -> Test:
    def timed(world: WorldState) -> bool:
        stop()
        return test(world)

    return timed


def fixers(
    world: WorldState,
    spec: ActionSpec,
    bound: Mapping[str, str],
    rule: int,
    stop: Callable[[], None] = _go_on,
) -> tuple[Achiever, ...]:
    """The calls whose effect makes ``spec``'s precondition number ``rule`` hold for the
    objects ``bound`` (port -> id) in ``world``: ``Wet(cloth)`` for ``Clean``'s wet tool."""
    check = spec.preconditions[rule].check

    def test(trial: WorldState) -> bool:
        try:
            return check(trial, Partial({p: trial.objects[o] for p, o in bound.items()})) is None
        except KeyError:
            return False

    return _achieving(world, list(dict.fromkeys(bound.values())), _timed(test, stop))


def _achieving(start: WorldState, named: Sequence[str], test: Test) -> tuple[Achiever, ...]:
    """The calls with one of ``named`` in a port that pass ``test``; and the calls on a
    source of heat or water alone (a faucet switched on puts what is held at its sink under
    running water: its own effect names no other object)."""
    others = [obj for obj in start.objects if obj not in named]
    sources = [obj for obj in others if physical(start.objects[obj])]
    found = []
    for spec in ACTIONS.values():
        for port in spec.ports:
            for obj in named:
                found += _trials(start, spec, {port: obj}, test, (named, others))
            for obj in sources if len(spec.ports) == 1 else ():
                if _makes_true(start, spec, {port: obj}, test):
                    found.append(Achiever(spec, ((port, obj),)))
    return tuple(dict.fromkeys(found))


def _trials(
    start: WorldState,
    spec: ActionSpec,
    bound: dict[str, str],
    test: Test,
    pools: tuple[Sequence[str], Sequence[str]],
) -> list[Achiever]:
    """The achievers among ``bound`` and, when the effect reads another port too, ``bound``
    with the fact's other objects in that port; failing those, with any object: when two
    objects of the rest answer alike, the rest are taken to answer so too (the port is open
    when they make the fact true: ``Pour(?, plant)``), else each is tried."""
    made = _makes_true(start, spec, bound, test)
    if made is not None:
        return [Achiever(spec, tuple(bound.items()))] if made else []
    named, others = pools
    found = []
    for port in (p for p in spec.ports if p not in bound):
        pairs = [{**bound, port: obj} for obj in named if obj not in bound.values()]
        found += [_achiever(spec, pair) for pair in pairs if _makes_true(start, spec, pair, test)]
        if found:
            continue
        probes = [bool(_makes_true(start, spec, {**bound, port: obj}, test)) for obj in others[:2]]
        if len(set(probes)) == 1:
            found += [_achiever(spec, bound)] if probes[0] else []
            continue
        pairs = [{**bound, port: obj} for obj in others]
        found += [_achiever(spec, pair) for pair in pairs if _makes_true(start, spec, pair, test)]
    return found


def _achiever(spec: ActionSpec, bound: Mapping[str, str]) -> Achiever:
    return Achiever(spec, tuple(sorted(bound.items())))


#: The actions whose effect read a port beyond those bound (``PutIn`` with its object alone
#: reads its target): the next such trial is known without copying the world (a few dozen
#: at most: actions times sets of their ports).
_READS_MORE: set[tuple[str, frozenset[str]]] = set()


def _makes_true(
    start: WorldState, spec: ActionSpec, bound: Mapping[str, str], test: Test
) -> bool | None:
    """Whether ``spec``'s effect with ``bound`` (then the physics) passes ``test``;
    ``None`` when the effect reads a port not bound (it raises ``KeyError``)."""
    ports = (spec.name, frozenset(bound))
    if ports in _READS_MORE:
        return None
    world = start.copy()
    try:
        spec.effect(world, Partial({p: world.objects[o] for p, o in bound.items()}))
    except KeyError:
        _READS_MORE.add(ports)
        return None
    if any(_in_itself(world, obj) for obj in bound.values()):
        return False  # put into what it carries: no state the simulator can reach
    settle(world)
    return test(world)


def _in_itself(world: WorldState, obj_id: str) -> bool:
    """Whether following what ``obj_id`` rests on leads back to it."""
    seen, current = set(), world.objects[obj_id]
    while current.parent is not None and current.parent in world.objects:
        if current.id in seen:
            return True
        seen.add(current.id)
        current = world.objects[current.parent]
    return False


def broken(world: WorldState, achiever: Achiever, seen: Sequence[WorldObject]) -> int:
    """How many of the achiever's preconditions ``world`` breaks, with the open ports bound to
    the objects of ``seen`` that break the fewest."""
    bound = {port: world.objects[obj] for port, obj in achiever.bound}
    open_ports = [port for port in achiever.spec.ports if port not in bound]
    if not open_ports:
        return _count(world, achiever.spec, bound)
    return min(
        (_count(world, achiever.spec, {**bound, open_ports[0]: obj}) for obj in seen),
        default=len(achiever.spec.preconditions),
    )


def best_binding(
    world: WorldState, achiever: Achiever, seen: Sequence[WorldObject]
) -> dict[str, str]:
    """The achiever's binding with its open port (if any) bound to the object of ``seen``
    that breaks the fewest of its preconditions."""
    bound = dict(achiever.bound)
    open_ports = [port for port in achiever.spec.ports if port not in bound]
    if not open_ports or not seen:
        return bound
    fixed = {port: world.objects[obj] for port, obj in bound.items()}
    fitting = [o for o in seen if _fits(world, achiever.spec, {**fixed, open_ports[0]: o})]
    if not fitting:
        return bound
    best = min(fitting, key=lambda o: _count(world, achiever.spec, {**fixed, open_ports[0]: o}))
    return {**bound, open_ports[0]: best.id}


def broken_rules(world: WorldState, spec: ActionSpec, bound: Mapping[str, str]) -> list[int]:
    """The indices of ``spec``'s preconditions ``world`` breaks with ``bound`` (a rule that
    reads a port not bound counts as broken)."""
    partial = Partial({port: world.objects[obj] for port, obj in bound.items()})
    found = []
    for index, rule in enumerate(spec.preconditions):
        try:
            if rule.check(world, partial) is not None:
                found.append(index)
        except KeyError:
            found.append(index)
    return found


def nearest_objects(world: WorldState, achiever: Achiever, seen: Sequence[WorldObject]) -> set[str]:
    """The objects the achiever binds, and those of ``seen`` that break the fewest of its
    preconditions in an open port (the tools it would use)."""
    bound = {port: world.objects[obj] for port, obj in achiever.bound}
    open_ports = [port for port in achiever.spec.ports if port not in bound]
    found = {obj.id for obj in bound.values()}
    fitting = [
        o for o in seen if open_ports and _fits(world, achiever.spec, {**bound, open_ports[0]: o})
    ]
    if fitting:
        counts = {o.id: _count(world, achiever.spec, {**bound, open_ports[0]: o}) for o in fitting}
        least = min(counts.values())
        found.update(obj for obj, count in counts.items() if count == least)
    return found


def _fits(world: WorldState, spec: ActionSpec, bound: Mapping[str, WorldObject]) -> bool:
    """Whether no rule that no action changes (a property the object lacks, a receptacle that
    takes only other types, a state no action or physics gives it) rules ``bound`` out."""
    partial = Partial(dict(bound))
    for rule in spec.preconditions:
        needs = rule.requires
        if needs is None or needs.kind not in (*STATIC, "state", "water"):
            continue
        try:
            broken = rule.check(world, partial) is not None
        except KeyError:
            continue
        if broken and (needs.kind in STATIC or not _fixable(world, bound[needs.port], needs)):
            return False
    return True


def fits(world: WorldState, achiever: Achiever, bound: Mapping[str, str]) -> bool:
    """Whether no rule that no action changes rules the achiever out with ``bound``."""
    return _fits(world, achiever.spec, {port: world.objects[obj] for port, obj in bound.items()})


def _fixable(world: WorldState, obj: WorldObject, needs: Requirement) -> bool:
    """Whether something can make ``obj`` meet ``needs`` (what lies in a basin is under its
    faucet's water once it runs)."""
    parent = world.objects.get(obj.parent or "")
    if needs.kind == "water" and parent is not None and parent.type in BASIN_TYPES:
        return True
    return _can_become(world, obj, needs)


#: :func:`_can_become`'s answers, by what they depend on (what an object is, never where).
_BECOMES: dict[tuple[object, ...], bool] = {}
#: How many answers :data:`_BECOMES` keeps before it starts again.
BECOMES_KEPT = 4096


def _can_become(world: WorldState, obj: WorldObject, needs: Requirement) -> bool:
    """Whether some action's change (on ``obj``, with its rules that no action changes) or the
    physics can give ``obj`` the state ``needs`` asks for (the action table's data)."""
    key = (obj.type, obj.properties, obj.accepts, needs)
    known = _BECOMES.get(key)
    if known is None:
        if len(_BECOMES) >= BECOMES_KEPT:
            _BECOMES.clear()
        known = _BECOMES[key] = _becomes(world, obj, needs)
    return known


def _becomes(world: WorldState, obj: WorldObject, needs: Requirement) -> bool:
    if needs.kind == "water":
        # Water reaches what lies in a basin or is held at its sink; places change only by
        # the actions that hold an object or put a held one (the table's changes).
        return can_be_held(world, obj)
    for setting in SETTLINGS:
        same = (setting.state, setting.value) == (needs.name, needs.value)
        if same and (not setting.needs or obj.has(setting.needs)):
            return True
    for spec in ACTIONS.values():
        for change in spec.changes:
            if (change.kind, change.state, change.value) != ("state", needs.name, needs.value):
                continue
            if _static_ok(world, spec, {change.port: obj}):
                return True
    return False


def can_be_held(world: WorldState, obj: WorldObject) -> bool:
    """Whether some action that makes the agent hold its port takes ``obj`` (by the rules no
    action changes: a static counter cannot be picked up)."""
    return any(
        _static_ok(world, spec, {change.port: obj})
        for spec in ACTIONS.values()
        for change in spec.changes
        if change.kind == "held"
    )


def _static_ok(world: WorldState, spec: ActionSpec, bound: Mapping[str, WorldObject]) -> bool:
    partial = Partial(dict(bound))
    for rule in spec.preconditions:
        if rule.requires is None or rule.requires.kind not in STATIC:
            continue
        try:
            if rule.check(world, partial) is not None:
                return False
        except KeyError:
            continue
    return True


def _count(world: WorldState, spec: ActionSpec, bound: Mapping[str, WorldObject]) -> int:
    partial = Partial(dict(bound))
    count = 0
    for rule in spec.preconditions:
        try:
            count += rule.check(world, partial) is not None
        except KeyError:
            count += 1
    return count
