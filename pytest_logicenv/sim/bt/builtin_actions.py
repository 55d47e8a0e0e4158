"""BT.CPP v4's built-in leaves (``Sleep`` is in :mod:`pytest_logicenv.sim.bt.timing`).

===================  ========================================================================
``AlwaysSuccess``    SUCCESS; ``AlwaysFailure``: FAILURE
``Script``           runs ``code``, SUCCESS
``ScriptCondition``  SUCCESS when ``code`` evaluates true, else FAILURE
``SetBlackboard``    writes ``value`` (text, or a copy of the ``{entry}`` it names) to the
                     entry ``output_key`` names
``UnsetBlackboard``  removes the entry ``key`` of its own tree's scope (not one a SubTree
                     remaps to its caller, nor ``@key``: BT.CPP's ``unset`` does not either)
``WasEntryUpdated``  SUCCESS when ``entry`` was written since this node last looked
===================  ========================================================================
"""

from __future__ import annotations

from pytest_logicenv.sim.bt.blackboard import Entry, assign
from pytest_logicenv.sim.bt.decorators import ScriptPort
from pytest_logicenv.sim.bt.node import FAILURE, SUCCESS, BtLeaf, BtStatus
from pytest_logicenv.sim.bt.ports import Value, blackboard_key, coerce


class Constant(BtLeaf):
    """``AlwaysSuccess`` and ``AlwaysFailure``."""

    def __init__(self, name: str, result: BtStatus) -> None:
        super().__init__(name)
        self.constant = result

    def on_tick(self) -> BtStatus:
        return self.constant


class ScriptNode(BtLeaf):
    """``Script`` (``condition=False``) and ``ScriptCondition``."""

    def __init__(self, name: str, *, condition: bool) -> None:
        super().__init__(name)
        self.condition = condition
        self.script = ScriptPort(self, "code")

    def on_tick(self) -> BtStatus:
        script = self.script.get()
        if not self.condition:
            self.run(script, "code")
            return SUCCESS
        return SUCCESS if self.holds(script, "code") else FAILURE


class SetBlackboard(BtLeaf):
    """As BT.CPP 4.8's: text is parsed into the destination's type; an untyped destination
    has no parser, so text leaves it empty. Any write into an untyped entry of this node's own
    scope types it BT.CPP's ``Any``, which no text parses into (``Entry.sealed``); an entry
    reached through a SubTree's remapping is written as it is and stays untyped."""

    def on_tick(self) -> BtStatus:
        board = self.ports.blackboard
        target = self.ports.text("output_key")
        raw = self.ports.given("value")
        source_key = blackboard_key("value", raw)
        destination = board.entry(target)
        value: Value | None = raw
        if source_key is not None:
            source = board.entry(source_key)
            if source is None:
                raise self.fail(f"value={raw!r}: no blackboard entry {source_key!r} to copy")
            if destination is None:
                destination = board.create(target, source.type)
            value = source.value
        if value is None:
            return FAILURE
        if destination is None:
            destination = board.create(target, "str")  # BT.CPP types a new entry as its text
        untyped = destination.type == "any"
        if untyped and isinstance(value, str) and destination.sealed:
            raise self.fail(
                f"value={value!r}: cannot convert text into blackboard entry {target!r}, "
                "which a SetBlackboard already wrote (BT.CPP then types it Any, which no text "
                "parses into): write it with a Script, or use another entry"
            )
        self.write(destination, target, None if untyped and isinstance(value, str) else value)
        if untyped and (board.owner(target)[0] is board or target.startswith("@")):
            destination.sealed = True
        return SUCCESS

    def write(self, destination: Entry, target: str, value: Value | None) -> None:
        if value is None:
            destination.value = None
            destination.seq += 1
            return
        try:
            if isinstance(value, str):
                value = coerce(value, destination.type)
            assign(destination, value, target)
        except ValueError as error:
            raise self.fail(f"output_key={target!r}: {error}") from None


class UnsetBlackboard(BtLeaf):
    def on_tick(self) -> BtStatus:
        self.ports.blackboard.unset(self.ports.text("key"))
        return SUCCESS


class WasEntryUpdated(BtLeaf):
    """As BT.CPP's ``EntryUpdatedAction``: FAILURE for an entry never written or missing."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.seen = 0  # the write count of an entry nothing has written yet

    def on_tick(self) -> BtStatus:
        key = self.ports.key("entry") or self.ports.given("entry")
        entry = self.ports.blackboard.entry(key)
        if entry is None:
            return FAILURE
        updated = entry.seq != self.seen
        self.seen = entry.seq
        return SUCCESS if updated else FAILURE
