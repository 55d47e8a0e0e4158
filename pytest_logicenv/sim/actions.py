"""Actions: what the agent can do, when it may, and what changes (after AI2-THOR and
VirtualHome's executor).

Each action is data: named ports (``PutIn(object, target)``), ordered preconditions
(:mod:`pytest_logicenv.sim.preconditions`), an effect and the effect's text. The simulator runs
these and :func:`action_table` prints them, so the documented rules (``docs/actions.md``) are
the rules that run. Ports hold object references as the facts language reads them: a type
(``Mug``), a role (``red_box``) or an object id, optionally with a selector
(:class:`~pytest_logicenv.sim.selectors.Select`). :func:`execute` binds the references
(:mod:`pytest_logicenv.sim.binding`), checks the preconditions in order and either applies the
effect, then lets heat and water act (:func:`~pytest_logicenv.sim.physics.settle`), or returns a
:class:`PreconditionViolation` that names the action, its arguments, the broken rule and the
facts that broke it.

A reference that names nothing in the scene is a *missing* violation: the situation does not
contain what the policy acts on (its missing branch, ``lackbranch``). A reference that names
several objects the agent can see, none of them at hand, is ambiguous (``error``: a bug in
the policy). Any other broken precondition breaks causal order on objects that are there
(``counterfactual``).

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> room = Room("kitchen", "Kitchen", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> fridge = SceneObject("fridge_1", "Fridge", role="fridge", room="kitchen",
...                      properties=("receptacle", "openable"), states={"open": False})
>>> apple = SceneObject("apple_1", "Apple", role="apple", room="kitchen", parent="fridge_1",
...                     relation="in", properties=("pickupable",))
>>> world = WorldState.from_scene(Scene("s", rooms=(room,), objects=(fridge, apple)))
>>> execute(world, "GoTo", {"target": "Fridge"}) is None
True
>>> print(execute(world, "PickUp", {"object": "Apple"}))
PickUp(Apple) needs the agent can see apple, but apple is inside fridge; fridge is closed
>>> execute(world, "Open", {"target": "Fridge"}), execute(world, "PickUp", {"object": "Apple"})
(None, None)
>>> world.agent.held
'apple_1'
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.logic.facts import FLOOR
from pytest_logicenv.sim.binding import BINDING_RULES, Unbound, candidates, inner
from pytest_logicenv.sim.physics import PHYSICS_RULES, controlled_by, settle
from pytest_logicenv.sim.preconditions import (
    Bound,
    Broken,
    Precondition,
    Requirement,
    accepts,
    appliance_closed,
    appliance_off,
    distinct,
    hand_free,
    has_property,
    has_room,
    holding,
    in_state,
    next_to,
    open_if_openable,
    open_way,
    state_word,
    under_running_water,
    way_to,
    wet_if_wettable,
)
from pytest_logicenv.sim.selectors import TARGET_QUALIFIERS, Select, check_reference, selector
from pytest_logicenv.sim.world import WorldObject, WorldState

#: What a port may hold: an object reference, or one with a selector.
Target = str | Select
#: The outcome class a broken rule shows, by rule (every other rule: ``counterfactual``).
RULE_OUTCOMES: Mapping[str, str] = {"exists": "lackbranch", "unambiguous": "error"}


def outcome_of(code: str) -> str:
    """The outcome class a run stopped by the rule ``code`` ends with."""
    return RULE_OUTCOMES.get(code, "counterfactual")


@dataclass(frozen=True)
class PreconditionViolation:
    """A precondition an action call broke.

    ``arguments`` are the ports as the policy wrote them, ``objects`` the object ids they were
    resolved to (empty when a reference named nothing), ``precondition`` the rule's name
    (``holding``, ``next_to``, ``open``, ... as in ``docs/actions.md``), ``requirement`` the
    rule in words and ``facts`` what was true instead. ``absent`` is the reference that named
    nothing in this scene, for the ``exists`` rule.
    """

    action: str
    arguments: tuple[tuple[str, str], ...]
    precondition: str
    requirement: str
    facts: tuple[str, ...]
    objects: tuple[tuple[str, str], ...] = ()
    absent: str | None = None

    @property
    def missing(self) -> bool:
        """Whether the call named something this scene does not contain."""
        return self.absent is not None

    @property
    def kind(self) -> str:
        """The outcome class this violation shows: ``lackbranch`` (the call named something
        this scene lacks), ``error`` (an ambiguous reference) or ``counterfactual``."""
        return "lackbranch" if self.missing else outcome_of(self.precondition)

    @property
    def call(self) -> str:
        """The call as the policy wrote it: ``PutIn(toy, white_box)``."""
        return f"{self.action}({', '.join(ref for _, ref in self.arguments)})"

    @property
    def reason(self) -> str:
        """What was true instead of the precondition, in words."""
        return "; ".join(self.facts)

    def bound(self) -> tuple[tuple[str, str], ...]:
        """``(object id, reference as written)`` for each port bound to an object."""
        written = dict(self.arguments)
        return tuple((obj, written[port]) for port, obj in self.objects if port in written)

    def __str__(self) -> str:
        return f"{self.call} needs {self.requirement}, but {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "arguments": dict(self.arguments),
            "objects": dict(self.objects),
            "precondition": self.precondition,
            "requirement": self.requirement,
            "facts": list(self.facts),
            "absent": self.absent,
            "kind": self.kind,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PreconditionViolation:
        """The violation :meth:`to_json` wrote (``kind`` follows from ``absent`` and the
        rule)."""
        absent = data.get("absent")
        return cls(
            action=str(data["action"]),
            arguments=tuple((str(k), str(v)) for k, v in dict(data["arguments"]).items()),
            precondition=str(data["precondition"]),
            requirement=str(data["requirement"]),
            facts=tuple(str(fact) for fact in data["facts"]),
            objects=tuple((str(k), str(v)) for k, v in dict(data.get("objects", {})).items()),
            absent=None if absent is None else str(absent),
        )


class PolicyStopped(BaseException):
    """Ends a run at the first broken precondition (the runner catches it).

    A ``BaseException``, outside the root, so that a policy's own ``except Exception`` cannot
    swallow it and act on after the run has ended."""

    def __init__(self, violation: PreconditionViolation) -> None:
        super().__init__(str(violation))
        self.violation = violation


@dataclass(frozen=True)
class Change:
    """One fact an action makes true, as data: ``port``'s state ``state`` becomes ``value``
    (``kind`` ``state``), the agent holds ``port`` (``held``), or ``port`` rests on or in
    ``target`` (``on``/``in``; ``target`` "" is the floor). The effect the simulator runs is
    made of these (:func:`_applied`), so what checks read is what runs."""

    kind: str
    port: str
    state: str = ""
    value: bool = True
    target: str = ""

    def apply(self, world: WorldState, bound: Bound) -> None:
        obj = bound[self.port]
        if self.kind == "state":
            world.set_state(obj, self.state, self.value)
        elif self.kind == "held":
            world.hold(obj)
        else:
            world.place(obj, bound[self.target] if self.target else None, self.kind)


def _state(port: str, state: str, value: bool) -> Change:
    return Change("state", port, state, value)


@dataclass(frozen=True)
class ActionSpec:
    """An action: its ports in order, its preconditions in the order they are checked, its
    effect (called only when every precondition holds), the effect in words and, as data,
    the facts it makes true (``changes``; GoTo moves the agent and changes none)."""

    name: str
    ports: tuple[str, ...]
    preconditions: tuple[Precondition, ...]
    effect: Callable[[WorldState, Bound], None]
    effects: tuple[str, ...]
    #: Ports that may also name a room (``GoTo(Kitchen)``).
    room_ports: tuple[str, ...] = ()
    changes: tuple[Change, ...] = ()
    #: Ports that put something *in* their object: a whole with a basin means its basin.
    into_ports: tuple[str, ...] = ()

    @property
    def does(self) -> str:
        """The effects in one sentence, for the generated docs."""
        return "; ".join(self.effects)

    @property
    def reach_ports(self) -> frozenset[str]:
        """The ports the action needs within reach (held, or within reach where it stands)."""
        return frozenset(port for rule in self.preconditions for port in rule.reach)


# --------------------------------------------------------------------------- effects


def _go_to(world: WorldState, bound: Bound) -> None:
    target = bound["target"]
    rooms = world.rooms_of(target)  # a door is reached from either side: stay on this one
    room = world.agent.room if world.agent.room in rooms else rooms[0]
    agent = world.agent
    if target is world.held():  # it stays where it is, at the fixture and the object it was
        station, at = world.objects.get(agent.station or ""), (agent.at or "", agent.stand)
    else:
        station, at = world.station(target), (target.label, target.box)
    world.move_agent(room, world.ground(target), station, at if at[0] else None)


def _applied(changes: Sequence[Change]) -> Callable[[WorldState, Bound], None]:
    def effect(world: WorldState, bound: Bound) -> None:
        for change in changes:
            change.apply(world, bound)

    return effect


def _with_controls(changes: Sequence[Change]) -> Callable[[WorldState, Bound], None]:
    """The changes, to the target and what it controls (a knob's burner) alike."""

    def effect(world: WorldState, bound: Bound) -> None:
        target = bound["target"]
        for obj in (target, *controlled_by(world, target)):
            _applied(changes)(world, {**bound, "target": obj})

    return effect


# --------------------------------------------------------------------------- the actions


def _spec(
    name: str,
    ports: Sequence[str],
    preconditions: Sequence[Precondition],
    changes: Sequence[Change],
    effects: Sequence[str],
    effect: Callable[[WorldState, Bound], None] | None = None,
    room_ports: Sequence[str] = (),
    into_ports: Sequence[str] = (),
) -> ActionSpec:
    """An action whose effect is its ``changes`` (or ``effect``, which makes them and more)."""
    return ActionSpec(
        name,
        tuple(ports),
        tuple(preconditions),
        effect or _applied(changes),
        tuple(effects),
        tuple(room_ports),
        tuple(changes),
        tuple(into_ports),
    )


def _switch(
    name: str,
    prop: str,
    state: str,
    value: bool,
    extra: Sequence[Precondition] = (),
    effect: str = "",
    controls: bool = False,
) -> ActionSpec:
    """An action that sets ``state`` of a reachable ``target`` that has ``prop`` and is not
    already in that state (Open, Close, ToggleOn, ToggleOff, Fill, Wet); with ``controls``,
    of what the target controls too."""
    changes = [_state("target", state, value)]
    return _spec(
        name,
        ["target"],
        [
            next_to("target"),
            has_property("target", prop),
            in_state("target", state, not value),
            *extra,
        ],
        changes,
        [effect or f"`target` is {state_word(state, value)}"],
        _with_controls(changes) if controls else None,
    )


def _receive(relation: str) -> tuple[Precondition, ...]:
    """What putting ``object`` on/in ``target`` needs."""
    opening = (open_if_openable("target"),) if relation == "in" else ()
    return (
        holding("object"),
        distinct("object", "target"),
        next_to("target"),
        has_property("target", "receptacle"),
        *opening,
        accepts("object", "target"),
        has_room("object", "target", relation),
    )


def _tool(port: str, prop: str) -> tuple[Precondition, Precondition]:
    return holding(port), has_property(port, prop)


_KNOB = "a stove knob switches the burner it controls too (same stove, same position)"

#: Every action, by name (each leaf class in :mod:`pytest_logicenv.sim.leaves` says what it does).
ACTIONS: Mapping[str, ActionSpec] = {
    spec.name: spec
    for spec in (
        _spec(
            "GoTo",
            ["target"],
            [open_way("target")],
            [],
            ["the agent stands next to `target` (a room: in it, at no object), with what it holds"],
            _go_to,
            room_ports=["target"],
        ),
        _spec(
            "PickUp",
            ["object"],
            [next_to("object"), has_property("object", "pickupable"), hand_free()],
            [Change("held", "object")],
            ["the agent holds `object`"],
        ),
        _spec(
            "PutOn",
            ["object", "target"],
            _receive("on"),
            [Change("on", "object", target="target")],
            ["`object` rests on `target`; the agent's hand is free"],
        ),
        _spec(
            "PutIn",
            ["object", "target"],
            _receive("in"),
            [Change("in", "object", target="target")],
            [
                "`object` is in `target` (in a sink or a bathtub: in its basin, where the faucet's "
                "water falls); the agent's hand is free"
            ],
            into_ports=["target"],
        ),
        _switch("Open", "openable", "open", True, [appliance_off("target")]),
        _switch("Close", "openable", "open", False),
        _switch(
            "ToggleOn",
            "toggleable",
            "toggled",
            True,
            [appliance_closed("target")],
            f"`target` is on; {_KNOB}",
            controls=True,
        ),
        _switch(
            "ToggleOff",
            "toggleable",
            "toggled",
            False,
            effect=f"`target` is off; {_KNOB}",
            controls=True,
        ),
        _spec(
            "Clean",
            ["target", "tool"],
            [
                next_to("target"),
                *_tool("tool", "cleaning_tool"),
                wet_if_wettable("tool"),
                in_state("target", "dirty", True),
            ],
            [_state("target", "dirty", False)],
            ["`target` is clean"],
        ),
        _switch(
            "Fill",
            "fillable",
            "filled",
            True,
            [under_running_water("target")],
            "`target` is filled with water",
        ),
        _switch(
            "Wet",
            "wettable",
            "wet",
            True,
            [under_running_water("target")],
            "`target` is wet (extension: AI2-THOR has no wet state)",
        ),
        _spec(
            "Empty",
            ["target"],
            [holding("target"), in_state("target", "filled", True)],
            [_state("target", "filled", False)],
            ["`target` is empty"],
        ),
        _spec(
            "Pour",
            ["object", "target"],
            [
                holding("object"),
                in_state("object", "filled", True),
                distinct("object", "target"),
                next_to("target"),
                has_property("target", "fillable"),
                in_state("target", "filled", False),
            ],
            [_state("target", "filled", True), _state("object", "filled", False)],
            ["`target` is filled; `object` is empty"],
        ),
        _spec(
            "EmptyInto",
            ["object", "target"],
            [
                holding("object"),
                in_state("object", "filled", True),
                distinct("object", "target"),
                next_to("target"),
                has_property("target", "drain"),
            ],
            [_state("object", "filled", False)],
            [
                "`object` is empty, poured out into `target` (a sink or bathtub: its basin; a "
                "toilet)"
            ],
            into_ports=["target"],
        ),
        _spec(
            "Slice",
            ["target", "tool"],
            [
                next_to("target"),
                has_property("target", "sliceable"),
                in_state("target", "sliced", False),
                *_tool("tool", "cutting_tool"),
            ],
            [_state("target", "sliced", True)],
            ["`target` is sliced"],
        ),
        _spec(
            "Refill",
            ["target", "source"],
            [
                next_to("target"),
                has_property("target", "can_be_used_up"),
                in_state("target", "used_up", True),
                *_tool("source", "refill_source"),
            ],
            [_state("target", "used_up", False)],
            ["`target` is no longer used up (extension)"],
        ),
        _spec(
            "Drop",
            ["object"],
            [holding("object")],
            [Change("on", "object")],
            ["`object` lies on the floor where the agent stands"],
        ),
    )
}


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class RuleRow:
    """One row of the action table: an action (or a rule every action obeys) with its ports,
    its preconditions in order as ``(rule, text, outcome when broken)``, and its effects; as
    data, the facts it makes true and what its rules ask that a check before any scene can
    judge (:mod:`pytest_logicenv.sim.achievable` reads them)."""

    action: str
    ports: tuple[str, ...]
    preconditions: tuple[tuple[str, str, str], ...]
    effects: tuple[str, ...]
    changes: tuple[Change, ...] = ()
    requires: tuple[Requirement, ...] = ()


#: The name the table gives the binding rules and the physics.
EVERY_PORT = "(every port of every action, first)"
AFTER_EVERY_ACTION = "(after every action that takes effect)"


def action_table() -> list[RuleRow]:
    """The rules the simulator runs, as rows: the binding rules, every action of
    :data:`ACTIONS` in order, then the physics (the data ``docs/actions.md`` is made of)."""
    rows = [RuleRow(EVERY_PORT, (), _with_outcomes(BINDING_RULES), ())]
    for spec in ACTIONS.values():
        rules = tuple((rule.code, rule.text) for rule in spec.preconditions)
        needs = tuple(rule.requires for rule in spec.preconditions if rule.requires)
        row = RuleRow(spec.name, spec.ports, _with_outcomes(rules), spec.effects)
        rows.append(replace(row, changes=spec.changes, requires=needs))
    rows.append(RuleRow(AFTER_EVERY_ACTION, (), (), PHYSICS_RULES))
    return rows


def _with_outcomes(rules: Sequence[tuple[str, str]]) -> tuple[tuple[str, str, str], ...]:
    return tuple((code, text, outcome_of(code)) for code, text in rules)


# --------------------------------------------------------------------------- calls


def check_call(action: str, arguments: Mapping[str, Target]) -> None:
    """Raise :class:`PolicyError` unless ``action`` is known and ``arguments`` fill exactly
    its ports with well-formed object references (the caller adds where the call is
    written)."""
    spec = ACTIONS.get(action)
    if spec is None:
        close = difflib.get_close_matches(action, ACTIONS, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise PolicyError(f"unknown action {action!r}{hint} (known actions: {', '.join(ACTIONS)})")
    ports = ", ".join(spec.ports)
    for port in arguments:
        if port not in spec.ports:
            raise PolicyError(f"{action} has no port {port!r}; its ports are: {ports}")
    for port in spec.ports:
        if port not in arguments:
            alias = TARGET_QUALIFIERS.get(action) if port == "target" else None
            python = " (in_= in Python)" if alias == "in" else ""
            named = f", or the target as {alias}={python}" if alias else ""
            raise PolicyError(f"{action} needs port {port!r} (ports: {ports}{named})")
        target = arguments[port]
        where = f"{action} port {port!r}"
        if isinstance(target, Select):
            target.check(where)
        else:
            check_reference(target, where)
        if (target.ref if isinstance(target, Select) else target) == FLOOR:
            raise PolicyError(
                f"{where}: Floor is not an object an action can use; "
                "Drop(object) puts what the agent holds on the floor"
            )


@dataclass(frozen=True)
class Performed:
    """What one action call did: the precondition it broke (``None`` when it took effect)
    and the ids of the objects its ports were bound to, in port order (empty when a
    reference named nothing or a room)."""

    violation: PreconditionViolation | None
    objects: tuple[str, ...] = ()


def execute(
    world: WorldState, action: str, arguments: Mapping[str, Target]
) -> PreconditionViolation | None:
    """Run one action call: apply its effect and return ``None``, or change nothing and
    return the precondition it broke (see :func:`perform`)."""
    return perform(world, action, arguments).violation


def perform(world: WorldState, action: str, arguments: Mapping[str, Target]) -> Performed:
    """Run one action call and say what it was bound to.

    Every port is bound first (:mod:`pytest_logicenv.sim.binding`: the reference names
    something, the agent can see it, it means one object); then the preconditions are checked
    in order on the bound objects.
    """
    check_call(action, arguments)
    spec = ACTIONS[action]
    selects = {port: selector(arguments[port]) for port in spec.ports}
    written = tuple((port, str(selects[port])) for port in spec.ports)
    options: list[list[WorldObject]] = []
    for port in spec.ports:
        select = selects[port]
        found = candidates(world, select, at_hand=port in spec.reach_ports)
        if isinstance(found, Unbound):
            room = world.room_named(select.ref) if port in spec.room_ports else None
            if room is not None and select.bare and found.code == "exists":
                return Performed(_enter(world, spec, written, room))
            return Performed(_unbound(spec, written, port, found))
        options.append([inner(world, obj) for obj in found] if port in spec.into_ports else found)
    best: tuple[int, PreconditionViolation] | None = None
    for combination in itertools.product(*options):
        bound = dict(zip(spec.ports, combination, strict=True))
        for index, precondition in enumerate(spec.preconditions):
            broken = precondition.check(world, bound)
            if broken is not None:
                if best is None or index > best[0]:
                    best = (index, _violation(spec, written, bound, precondition.code, broken))
                break
        else:
            spec.effect(world, bound)
            settle(world)
            return Performed(None, tuple(obj.id for obj in combination))
    assert best is not None  # every port had a candidate, so some combination was checked
    return Performed(best[1], tuple(obj_id for _, obj_id in best[1].objects))


def _enter(
    world: WorldState, spec: ActionSpec, written: tuple[tuple[str, str], ...], room: str
) -> PreconditionViolation | None:
    """Walk into ``room`` (only GoTo has a room port), if the way is open."""
    blocked = way_to(world, (room,))
    if blocked is None:
        world.move_agent(room, None)
        return None
    return PreconditionViolation(spec.name, written, "way", blocked.requirement, blocked.facts)


def _unbound(
    spec: ActionSpec, written: tuple[tuple[str, str], ...], port: str, unbound: Unbound
) -> PreconditionViolation:
    objects = tuple((port, obj_id) for obj_id in unbound.objects)
    return PreconditionViolation(
        spec.name,
        written,
        unbound.code,
        unbound.broken.requirement,
        unbound.broken.facts,
        objects=objects,
        absent=unbound.absent,
    )


def _violation(
    spec: ActionSpec,
    written: tuple[tuple[str, str], ...],
    bound: Bound,
    code: str,
    broken: Broken,
) -> PreconditionViolation:
    return PreconditionViolation(
        spec.name,
        written,
        code,
        broken.requirement,
        broken.facts,
        objects=tuple((port, bound[port].id) for port in spec.ports),
    )
