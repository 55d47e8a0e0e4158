"""Action targets with selectors: which of several objects a call means.

An action port names an object the way facts do: a type (``Window``), a role (``red_box``) or
an id. A :class:`Select` adds the facts language's qualifiers, so a policy can say which of
two windows it means: ``Select("Window", room="Study")``, ``Select("Book", attrs={"cover":
"hard"})``, ``Select("Plate", on="DiningTable")``, ``Select("Drawer", part_of="TVStand")``.
``any=True`` says that any one of the matching objects will do (the first, in scene order,
that meets the action's preconditions): the only way a call binds one of several objects
without naming which.

The qualifiers mean what they mean in an ``exists`` fact and are checked by the facts
language's own matcher: ``on``/``in`` what the object rests on or in (``Floor`` for the
floor), ``room`` a room id or type, ``part_of`` the object it is a part of, ``attrs`` and
``states`` what it has and is.

>>> Select("Window", room="Study")
Select('Window', room='Study')
>>> str(Select("Book", on="Floor", attrs={"cover": "hard"}))
'Book on Floor with cover=hard'
>>> Select("Mug", states={"dirty": True}).check("PickUp port 'object'")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.logic.facts import (
    FLOOR,
    STATES,
    Exists,
    Where,
    canonical_state,
    describe,
    selected,
)
from pytest_logicenv.sim.world import WorldObject, WorldState

#: The qualifiers a selector takes (the Python keyword ``in`` is written ``in_``).
QUALIFIERS: tuple[str, ...] = ("on", "in", "room", "part_of", "attrs", "states", "any")


@dataclass(frozen=True)
class Select:
    """An object reference with qualifiers; see the module docstring."""

    ref: str
    on: str | None = None
    in_: str | None = None
    room: str | None = None
    part_of: str | None = None
    attrs: Mapping[str, str] = field(default_factory=dict)
    states: Mapping[str, bool] = field(default_factory=dict)
    any: bool = False

    def __repr__(self) -> str:
        shown = [repr(self.ref)]
        for name in ("on", "in_", "room", "part_of", "attrs", "states", "any"):
            value = getattr(self, name)
            if value:
                shown.append(f"{name}={value!r}")
        return f"Select({', '.join(shown)})"

    @property
    def bare(self) -> bool:
        """Whether no qualifier narrows the reference."""
        return not (self.on or self.in_ or self.room or self.part_of or self.attrs or self.states)

    @property
    def where(self) -> Where:
        return Where(on=self.on, in_=self.in_, room=self.room, part_of=self.part_of)

    def as_fact(self) -> Exists:
        """The ``exists`` fact that holds when some object fits this selector."""
        return Exists(self.ref, None, self.where, dict(self.attrs), dict(self.states))

    def references(self) -> tuple[str, ...]:
        """The object references it uses (the room is a room name, checked as one)."""
        refs = (self.ref, self.on, self.in_, self.part_of)
        return tuple(ref for ref in refs if ref is not None and ref != FLOOR)

    def names(self) -> tuple[str, ...]:
        """Every name it uses: its references and its room."""
        return (*self.references(), *((self.room,) if self.room else ()))

    def __str__(self) -> str:
        if self.bare and not self.any:
            return self.ref
        text = describe(self.as_fact())[2:]  # without "a "
        return text + (" (any one)" if self.any else "")

    def check(self, where: str) -> None:
        """Raise :class:`PolicyError` unless every part is well formed; ``where`` says where
        the selector is written."""
        check_reference(self.ref, where)
        if self.on is not None and self.in_ is not None:
            raise PolicyError(f"{where}: a selector cannot be both on and in something")
        for name, ref in (("on", self.on), ("in", self.in_), ("part_of", self.part_of)):
            if ref is not None:
                check_reference(ref, f"{where} qualifier {name!r}")
        if self.room is not None and (not isinstance(self.room, str) or not self.room.strip()):
            raise PolicyError(f"{where}: room={self.room!r} is not a room id or type")
        for name, value in self.attrs.items():
            if not isinstance(value, str):
                raise PolicyError(f"{where}: attribute {name!r} must be a string, got {value!r}")
        for name, flag in self.states.items():
            if canonical_state(name) != name:
                known = ", ".join(STATES)
                fix = canonical_state(name)
                hint = f"write {fix!r}" if fix else f"known states: {known}"
                raise PolicyError(f"{where}: unknown state {name!r} in a selector; {hint}")
            if not isinstance(flag, bool):
                raise PolicyError(f"{where}: state {name!r} must be true or false, got {flag!r}")

    def select(self, world: WorldState) -> list[WorldObject]:
        """The objects the reference names that meet every qualifier, in scene order: the
        facts language's own matcher (:func:`~pytest_logicenv.logic.facts.selected`)."""
        if self.bare:
            return world.candidates(self.ref)
        return [world.objects[obj.id] for obj in selected(self.as_fact(), world)]

    def fits(self, world: WorldState, obj: WorldObject) -> bool:
        """Whether ``obj`` is one of the objects this selector names."""
        return any(found is obj for found in self.select(world))


def selector(ref: str | Select, **qualifiers: Any) -> Select:
    """``ref`` as a :class:`Select`, with ``qualifiers`` (the keywords of :data:`QUALIFIERS`,
    ``in`` as ``in_``) added; an unknown keyword is a :class:`PolicyError` naming it."""
    unknown = sorted(set(qualifiers) - {*QUALIFIERS, "in_"} - {"in"})
    if unknown:
        raise PolicyError(
            f"unknown selector qualifier {unknown[0]!r}; the qualifiers are: "
            f"{', '.join(QUALIFIERS)}"
        )
    given = {("in_" if key == "in" else key): value for key, value in qualifiers.items()}
    given = {key: value for key, value in given.items() if value is not None}
    if isinstance(ref, Select):
        if not given:
            return ref
        fields = {name: getattr(ref, name) for name in ("on", "in_", "room", "part_of")}
        fields.update(attrs=ref.attrs, states=ref.states, any=ref.any)
        fields.update(given)
        return Select(ref.ref, **fields)
    return Select(ref, **given)


def check_reference(ref: object, where: str) -> None:
    """Raise :class:`PolicyError` unless ``ref`` is a well-formed object reference."""
    if not isinstance(ref, str) or not ref or ref != ref.strip() or any(c in ref for c in "{}"):
        raise PolicyError(
            f"{where}: {ref!r} is not an object reference; write a type (Mug), "
            "a role (red_box) or an object id"
        )


# --------------------------------------------------------------------------- the target


#: The qualifier that names an action's target rather than selecting its first port:
#: ``PutOn("Plate", on="DiningTable")`` puts the plate on the dining table, as one says it.
#: Its object is then selected with the other qualifiers, or a :class:`Select`
#: (``PutOn(Select("Plate", on="Counter"), on="DiningTable")``).
TARGET_QUALIFIERS: Mapping[str, str] = {"PutOn": "on", "PutIn": "in"}


# --------------------------------------------------------------------------- as text ports

#: The qualifiers as BehaviorTree.CPP ports, with their descriptions (``in`` is ``in``).
PORT_QUALIFIERS: Mapping[str, str] = {
    "room": "which room it is in (a room id or type)",
    "on": "what it rests on (Floor for the floor)",
    "in": "what it is in",
    "part_of": "the object it is a part of",
    "attrs": "attributes it has, key=value;key=value",
    "states": "states it is in, state=true;state=false",
    "any": "true if any one of several will do",
}


def qualifier_port(action: str, ports: Sequence[str], port: str, qualifier: str) -> str:
    """The text port that qualifies ``port``: the qualifier itself for an action's first
    port (``room``), prefixed by the port's name for the others (``target_room``) and for the
    qualifier that names the action's target (``PutOn``'s ``object_on``)."""
    plain = port == ports[0] and qualifier != TARGET_QUALIFIERS.get(action)
    return qualifier if plain else f"{port}_{qualifier}"


def text_ports(action: str, ports: Sequence[str]) -> list[tuple[str, str]]:
    """Every qualifier port of ``action`` (whose ports are ``ports``), with its description;
    first the port that names its target, if it has one (``PutOn``'s ``on``)."""
    alias = TARGET_QUALIFIERS.get(action)
    named = [(alias, "target: the same as target=, as one says it")] if alias else []
    return named + [
        (qualifier_port(action, ports, port, qualifier), f"{port}: {text}")
        for port in ports
        for qualifier, text in PORT_QUALIFIERS.items()
    ]


def targets_from_text(
    action: str, ports: Sequence[str], values: Mapping[str, str]
) -> dict[str, str | Select]:
    """An action's ports from text ports (BehaviorTree.CPP attributes): each port's
    reference, made a :class:`Select` when qualifier ports are given, and the target from the
    port that names it (``<PutOn object="Plate" on="DiningTable"/>``). A port that is neither
    an action port nor a qualifier port is a :class:`PolicyError` that lists them."""
    known = {
        qualifier_port(action, ports, port, qualifier): (port, qualifier)
        for port in ports
        for qualifier in PORT_QUALIFIERS
    }
    alias = TARGET_QUALIFIERS.get(action)
    qualifiers: dict[str, dict[str, Any]] = {port: {} for port in ports}
    targets: dict[str, str | Select] = {}
    for name, value in values.items():
        if name in ports:
            targets[name] = value
        elif name == alias:
            continue
        elif name in known:
            port, qualifier = known[name]
            where = f"{action} port {name}={value!r}"
            qualifiers[port][qualifier] = _parse_qualifier(qualifier, value, where)
        else:
            listed = ", ".join([*ports, *([alias] if alias else []), *known])
            raise PolicyError(f"{action} has no port {name!r}; its ports are: {listed}")
    if alias is not None and alias in values:
        if "target" in targets:
            raise PolicyError(
                f'{action}: give its target once, as target="..." or {alias}="..." (got both: '
                f"target={targets['target']!r}, {alias}={values[alias]!r}); the object's own "
                f"{alias!r} qualifier is object_{alias}"
            )
        targets["target"] = values[alias]
    for port, given in qualifiers.items():
        if given and port in targets:
            targets[port] = selector(targets[port], **given)
    return targets


def selector_ports(select: Select, attr_ports: bool = False) -> dict[str, str]:
    """A selector as a condition's text ports (the XML form): ``object`` and each qualifier
    it has (``attrs``/``states`` as ``key=value;key=value``; with ``attr_ports``, each
    attribute its own port, as ``Exists`` reads them)."""
    ports = {"object": select.ref}
    for name, value in (("on", select.on), ("in", select.in_), ("room", select.room)):
        if value is not None:
            ports[name] = value
    if select.part_of is not None:
        ports["part_of"] = select.part_of
    if select.attrs and attr_ports:
        ports.update(select.attrs)
    elif select.attrs:
        ports["attrs"] = ";".join(f"{k}={v}" for k, v in select.attrs.items())
    if select.states:
        ports["states"] = ";".join(f"{k}={str(v).lower()}" for k, v in select.states.items())
    return ports


def selector_from_ports(ports: Mapping[str, str], where: str) -> Select:
    """The selector a condition's text ports make (``object`` and its qualifier ports)."""
    qualifiers = {
        name: _parse_qualifier(name, ports[name], f"{where} port {name}={ports[name]!r}")
        for name in ("on", "in", "room", "part_of", "attrs", "states")
        if ports.get(name)
    }
    return selector(ports["object"], **qualifiers)


def _parse_qualifier(qualifier: str, value: str, where: str) -> Any:
    if qualifier == "any":
        return _parse_flag(value, where)
    if qualifier == "attrs":
        return dict(_pairs(value, where))
    if qualifier == "states":
        return {name: _parse_flag(flag, where) for name, flag in _pairs(value, where)}
    return value


def _pairs(text: str, where: str) -> list[tuple[str, str]]:
    pairs = []
    for item in filter(None, (part.strip() for part in text.split(";"))):
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise PolicyError(f"{where}: write key=value pairs separated by ';', e.g. cover=hard")
        pairs.append((name.strip(), value.strip()))
    return pairs


def _parse_flag(text: str, where: str) -> bool:
    lowered = text.strip().lower()
    if lowered not in ("true", "false"):
        raise PolicyError(f"{where}: must be true or false")
    return lowered == "true"
