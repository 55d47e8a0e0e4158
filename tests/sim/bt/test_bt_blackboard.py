"""The runtime blackboard: ``{key}`` and ``{=}`` ports, defaults, BT.CPP's string conversions,
SubTree scopes with remapping, ``_autoremap`` and ``@`` keys, and the load-time check that
every entry read is written somewhere."""

from __future__ import annotations

import re

import pytest
from bt_helpers import build, run

from pytest_logicenv.errors import PolicyError, PolicyRuntimeError
from pytest_logicenv.sim.bt.blackboard import Blackboard
from pytest_logicenv.sim.bt.node import BtNode
from pytest_logicenv.sim.bt.portio import Ports
from pytest_logicenv.sim.bt.ports import blackboard_key, coerce, convert


@pytest.mark.parametrize(
    ("text", "type", "value"),
    [
        ("42", "int", 42), ("-7abc", "int", -7), ("3.5", "double", 3.5),
        ("  1e2", "double", 100.0), ("TRUE", "bool", True), ("0", "bool", False),
        ("SKIPPED", "status", "SKIPPED"), ("a;b", "queue", ("a", "b")), ("x y", "str", "x y"),
    ],
)  # fmt: skip
def test_text_converts_as_bt_cpp_converts_it(text: str, type: str, value: object) -> None:
    assert convert(text, type) == value  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "type"),
    [(" 4", "int"), ("+4", "int"), ("x", "double"), ("yes", "bool"), ("5000000000", "int")],
)
def test_text_that_does_not_convert_is_refused(text: str, type: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(text))):
        convert(text, type)  # type: ignore[arg-type]


def test_numbers_convert_between_ports_without_loss_only() -> None:
    assert coerce(3.0, "int") == 3
    assert coerce(2, "str") == "2"
    with pytest.raises(ValueError, match="not a whole number"):
        coerce(2.5, "int")


def test_numbers_no_integer_holds_are_refused_not_overflowed() -> None:
    with pytest.raises(ValueError, match="inf is not a whole number for int"):
        coerce(float("inf"), "int")
    with pytest.raises(ValueError, match="is out of range for int"):
        coerce(2**40, "int")
    with pytest.raises(ValueError, match="too large a number"):
        coerce(10**400, "double")
    board = Blackboard()
    board.set("n", float("inf"))
    ports = Ports({"n": "{n}"}, {"n": "double"}, board, "t.xml:1 <Wait>")
    with pytest.raises(PolicyRuntimeError, match=r"t\.xml:1 <Wait>: port 'n' holds inf, not a"):
        ports.integer("n")


def test_references() -> None:
    assert blackboard_key("goal", "{goal}") == "goal"
    assert blackboard_key("goal", " {=} ") == "goal"
    assert blackboard_key("goal", "=") == "goal"
    assert blackboard_key("fact", '{"held": "toy"}') is None  # JSON stays text
    assert blackboard_key("goal", "{@goal}") == "@goal"


def test_subtree_scopes_remapping_autoremap_and_the_root_prefix() -> None:
    root = Blackboard()
    plain = Blackboard(root, remapping={"inner": "outer"})
    auto = Blackboard(root, autoremap=True)
    plain.set("inner", 1)
    plain.set("local", 2)
    auto.set("shared", 3)
    auto.set("_private", 4)
    plain.set("@global", 5)
    assert root.get("outer") == 1
    assert root.get("shared") == 3
    assert root.get("global") == 5
    assert "local" not in root
    assert "_private" not in root
    assert auto.get("outer") == 1
    assert "outer" not in plain


def entries(root: BtNode) -> dict[str, object]:
    return {k: e.value for k, e in root.ports.blackboard.root.storage.items()}


def test_an_output_written_by_one_node_is_read_by_a_later_one_across_subtrees() -> None:
    body = (
        '<Sequence><SubTree ID="Find" found="{target}"/>'
        '<SetBlackboard value="{target}" output_key="copy"/>'
        "<ScriptCondition code=\"copy == 'mug' &amp;&amp; n == 3\"/></Sequence>"
    )
    find = (
        '<BehaviorTree ID="Find"><Sequence><Script code="found := \'mug\'"/>'
        '<Script code="@n := 3"/></Sequence></BehaviorTree>'
    )
    root = build(body, find)
    # as BT.CPP 4.8: SetBlackboard parses text into the copy's type, and an entry a Script
    # created is untyped, with no parser: the copy is left empty
    with pytest.raises(PolicyRuntimeError, match="variable not found: 'copy'"):
        run(root, 1)
    assert entries(root) == {"target": "mug", "copy": None, "n": 3}
    typed = build(body.replace('value="{target}"', 'value="mug"'), find)
    assert run(typed, 1) == ["SUCCESS"]
    assert entries(typed) == {"target": "mug", "copy": "mug", "n": 3}


def test_a_literal_subtree_port_is_set_in_the_subtree_scope_only() -> None:
    body = '<Sequence><SubTree ID="Count" limit="2"/><ScriptCondition code="done"/></Sequence>'
    count = (
        '<BehaviorTree ID="Count">'
        "<Script code=\"@done := limit &lt; 3; limit := '9'\"/></BehaviorTree>"
    )
    root = build(body, count)
    assert run(root, 1) == ["SUCCESS"]
    assert "limit" not in entries(root)


def test_unset_in_a_subtree_erases_its_own_entries_not_its_callers() -> None:
    # BT.CPP's Blackboard::unset erases from the scope's own storage only
    body = (
        '<Sequence><Script code="t := 1; u := 2"/><SubTree ID="Clear" t="{t}"/>'
        '<SubTree ID="Clear" _autoremap="true"/><Script code="@g := 3"/>'
        '<UnsetBlackboard key="@g"/><ScriptCondition code="t + u + g == 6"/></Sequence>'
    )
    clear = (
        '<BehaviorTree ID="Clear"><Sequence><Script code="own := 1"/>'
        '<UnsetBlackboard key="t"/><UnsetBlackboard key="u"/><UnsetBlackboard key="own"/>'
        '<ScriptCondition code="own == 1"/></Sequence></BehaviorTree>'
    )
    with pytest.raises(PolicyRuntimeError, match="variable not found: 'own'"):
        run(build(body, clear), 1)  # its own entry is gone
    kept = clear.replace('<ScriptCondition code="own == 1"/>', "")
    root = build(body, kept)
    assert run(root, 1) == ["SUCCESS"]  # the caller's t, u and the root's g are not
    # nor "own" where _autoremap created it in the caller
    assert entries(root) == {"t": 1, "u": 2, "g": 3, "own": 1}


def test_defaults_fill_ports_the_xml_leaves_out() -> None:
    root = build('<Parallel><Script code="a := 1"/><Script code="b := 1"/></Parallel>')
    assert root.ports.raw == {"success_count": "-1", "failure_count": "1"}
    assert run(root, 1) == ["SUCCESS"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '<Sequence><Repeat num_cycles="{n}"><Step/></Repeat><Delay delay_msec="{n}">'
            "<Step/></Delay></Sequence>",
            "entry 'n' was declared int; a port of type unsigned cannot use it too",
        ),
    ],
)
def test_mixing_types_is_refused(body: str, message: str) -> None:
    sub = '<BehaviorTree ID="Sub"><ScriptCondition code="a"/></BehaviorTree>'
    with pytest.raises(PolicyError) as caught:
        build(body, sub)
    assert message in str(caught.value)


def test_the_initial_blackboard_counts_as_written() -> None:
    root = build('<ScriptCondition code="x &gt; 1"/>', blackboard={"x": 2})
    assert run(root, 1) == ["SUCCESS"]


def test_a_value_that_does_not_convert_at_run_time_names_the_node() -> None:
    root = build('<Sequence><Script code="n := \'many\'"/><Repeat num_cycles="{n}"><Step/>'
                 "</Repeat></Sequence>")  # fmt: skip
    with pytest.raises(PolicyError, match=r"t\.xml:1 <Script>: code=.*holds int"):
        run(root, 1)
