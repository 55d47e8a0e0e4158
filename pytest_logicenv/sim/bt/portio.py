"""A node's ports bound to its blackboard: how a node reads its inputs and writes its outputs.

Every node built from XML, ours or a user's, gets a :class:`Ports`: the raw XML value of each
port (after the declared defaults), the declared types, and the scope of the tree it is in.
Inputs are read at tick time, as BT.CPP's ``getInput`` does, so a value written by an earlier
node is seen by a later one.

>>> from pytest_logicenv.sim.bt.blackboard import Blackboard
>>> board = Blackboard()
>>> ports = Ports({"n": "{count}", "out": "{result}"}, {"n": "int"}, board, "t.xml:3 <Count>")
>>> board.set("count", "41")
>>> ports.set("out", ports.get("n") + 1), board.get("result")
(True, 42)
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import py_trees

from pytest_logicenv.errors import PolicyRuntimeError
from pytest_logicenv.sim.bt.blackboard import Blackboard
from pytest_logicenv.sim.bt.ports import (
    PortType,
    Value,
    blackboard_key,
    coerce,
    convert,
    to_text,
)


class Ports:
    """The ports of one node instance (see the module docstring)."""

    def __init__(
        self,
        raw: Mapping[str, str],
        types: Mapping[str, PortType],
        blackboard: Blackboard,
        origin: str,
    ) -> None:
        self.raw = dict(raw)
        self.types = dict(types)
        self.blackboard = blackboard
        self.origin = origin

    def __contains__(self, port: str) -> bool:
        return port in self.raw

    def key(self, port: str) -> str | None:
        """The blackboard entry ``port`` refers to, or ``None`` when it holds text."""
        raw = self.raw.get(port)
        return None if raw is None else blackboard_key(port, raw)

    def given(self, port: str) -> str:
        """The port's text as the XML gives it (``{key}`` unresolved); an error if the XML
        leaves it out, as BT.CPP fails when the node reads it."""
        if port not in self.raw:
            raise self.fail(f'port {port!r} has no value and no default; add {port}="..."')
        return self.raw[port]

    def fail(self, message: str) -> PolicyRuntimeError:
        return PolicyRuntimeError(f"{self.origin}: {message}")

    def get(self, port: str) -> Value:
        """The value of input ``port``, converted to its type; :class:`PolicyRuntimeError`
        when the port is missing, its entry holds nothing, or the value does not convert."""
        raw = self.raw.get(port)
        if raw is None:
            raise self.fail(f'port {port!r} has no value and no default; add {port}="..."')
        type = self.types.get(port, "any")
        key = blackboard_key(port, raw)
        try:
            if key is None:
                return convert(raw, type)
            return coerce(self.blackboard.get(key), type)
        except KeyError:
            raise self.fail(
                f"port {port}={raw!r} reads blackboard entry {key!r}, which holds no value yet"
            ) from None
        except ValueError as error:
            raise self.fail(f"port {port}={raw!r}: {error}") from None

    def number(self, port: str) -> float:
        """Input ``port`` as a number (its declared type converts the text)."""
        value = self.get(port)
        if isinstance(value, tuple | str):
            raise self.fail(f"port {port!r} holds {value!r}, not a number")
        try:
            return float(value)
        except OverflowError:
            raise self.fail(f"port {port!r} holds {value}, too large a number") from None

    def integer(self, port: str) -> int:
        number = self.number(port)
        if not math.isfinite(number):
            raise self.fail(f"port {port!r} holds {to_text(number)}, not a whole number")
        return int(number)

    def flag(self, port: str) -> bool:
        return self.number(port) != 0.0

    def text(self, port: str) -> str:
        """Input ``port`` as text (what our simulator leaves take)."""
        value = self.get(port)
        return value if isinstance(value, str) else str(coerce(value, "str"))

    def set(self, port: str, value: Value) -> bool:
        """Write ``value`` to the entry output ``port`` names (``{key}`` or ``{=}``); ``False``
        when the XML leaves the port out (BT.CPP's ``setOutput`` then fails quietly)."""
        key = self.key(port)
        if key is None:
            if port not in self.raw:
                return False
            raise self.fail(
                f"output port {port}={self.raw[port]!r} must name a blackboard entry, "
                f'e.g. {port}="{{{port}}}"'
            )
        try:
            self.blackboard.set(key, value)
        except ValueError as error:
            raise self.fail(f"port {port}: {error}") from None
        return True


class PortsBehaviour(py_trees.behaviour.Behaviour):
    """Base class for a user's own behaviour that declares ports: the loader binds
    ``self.ports`` (a :class:`Ports`) before the first tick.

    >>> class Count(PortsBehaviour):
    ...     def update(self) -> py_trees.common.Status:
    ...         self.ports.set("left", self.ports.get("n") - 1)
    ...         return py_trees.common.Status.SUCCESS
    """

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._ports: Ports | None = None

    @property
    def ports(self) -> Ports:
        if self._ports is None:
            raise PolicyRuntimeError(
                f"behaviour {self.name!r} has no ports bound; build it from XML "
                "(load_bt_xml with the node registered with its ports)"
            )
        return self._ports

    def bind_ports(self, ports: Ports) -> None:
        self._ports = ports
