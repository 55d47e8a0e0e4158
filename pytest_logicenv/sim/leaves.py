"""py_trees leaves for the simulator: one per action, and conditions over facts.

Build a policy from these and py_trees' own composites; the runner binds every leaf to the
agent of one run before ticking. Objects are named as the facts language names them: a type
(``Mug``), a role (``red_box``) or an object id. Actions succeed or end the run at a broken
precondition; conditions answer SUCCESS or FAILURE from what the agent can see.

An action's first port takes selector keywords, the facts language's qualifiers: ``on``,
``in_``, ``room``, ``part_of``, ``attrs``, ``states`` and ``any`` (any one of several will do);
any port takes a :class:`~pytest_logicenv.sim.selectors.Select`. A reference that names several
objects the agent can see, none of them at hand, is an error that lists them:

>>> leaf = GoTo("Window", room="Study")
>>> leaf.ports
{'target': Select('Window', room='Study')}

``PutOn``'s ``on=`` and ``PutIn``'s ``in_=`` name the target instead, as one says it (the
other keywords still select the object):

>>> PutOn("Plate", on="DiningTable").ports
{'object': 'Plate', 'target': 'DiningTable'}
>>> PutIn("Book", Select("Shelf", room="Study", attrs={"level": "top"})).references()
('Book', 'Shelf', 'Study')

>>> import py_trees
>>> toy = py_trees.composites.Selector("toy", memory=True, children=[
...     py_trees.decorators.Inverter("no toy", Exists("toy", on="Floor")),
...     py_trees.composites.Sequence("put away", memory=True, children=[
...         GoTo("toy"), PickUp("toy"), GoTo("red_box"), PutIn("toy", "red_box")])])
>>> [leaf.name for leaf in toy.iterate() if isinstance(leaf, AgentBehaviour)]
['Exists', 'GoTo', 'PickUp', 'GoTo', 'PutIn']

A user's own behaviour subclasses :class:`AgentBehaviour` and calls the agent API:

>>> class TidyToy(AgentBehaviour):
...     def update(self) -> py_trees.common.Status:
...         if self.agent.check({"exists": "toy", "where": {"on": "Floor"}}):
...             self.agent.go_to("toy")
...             self.agent.pick_up("toy")
...         return py_trees.common.Status.SUCCESS

The condition IDs (also usable as BehaviorTree.CPP XML nodes) are in :data:`CONDITIONS`; the
action IDs are those of :data:`~pytest_logicenv.sim.actions.ACTIONS`.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import py_trees

from pytest_logicenv.errors import FactError, PolicyError
from pytest_logicenv.logic.facts import Absent as Absent_
from pytest_logicenv.logic.facts import Fact, bound_roles, describe, parse_fact, references, to_json
from pytest_logicenv.sim.actions import ACTIONS, Target, check_call
from pytest_logicenv.sim.agent import Agent
from pytest_logicenv.sim.selectors import (
    TARGET_QUALIFIERS,
    selector,
    selector_from_ports,
    selector_ports,
)
from pytest_logicenv.sim.selectors import Select as Select  # policies import it from here


class AgentBehaviour(py_trees.behaviour.Behaviour):
    """A behaviour that acts in the simulator through ``self.agent``.

    Subclass it for your own leaves and implement ``update``; the runner binds the agent of
    each run before the first tick. ``origin`` says where the node was written (an XML file
    and line) for error messages.
    """

    def __init__(self, name: str | None = None) -> None:
        super().__init__(name or type(self).__name__)
        self._agent: Agent | None = None
        self.origin = ""

    @property
    def agent(self) -> Agent:
        if self._agent is None:
            raise PolicyError(
                f"behaviour {self.name!r} is not bound to a run; run its tree with "
                "pytest_logicenv.sim.runner.run_policy (or the logic_env fixture)"
            )
        return self._agent

    def bind(self, agent: Agent | None) -> None:
        self._agent = agent

    def references(self) -> tuple[str, ...]:
        """The object references this leaf uses, checked against the scene before a run."""
        return ()

    def rooms(self) -> tuple[str, ...]:
        """The room names among :meth:`references` (a selector's ``room``), so that an
        unknown one is reported with the scene's rooms."""
        return ()


class ActionLeaf(AgentBehaviour):
    """Does one action; SUCCESS when it takes effect (a broken precondition ends the run).
    A port holds an object reference or a :class:`~pytest_logicenv.sim.selectors.Select`."""

    def __init__(self, action: str, ports: Mapping[str, Target], *, name: str | None = None):
        check_call(action, ports)
        super().__init__(name or action)
        self.action = action
        self.ports = {port: ports[port] for port in ACTIONS[action].ports}

    def references(self) -> tuple[str, ...]:
        return tuple(name for port in self.ports.values() for name in selector(port).names())

    def rooms(self) -> tuple[str, ...]:
        return tuple(room for port in self.ports.values() if (room := selector(port).room))

    def update(self) -> py_trees.common.Status:
        self.agent.act(self.action, **self.ports)
        return py_trees.common.Status.SUCCESS


# --------------------------------------------------------------------------- conditions


@dataclass(frozen=True)
class ConditionSpec:
    """A condition: its required and optional ports, what other ports mean (``attrs`` or
    ``states``; ``None`` forbids them, ``extra_required`` demands one) and how its ports become
    the JSON of a fact."""

    name: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    extra: str | None
    build: Callable[[Mapping[str, str], Mapping[str, str]], Any]
    extra_required: bool = False


def _selected(ports: Mapping[str, str], extra: Mapping[str, str]) -> Select:
    """The object port with its qualifier ports (and, for ``Exists``, attribute ports)."""
    select = selector_from_ports(ports, "condition")
    return selector(select, attrs={**select.attrs, **extra}) if extra else select


def _exists(form: str) -> Callable[[Mapping[str, str], Mapping[str, str]], Any]:
    def build(ports: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, Any]:
        select = _selected(ports, extra)
        fact = select.as_fact()
        if form == "absent":
            return to_json(Absent_(fact.ref, fact.where, fact.attrs, fact.states))
        return to_json(fact)

    return build


def _related(relation: str) -> Callable[[Mapping[str, str], Mapping[str, str]], Any]:
    return lambda ports, extra: {relation: [ports["object"], ports["target"]]}


def _state(state: str, value: bool) -> Callable[[Mapping[str, str], Mapping[str, str]], Any]:
    """A state of the object port; with qualifier ports, of some object they select
    (``IsToggledOn(Select("DeskLamp", room="LivingRoom"))``)."""

    def build(ports: Mapping[str, str], extra: Mapping[str, str]) -> Any:
        select = _selected(ports, extra)
        if select.bare:
            return {"state": ports["object"], state: value}
        return to_json(selector(select, states={**select.states, state: value}).as_fact())

    return build


def _parse_bool(text: str, port: str) -> bool:
    lowered = text.strip().lower()
    if lowered not in ("true", "false"):
        raise PolicyError(f"state port {port!r} must be true or false, got {text!r}")
    return lowered == "true"


def _attrs(ports: Mapping[str, str], extra: Mapping[str, str]) -> Any:
    return {"attr": ports["object"], **extra}


def _states(ports: Mapping[str, str], extra: Mapping[str, str]) -> Any:
    return {"state": ports["object"], **{k: _parse_bool(v, k) for k, v in extra.items()}}


def _check_fact(ports: Mapping[str, str], extra: Mapping[str, str]) -> Any:
    try:
        return json.loads(ports["fact"])
    except json.JSONDecodeError as error:
        raise PolicyError(f"port 'fact' is not valid JSON ({error})") from None


def _cond(
    name: str,
    required: tuple[str, ...],
    build: Callable[[Mapping[str, str], Mapping[str, str]], Any],
    optional: tuple[str, ...] = (),
    extra: str | None = None,
    extra_required: bool = False,
) -> ConditionSpec:
    return ConditionSpec(name, required, optional, extra, build, extra_required)


_OBJ = ("object",)
_PAIR = ("object", "target")
#: The qualifier ports of a condition on one object (a selector's, as text).
_SELECT = ("on", "in", "room", "part_of", "attrs", "states")

#: Every condition, by ID (each condition class below says what it checks).
CONDITIONS: Mapping[str, ConditionSpec] = {
    spec.name: spec
    for spec in (
        _cond("Check", ("fact",), _check_fact),
        _cond("Exists", _OBJ, _exists("exists"), _SELECT, "attrs"),
        _cond("Absent", _OBJ, _exists("absent"), _SELECT, "attrs"),
        _cond("IsOn", _PAIR, _related("on")),
        _cond("IsIn", _PAIR, _related("in")),
        _cond("IsNear", _PAIR, _related("near")),
        _cond("IsHeld", _OBJ, lambda ports, extra: {"held": ports["object"]}),
        _cond("IsOpen", _OBJ, _state("open", True), _SELECT),
        _cond("IsClosed", _OBJ, _state("open", False), _SELECT),
        _cond("IsToggledOn", _OBJ, _state("toggled", True), _SELECT),
        _cond("IsToggledOff", _OBJ, _state("toggled", False), _SELECT),
        _cond("IsDirty", _OBJ, _state("dirty", True), _SELECT),
        _cond("IsClean", _OBJ, _state("dirty", False), _SELECT),
        _cond("IsFilled", _OBJ, _state("filled", True), _SELECT),
        _cond("IsWet", _OBJ, _state("wet", True), _SELECT),
        _cond("IsHot", _OBJ, _state("hot", True), _SELECT),
        _cond("IsCold", _OBJ, _state("cold", True), _SELECT),
        _cond("HasAttr", _OBJ, _attrs, extra="attrs", extra_required=True),
        _cond("InState", _OBJ, _states, extra="states", extra_required=True),
    )
}


def condition_fact(condition: str, ports: Mapping[str, str]) -> Fact:
    """The fact a condition with these ports checks; :class:`PolicyError` on a bad call."""
    spec = CONDITIONS.get(condition)
    if spec is None:
        raise PolicyError(
            f"unknown condition {condition!r} (known conditions: {', '.join(CONDITIONS)})"
        )
    named = spec.required + spec.optional
    for port in spec.required:
        if not ports.get(port):
            raise PolicyError(f"{condition} needs port {port!r} (ports: {', '.join(named)})")
    extra = {port: value for port, value in ports.items() if port not in named}
    for port in extra:  # a misspelt port is a mistake, not an attribute named so
        close = difflib.get_close_matches(port, named, n=1, cutoff=0.75)
        if close or spec.extra is None:
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise PolicyError(
                f"{condition} has no port {port!r}; {hint}its ports are: {', '.join(named)}"
                + (" (other ports are attributes)" if spec.extra == "attrs" else "")
            )
    if spec.extra_required and not extra:
        example = 'kind="doll"' if spec.extra == "attrs" else 'open="true"'
        raise PolicyError(f"{condition} needs at least one {spec.extra} port, e.g. {example}")
    try:
        return parse_fact(spec.build(ports, extra), condition)
    except FactError as error:
        raise PolicyError(str(error)) from None


def condition_label(condition: str, ports: Mapping[str, str], fact: Fact) -> tuple[str, ...]:
    """The trace label of a condition, the same however its ports were written: required
    ports by value, then the others as ``port=value`` in a fixed order."""
    if condition == "Check":
        return (describe(fact),)
    spec = CONDITIONS[condition]
    others = [p for p in spec.optional if ports.get(p)]
    others += sorted(p for p in ports if p not in spec.required + spec.optional)
    return (*(ports[p] for p in spec.required), *(f"{p}={ports[p]}" for p in others))


class ConditionLeaf(AgentBehaviour):
    """Checks a fact on what the agent can see: SUCCESS when it holds, else FAILURE."""

    def __init__(self, condition: str, ports: Mapping[str, str], *, name: str | None = None):
        self.fact = condition_fact(condition, ports)
        super().__init__(name or condition)
        self.condition = condition
        self.args = condition_label(condition, ports, self.fact)

    def references(self) -> tuple[str, ...]:
        bound = bound_roles(self.fact)
        return tuple(
            sorted(ref for ref in references(self.fact) if ref not in bound and ref != "Floor")
        )

    def update(self) -> py_trees.common.Status:
        holds = self.agent.check(self.fact, name=self.condition, args=self.args)
        return py_trees.common.Status.SUCCESS if holds else py_trees.common.Status.FAILURE


# --------------------------------------------------------------------------- the leaves by name


def _first(ref: Target, qualifiers: Mapping[str, Any]) -> Target:
    """The first port's reference with the leaf's selector keywords (an unknown keyword is a
    :class:`PolicyError` that names it)."""
    return selector(ref, **qualifiers) if qualifiers else ref


def _second(
    action: str, first: Target, port: str, value: Target | None, qualifiers: dict[str, Any]
) -> Target:
    """The second port: ``value``, or the target ``PutOn``'s ``on=`` (``PutIn``'s ``in_=``)
    names, taken out of ``qualifiers``. A target given both ways, or none, is a
    :class:`PolicyError` naming the call to write."""
    alias = TARGET_QUALIFIERS.get(action)
    keyword = next((k for k in (alias, f"{alias}_") if alias and k in qualifiers), None)
    if keyword is not None:
        if value is not None:
            raise PolicyError(
                f"{action}({first!r}, {value!r}, {keyword}=...): {keyword}= names the target "
                f"of {action}; give it once: {action}({first!r}, {keyword}={value!r}) or "
                f"{action}({first!r}, {value!r}); to say which {first} by where it is, select "
                f"it: {action}(Select({first!r}, {keyword}=...), {keyword}={value!r})"
            )
        value = qualifiers.pop(keyword)
    if value is None:
        named = (
            f"{action}({first!r}, {alias if alias != 'in' else 'in_'}='...') or " if alias else ""
        )
        raise PolicyError(
            f"{action}({first!r}) needs its {port}: write {named}{action}({first!r}, '...')"
        )
    return value


class _OnTarget(ActionLeaf):
    def __init__(self, target: Target, *, name: str | None = None, **qualifiers: Any) -> None:
        super().__init__(type(self).__name__, {"target": _first(target, qualifiers)}, name=name)


class _OnObject(ActionLeaf):
    def __init__(self, object: Target, *, name: str | None = None, **qualifiers: Any) -> None:
        super().__init__(type(self).__name__, {"object": _first(object, qualifiers)}, name=name)


class _TwoPorts(ActionLeaf):
    """An action with two ports; keywords select the first, but for the keyword that names
    the target (``PutOn("Plate", on="DiningTable")``)."""

    def _build(
        self, first: Target, second: Target | None, name: str | None, qualifiers: dict[str, Any]
    ) -> None:
        action = type(self).__name__
        one, two = ACTIONS[action].ports
        value = _second(action, first, two, second, qualifiers)
        super().__init__(action, {one: _first(first, qualifiers), two: value}, name=name)


class _ObjectToTarget(_TwoPorts):
    def __init__(
        self,
        object: Target,
        target: Target | None = None,
        *,
        name: str | None = None,
        **qualifiers: Any,
    ) -> None:
        self._build(object, target, name, qualifiers)


class _TargetWithTool(_TwoPorts):
    def __init__(
        self,
        target: Target,
        tool: Target | None = None,
        *,
        name: str | None = None,
        **qualifiers: Any,
    ) -> None:
        self._build(target, tool, name, qualifiers)


class _TargetFromSource(_TwoPorts):
    def __init__(
        self,
        target: Target,
        source: Target | None = None,
        *,
        name: str | None = None,
        **qualifiers: Any,
    ) -> None:
        self._build(target, source, name, qualifiers)


class GoTo(_OnTarget):
    """Walk to ``target`` (an object, or a room) so that it is within reach; a closed door on
    the way must be opened first."""


class PickUp(_OnObject):
    """Take ``object`` in the agent's one hand."""


class PutOn(_ObjectToTarget):
    """Put the held ``object`` on ``target``."""


class PutIn(_ObjectToTarget):
    """Put the held ``object`` in ``target`` (open it first if it opens)."""


class Open(_OnTarget):
    """Open ``target``: a fridge, a drawer, a window, a door, ..."""


class Close(_OnTarget):
    """Close ``target``."""


class ToggleOn(_OnTarget):
    """Switch ``target`` on (a heat source then cooks or fills what it holds)."""


class ToggleOff(_OnTarget):
    """Switch ``target`` off."""


class Clean(_TargetWithTool):
    """Clean the dirty ``target`` with the held cleaning ``tool``."""


class Fill(_OnTarget):
    """Fill ``target`` with water under a running faucet (held at it, or in its basin)."""


class Wet(_OnTarget):
    """Wet ``target`` (a cloth, a sponge) under a running faucet."""


class Empty(_OnTarget):
    """Empty the filled ``target`` the agent holds."""


class Pour(_ObjectToTarget):
    """Pour the held, filled ``object`` into ``target``."""


class EmptyInto(_ObjectToTarget):
    """Empty the held, filled ``object`` into the drain ``target`` (a sink's basin)."""


class Slice(_TargetWithTool):
    """Slice ``target`` with the held cutting ``tool``."""


class Refill(_TargetFromSource):
    """Refill the used-up ``target`` from the held refill container ``source``."""


class Drop(_OnObject):
    """Put the held ``object`` on the floor where the agent stands."""


class Check(ConditionLeaf):
    """Any fact: ``Check({"in": ["toy", "red_box"]})``."""

    def __init__(self, fact: Fact | Mapping[str, Any], *, name: str | None = None):
        data = to_json(fact) if not isinstance(fact, Mapping) else fact
        super().__init__("Check", {"fact": json.dumps(data)}, name=name)


class _Selected(ConditionLeaf):
    """A condition on one object, which a :class:`Select` or selector keywords (``room=``,
    ``on=``, ``in_=``, ``part_of=``, ``attrs=``, ``states=``) may qualify."""

    def __init__(self, object: Target, *, name: str | None = None, **qualifiers: Any) -> None:
        qualifiers.pop("any", None)  # a condition asks whether some object fits: any one does
        condition = type(self).__name__
        attr_ports = CONDITIONS[condition].extra == "attrs"
        ports = selector_ports(selector(_first(object, qualifiers)), attr_ports)
        super().__init__(condition, ports, name=name)


class Exists(_Selected):
    """An object matching the ``object`` port is there (``on``/``in``/``room``/``part_of``,
    with ``attrs`` and ``states``)."""


class Absent(_Selected):
    """No object matching the ``object`` port is there (``on``/``in``/``room``/``part_of``,
    with ``attrs`` and ``states``)."""


class _Pair(ConditionLeaf):
    def __init__(self, object: str, target: str, *, name: str | None = None) -> None:
        super().__init__(type(self).__name__, {"object": object, "target": target}, name=name)


class IsOn(_Pair):
    """``object`` rests on ``target``."""


class IsIn(_Pair):
    """``object`` is inside ``target``."""


class IsNear(_Pair):
    """``object`` is near ``target``."""


class _Single(_Selected):
    pass


class IsHeld(ConditionLeaf):
    """The agent holds ``object``."""

    def __init__(self, object: str, *, name: str | None = None) -> None:
        super().__init__("IsHeld", {"object": object}, name=name)


class IsOpen(_Single):
    """``object`` is open."""


class IsClosed(_Single):
    """``object`` is closed."""


class IsToggledOn(_Single):
    """``object`` is switched on."""


class IsToggledOff(_Single):
    """``object`` is switched off."""


class IsDirty(_Single):
    """``object`` is dirty."""


class IsClean(_Single):
    """``object`` is not dirty."""


class IsFilled(_Single):
    """``object`` is filled."""


class IsWet(_Single):
    """``object`` is wet (a cloth that was held under a running faucet)."""


class IsHot(_Single):
    """``object`` is hot (food warmed on or in a heat source that was on)."""


class IsCold(_Single):
    """``object`` is cold (food kept in a fridge)."""


class HasAttr(ConditionLeaf):
    """``object`` has these attributes: ``HasAttr("toy", kind="doll")``."""

    def __init__(self, object: str, *, name: str | None = None, **attrs: str) -> None:
        super().__init__("HasAttr", {"object": object, **attrs}, name=name)


class InState(ConditionLeaf):
    """``object`` is in these states: ``InState("window", open=False)``."""

    def __init__(self, object: str, *, name: str | None = None, **states: bool) -> None:
        ports = {state: "true" if value else "false" for state, value in states.items()}
        super().__init__("InState", {"object": object, **ports}, name=name)
