"""The JSON shape (depth, values, longest string) every cache and plan read checks, against a
plain recursive count."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_logicenv.bounded import MAX_JSON_DEPTH, Limits, json_depth, json_shape, load_json_text

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
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


def _values(data: Any) -> int:
    inner = data.values() if isinstance(data, dict) else data if isinstance(data, list) else ()
    return 1 + sum(_values(v) for v in inner)


def _longest(data: Any) -> int:
    if isinstance(data, dict):
        keys = max((len(k) for k in data), default=0)
        return max(keys, *(_longest(v) for v in data.values()), 0)
    if isinstance(data, list):
        return max((_longest(v) for v in data), default=0)
    return len(data) if isinstance(data, str) else 0


@given(JSON)
def test_the_shape_counts_what_a_recursive_walk_counts(data: Any) -> None:
    assert json_shape(data) == (_depth(data), _values(data), _longest(data))
    assert json_shape(data, strings=False) == (_depth(data), _values(data), 0)


def test_a_long_string_is_refused_even_when_the_text_check_skips_the_string_walk() -> None:
    limits = Limits(string=10)
    short = json.dumps({"k": "x" * 3})  # shorter than the limit: no string can exceed it
    assert load_json_text(short, "f.json", ValueError, limits=limits) == {"k": "xxx"}
    with pytest.raises(ValueError, match=r"f\.json: a string or key of more than 10 char"):
        load_json_text(json.dumps({"k": "x" * 11}), "f.json", ValueError, limits=limits)
    with pytest.raises(ValueError, match=r"f\.json: a string or key of more than 10 char"):
        load_json_text(json.dumps([1, {"y" * 11: 1}]), "f.json", ValueError, limits=limits)
