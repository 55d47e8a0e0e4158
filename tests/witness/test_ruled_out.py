"""The proof before any search is sound: whatever it rules out, the search (run without it)
finds no sequence for either; checked on small random rooms."""

from __future__ import annotations

import time

from hypothesis import event, given, settings
from hypothesis import strategies as st

from pytest_logicenv.logic.facts import parse_facts
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
from pytest_logicenv.sim.world import WorldState
from pytest_logicenv.witness import Goal
from pytest_logicenv.witness.ruled_out import ruled_out
from pytest_logicenv.witness.state_search import Limits, search

ROOM = Room("bedroom", "Bedroom", ((0, 0), (4, 0), (4, 4), (0, 4)))
SIDES = st.sampled_from((0.1, 0.3, 0.6, 1.0))


@st.composite
def _objects(draw: st.DrawFn) -> tuple[SceneObject, ...]:
    found = []
    for index in range(3):
        props = draw(st.sets(st.sampled_from(("pickupable", "receptacle"))))
        size = (draw(SIDES), draw(SIDES), draw(SIDES))
        name = f"thing_{index}"
        found.append(
            SceneObject(name, "Box", role=name, room="bedroom", properties=tuple(props), size=size)
        )
    return tuple(found)


@settings(max_examples=20, deadline=None)
@given(_objects(), st.sampled_from(("in", "on")), st.permutations(range(3)))
def test_what_the_rules_rule_out_the_search_never_reaches(
    objects: tuple[SceneObject, ...], relation: str, order: list[int]
) -> None:
    subject, target = (objects[i].id for i in order[:2])
    goal = parse_facts([{relation: [subject, target]}], "goal")
    start = WorldState.from_scene(Scene("s", rooms=(ROOM,), objects=objects))
    proved = bool(ruled_out(start, [Goal(fact) for fact in goal]))
    event(f"ruled out: {proved}")
    if proved:
        found = search(start, goal, Limits(8, 3000), clock=time.process_time)
        assert found.calls is None
        assert found.exhausted or found.stopped_by == "steps"
