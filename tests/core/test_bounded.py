"""The JSON depth every cache and plan read checks, against a plain recursive count."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pytest_logicenv.bounded import MAX_JSON_DEPTH, json_depth

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=30,
)


def _depth(data: Any) -> int:
    if isinstance(data, dict):
        return 1 + max((_depth(v) for v in data.values()), default=0)
    if isinstance(data, list):
        return 1 + max((_depth(v) for v in data), default=0)
    return 0


@given(JSON)
def test_depth_is_the_deepest_nesting_of_objects_and_lists(data: Any) -> None:
    assert json_depth(data) == _depth(data)


def test_a_document_past_the_limit_is_known_too_deep_without_walking_it_all() -> None:
    deep: Any = []
    for _ in range(10 * MAX_JSON_DEPTH):
        deep = [deep]
    assert MAX_JSON_DEPTH < json_depth(deep) <= MAX_JSON_DEPTH + 1
