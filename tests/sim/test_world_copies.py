"""Copy-on-write worlds behave as full copies: random action sequences, with copies taken
anywhere and every world acted on afterwards, leave each world as the old full copy
(``tests/world_reference.py``) leaves it; the index answers as the whole scans do."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sim_scenes import kitchen
from world_reference import (
    full_copy,
    full_state,
    scanned_candidates,
    scanned_children,
    scanned_parts,
)

from pytest_logicenv.sim.actions import ACTIONS, perform
from pytest_logicenv.sim.world import WorldState
from pytest_logicenv.witness.calls import calls

KITCHEN = kitchen()
IDS = [obj.id for obj in KITCHEN.entities]
REFS = sorted({*IDS, *(o.type for o in KITCHEN.entities), "Nothing", "apple", "pantry_door"})


def _act(world: WorldState, data: st.DataObject) -> tuple[str, dict[str, str]]:
    """A call the state allows (most of the time), else any action on any objects."""
    allowed = list(calls(world))
    if allowed and data.draw(st.integers(0, 3), label="kind"):
        call = data.draw(st.sampled_from(allowed), label="call")
        return call.action, call.arguments
    action = data.draw(st.sampled_from(sorted(ACTIONS)), label="action")
    ports = ACTIONS[action].ports
    return action, {port: data.draw(st.sampled_from(IDS), label=port) for port in ports}


def _check_index(world: WorldState) -> None:
    for ref in REFS:
        assert world.candidates(ref) == scanned_candidates(world, ref), ref
    for obj in world.objects.values():
        assert world.children(obj) == scanned_children(world, obj), obj.id
        assert world.parts(obj) == scanned_parts(world, obj), obj.id


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(st.data())
def test_copies_on_write_behave_as_full_copies(data: st.DataObject) -> None:
    start = WorldState.from_scene(KITCHEN)
    worlds: list[tuple[WorldState, WorldState]] = [(start, full_copy(start))]
    for _ in range(data.draw(st.integers(4, 30), label="steps")):
        which = data.draw(st.integers(0, len(worlds) - 1), label="world")
        shared, full = worlds[which]
        if data.draw(st.integers(0, 2), label="copy") == 0:
            worlds.append((shared.copy(), full_copy(full)))
            continue
        action, arguments = _act(shared, data)
        done, expected = perform(shared, action, arguments), perform(full, action, arguments)
        assert done == expected
        for shared_world, full_world in worlds:  # a change shows in no other world
            assert full_state(shared_world) == full_state(full_world)
    for shared, _ in worlds:
        _check_index(shared)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_worlds_started_from_one_scene_share_nothing_they_change(data: st.DataObject) -> None:
    first, second = WorldState.start(KITCHEN), WorldState.start(KITCHEN)
    fresh = full_state(WorldState.from_scene(KITCHEN))
    for _ in range(data.draw(st.integers(1, 15), label="steps")):
        action, arguments = _act(first, data)
        perform(first, action, arguments)
    assert full_state(second) == fresh
    assert full_state(WorldState.start(KITCHEN)) == fresh
    assert first.same_start(second)
    changed = first.changed()
    same = [i for i in first.objects if first.objects[i] is second.objects[i]]
    assert set(same) == set(first.objects) - changed


def test_an_object_is_changed_only_through_its_world() -> None:
    world = WorldState.start(KITCHEN)
    cup = world.objects["cup"]
    with pytest.raises(AttributeError, match="cannot set 'parent'"):
        cup.parent = "fridge"
    states: Any = cup.states
    with pytest.raises(TypeError):
        states["dirty"] = True
    world.set_state(cup, "dirty", True)
    assert world.objects["cup"].states["dirty"] is True
    assert WorldState.start(KITCHEN).objects["cup"].states.get("dirty") is None
