"""BT.CPP's script language: the grammar (precedence, groups, chaining), the values, the
errors for what it does not have, and the pre/post-condition attributes on any node."""

from __future__ import annotations

import pytest
from bt_helpers import build, run, ticked

from pytest_logicenv.errors import PolicyError, PolicyRuntimeError
from pytest_logicenv.sim.bt.blackboard import Blackboard
from pytest_logicenv.sim.bt.script import ScriptSyntaxError, parse_script
from pytest_logicenv.sim.bt.script_eval import ScriptRuntimeError, run_script, truthy

ENUMS = {"RED": 1, "GREEN": 2}


def evaluate(text: str, **entries: object) -> object:
    board = Blackboard()
    for key, value in entries.items():
        board.set(key, value)  # type: ignore[arg-type]
    return run_script(parse_script(text), board, ENUMS)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1 + 2 * 3", 7.0),
        ("(1 + 2) * 3", 9.0),
        ("7 / 2", 3.5),
        ("-3 + 1", -2.0),
        ("0x10 + 1", 17.0),
        ("1.5e1", 15.0),
        ("'a' + 'b'", "ab"),
        ("'n=' .. 1 + 2", "n=3"),
        ("6 & 3 | 8", 10.0),
        ("~0", -1.0),
        ("!0", 1.0),
        ("1 < 2 < 3", 1.0),
        ("3 > 2 > 2", 0.0),
        ("0.1 + 0.2 == 0.3", 1.0),
        ("'b' > 'a'", 1.0),
        ("'2' == 2", 1.0),
        ("'true' == 1", 1.0),
        ("RED == 1 && GREEN != RED", 1.0),
        ("1 || 0 && 0", 0.0),  # one level, left to right: (1 || 0) && 0
        ("2 > 1 ? 'yes' : 'no'", "yes"),
        ("'' ? 1 : 2", 2),
        ("true", 1),
        ("x := 5; x += 2; x *= 2; x", 14),
        ("s := 'a'; s += 'b'; s", "ab"),
    ],
)
def test_expressions_evaluate_as_bt_cpp_evaluates_them(text: str, value: object) -> None:
    assert evaluate(text) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x % 2", "'%' is not an operator"),
        ("f(1)", "function calls (f(...))"),
        ("a[0]", "indexing with '[...]'"),
        ("x++", "'++' is not part"),
        ("a.b", "'.' (member access)"),
        ("1 + 2 | 3", "arithmetic and bitwise operators cannot be mixed"),
        ("3abc", "invalid suffix on number"),
        ("1 + ", "expected a value"),
        ("a := b := 1", "one assignment per expression"),
        ("1 := 2", "the left side of ':=' must be an entry name"),
        ("  ", "the script is empty"),
        ("{x} == 1", "write the entry name bare"),
        ("9223372036854775808", "integer '9223372036854775808' is out of range"),
        ("0x1" + "0" * 16, "is out of range (BT.CPP reads 64-bit integers)"),
        ("9" * 5000, "(5002 chars) is out of range"),  # not int()'s own ValueError
    ],
)
def test_constructs_outside_the_language_are_refused_with_the_column(
    text: str, message: str
) -> None:
    with pytest.raises(ScriptSyntaxError, match="column") as caught:
        parse_script(text)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("y + 1", "variable not found: 'y'"),
        ("z = 1", "does not exist yet; create it with z := ..."),
        ("'a' - 1", "operation not permitted"),
        ("'a' < 1", "'a' is not a number"),
        ("-'a'", "does not apply"),
        ("x := 1; x /= 0", "cannot store 'inf' in blackboard entry 'x', which holds int"),
        ("x := 1; x = 1e308 * 10", "'inf' in blackboard entry 'x'.*not a whole number"),
        ("(1e308 * 10) & 1", "bitwise operators need integer operands"),
        ("1e300 | 1", "number out of range for a bitwise operation"),
        ("x := 1; x = big * 2", "arithmetic error"),
    ],
)
def test_run_time_errors(text: str, message: str) -> None:
    with pytest.raises(ScriptRuntimeError, match=message):
        evaluate(text, big=10**400)  # an int no double holds, as a user's node may store


def test_division_by_zero_is_ieee_as_in_cpp_until_an_integer_entry_would_hold_it() -> None:
    assert evaluate("x := 1 / 0") == float("inf")
    assert evaluate("x := -1 / 0") == float("-inf")
    assert str(evaluate("x := 0 / 0")) == "nan"
    # a run meets it as a PolicyRuntimeError naming the node, not an OverflowError
    root = build('<Script code="x := 1; x /= 0"/>')
    with pytest.raises(PolicyRuntimeError, match=r"t\.xml:1 <Script>: code='x := 1; x /= 0': "):
        run(root, 1)
    root = build('<Sequence><Script code="n := 1e308 * 10"/><Repeat num_cycles="{n}"><Step/>'
                 "</Repeat></Sequence>")  # fmt: skip
    # as BT.CPP, the empty entry Repeat's int port made takes the double; the port fails
    with pytest.raises(PolicyRuntimeError, match=r"num_cycles='\{n\}': inf is not a whole number"):
        run(root, 1)


def test_truthiness() -> None:
    assert truthy(2.0)
    assert not truthy(0)
    assert truthy("True")
    with pytest.raises(ScriptRuntimeError):
        truthy("maybe")


def test_script_and_script_condition_nodes() -> None:
    body = '<Sequence><Script code="a := 1"/><ScriptCondition code="a == 1"/></Sequence>'
    assert ticked(body, 1)[0] == ["SUCCESS"]


@pytest.mark.parametrize(
    ("attribute", "expected", "ticked_step"),
    [
        ('_skipIf="flag"', "SKIPPED", False),
        ('_successIf="flag"', "SUCCESS", False),
        ('_failureIf="flag"', "FAILURE", False),
        ('_while="!flag"', "SKIPPED", False),
        ('_skipIf="!flag"', "SUCCESS", True),
    ],
)
def test_pre_conditions_decide_before_the_tick(
    attribute: str, expected: str, ticked_step: bool
) -> None:
    statuses, log = ticked(f"<Step {attribute}/>", 1, blackboard={"flag": 1})
    assert statuses == [expected]
    assert bool(log) is ticked_step


def test_while_halts_a_running_node_when_it_turns_false() -> None:
    body = (
        '<ReactiveSequence><Script code="n := n + 1"/>'
        '<Step name="A" results="R" _while="n &lt; 3" _onHalted="halted := true"/>'
        "</ReactiveSequence>"
    )
    root = build(body, blackboard={"n": 0, "halted": 0})
    assert run(root, 3) == ["RUNNING", "RUNNING", "SUCCESS"]  # A skipped, the Script not
    from bt_helpers import Step

    assert Step.log == ["A", "A", "A halted"]
    assert root.ports.blackboard.get("halted") == 1


def test_post_conditions_run_on_completion() -> None:
    body = (
        '<Sequence><Step results="F" _onFailure="r := \'failed\'" _post="p := 1" '
        '_onSuccess="r := \'ok\'" _failureIf="false"/></Sequence>'
    )
    root = build(body, blackboard={"r": "", "p": 0})
    assert run(root, 1) == ["FAILURE"]
    assert root.ports.blackboard.get("r") == "failed"
    assert root.ports.blackboard.get("p") == 1


def test_scripts_may_use_registered_enums() -> None:
    root = build('<ScriptCondition code="color == GREEN"/>', blackboard={"color": 2},
                 enums={"GREEN": 2})  # fmt: skip
    assert run(root, 1) == ["SUCCESS"]


def test_a_script_error_names_the_file_line_node_and_attribute() -> None:
    with pytest.raises(PolicyError, match=r"t\.xml:1: <Step>: _skipIf='a \+\+ 1': column 3: '"):
        build('<Step _skipIf="a ++ 1"/>')
