"""What a policy may look at: a read-only view of the world as the agent sees it.

A user's own behaviour (an :class:`~pytest_logicenv.sim.leaves.AgentBehaviour`) reaches the
world only as ``self.agent.world``, a :class:`WorldView`: the objects the agent can see (not
those inside closed receptacles), each a read-only :class:`ThingView`, and where the agent
stands. Nothing in it changes the world, so a policy acts only through the agent's actions,
each checked and recorded in the trace; it cannot set a window shut and pass with an empty
trace. A view is a facts :class:`~pytest_logicenv.logic.facts.World`, so
``evaluate(fact, self.agent.world)`` answers what the agent can see.

>>> from pytest_logicenv.scenes.model import Room, Scene, SceneObject
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

from collections.abc import Mapping
from types import MappingProxyType
from typing import NoReturn

from pytest_logicenv.logic.facts import matches
from pytest_logicenv.sim.world import WorldObject, WorldState

_READ_ONLY = (
    "the world is read-only to a policy: change it through the agent's actions "
    "(self.agent.open(...), pick_up(...), ...), which the run checks and records"
)


class ThingView:
    """One object as a policy sees it: its identity, where it is and its states, read-only."""

    __slots__ = ("_thing",)
    _thing: WorldObject

    def __init__(self, thing: WorldObject) -> None:
        object.__setattr__(self, "_thing", thing)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot set {name!r}: {_READ_ONLY}")

    def __repr__(self) -> str:
        return f"<ThingView {self._thing.id} ({self._thing.type})>"

    @property
    def id(self) -> str:
        return self._thing.id

    @property
    def type(self) -> str:
        return self._thing.type

    @property
    def role(self) -> str | None:
        return self._thing.role

    @property
    def room(self) -> str:
        return self._thing.room

    @property
    def parent(self) -> str | None:
        return self._thing.parent

    @property
    def relation(self) -> str | None:
        return self._thing.relation

    @property
    def part_of(self) -> str | None:
        return getattr(self._thing, "part_of", None)

    @property
    def states(self) -> Mapping[str, bool]:
        return MappingProxyType(dict(self._thing.states))

    @property
    def attrs(self) -> Mapping[str, str]:
        return MappingProxyType(dict(self._thing.attrs))

    @property
    def properties(self) -> frozenset[str]:
        return frozenset(self._thing.properties)


class WorldView:
    """The world as the agent sees it now, read-only (a facts ``World``)."""

    __slots__ = ("_world",)
    _world: WorldState

    def __init__(self, world: WorldState) -> None:
        object.__setattr__(self, "_world", world)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot set {name!r}: {_READ_ONLY}")

    @property
    def entities(self) -> tuple[ThingView, ...]:
        """Every object in sight (windows and doors included)."""
        world = self._world
        return tuple(ThingView(t) for t in world.objects.values() if world.is_visible(t))

    def find(self, ref: str) -> tuple[ThingView, ...]:
        """The objects in sight that ``ref`` names (a type, a role or an id)."""
        return tuple(thing for thing in self.entities if matches(thing, ref))

    def room_type(self, room_id: str) -> str | None:
        return self._world.room_type(room_id)

    def near(self, first_id: str, second_id: str) -> bool:
        return self._world.near(first_id, second_id)

    @property
    def agent_room(self) -> str:
        return self._world.agent.room

    @property
    def holding(self) -> str | None:
        """The id of the object in the agent's hand, or ``None``."""
        return self._world.agent.held
