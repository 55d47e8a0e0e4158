"""Plan checks (paper 4.2): every rule has a test that shows its message."""

from __future__ import annotations

import pytest
from helpers import TASKS

from pytest_logicenv.errors import PlanError
from pytest_logicenv.logic.facts import parse_fact
from pytest_logicenv.logic.plan import Factor, Leaf, Plan, Query, Subtask, load_plan
from pytest_logicenv.logic.rules import check_plan, validate_plan

YES_NO = ("yes", "no")


def simple(name: str, factor_id: str | None = None, question: str = "") -> Subtask:
    factor_id = factor_id or name
    factor = Factor(factor_id, question or f"Is there a {name}?", YES_NO)
    tree = Query(factor_id, (("yes", Leaf("Act.")), ("no", Leaf("Do nothing."))))
    return Subtask(name, (factor,), tree)


def messages(plan: Plan, **options: object) -> list[str]:
    return [str(v) for v in check_plan(plan, **options)]  # type: ignore[arg-type]


@pytest.mark.parametrize("path", sorted(TASKS.glob("*.json")), ids=lambda p: p.stem)
def test_the_paper_plans_pass_every_check(path) -> None:  # type: ignore[no-untyped-def]
    assert check_plan(load_plan(path)) == []


def test_independence_shared_factor_id() -> None:
    plan = Plan("t", (simple("toy"), simple("book", factor_id="toy", question="Other?")))
    assert any(
        "[independence] subtasks[1](book).factors: factor 'toy' also belongs to subtask 'toy'" in m
        for m in messages(plan)
    )


def test_independence_same_question_in_two_subtasks() -> None:
    plan = Plan(
        "t", (simple("a", question="Is it raining?"), simple("b", question="Is it raining?"))
    )
    assert any(
        "the question 'Is it raining?' is also asked in subtask 'a'" in m for m in messages(plan)
    )


def test_independence_query_on_another_subtasks_factor() -> None:
    book = simple("book")
    tree = Query("toy", (("yes", Leaf("x")), ("no", Leaf("y"))))
    plan = Plan("t", (simple("toy"), Subtask("book", book.factors, tree)))
    assert any(
        "[independence] subtasks[1](book).tree: the query asks about 'toy', a factor of "
        "subtask 'toy'" in m
        for m in messages(plan)
    )


def test_syntax_empty_domain_and_single_value() -> None:
    empty = Subtask("a", (Factor("a", "?", ()),), Query("a", ()))
    single = Subtask("b", (Factor("b", "?", ("yes",)),), Query("b", (("yes", Leaf("x")),)))
    found = messages(Plan("t", (empty, single)))
    assert (
        "[syntax] subtasks[0](a).factors[0](a).domain: the domain is empty; "
        "list the factor's possible values" in found
    )
    assert any("a factor with one value ('yes') is not uncertain" in m for m in found)
    assert "[syntax] subtasks[0](a).tree: the query on 'a' has no branches" in found


def test_syntax_duplicate_names_and_bad_ids() -> None:
    plan = Plan("t", (simple("toy"), simple("toy", factor_id="toy2", question="q2")))
    assert "[syntax] subtasks: two subtasks are named 'toy'; rename one" in messages(plan)
    bad = Plan("t", (simple("Toy Box", factor_id="Toy Box"),))
    found = messages(bad)
    assert any("subtask name 'Toy Box' must be lower case" in m for m in found)
    assert any("factor id 'Toy Box' must be lower case" in m for m in found)


def test_syntax_leaf_without_action() -> None:
    subtask = simple("a")
    tree = Query("a", (("yes", Leaf("")), ("no", Leaf("x"))))
    found = messages(Plan("t", (Subtask("a", subtask.factors, tree),)))
    assert (
        "[syntax] subtasks[0](a).tree.branches.yes: a leaf needs an action text, e.g. 'Do nothing.'"
        in found
    )


def test_grounding_unknown_factor() -> None:
    subtask = simple("a")
    tree = Query("typo", (("yes", Leaf("x")), ("no", Leaf("y"))))
    found = messages(Plan("t", (Subtask("a", subtask.factors, tree),)))
    assert any(
        "the query asks about 'typo', which subtask 'a' does not define (its factors: a)" in m
        for m in found
    )
    assert any("factor 'a' is never asked in the tree; ask it or remove it" in m for m in found)


def test_grounding_missing_and_extra_branches() -> None:
    subtask = simple("a")
    tree = Query("a", (("yes", Leaf("x")), ("maybe", Leaf("y"))))
    found = messages(Plan("t", (Subtask("a", subtask.factors, tree),)))
    assert any("has no branch for value 'no'; add one" in m for m in found)
    assert any(
        "[grounding] subtasks[0](a).tree.branches.maybe: branch 'maybe' is not a value of 'a'" in m
        for m in found
    )


def test_grounding_factor_asked_twice_on_a_path() -> None:
    subtask = simple("a")
    inner = Query("a", (("yes", Leaf("x")), ("no", Leaf("y"))))
    tree = Query("a", (("yes", inner), ("no", Leaf("z"))))
    found = messages(Plan("t", (Subtask("a", subtask.factors, tree),)))
    assert any("'a' is asked again below its own answer" in m for m in found)


def test_grounding_facts_use_bound_roles_and_known_types() -> None:
    factor = Factor(
        "toy",
        "Is there a toy?",
        YES_NO,
        realizations={
            "yes": (parse_fact({"exists": "Toy", "as": "toy"}),),
            "no": (parse_fact({"absent": "Toy"}),),
        },
    )
    tree = Query(
        "toy",
        (
            ("yes", Leaf("Put it away.", (parse_fact({"in": ["toy", "red_box"]}),))),
            ("no", Leaf("x")),
        ),
    )
    plan = Plan("t", (Subtask("toy", (factor,), tree),))
    found = messages(plan, known_types={"Sofa"})
    assert any("role 'red_box' is never bound" in m for m in found)
    assert any("unknown object type 'Toy'" in m for m in found)
    assert not any("role 'toy'" in m for m in found)


def test_required_facts_are_reported_per_value() -> None:
    found = messages(Plan("t", (simple("a"),)), require_facts=True)
    assert any(
        "[facts] subtasks[0](a).factors[0](a).realization.yes: no realization facts for a=yes" in m
        for m in found
    )


def test_validate_raises_one_error_listing_all() -> None:
    plan = Plan("t", ())
    with pytest.raises(PlanError) as caught:
        validate_plan(plan, "plan.json")
    assert str(caught.value) == (
        "plan.json: 1 problem\n  [syntax] subtasks: the plan has no subtasks; add at least one"
    )


def test_misspelled_types_and_roles_get_a_suggestion() -> None:
    factor = Factor(
        "tv",
        "Is the TV on?",
        YES_NO,
        realizations={
            "yes": (parse_fact({"exists": "Televison", "as": "tv"}),),
            "no": (parse_fact({"exists": "Television", "as": "tv"}),),
        },
    )
    tree = Query(
        "tv",
        (
            ("yes", Leaf("Off.", (parse_fact({"state": "t_v", "toggled": False}),))),
            ("no", Leaf("x")),
        ),
    )
    found = messages(Plan("t", (Subtask("tv", (factor,), tree),)), known_types={"Television"})
    assert any("unknown object type 'Televison' (did you mean 'Television'?)" in m for m in found)
    assert any("role 't_v' is never bound (did you mean 'tv'?)" in m for m in found)


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("Nightstand", "SideTable"),
        ("Glass", "Cup"),
        ("Drawers", "Drawer"),
        ("Televison", "Television"),
    ],
)
def test_an_unknown_type_gets_the_type_it_means(written: str, meant: str) -> None:
    factor = Factor(
        "x",
        "Is it there?",
        ("yes", "no"),
        realizations={
            "yes": (parse_fact({"exists": written}),),
            "no": (parse_fact({"absent": written}),),
        },
    )
    tree = Query("x", (("yes", Leaf("a")), ("no", Leaf("b"))))
    known = {"SideTable", "Cup", "Drawer", "Television", "Sofa"}
    found = messages(Plan("t", (Subtask("x", (factor,), tree),)), known_types=known)
    assert any(f"unknown object type {written!r} (did you mean {meant!r}?)" in m for m in found)
