"""Actions: what the agent can do, when it may, and what changes (after AI2-THOR and
VirtualHome's executor).

Each action has named ports (``PutIn(object, target)``), ordered preconditions and an effect on
a :class:`~pytest_logicenv.sim.world.WorldState`. Ports hold object references as the facts
language reads them: a type (``Mug``), a role (``red_box``) or an object id. :func:`execute`
resolves the references, checks the preconditions in order and either applies the effect or
returns a :class:`PreconditionViolation` that names the action, its arguments, the broken
precondition and the facts that broke it.

A reference that names nothing in the scene is a *missing* violation: the situation does not
contain what the policy acts on (its missing branch, ``lackbranch``). Any other broken
precondition breaks causal order on objects that are there (``counterfactual``).

>>> from pytest_logicenv.scenes.model import Room, Scene, SceneObject
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
from dataclasses import dataclass
from typing import Any

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.logic.facts import FLOOR, is_type_ref
from pytest_logicenv.sim.world import WorldObject, WorldState

#: The objects an action call is bound to, by port.
Bound = Mapping[str, WorldObject]


@dataclass(frozen=True)
class PreconditionViolation:
    """A precondition an action call broke.

    ``arguments`` are the ports as the policy wrote them, ``objects`` the object ids they were
    resolved to (empty when a reference named nothing), ``precondition`` a short code
    (``holding``, ``next_to``, ``open``, ...), ``requirement`` the precondition in words and
    ``facts`` what was true instead. ``absent`` is the reference that named nothing in this
    scene, for the ``exists`` precondition.
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
        """The fault class this violation shows: ``lackbranch`` or ``counterfactual``."""
        return "lackbranch" if self.missing else "counterfactual"

    @property
    def call(self) -> str:
        """The call as the policy wrote it: ``PutIn(toy, white_box)``."""
        return f"{self.action}({', '.join(ref for _, ref in self.arguments)})"

    @property
    def reason(self) -> str:
        """What was true instead of the precondition, in words."""
        return "; ".join(self.facts)

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
        """The violation :meth:`to_json` wrote (``kind`` follows from ``absent``)."""
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


@dataclass(frozen=True)
class Broken:
    """What a failed precondition check reports."""

    requirement: str
    facts: tuple[str, ...]


@dataclass(frozen=True)
class Precondition:
    """A precondition: its short ``code``, its ``check``, and ``text``, what it requires in
    words naming the ports (``the agent holds `object```), for the generated docs."""

    code: str
    check: Callable[[WorldState, Bound], Broken | None]
    text: str = ""


@dataclass(frozen=True)
class ActionSpec:
    """An action: its ports in order, its preconditions in the order they are checked, and its
    effect (called only when every precondition holds), with ``does``, the effect in words
    for the generated docs (``docs/actions.md``, ``logicenv actions``)."""

    name: str
    ports: tuple[str, ...]
    preconditions: tuple[Precondition, ...]
    effect: Callable[[WorldState, Bound], None]
    #: Ports that may also name a room (``GoTo(Kitchen)``).
    room_ports: tuple[str, ...] = ()
    does: str = ""


# --------------------------------------------------------------------------- preconditions

# How a boolean state reads in messages: (when true, when false).
_STATE_WORDS: Mapping[str, tuple[str, str]] = {
    "open": ("open", "closed"),
    "toggled": ("on", "off"),
    "dirty": ("dirty", "clean"),
    "filled": ("filled", "empty"),
    "sliced": ("sliced", "not sliced"),
    "cooked": ("cooked", "not cooked"),
}
_PROPERTY_WORDS: Mapping[str, str] = {
    "receptacle": "a receptacle",
    "cleaning_tool": "a cleaning tool",
    "cutting_tool": "a cutting tool",
}


def _state_word(state: str, value: bool) -> str:
    true_word, false_word = _STATE_WORDS.get(state, (state, f"not {state}"))
    return true_word if value else false_word


def _where_agent_is(world: WorldState) -> str:
    spot = world.agent.spot
    if spot is None:
        return f"the agent is in {world.agent.room} at no object"
    return f"the agent is next to {world.objects[spot].label}"


def visible(port: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        container = world.enclosure(obj)
        if container is None:
            return None
        return Broken(
            f"the agent can see {obj.label}",
            (f"{obj.label} is inside {container.label}", f"{container.label} is closed"),
        )

    return Precondition("visible", check, f"`{port}` is not inside a closed receptacle")


def open_way(port: str) -> Precondition:
    """The agent walks to the object's room through open doors (a closed door bars it)."""

    def check(world: WorldState, bound: Bound) -> Broken | None:
        return _way_to(world, world.rooms_of(bound[port]))

    return Precondition(
        "way", check, f"no closed door bars every way from the agent's room to `{port}`'s"
    )


def _way_to(world: WorldState, rooms: Sequence[str]) -> Broken | None:
    closed = world.closed_way(rooms)
    if closed is None:
        return None
    return Broken(
        f"an open way from {world.agent.room} to {rooms[0]}",
        tuple(f"{door.label} is closed" for door in closed),
    )


def next_to(port: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if world.reachable(obj):
            return None
        facts = [_where_agent_is(world)]
        if obj.room != world.agent.room:
            facts.append(f"{obj.label} is in {obj.room}")
        return Broken(f"the agent is next to {obj.label} (GoTo it first)", tuple(facts))

    return Precondition("next_to", check, f"the agent is next to `{port}` (GoTo it first)")


def has_property(port: str, prop: str) -> Precondition:
    word = _PROPERTY_WORDS.get(prop, prop)

    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if obj.has(prop):
            return None
        return Broken(f"{obj.label} is {word}", (f"{obj.label} ({obj.type}) is not {word}",))

    return Precondition(prop, check, f"`{port}` is {word}")


def hand_free() -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        held = world.held()
        if held is None:
            return None
        return Broken("the agent's hand is free", (f"the agent holds {held.label}",))

    return Precondition("hand_free", check, "the agent's hand is free")


def holding(port: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        held = world.held()
        if held is obj:
            return None
        fact = "the agent holds nothing" if held is None else f"the agent holds {held.label}"
        return Broken(f"the agent holds {obj.label}", (fact,))

    return Precondition("holding", check, f"the agent holds `{port}`")


def in_state(port: str, state: str, value: bool) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if obj.states.get(state, False) == value:
            return None
        return Broken(
            f"{obj.label} is {_state_word(state, value)}",
            (f"{obj.label} is {_state_word(state, not value)}",),
        )

    code = state if value else f"not_{state}"
    return Precondition(code, check, f"`{port}` is {_state_word(state, value)}")


def open_if_openable(port: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if not obj.has("openable") or obj.states.get("open", False):
            return None
        return Broken(f"{obj.label} is open", (f"{obj.label} is closed",))

    return Precondition("open", check, f"`{port}` is open, if it opens and closes")


def distinct(first: str, second: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        a, b = bound[first], bound[second]
        if a is not b and all(ancestor is not a for ancestor in world.ancestors(b)):
            return None
        relation = "the same object as" if a is b else "on or in"
        return Broken(
            f"{b.label} is another object than {a.label}, not on or in it",
            (f"{b.label} is {relation} {a.label}",),
        )

    return Precondition(
        "distinct", check, f"`{second}` is another object than `{first}`, not on or in it"
    )


def accepts(obj_port: str, target_port: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj, target = bound[obj_port], bound[target_port]
        if not target.accepts or obj.type in target.accepts:
            return None
        return Broken(
            f"{target.label} accepts {obj.label}",
            (f"{target.label} accepts only {', '.join(target.accepts)}, not {obj.type}",),
        )

    return Precondition(
        "compatible",
        check,
        f"`{target_port}` takes `{obj_port}`'s type (an object-specific receptacle, such as a "
        "toaster, takes only its own types)",
    )


def has_room(obj_port: str, target_port: str, relation: str) -> Precondition:
    """An object-specific receptacle (a toaster, a towel holder) takes one object at a time;
    others take what fits: volumes for ``in``, floor areas for ``on``."""

    def measure(obj: WorldObject) -> float:
        x, y, z = obj.size
        return x * y * z if relation == "in" else x * z

    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj, target = bound[obj_port], bound[target_port]
        inside = world.children(target, relation)
        if target.accepts:
            if not inside:
                return None
            return Broken(
                f"{target.label} has room for {obj.label}",
                (f"{inside[0].label} is already {relation} {target.label}",),
            )
        used = sum(measure(other) for other in inside)
        if used + measure(obj) <= measure(target) * (1 + 1e-9):
            return None
        listing = ", ".join(other.label for other in inside)
        facts = (f"{target.label} is full" + (f" ({listing} {relation} it)" if inside else ""),)
        if not inside:
            facts = (f"{obj.label} is larger than {target.label}",)
        return Broken(f"{target.label} has room for {obj.label}", facts)

    space = "volume" if relation == "in" else "floor area"
    return Precondition(
        "room",
        check,
        f"`{target_port}` has room for `{obj_port}` (an object-specific receptacle holds one "
        f"object; others hold what fits their {space})",
    )


# --------------------------------------------------------------------------- effects


def _heat(world: WorldState, source: WorldObject) -> None:
    """A heat source that is on cooks what is on or in it; an object-specific one (a coffee
    machine that takes mugs) also fills what it holds, as AI2-THOR's coffee machine does."""
    if not (source.has("heat_source") and source.states.get("toggled", False)):
        return
    for inner in world.descendants(source):
        if inner.has("cookable"):
            world.set_state(inner, "cooked", True)
        if source.accepts and inner.has("fillable"):
            world.set_state(inner, "filled", True)


def _go_to(world: WorldState, bound: Bound) -> None:
    target = bound["target"]
    rooms = world.rooms_of(target)  # a door is reached from either side: stay on this one
    room = world.agent.room if world.agent.room in rooms else rooms[0]
    world.move_agent(room, world.ground(target))


def _pick_up(world: WorldState, bound: Bound) -> None:
    world.hold(bound["object"])


def _put(relation: str) -> Callable[[WorldState, Bound], None]:
    def effect(world: WorldState, bound: Bound) -> None:
        world.place(bound["object"], bound["target"], relation)
        _heat(world, bound["target"])

    return effect


def _set(port: str, state: str, value: bool) -> Callable[[WorldState, Bound], None]:
    def effect(world: WorldState, bound: Bound) -> None:
        world.set_state(bound[port], state, value)

    return effect


def _toggle_on(world: WorldState, bound: Bound) -> None:
    world.set_state(bound["target"], "toggled", True)
    _heat(world, bound["target"])


def _pour(world: WorldState, bound: Bound) -> None:
    world.set_state(bound["target"], "filled", True)
    world.set_state(bound["object"], "filled", False)


def _drop(world: WorldState, bound: Bound) -> None:
    world.place(bound["object"], None, "on")


def _spec(
    name: str,
    ports: Sequence[str],
    preconditions: Sequence[Precondition],
    effect: Callable[[WorldState, Bound], None],
    room_ports: Sequence[str] = (),
    *,
    does: str,
) -> ActionSpec:
    return ActionSpec(
        name, tuple(ports), tuple(preconditions), effect, tuple(room_ports), does=does
    )


def _switch(
    name: str,
    prop: str,
    state: str,
    value: bool,
    effect: Callable[[WorldState, Bound], None] | None = None,
    also: str = "",
) -> ActionSpec:
    """An action that sets ``state`` of a reachable ``target`` that has ``prop`` and is not
    already in that state (Open, Close, ToggleOn, ToggleOff, Fill)."""
    return _spec(
        name,
        ["target"],
        [*_reach("target"), has_property("target", prop), in_state("target", state, not value)],
        effect or _set("target", state, value),
        does=f"`target` is {_state_word(state, value)}{also}",
    )


def _reach(port: str) -> tuple[Precondition, Precondition]:
    return visible(port), next_to(port)


def _receive(relation: str) -> tuple[Precondition, ...]:
    """What putting ``object`` on/in ``target`` needs."""
    opening = (open_if_openable("target"),) if relation == "in" else ()
    return (
        holding("object"),
        distinct("object", "target"),
        *_reach("target"),
        has_property("target", "receptacle"),
        *opening,
        accepts("object", "target"),
        has_room("object", "target", relation),
    )


#: What a heat source does, in the docs of the actions that can start it.
_HEATS = (
    "; a heat source that is on cooks what is on or in it (an object-specific one, such as "
    "a coffee machine, also fills it)"
)

#: Every action, by name (each leaf class in :mod:`pytest_logicenv.sim.leaves` says what it does).
ACTIONS: Mapping[str, ActionSpec] = {
    spec.name: spec
    for spec in (
        _spec(
            "GoTo",
            ["target"],
            [visible("target"), open_way("target")],
            _go_to,
            room_ports=["target"],
            does="the agent stands next to `target` (next to what it rests on, for an object "
            "on or in another); `target` may name a room: the agent walks into it",
        ),
        _spec(
            "PickUp",
            ["object"],
            [*_reach("object"), has_property("object", "pickupable"), hand_free()],
            _pick_up,
            does="the agent holds `object`",
        ),
        _spec(
            "PutOn",
            ["object", "target"],
            _receive("on"),
            _put("on"),
            does="`object` is on `target`, the hand is free" + _HEATS,
        ),
        _spec(
            "PutIn",
            ["object", "target"],
            _receive("in"),
            _put("in"),
            does="`object` is in `target`, the hand is free" + _HEATS,
        ),
        _switch("Open", "openable", "open", True),
        _switch("Close", "openable", "open", False),
        _switch("ToggleOn", "toggleable", "toggled", True, effect=_toggle_on, also=_HEATS),
        _switch("ToggleOff", "toggleable", "toggled", False),
        _spec(
            "Clean",
            ["target", "tool"],
            [
                *_reach("target"),
                holding("tool"),
                has_property("tool", "cleaning_tool"),
                in_state("target", "dirty", True),
            ],
            _set("target", "dirty", False),
            does="`target` is clean",
        ),
        _switch("Fill", "fillable", "filled", True),
        _spec(
            "Empty",
            ["target"],
            [*_reach("target"), in_state("target", "filled", True)],
            _set("target", "filled", False),
            does="`target` is empty",
        ),
        _spec(
            "Pour",
            ["object", "target"],
            [
                holding("object"),
                in_state("object", "filled", True),
                distinct("object", "target"),
                *_reach("target"),
                has_property("target", "fillable"),
                in_state("target", "filled", False),
            ],
            _pour,
            does="`target` is filled, `object` empty",
        ),
        _spec(
            "Slice",
            ["target", "tool"],
            [
                *_reach("target"),
                has_property("target", "sliceable"),
                in_state("target", "sliced", False),
                holding("tool"),
                has_property("tool", "cutting_tool"),
            ],
            _set("target", "sliced", True),
            does="`target` is sliced",
        ),
        _spec(
            "Drop",
            ["object"],
            [holding("object")],
            _drop,
            does="`object` lies on the floor where the agent stands, the hand is free",
        ),
    )
}


# --------------------------------------------------------------------------- calls


def check_call(action: str, arguments: Mapping[str, str]) -> None:
    """Raise :class:`PolicyError` unless ``action`` is known and ``arguments`` fill exactly
    its ports with object references (the caller adds where the call is written)."""
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
            raise PolicyError(f"{action} needs port {port!r} (ports: {ports})")
        check_reference(arguments[port], f"{action} port {port!r}")
        if arguments[port] == FLOOR:
            raise PolicyError(
                f"{action} port {port!r}: Floor is not an object an action can use; "
                "Drop(object) puts what the agent holds on the floor"
            )


def check_reference(ref: object, where: str) -> None:
    """Raise :class:`PolicyError` unless ``ref`` is a well-formed object reference."""
    if not isinstance(ref, str) or not ref or ref != ref.strip() or any(c in ref for c in "{}"):
        raise PolicyError(
            f"{where}: {ref!r} is not an object reference; write a type (Mug), "
            "a role (red_box) or an object id"
        )


def _missing(spec: ActionSpec, arguments: Mapping[str, str], ref: str) -> PreconditionViolation:
    thing = f"a {ref}" if is_type_ref(ref) else ref
    return PreconditionViolation(
        spec.name,
        tuple((port, arguments[port]) for port in spec.ports),
        "exists",
        f"this scene contains {thing}",
        (f"no {ref} in this scene",),
        absent=ref,
    )


@dataclass(frozen=True)
class Performed:
    """What one action call did: the precondition it broke (``None`` when it took effect)
    and the ids of the objects its ports were bound to, in port order (empty when a
    reference named nothing or a room)."""

    violation: PreconditionViolation | None
    objects: tuple[str, ...] = ()


def execute(
    world: WorldState, action: str, arguments: Mapping[str, str]
) -> PreconditionViolation | None:
    """Run one action call: apply its effect and return ``None``, or change nothing and
    return the precondition it broke (see :func:`perform`)."""
    return perform(world, action, arguments).violation


def perform(world: WorldState, action: str, arguments: Mapping[str, str]) -> Performed:
    """Run one action call and say what it was bound to.

    A reference naming several objects (a type) binds to the first combination, in scene
    order, that meets every precondition; if none does, the violation reported is the one of
    the combination that got furthest.
    """
    check_call(action, arguments)
    spec = ACTIONS[action]
    options: list[list[WorldObject]] = []
    for port in spec.ports:
        ref = arguments[port]
        found = world.candidates(ref)
        if not found:
            room = world.room_named(ref) if port in spec.room_ports else None
            if room is None:
                return Performed(_missing(spec, arguments, ref))
            return Performed(_enter(world, spec, arguments, room))
        options.append(found)
    best: tuple[int, PreconditionViolation] | None = None
    for combination in itertools.product(*options):
        bound = dict(zip(spec.ports, combination, strict=True))
        for index, precondition in enumerate(spec.preconditions):
            broken = precondition.check(world, bound)
            if broken is not None:
                if best is None or index > best[0]:
                    best = (index, _violation(spec, arguments, bound, precondition, broken))
                break
        else:
            spec.effect(world, bound)
            return Performed(None, tuple(obj.id for obj in combination))
    assert best is not None  # every port had a candidate, so some combination was checked
    return Performed(best[1], tuple(obj_id for _, obj_id in best[1].objects))


def _enter(
    world: WorldState, spec: ActionSpec, arguments: Mapping[str, str], room: str
) -> PreconditionViolation | None:
    """Walk into ``room`` (only GoTo has a room port), if the way is open."""
    blocked = _way_to(world, (room,))
    if blocked is None:
        world.move_agent(room, None)
        return None
    return PreconditionViolation(
        spec.name,
        tuple((p, arguments[p]) for p in spec.ports),
        "way",
        blocked.requirement,
        blocked.facts,
    )


def _violation(
    spec: ActionSpec,
    arguments: Mapping[str, str],
    bound: Bound,
    precondition: Precondition,
    broken: Broken,
) -> PreconditionViolation:
    return PreconditionViolation(
        spec.name,
        tuple((port, arguments[port]) for port in spec.ports),
        precondition.code,
        broken.requirement,
        broken.facts,
        objects=tuple((port, bound[port].id) for port in spec.ports),
    )
