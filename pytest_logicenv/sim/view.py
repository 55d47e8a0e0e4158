"""What a policy may look at: a read-only view of the world as the agent sees it.

A user's own behaviour (an :class:`~pytest_logicenv.sim.leaves.AgentBehaviour`) reaches the
world only as ``self.agent.world``, a :class:`WorldView`: the objects the agent can see (not
those inside closed receptacles), each a read-only :class:`ThingView`, and where the agent
stands. Nothing in it changes the world, so a policy acts only through the agent's actions,
each checked and recorded in the trace; it cannot set a window shut and pass with an empty
trace. A view is a facts :class:`~pytest_logicenv.logic.facts.World`, so
``evaluate(fact, self.agent.world)`` answers what the agent can see.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> from pytest_logicenv.sim.world import WorldState
>>> room = Room("hall", "LivingRoom", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> book = SceneObject("book_1", "Book", room="hall", role="book")
>>> view = WorldView(WorldState.from_scene(Scene("s", rooms=(room,), objects=(book,))))
>>> [thing.id for thing in view.find("book")]
['book_1']
>>> view.find("book")[0].states["open"] = True
Traceback (most recent call last):
...
TypeError: 'mappingproxy' object does not support item assignment
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from types import MappingProxyType
from typing import NoReturn

from pytest_logicenv.sim.world import WorldObject, WorldState

#: What the views and the agent read, kept out of their attributes: whatever a policy holds
#: (``self.agent``, its ``world``, a thing), no attribute of it, private or not, hands out
#: the mutable world; only the library's own functions below reach it.
_INSIDE: weakref.WeakKeyDictionary[object, WorldState] = weakref.WeakKeyDictionary()


def keep_inside(holder: object, inner: WorldState) -> None:
    """Let ``holder`` read ``inner`` (with :func:`world_of` or :func:`_thing_of`) without
    holding it as an attribute a policy could reach."""
    _INSIDE[holder] = inner


def world_of(holder: object) -> WorldState:
    """The world an agent or a :class:`WorldView` reads (see :func:`keep_inside`)."""
    world = _INSIDE[holder]
    assert isinstance(world, WorldState)
    return world


#: The world and id each thing view reads: looked up at each read, since a world replaces an
#: object it shares with another the first time it changes it (copy-on-write).
_THINGS: weakref.WeakKeyDictionary[ThingView, tuple[WorldState, str]] = weakref.WeakKeyDictionary()


def _thing_of(view: ThingView) -> WorldObject:
    world, thing_id = _THINGS[view]
    return world.objects[thing_id]


_READ_ONLY = (
    "the world is read-only to a policy: change it through the agent's actions "
    "(self.agent.open(...), pick_up(...), ...), which the run checks and records"
)


class ThingView:
    """One object as a policy sees it: its identity, where it is and its states, read-only."""

    __slots__ = ("__weakref__",)

    def __init__(self, world: WorldState, thing: WorldObject) -> None:
        _THINGS[self] = (world, thing.id)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot set {name!r}: {_READ_ONLY}")

    def __repr__(self) -> str:
        return f"<ThingView {self.id} ({self.type})>"

    @property
    def id(self) -> str:
        return _thing_of(self).id

    @property
    def type(self) -> str:
        return _thing_of(self).type

    @property
    def role(self) -> str | None:
        return _thing_of(self).role

    @property
    def room(self) -> str:
        return _thing_of(self).room

    @property
    def parent(self) -> str | None:
        return _thing_of(self).parent

    @property
    def relation(self) -> str | None:
        return _thing_of(self).relation

    @property
    def part_of(self) -> str | None:
        return getattr(_thing_of(self), "part_of", None)

    @property
    def states(self) -> Mapping[str, bool]:
        return MappingProxyType(dict(_thing_of(self).states))

    @property
    def attrs(self) -> Mapping[str, str]:
        return MappingProxyType(dict(_thing_of(self).attrs))

    @property
    def properties(self) -> frozenset[str]:
        return frozenset(_thing_of(self).properties)


class WorldView:
    """The world as the agent sees it now, read-only (a facts ``World``)."""

    __slots__ = ("__weakref__",)

    def __init__(self, world: WorldState) -> None:
        keep_inside(self, world)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot set {name!r}: {_READ_ONLY}")

    @property
    def entities(self) -> tuple[ThingView, ...]:
        """Every object in sight (windows and doors included)."""
        world = world_of(self)
        return tuple(ThingView(world, t) for t in world.objects.values() if world.is_visible(t))

    def find(self, ref: str) -> tuple[ThingView, ...]:
        """The objects in sight that ``ref`` names (a type, a role or an id)."""
        world = world_of(self)
        return tuple(ThingView(world, t) for t in world.candidates(ref) if world.is_visible(t))

    @property
    def roles(self) -> frozenset[str]:
        """The names that are roles only in this world (the facts ``role_names``)."""
        return world_of(self).roles

    def room_type(self, room_id: str) -> str | None:
        return world_of(self).room_type(room_id)

    def near(self, first_id: str, second_id: str) -> bool:
        return world_of(self).near(first_id, second_id)

    @property
    def agent_room(self) -> str:
        return world_of(self).agent.room

    @property
    def holding(self) -> str | None:
        """The id of the object in the agent's hand, or ``None``."""
        return world_of(self).agent.held
