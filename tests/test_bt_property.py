"""Property: whatever XML it is given, the loader either builds a policy or raises a
PolicyError; never any other exception (and building a tree it accepted never fails)."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.bt import parse_bt_xml
from pytest_logicenv.sim.bt.catalog import BUILTINS, SIMULATOR

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
