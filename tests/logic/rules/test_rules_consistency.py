"""The consistency rules: a contradiction they report is one no world satisfies, and an
implication one every world keeps (soundness, checked against the facts evaluator on random
small worlds), and the cases they must find."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pytest_logicenv.logic.facts import evaluate_all, parse_facts
from pytest_logicenv.logic.plan import Factor, Leaf, Plan, Query, Subtask
from pytest_logicenv.logic.rules.consistency import check_distinct_values, contradiction
from pytest_logicenv.logic.rules.implication import implies
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject

ROLES = ("toy", "box")
REFS = (*ROLES, "Toy", "Box", "Floor")
ROOM = Room("room", "Bedroom", ((0, 0), (4, 0), (4, 4), (0, 4)))


@st.composite
def worlds(draw: st.DrawFn) -> Scene:
    """Up to four objects of two types, some with the roles, resting on the floor, on or in
    another, or held; with random open/dirty states."""
    count = draw(st.integers(0, 4))
    objects = []
    roles = list(ROLES)
    for number in range(count):
        role = roles.pop(0) if roles and draw(st.booleans()) else None
        parent = draw(st.sampled_from([None, *(f"o{k}" for k in range(count) if k != number)]))
        relation = draw(st.sampled_from(["on", "in", "held"])) if parent else "on"
        objects.append(
            SceneObject(
                f"o{number}",
                draw(st.sampled_from(["Toy", "Box"])),
                role=role,
                room="room",
                parent=parent if relation != "held" else None,
                relation=relation,
                states={s: draw(st.booleans()) for s in ("open", "dirty")},
            )
        )
    return Scene("w", rooms=(ROOM,), objects=tuple(objects))


def _state() -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(
        lambda ref, name, flag: {"state": ref, name: flag},
        st.sampled_from(REFS[:4]),
        st.sampled_from(["open", "dirty"]),
        st.booleans(),
    )


ATOMS = st.one_of(
    _state(),
    st.builds(lambda t: {"exists": t}, st.sampled_from(REFS[:4])),
    st.builds(lambda t: {"absent": t}, st.sampled_from(REFS[:4])),
    st.builds(lambda a, b: {"on": [a, b]}, st.sampled_from(REFS[:4]), st.sampled_from(REFS)),
    st.builds(lambda a, b: {"in": [a, b]}, st.sampled_from(REFS[:4]), st.sampled_from(REFS[:4])),
    st.builds(lambda a: {"held": a}, st.sampled_from(REFS[:4])),
)
FACTS = st.lists(st.one_of(ATOMS, st.builds(lambda f: {"not": f}, ATOMS)), max_size=4)


@given(FACTS, worlds())
def test_a_reported_contradiction_holds_in_no_world(facts: list[Any], world: Scene) -> None:
    parsed = parse_facts(facts, "goal")
    if contradiction(parsed) is not None:
        assert not evaluate_all(parsed, world)


def _found(*facts: Any) -> tuple[str, str] | None:
    return contradiction(parse_facts(list(facts), "goal"))


def test_the_contradictions_a_goal_can_hold() -> None:
    assert _found({"state": "box", "open": True}, {"not": {"state": "box", "open": True}})
    assert _found({"state": "box", "open": True}, {"state": "box", "open": False})
    assert _found({"exists": "Toy", "where": {"on": "Floor"}}, {"absent": "Toy"})
    assert _found({"on": ["toy", "Floor"]}, {"in": ["toy", "box"]})
    assert _found({"held": "toy"}, {"in": ["toy", "box"]})
    assert _found({"held": "toy"}, {"held": "box"})
    assert _found({"and": [{"held": "toy"}]}, {"not": {"held": "toy"}})


def test_what_can_hold_together_is_not_a_contradiction() -> None:
    assert not _found({"state": "Box", "open": True}, {"state": "Box", "open": False})  # 2 boxes
    assert not _found(
        {"exists": "Toy", "where": {"on": "Floor"}}, {"absent": "Toy", "states": {"dirty": True}}
    )
    assert not _found({"on": ["toy", "Box"]}, {"on": ["toy", "box"]})  # the box may be a Box
    assert not _found({"or": [{"held": "toy"}, {"held": "box"}]}, {"held": "toy"})


# --------------------------------------------------------------------------- implied values


def _qualified(form: str) -> st.SearchStrategy[dict[str, Any]]:
    """``exists``/``absent`` with qualifiers: where it rests, its states."""
    return st.builds(
        lambda ref, on, states: {
            form: ref,
            **({"where": {"on": on}} if on else {}),
            **({"states": states} if states else {}),
        },
        st.sampled_from(REFS[:4]),
        st.sampled_from([None, *REFS]),
        st.dictionaries(st.sampled_from(["open", "dirty"]), st.booleans(), max_size=2),
    )


QUALIFIED = st.one_of(ATOMS, _qualified("exists"), _qualified("absent"))
IMPLYING = st.lists(st.one_of(QUALIFIED, st.builds(lambda f: {"not": f}, QUALIFIED)), max_size=4)


@given(IMPLYING, IMPLYING, worlds())
def test_what_implies_says_holds_in_every_world(
    first: list[Any], second: list[Any], world: Scene
) -> None:
    narrow, broad = parse_facts(first, "a"), parse_facts(second, "b")
    if implies(narrow, broad) and evaluate_all(narrow, world):
        assert evaluate_all(broad, world)


def _implies(first: list[Any], second: list[Any]) -> bool:
    return implies(parse_facts(first, "a"), parse_facts(second, "b"))


def test_more_qualifiers_imply_fewer_and_a_broader_absent_a_narrower_one() -> None:
    book, on_floor = {"exists": "Book"}, {"exists": "Book", "where": {"on": "Floor"}}
    assert _implies([on_floor], [book])
    assert not _implies([book], [on_floor])
    assert _implies([{"exists": "Book", "as": "b", "where": {"on": "Floor"}}], [book])
    assert not _implies([book], [{"exists": "Book", "as": "b"}])  # binds a role it lacks
    assert _implies(
        [{"state": "box", "open": True, "dirty": False}], [{"state": "box", "open": True}]
    )
    assert _implies([{"absent": "Book"}], [{"absent": "Book", "where": {"in": "Box"}}])
    assert _implies([{"absent": "Book"}], [{"not": on_floor}])
    assert _implies([{"not": book}], [{"not": on_floor}])
    assert not _implies([{"not": on_floor}], [{"not": book}])
    assert _implies([on_floor, {"state": "box", "open": True}], [{"and": [book]}])


def _distinct(realization: dict[str, list[Any]]) -> list[str]:
    factor = Factor(
        "book",
        "Is there a book?",
        tuple(realization),
        realizations={v: parse_facts(f, v) for v, f in realization.items()},
    )
    tree = Query("book", tuple((value, Leaf("Do nothing.")) for value in realization))
    plan = Plan("t", (Subtask("books", (factor,), tree),))
    return [f"{v.location}: {v.message}" for v in check_distinct_values(plan)]


def test_a_value_whose_facts_follow_from_anothers_is_reported_with_both_and_a_fix() -> None:
    book = {"exists": "Book", "as": "book"}
    on_floor = {**book, "where": {"on": "Floor"}}
    assert _distinct({"yes": [book], "no": [on_floor]}) == [
        "subtasks[0](books).factors[0](book).realization.yes: every scene for 'no' also makes "
        "the facts of 'yes' true (a Book (book) on Floor is all that sets 'no' apart), so no "
        "scene "
        "tells 'yes' apart from 'no'; give 'yes' a fact that rules out 'no', e.g. "
        '{"not": {"exists": "Book", "where": {"on": "Floor"}}}'
    ]
    fixed = {"yes": [book, {"not": on_floor}], "no": [on_floor]}
    assert _distinct(fixed) == []
    said_twice = {"yes": [book], "no": [book, {"and": [book]}]}
    [same] = _distinct(said_twice)
    assert "realization.no: the facts of 'no' say the same as those of 'yes'" in same
    assert _distinct({"yes": [book], "no": [{"absent": "Book"}]}) == []
