"""The runtime blackboard of a BT.CPP tree: one scope per tree instance, linked by SubTrees.

As in BT.CPP v4, each SubTree gets a blackboard of its own, whose parent is the caller's. A
key the subtree remaps (``<SubTree ID="Fetch" item="{thing}"/>``) is looked up and created in
the parent under the remapped name; with ``_autoremap="true"`` every key not found locally is
(keys starting with ``_`` stay private); a key starting with ``@`` always means the root
blackboard. A literal SubTree port (``item="book"``) is a value set in the child's scope.

Entries keep a declared type (that of the first port that names them, or ``any``) and a
sequence number counting writes (``SkipUnlessUpdated`` and ``WasEntryUpdated`` watch it).
``unset`` removes an entry of the scope itself only, never one of its caller's.

>>> root = Blackboard()
>>> child = Blackboard(root, remapping={"item": "thing"})
>>> child.set("item", "book"); root.get("thing")
'book'
>>> child.set("local", 3); "local" in root
False
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from pytest_logicenv.sim.bt.ports import PortType, Value, coerce, to_text


class Entry:
    """One blackboard entry: its value (``None`` while empty), type and write count."""

    __slots__ = ("sealed", "seq", "type", "value")

    def __init__(self, type: PortType = "any") -> None:
        self.value: Value | None = None
        self.type: PortType = type
        self.seq = 0
        #: A SetBlackboard wrote this untyped entry: BT.CPP types it ``Any``, which no text
        #: parses into (see ``SetBlackboard``).
        self.sealed = False


class Blackboard:
    """One scope; see the module docstring for how keys resolve."""

    def __init__(
        self,
        parent: Blackboard | None = None,
        *,
        autoremap: bool = False,
        remapping: Mapping[str, str] | None = None,
    ) -> None:
        self.parent = parent
        self.autoremap = autoremap
        self.remapping = dict(remapping or {})
        self.storage: dict[str, Entry] = {}

    @property
    def root(self) -> Blackboard:
        board = self
        while board.parent is not None:
            board = board.parent
        return board

    def __contains__(self, key: str) -> bool:
        return self.entry(key) is not None

    def owner(self, key: str) -> tuple[Blackboard, str]:
        """The scope and name an entry ``key`` lives under (or would be created under)."""
        if key.startswith("@"):
            return self.root.owner(key[1:])
        if key in self.storage or self.parent is None:
            return self, key
        if key in self.remapping:
            return self.parent.owner(self.remapping[key])
        if self.autoremap and not key.startswith("_"):
            return self.parent.owner(key)
        return self, key

    def entry(self, key: str) -> Entry | None:
        """The entry ``key`` names, or ``None`` when there is none yet."""
        board, name = self.owner(key)
        return board.storage.get(name)

    def create(self, key: str, type: PortType = "any") -> Entry:
        """The entry ``key`` names, created empty with ``type`` where it belongs if missing;
        ``ValueError`` if it exists with another declared type (text entries convert)."""
        board, name = self.owner(key)
        entry = board.storage.get(name)
        if entry is None:
            entry = board.storage[name] = Entry(type)
        elif type not in ("any", entry.type) and entry.type not in ("any", "str"):
            raise ValueError(
                f"blackboard entry {name!r} was declared {entry.type}; a port of type {type} "
                "cannot use it too"
            )
        return entry  # as BT.CPP, an existing entry keeps its type (untyped stays untyped)

    def get(self, key: str) -> Value:
        """The value of ``key``; ``KeyError`` if the entry is missing or empty."""
        entry = self.entry(key)
        if entry is None or entry.value is None:
            raise KeyError(key)
        return entry.value

    def set(self, key: str, value: Value) -> None:
        """Write ``value`` (converted to the entry's type, as BT.CPP does), creating the entry
        if needed; ``ValueError`` when it does not convert."""
        entry = self.create(key)
        assign(entry, value, key)

    def unset(self, key: str) -> None:
        """Remove the entry ``key`` of this scope (BT.CPP's ``UnsetBlackboard``). As BT.CPP's
        ``Blackboard::unset``, it looks in this scope's own storage only: an entry a SubTree
        remaps (or autoremaps) to its caller is left alone, and so is ``@key``."""
        self.storage.pop(key, None)


def assign(entry: Entry, value: Value, key: str) -> None:
    """Store ``value`` in ``entry``: an untyped entry takes it as it is; otherwise it is
    converted to the declared type."""
    target = entry.type  # an untyped entry takes any value, as BT.CPP's set() does
    if target == "int" and is_long(value):
        # BT.CPP stores every integer as int64 (an int *port* reads 32 bits)
        value = int(value)  # type: ignore[arg-type]
    elif target != "any":
        try:
            value = coerce(value, target)
        except ValueError as error:
            raise ValueError(
                f"cannot store {to_text(value)!r} in blackboard entry {key!r}, which holds "
                f"{target}: {error}"
            ) from None
    entry.value = value
    entry.seq += 1


def is_long(value: Value) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value) and value == int(value) and -(2**63) <= value < 2**63


def kind_of(value: Value) -> PortType:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int" if -(2**31) <= value < 2**31 else "double"
    if isinstance(value, float):
        return "double"
    return "queue" if isinstance(value, tuple) else "str"
