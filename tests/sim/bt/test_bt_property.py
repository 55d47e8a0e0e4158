"""Property: whatever XML it is given, the loader either builds a policy or raises a
PolicyError; never any other exception (and building a tree it accepted never fails). And
trees calling SubTrees are built exactly as large as expanded, or refused past the limits."""

from __future__ import annotations

import re
from unittest.mock import patch
from xml.sax.saxutils import quoteattr

import py_trees
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.bt import expansion, parse_bt_xml
from pytest_logicenv.sim.bt.catalog import BUILTINS, SIMULATOR

Behaviour = py_trees.behaviour.Behaviour

TAGS = [*BUILTINS, *SIMULATOR, "SubTree", "Action", "Condition", "Control", "Decorator",
        "BehaviorTree", "include", "TreeNodesModel", "Bogus", "SequenceStar"]  # fmt: skip
ATTRIBUTES = ["ID", "name", "code", "num_cycles", "num_attempts", "msec", "object", "target",
              "value", "output_key", "_skipIf", "_while", "_onSuccess", "_autoremap", "if",
              "else", "queue", "success_count", "variable", "case_1", "path", "fact", "hz",
              "main_tree_to_execute", "BTCPP_format"]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(
        [
            "{x}",
            "{=}",
            "1",
            "-1",
            "true",
            "a := 1",
            "x < 2 && y",
            "T",
            "Main",
            "toy",
            "SUCCESS",
            "1;2",
            "'s'",
            "{@g}",
            "3",
            "../x.xml",
        ]
    ),
    st.text(alphabet="ab1{}<>&;:=+-*/!?'\" ()@_.%", max_size=12),
)


def elements(depth: int) -> st.SearchStrategy[str]:
    attrs = st.dictionaries(st.sampled_from(ATTRIBUTES), VALUES, max_size=3)
    children = st.lists(elements(depth - 1), max_size=3) if depth > 0 else st.just([])
    return st.builds(
        lambda tag, a, kids: (
            f"<{tag} {' '.join(f'{k}={quoteattr(v)}' for k, v in a.items())}>"
            f"{''.join(kids)}</{tag}>"
        ),
        st.sampled_from(TAGS),
        attrs,
        children,
    )


def documents() -> st.SearchStrategy[str]:
    return st.builds(
        lambda attrs, trees: f"<root {attrs}>{''.join(trees)}</root>",
        st.sampled_from(['BTCPP_format="4"', "", 'main_tree_to_execute="T"', 'BTCPP_format="3"']),
        st.lists(
            st.builds(
                lambda tree_id, body: f"<BehaviorTree{tree_id}>{body}</BehaviorTree>",
                st.sampled_from(["", ' ID="T"', ' ID="Main"', ' ID="S"']),
                elements(3),
            ),
            min_size=1,
            max_size=3,
        ),
    )


def load(text: str) -> None:
    try:
        policy = parse_bt_xml(text, "p.xml")
    except PolicyError:
        return
    policy()  # a policy that loaded builds again without errors


@pytest.mark.filterwarnings("ignore::pytest_logicenv.errors.PolicyLintWarning")
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_structured_documents_load_or_raise_policy_error(text: str) -> None:
    load(text)


@settings(max_examples=120, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_loads_or_raises_policy_error(text: str) -> None:
    load(text)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="<>/=\"' &;{}abRrotBehaviorTreeID\n", max_size=120))
def test_near_xml_text_loads_or_raises_policy_error(text: str) -> None:
    load(text)


def _expected(calls: list[list[int]], tree: int, path: tuple[int, ...] = ()) -> tuple[int, int]:
    """Nodes and levels of tree ``tree`` expanded by brute force (a cycle raises)."""
    if tree in path:
        raise RecursionError(path)
    size, depth = 2 + len(calls[tree]), 2  # the Sequence, its AlwaysSuccess and calls
    for called in calls[tree]:
        inner = _expected(calls, called, (*path, tree))
        size += inner[0]
        depth = max(depth, 2 + inner[1])
    return size, depth


def _shape(root: Behaviour) -> tuple[int, int]:
    size = depth = 0
    stack = [(root, 1)]
    while stack:
        node, level = stack.pop()
        size, depth = size + 1, max(depth, level)
        stack.extend((child, level + 1) for child in node.children)
    return size, depth


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.integers(-1, 8), min_size=1, max_size=3), min_size=1, max_size=7))
def test_subtree_expansion_is_counted_exactly_and_refused_past_the_limits(
    steps: list[list[int]],
) -> None:
    # Tree i calls trees after it (1 to 3 further on), or T0 (-1: a cycle).
    calls = [
        [c for c in (0 if x < 0 else i + 1 + x % 3 for x in row) if c < len(steps)]
        for i, row in enumerate(steps)
    ]
    trees = "".join(
        f'<BehaviorTree ID="T{i}"><Sequence><AlwaysSuccess/>'
        + "".join(f'<SubTree ID="T{c}"/>' for c in row)
        + "</Sequence></BehaviorTree>"
        for i, row in enumerate(calls)
    )
    text = f'<root BTCPP_format="4" main_tree_to_execute="T0">{trees}</root>'
    try:
        size, depth = _expected(calls, 0)
    except RecursionError:
        size = depth = -1  # a cycle
    with (
        patch.object(expansion, "MAX_ELEMENTS", 40),
        patch.object(expansion, "MAX_TREE_DEPTH", 7),
    ):
        try:
            root = parse_bt_xml(text, "p.xml")()
        except PolicyError as error:
            message = str(error)
            if size == -1:
                assert re.search("includes itself|more than 40 nodes|more than 7 levels", message)
            elif size > 40:
                assert "more than 40 nodes" in message
            else:
                assert depth > 7
                assert "nests more than 7 levels deep" in message
            return
    assert 0 < size <= 40
    assert depth <= 7
    assert _shape(root) == (size, depth)
