"""Paths and selection strategies: unit tests and Hypothesis properties over random plans."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest
from helpers import TASKS
from hypothesis import given, settings
from hypothesis import strategies as st
from pairwise_reference import reference_ipog
from strategies import plans
from synthetic_plans import synthetic_plan

from pytest_logicenv.errors import SelectionError
from pytest_logicenv.logic.plan import Plan, load_plan, plan_from_json
from pytest_logicenv.logic.trajectories import (
    STRATEGIES,
    DecisionPath,
    jaccard,
    plan_paths,
    select,
    subtask_paths,
    trajectory_id,
)
from pytest_logicenv.logic.trajectories import pairwise as pairwise_module
from pytest_logicenv.logic.trajectories.ipog import ipog


def covered_keys(trajectories: Sequence[object]) -> set[str]:
    return {p.key for t in trajectories for p in t.paths}  # type: ignore[attr-defined]


def all_keys(plan: Plan) -> set[str]:
    return {p.key for group in plan_paths(plan) for p in group}


def test_paths_of_the_paper_example_in_dfs_order() -> None:
    plan = load_plan(TASKS / "clean_living_room.json")
    toy = subtask_paths(plan.subtasks[0])
    assert [p.label for p in toy] == ["toy_type=doll", "toy_type=other_types", "toy=no"]
    assert toy[0].conditions == (("toy", "yes"), ("toy_type", "doll"))
    assert toy[0].leaf.action == "Place the toy in the red box."


def test_figure_3_example_selects_four_of_twelve_like_the_paper() -> None:
    # The paper's Figure 3 reduces 12 trajectories to 4; Clean Living Room has 3x2x2 = 12
    # combinations and its largest tree has 3 paths, so the minimum is 3.
    plan = load_plan(TASKS / "clean_living_room.json")
    assert len(select(plan, "exhaustive").trajectories) == 12
    assert len(select(plan, "minimal").trajectories) == 3
    assert len(select(plan, "greedy").trajectories) == 3


def test_ids_are_made_of_the_factor_and_value_ids_they_answer() -> None:
    plan = load_plan(TASKS / "clean_living_room.json")
    ids = [t.id for t in select(plan, "minimal").trajectories]
    assert ids == [
        "toy_type=doll-book=yes-wipe=yes",
        "toy_type=other_types-book=no-wipe=no",
        "toy=no-book=yes-wipe=yes",
    ]
    # A nested yes/no reads as its own question, not as "yes.yes".
    plan = load_plan(TASKS / "bathroom_reset.json")
    labels = [p.label for p in subtask_paths(plan.subtasks[0])]
    assert labels == ["towel_dirty=yes", "towel_dirty=no", "towel=no"]


def test_a_last_answer_two_paths_end_in_spells_the_whole_path() -> None:
    plan = plan_from_json(
        {
            "format": "logicenv-plan/1",
            "task": "t",
            "subtasks": [
                {
                    "name": "room",
                    "factors": [
                        {"id": "door_open", "question": "Door open?", "domain": ["yes", "no"]},
                        {"id": "light_on", "question": "Light on?", "domain": ["yes", "no"]},
                    ],
                    "tree": {
                        "query": "door_open",
                        "branches": {
                            value: {
                                "query": "light_on",
                                "branches": {"yes": {"action": "a"}, "no": {"action": "b"}},
                            }
                            for value in ("yes", "no")
                        },
                    },
                }
            ],
        }
    )
    assert [p.label for p in subtask_paths(plan.subtasks[0])] == [
        "door_open=yes.light_on=yes",
        "door_open=yes.light_on=no",
        "door_open=no.light_on=yes",
        "door_open=no.light_on=no",
    ]


def test_long_ids_are_hashed_but_stay_unique_and_stable() -> None:
    plan = load_plan(TASKS / "clean_living_room.json")
    paths = [group[0] for group in plan_paths(plan)]
    long = [DecisionPath(p.subtask, p.index, p.steps, p.leaf, p.label * 8) for p in paths]
    first = trajectory_id(long)
    assert len(first) <= 80
    assert "~" in first
    assert first == trajectory_id(long)


def test_unknown_strategy_names_the_choices() -> None:
    plan = load_plan(TASKS / "tidy_bed.json")
    with pytest.raises(SelectionError, match="choose one of minimal, greedy, pairwise"):
        select(plan, "fastest")


def test_greedy_refuses_huge_products_and_names_the_alternative() -> None:
    with pytest.raises(SelectionError, match="use --strategy minimal or pairwise"):
        select(synthetic_plan(20, 10), "greedy")


def test_feasibility_excludes_combinations_and_recovers_every_path() -> None:
    plan = load_plan(TASKS / "clean_living_room.json")

    def feasible(combo: Sequence[DecisionPath]) -> bool:  # no doll together with no wipes
        labels = {p.subtask: p.label for p in combo}
        return not (labels["toy"] == "toy_type=doll" and labels["wipe"] == "wipe=no")

    for strategy in ("minimal", "greedy", "pairwise", "exhaustive"):
        chosen = select(plan, strategy, feasible).trajectories
        assert all(feasible(t.paths) for t in chosen), strategy
        assert covered_keys(chosen) == all_keys(plan), strategy


def test_a_path_no_feasible_trajectory_holds_is_an_error_naming_it() -> None:
    plan = load_plan(TASKS / "clean_living_room.json")

    def feasible(combo: Sequence[DecisionPath]) -> bool:
        return all(p.label != "toy_type=doll" for p in combo)

    for strategy in ("minimal", "greedy", "pairwise", "exhaustive"):
        with pytest.raises(SelectionError, match=r"toy:toy=yes/toy_type=doll"):
            select(plan, strategy, feasible)


def test_jaccard_index() -> None:
    plan = load_plan(TASKS / "clean_living_room.json")
    minimal = select(plan, "minimal").trajectories
    exhaustive = select(plan, "exhaustive").trajectories
    assert jaccard(minimal, minimal) == 1.0
    assert jaccard(minimal, exhaustive) == pytest.approx(3 / 12)
    assert jaccard([], []) == 1.0


# --------------------------------------------------------------------------- properties


@given(plans())
def test_minimal_covers_every_path_with_exactly_max_paths(plan: Plan) -> None:
    groups = plan_paths(plan)
    chosen = select(plan, "minimal").trajectories
    assert len(chosen) == max(len(g) for g in groups)
    assert covered_keys(chosen) == all_keys(plan)


@given(plans(max_subtasks=4, max_depth=2))
def test_greedy_covers_every_path_and_never_beats_the_minimum(plan: Plan) -> None:
    groups = plan_paths(plan)
    chosen = select(plan, "greedy").trajectories
    assert covered_keys(chosen) == all_keys(plan)
    assert len(chosen) >= max(len(g) for g in groups)


@given(plans())
def test_pairwise_covers_every_pair_of_paths_from_two_subtasks(plan: Plan) -> None:
    groups = plan_paths(plan)
    chosen = select(plan, "pairwise").trajectories
    seen = {(a.key, b.key) for t in chosen for a, b in itertools.combinations(t.paths, 2)}
    for first, second in itertools.combinations(groups, 2):
        for a in first:
            for b in second:
                assert (a.key, b.key) in seen
    assert covered_keys(chosen) == all_keys(plan)


@given(plans(max_subtasks=4, max_depth=2))
def test_exhaustive_equals_the_cartesian_product(plan: Plan) -> None:
    groups = plan_paths(plan)
    chosen = select(plan, "exhaustive").trajectories
    assert len(chosen) == math.prod(len(g) for g in groups)
    expected = {tuple(p.key for p in combo) for combo in itertools.product(*groups)}
    assert {tuple(p.key for p in t.paths) for t in chosen} == expected


@given(plans(max_subtasks=4, max_depth=2))
def test_ids_are_unique_and_stable_across_runs(plan: Plan) -> None:
    for strategy in STRATEGIES:
        first = [t.id for t in select(plan, strategy).trajectories]
        assert len(set(first)) == len(first)
        assert first == [t.id for t in select(plan, strategy).trajectories]


@given(st.lists(st.integers(min_value=1, max_value=6), min_size=2, max_size=9))
@settings(max_examples=150, deadline=None)
def test_ipog_gives_the_rows_the_reference_ipog_gives(counts: list[int]) -> None:
    # The missing pairs are bit sets (issue 26, item 4); the rows are the ones the plain
    # version (kept whole in tests/pairwise_reference.py) chooses, row for row.
    assert ipog(counts) == reference_ipog(counts)
    assert pairwise_module._pair_count(counts) == len(pairwise_module._all_pairs(counts))


@given(st.lists(st.integers(min_value=1, max_value=12), min_size=10, max_size=40))
@settings(max_examples=25, deadline=None)
def test_ipog_gives_the_reference_rows_with_many_subtasks_and_paths(counts: list[int]) -> None:
    # Many parameters make rows with don't-care cells that later parameters fill: the
    # vertical growth's index of open rows must pick the row the reference's scan picks.
    rows = ipog(counts)
    assert rows == reference_ipog(counts)
    assert pairwise_module._pairs_of(rows) == pairwise_module._all_pairs(counts)
