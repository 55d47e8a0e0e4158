"""The world as ``sim/world.py`` had it before copy-on-write (issue 26): a copy copied every
object, and every lookup scanned every object. Kept to check that the shared copies and the
index answer as the whole scans did."""

from __future__ import annotations

from typing import Any

from pytest_logicenv.logic.facts import matches
from pytest_logicenv.sim.world import WorldObject, WorldState


def full_copy(world: WorldState) -> WorldState:
    """A copy that shares no object with ``world`` (each one copied, as ``copy`` did)."""
    twin = world.copy()
    for obj_id, obj in list(twin.objects.items()):
        twin.objects[obj_id] = obj.copy()
    twin._owned = set(twin.objects)
    return twin


def scanned_candidates(world: WorldState, ref: str) -> list[WorldObject]:
    return [obj for obj in world.objects.values() if matches(obj, ref, world.roles)]


def scanned_children(world: WorldState, obj: WorldObject) -> list[WorldObject]:
    return [child for child in world.objects.values() if child.parent == obj.id]


def scanned_parts(world: WorldState, obj: WorldObject) -> list[WorldObject]:
    return [part for part in world.objects.values() if part.part_of == obj.id]


def full_state(world: WorldState) -> tuple[Any, ...]:
    """Every field of every object and of the agent."""
    objects = tuple(
        tuple(
            tuple(sorted(value.items())) if name in ("states", "attrs") else value
            for name in WorldObject.__slots__
            for value in (getattr(obj, name),)
        )
        for obj in world.objects.values()
    )
    agent = world.agent
    where = (agent.room, agent.spot, agent.held, agent.position, agent.station, agent.at)
    return objects, where, agent.stand
