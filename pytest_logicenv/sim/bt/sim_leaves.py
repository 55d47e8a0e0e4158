"""The simulator's actions and conditions as XML nodes, reading their ports at tick time.

``<PickUp object="{item}"/>`` acts on whatever ``item`` holds when it is ticked, so a value a
Script or an output port wrote earlier is used. Ports written as text are checked when the
file is loaded; ports read from the blackboard are checked when read, and a bad value there
ends the run with a :class:`~pytest_logicenv.errors.PolicyRuntimeError` naming the node.
"""

from __future__ import annotations

from collections.abc import Mapping

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.logic.facts import Fact, bound_roles, references
from pytest_logicenv.sim.actions import ACTIONS, Target, check_call
from pytest_logicenv.sim.bt.node import FAILURE, SUCCESS, BtLeaf, BtStatus
from pytest_logicenv.sim.leaves import AgentBehaviour, condition_fact, condition_label
from pytest_logicenv.sim.selectors import selector, targets_from_text


class XmlAction(BtLeaf, AgentBehaviour):
    """One simulator action; ``known`` holds the port values known when the tree was built
    (checked against the scene before a run). Qualifier ports (``room``, ``target_room``,
    ...) make a port's reference a selector."""

    def __init__(
        self,
        name: str,
        action: str,
        literal: Mapping[str, str],
        known: Mapping[str, str],
        raw: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(name)
        self.action = action
        self.known = dict(known)
        self.port_names = ACTIONS[action].ports
        given = len(raw) if raw is not None else len(self.port_names)
        self.literal = self._targets(literal) if len(literal) == given else None

    def _targets(self, values: Mapping[str, str]) -> dict[str, Target]:
        return targets_from_text(self.action, self.port_names, values)

    def references(self) -> tuple[str, ...]:
        return tuple(name for target in self._known_targets() for name in selector(target).names())

    def rooms(self) -> tuple[str, ...]:
        return tuple(room for target in self._known_targets() if (room := selector(target).room))

    def _known_targets(self) -> list[Target]:
        try:
            targets = self._targets(self.known)
        except PolicyError:  # a qualifier read at tick time, checked then
            targets = {port: self.known[port] for port in self.port_names if port in self.known}
        return list(targets.values())

    def on_tick(self) -> BtStatus:
        if self.literal is not None:
            arguments = self.literal
        else:
            # read outside the try: a port's own error already names the node
            values = {port: self.ports.text(port) for port in self.ports.raw}
            try:
                arguments = self._targets(values)
                check_call(self.action, arguments)
            except PolicyError as error:
                raise self.fail(str(error)) from None
        self.agent.act(self.action, **arguments)
        return SUCCESS


class XmlCondition(BtLeaf, AgentBehaviour):
    """One simulator condition; its fact is built once when every port is text."""

    def __init__(self, name: str, condition: str, literal: Mapping[str, str] | None) -> None:
        super().__init__(name)
        self.condition = condition
        self.fact: Fact | None = None
        self.args: tuple[str, ...] = ()
        if literal is not None:
            self.fact = condition_fact(condition, literal)
            self.args = condition_label(condition, literal, self.fact)

    def references(self) -> tuple[str, ...]:
        if self.fact is None:
            return ()
        bound = bound_roles(self.fact)
        found = references(self.fact)
        return tuple(sorted(ref for ref in found if ref not in bound and ref != "Floor"))

    def on_tick(self) -> BtStatus:
        fact, args = self.fact, self.args
        if fact is None:
            values = {port: self.ports.text(port) for port in self.ports.raw}
            try:
                fact = condition_fact(self.condition, values)
            except PolicyError as error:
                raise self.fail(str(error)) from None
            args = condition_label(self.condition, values, fact)
        holds = self.agent.check(fact, name=self.condition, args=args)
        return SUCCESS if holds else FAILURE
