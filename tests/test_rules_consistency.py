"""The consistency rules: a contradiction they report is one no world satisfies (soundness,
checked against the facts evaluator on random small worlds), and the cases they must find."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from pytest_logicenv.logic.facts import evaluate_all, parse_facts
from pytest_logicenv.logic.rules.consistency import contradiction
from pytest_logicenv.scenes.model import Room, Scene, SceneObject

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
