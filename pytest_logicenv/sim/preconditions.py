"""The preconditions actions check, each a named rule with its text for the action table.

A :class:`Precondition` is data: a ``code`` (the rule's name, as violations and the generated
table print it), the ``text`` the table shows (ports in backquotes) and the ``check`` the
simulator runs on the objects a call is bound to. A check returns ``None`` when the rule holds,
else :class:`Broken`: the requirement and the facts that were true instead, with the objects'
labels filled in.

>>> from pytest_logicenv.sim.preconditions import holding
>>> rule = holding("object")
>>> rule.code, rule.text
('holding', 'the agent holds `object`')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pytest_logicenv.sim.physics import running_water_over, water_sources
from pytest_logicenv.sim.world import REACH_METRES, WorldObject, WorldState

#: The objects an action call is bound to, by port.
Bound = Mapping[str, WorldObject]


@dataclass(frozen=True)
class Broken:
    """What a failed precondition check reports."""

    requirement: str
    facts: tuple[str, ...]


@dataclass(frozen=True)
class Requirement:
    """What a rule asks of the objects, as data that checks before any scene read (the plan's
    goal checks, :mod:`pytest_logicenv.sim.achievable`): ``property`` (``port`` has property
    ``name``), ``state`` (``port``'s state ``name`` is ``value``), ``held`` (the agent holds
    ``port``), ``accepts`` and ``room`` (``port`` fits ``other``, by the relation ``name``),
    ``water`` (``port`` is under running water)."""

    kind: str
    port: str
    name: str = ""
    value: bool = True
    other: str = ""


@dataclass(frozen=True)
class Precondition:
    """One rule an action checks: its name, its text in the table, its check, the ports it
    needs within reach (the binder prefers the candidate at hand for those) and, for the
    rules a check before any scene can judge, what it asks as data."""

    code: str
    text: str
    check: Callable[[WorldState, Bound], Broken | None]
    reach: tuple[str, ...] = ()
    requires: Requirement | None = None


# How a boolean state reads in messages: (when true, when false).
_STATE_WORDS: Mapping[str, tuple[str, str]] = {
    "open": ("open", "closed"),
    "toggled": ("on", "off"),
    "dirty": ("dirty", "clean"),
    "filled": ("filled", "empty"),
    "sliced": ("sliced", "not sliced"),
    "cooked": ("cooked", "not cooked"),
    "used_up": ("used up", "not used up"),
    "wet": ("wet", "dry"),
    "hot": ("hot", "not hot"),
    "cold": ("cold", "not cold"),
}
_PROPERTY_WORDS: Mapping[str, str] = {
    "receptacle": "a receptacle",
    "cleaning_tool": "a cleaning tool",
    "cutting_tool": "a cutting tool",
    "refill_source": "a refill container",
    "can_be_used_up": "something that gets used up",
    "drain": "a drain (a sink basin, a bathtub basin, a toilet)",
    "temperature": "something with a temperature (food heats and cools)",
}


def state_word(state: str, value: bool) -> str:
    """How ``state`` being ``value`` reads: ``open``/``closed``, ``on``/``off``, ..."""
    true_word, false_word = _STATE_WORDS.get(state, (state, f"not {state}"))
    return true_word if value else false_word


def property_word(prop: str) -> str:
    """How having ``prop`` reads: ``a receptacle``, ``a cleaning tool``, ``pickupable``."""
    return _PROPERTY_WORDS.get(prop, prop)


def _port(port: str) -> str:
    return f"`{port}`"


def is_appliance(obj: WorldObject) -> bool:
    """An appliance that works on what it holds behind its door (a microwave, a dishwasher, a
    washing machine): openable, toggleable and a receptacle."""
    return obj.has("openable") and obj.has("toggleable") and obj.has("receptacle")


# --------------------------------------------------------------------------- reaching


def open_way(port: str) -> Precondition:
    """The agent walks to the object's room through open doors (a closed door bars it)."""

    def check(world: WorldState, bound: Bound) -> Broken | None:
        return way_to(world, world.rooms_of(bound[port]))

    return Precondition("way", f"an open way (no closed door) to the room of {_port(port)}", check)


def way_to(world: WorldState, rooms: Sequence[str]) -> Broken | None:
    """Whether an open way leads from the agent's room into one of ``rooms``."""
    closed = world.closed_way(rooms)
    if closed is None:
        return None
    return Broken(
        f"an open way from {world.agent.room} to {rooms[0]}",
        tuple(f"{door.label} is closed" for door in closed),
    )


def _where_agent_is(world: WorldState) -> str:
    spot = world.agent.spot
    if spot is None:
        return f"the agent is in {world.agent.room} at no object"
    return f"the agent is next to {world.objects[spot].label}"


def next_to(port: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if world.reachable(obj):
            return None
        facts = [_where_agent_is(world)]
        away = world.away_from(obj)
        if away is not None and away is not world.ground(obj):  # at its spot, not its sink
            facts[0] += f", not at {away.label} ({obj.label} is reached only there)"
        if obj.room != world.agent.room:
            facts.append(f"{obj.label} is in {obj.room}")
        if away is None and (distance := world.distance_beyond_reach(obj)) is not None:
            facts.append(
                f"{obj.label} is {distance:.1f} m from where the agent stands (at "
                f"{world.agent.at}); AI2-THOR reaches {REACH_METRES:g} m: GoTo({obj.label}) "
                "first"
            )
        return Broken(f"the agent is next to {obj.label} (GoTo it first)", tuple(facts))

    text = (
        f"the agent stands next to {_port(port)} (or holds it), within {REACH_METRES:g} m of "
        "the object it went to (*Reaching*); a faucet, sink, basin or what is in it: at that "
        "sink"
    )
    return Precondition("next_to", text, check, reach=(port,))


def hand_free() -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        held = world.held()
        if held is None:
            return None
        return Broken("the agent's hand is free", (f"the agent holds {held.label}",))

    return Precondition("hand_free", "the agent's hand is free (it holds one object)", check)


def holding(port: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        held = world.held()
        if held is obj:
            return None
        fact = "the agent holds nothing" if held is None else f"the agent holds {held.label}"
        return Broken(f"the agent holds {obj.label}", (fact,))

    text = f"the agent holds {_port(port)}"
    return Precondition("holding", text, check, (port,), Requirement("held", port))


# --------------------------------------------------------------------------- what objects are


def has_property(port: str, prop: str) -> Precondition:
    word = _PROPERTY_WORDS.get(prop, prop)

    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if obj.has(prop):
            return None
        return Broken(f"{obj.label} is {word}", (f"{obj.label} ({obj.type}) is not {word}",))

    text = f"{_port(port)} is {word} (property `{prop}`)"
    return Precondition(prop, text, check, requires=Requirement("property", port, prop))


def in_state(port: str, state: str, value: bool) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if obj.states.get(state, False) == value:
            return None
        return Broken(
            f"{obj.label} is {state_word(state, value)}",
            (f"{obj.label} is {state_word(state, not value)}",),
        )

    code = state if value else f"not_{state}"
    text = f"{_port(port)} is {state_word(state, value)}"
    return Precondition(code, text, check, requires=Requirement("state", port, state, value))


def open_if_openable(port: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if not obj.has("openable") or obj.states.get("open", False):
            return None
        return Broken(f"{obj.label} is open", (f"{obj.label} is closed",))

    return Precondition("open", f"{_port(port)} is open, if it opens", check)


def appliance_off(port: str) -> Precondition:
    """AI2-THOR opens no microwave that runs; we extend that to every appliance."""

    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if not is_appliance(obj) or not obj.states.get("toggled", False):
            return None
        return Broken(
            f"{obj.label} is off before it is opened (ToggleOff it first)",
            (f"{obj.label} is running",),
        )

    text = (
        f"an appliance (openable, toggleable receptacle) {_port(port)} is off "
        "(AI2-THOR's microwave rule, extended to every appliance)"
    )
    return Precondition("appliance_off", text, check)


def appliance_closed(port: str) -> Precondition:
    """AI2-THOR turns on no microwave with its door open; we extend that to every appliance."""

    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if not is_appliance(obj) or not obj.states.get("open", False):
            return None
        return Broken(
            f"{obj.label} is closed before it runs (Close it first)",
            (f"{obj.label} is open",),
        )

    text = (
        f"an appliance (openable, toggleable receptacle) {_port(port)} is closed "
        "(AI2-THOR's microwave rule, extended to every appliance)"
    )
    return Precondition("appliance_closed", text, check)


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

    text = f"{_port(second)} is another object than {_port(first)}, not on or in it"
    return Precondition("distinct", text, check)


def accepts(obj_port: str, target_port: str) -> Precondition:
    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj, target = bound[obj_port], bound[target_port]
        if not target.accepts or obj.type in target.accepts:
            return None
        return Broken(
            f"{target.label} accepts {obj.label}",
            (f"{target.label} accepts only {', '.join(target.accepts)}, not {obj.type}",),
        )

    text = f"an object-specific {_port(target_port)} takes the type of {_port(obj_port)}"
    needs = Requirement("accepts", obj_port, other=target_port)
    return Precondition("compatible", text, check, requires=needs)


def room_measure(size: tuple[float, float, float], relation: str) -> float:
    """What a receptacle's room is measured in: volume for ``in``, floor area for ``on``."""
    x, y, z = size
    return x * y * z if relation == "in" else x * z


def has_room(obj_port: str, target_port: str, relation: str) -> Precondition:
    """An object-specific receptacle (a toaster, a towel holder) takes one object at a time;
    others take what fits: volumes for ``in``, floor areas for ``on``
    (:func:`room_measure`)."""

    def measure(obj: WorldObject) -> float:
        return room_measure(obj.size, relation)

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
            facts = (
                f"{obj.label} ({_size(obj, relation)}) is larger than {target.label} "
                f"({_size(target, relation)})",
            )
        return Broken(f"{target.label} has room for {obj.label}", facts)

    measure_text = "volume" if relation == "in" else "floor area"
    text = (
        f"{_port(target_port)} has room for {_port(obj_port)} (by {measure_text}; "
        "an object-specific receptacle takes one object)"
    )
    needs = Requirement("room", obj_port, relation, other=target_port)
    return Precondition("room", text, check, requires=needs)


def _size(obj: WorldObject, relation: str) -> str:
    """An object's size as the room rule measures it: width x height x depth for ``in``,
    its floor area's width x depth for ``on``."""
    x, y, z = (f"{round(side, 2):g}" for side in obj.size)
    return f"{x} x {y} x {z} m" if relation == "in" else f"{x} x {z} m"


# --------------------------------------------------------------------------- water and tools


def under_running_water(port: str) -> Precondition:
    """AI2-THOR fills what touches a running faucet's water; a call that fills or wets
    anywhere else did not happen."""

    def check(world: WorldState, bound: Bound) -> Broken | None:
        obj = bound[port]
        if running_water_over(world, obj) is not None:
            return None
        return Broken(
            f"{obj.label} is under a running faucet (in its basin, or held at its sink)",
            _no_water_facts(world, obj),
        )

    text = (
        f"{_port(port)} is under a running faucet: in or on its basin, or held while the "
        "agent stands at that sink (not elsewhere along its counter)"
    )
    return Precondition("running_water", text, check, requires=Requirement("water", port))


def _no_water_facts(world: WorldState, obj: WorldObject) -> tuple[str, ...]:
    faucets = water_sources(world)
    if not faucets:
        return (f"no faucet is in {world.agent.room}",)
    off = [f.label for f in faucets if not f.states.get("toggled", False)]
    where = f"{obj.label} is held by the agent" if obj is world.held() else f"{obj.label} is"
    facts = [f"{where} away from every running faucet"]
    if off:
        facts.append(f"{', '.join(off)} {'is' if len(off) == 1 else 'are'} off")
    return tuple(facts)


def wet_if_wettable(port: str) -> Precondition:
    """Our extension: a cloth or a sponge cleans only when wet."""

    def check(world: WorldState, bound: Bound) -> Broken | None:
        tool = bound[port]
        if not tool.has("wettable") or tool.states.get("wet", False):
            return None
        return Broken(
            f"{tool.label} is wet (Wet it under a running faucet first)",
            (f"{tool.label} is dry",),
        )

    text = f"{_port(port)} is wet, if it can be (a cloth, a sponge; extension)"
    return Precondition("wet_tool", text, check)
