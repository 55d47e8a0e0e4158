"""The simulator's world: the mutable state of one policy run, built from a Scene.

A :class:`WorldState` copies a :class:`~pytest_logicenv.scenes.scene_model.Scene` into objects whose
parent, relation, room and states the actions change, plus the agent: the room it is in, the
spot it stands at (the floor-standing object it went to), the object it went to (it reaches
within 1.5 m of it: :data:`WITHIN_REACH`) and the one object it holds. Windows
and doors become objects too, so ``Close(window)`` works like ``Close(fridge)``.

A WorldState implements the facts :class:`~pytest_logicenv.logic.facts.World` protocol and shows the
*truth*: goal facts are judged on it. The agent sees less: :meth:`WorldState.visible` is the
world as the agent can observe it, without the objects inside closed receptacles, and that is
what condition leaves evaluate; actions bind only what it shows. One rule,
:data:`CLOSED_CONTAINERS`, says what a policy can see and do with a closed container's
contents, for conditions and actions alike.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> from pytest_logicenv.logic.facts import evaluate, parse_fact
>>> fridge = SceneObject("fridge_1", "Fridge", room="kitchen", properties=("receptacle",
...                      "openable"), states={"open": False})
>>> apple = SceneObject("apple_1", "Apple", room="kitchen", parent="fridge_1", relation="in")
>>> kitchen = Room("kitchen", "Kitchen", ((0, 0), (3, 0), (3, 3), (0, 3)))
>>> world = WorldState.from_scene(Scene("s", rooms=(kitchen,), objects=(fridge, apple)))
>>> fact = parse_fact({"in": ["Apple", "Fridge"]})
>>> evaluate(fact, world), evaluate(fact, world.visible())
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import ClassVar, NoReturn

from pytest_logicenv.logic.facts import role_names
from pytest_logicenv.scenes.scene_model import (
    NEAR_DISTANCE,
    Door,
    Scene,
    SceneObject,
    Window,
    footprint_gap,
)
from pytest_logicenv.sim.world_index import Children, SceneIndex

#: The relation of an object the agent holds (the facts ``held`` form reads it).
HELD = "held"
#: The one rule for what a policy can see and do with the contents of a closed container
#: (:meth:`WorldState.enclosure` decides it; ``docs/actions.md`` prints it).
CLOSED_CONTAINERS = (
    "An object inside a closed container (an openable receptacle that is closed: a fridge, "
    "a box, a drawer or cabinet that is a part of a dresser or a counter), at any depth, is "
    "hidden from the policy. Conditions do not see it (`Exists` answers no, `Absent` yes, "
    "`IsIn` no); actions do not bind it (a type names only the objects in sight, and an action "
    "on a hidden object stops with the counterfactual `visible`, naming the closed "
    "container); nothing can be put into a closed container (`open`). What stands on top of a "
    "closed container, the container itself and its parts stay in sight. Opening the "
    "container shows its contents, closing hides them again. Goal facts, a scene's "
    "realization and the physics (heat in a closed microwave) see everything."
)
#: ``(min_x, min_z, max_x, max_z)`` on the floor plane.
Footprint = tuple[float, float, float, float]
#: Types whose running state pours water.
WATER_SOURCE_TYPES = frozenset({"Faucet", "ShowerHead"})
#: Types that catch a water source's water: what is in or on them is under it.
BASIN_TYPES = frozenset({"Sink", "SinkBasin", "Bathtub", "BathtubBasin"})
#: The one rule for where the agent must stand to reach a water fixture (a sink or a bathtub
#: with its faucet and basin) and what is in it (:meth:`WorldState.station` decides it;
#: ``docs/actions.md`` prints it).
AT_FIXTURE = (
    "A water fixture is stricter still. "
    "A faucet, a sink or bathtub, its basin and what is in or on them are reached only at that "
    "fixture: the agent went to the faucet, the sink, the basin or something in it. Standing "
    "at anything else on the counter or vanity the sink is set in does not reach them, as "
    "AI2-THOR reaches only what is within its 1.5 m visibility distance of the agent and a "
    "counter runs for metres."
)
#: How far the agent reaches (metres, on the floor plane): AI2-THOR's default
#: ``visibilityDistance``, within which an object must be to be interacted with.
REACH_METRES = 1.5
#: The one rule for what the agent reaches from where it stands (:meth:`WorldState.reachable`
#: decides it; ``docs/actions.md`` prints it).
WITHIN_REACH = (
    "After `GoTo(x)` the agent stands at `x`, facing the floor-standing object `x` is on, in "
    "or a part of (or `x` itself). It reaches what it holds and what is on, in or a part of "
    f"that same object, within {REACH_METRES:g} m: the horizontal distance between the "
    "nearest points of the footprints of `x` and of the object acted on is at most "
    f"{REACH_METRES:g} m, as AI2-THOR interacts only with objects within its "
    f"`visibilityDistance` ({REACH_METRES:g} m by default) of the agent. After `GoTo(toaster)` "
    "the soap bottle at the other end of a 3 m counter is out of reach: `GoTo(soap)` first. "
    "`x` itself, what is on or in it, its parts and what it stands on are always within "
    "reach. An object the agent puts down lies at the point of its target nearest `x`. The "
    "layout puts every object of a generated scene on what it rests on; an object whose "
    "footprint does not touch that of what it rests on or is a part of (a scene built by "
    "hand, without a layout) has no position for this rule and is reached from anywhere at "
    "its floor-standing object."
)


#: Sets an attribute of a :class:`WorldObject`, which refuses ``obj.name = value``.
_write = object.__setattr__
_READ_ONLY = (
    "a world's objects change only through its own methods (place, hold, set_state), "
    "which copy an object shared with another world first"
)


class WorldObject:
    """One object of a run. Identity and catalog data are fixed; where it is and its states
    change, only through the :class:`WorldState` that owns it (``obj.room = ...`` raises:
    world copies share their objects until one of them changes). Implements the facts
    :class:`~pytest_logicenv.logic.facts.ObjectView` protocol."""

    __slots__ = (
        "accepts",
        "attrs",
        "beside",
        "box",
        "footprint",
        "id",
        "parent",
        "part_of",
        "properties",
        "relation",
        "role",
        "room",
        "rooms",
        "size",
        "states",
        "type",
    )
    id: str
    type: str
    role: str | None
    room: str
    rooms: tuple[str, ...]
    parent: str | None
    relation: str | None
    states: Mapping[str, bool]
    attrs: Mapping[str, str]
    properties: frozenset[str]
    accepts: tuple[str, ...]
    size: tuple[float, float, float]
    footprint: Footprint | None
    box: Footprint | None
    beside: str | None
    part_of: str | None

    def __init__(
        self,
        id: str,
        type: str,
        *,
        role: str | None,
        room: str,
        parent: str | None,
        relation: str | None,
        states: Mapping[str, bool],
        attrs: Mapping[str, str],
        properties: Iterable[str],
        accepts: Iterable[str] = (),
        size: tuple[float, float, float] = (0.0, 0.0, 0.0),
        footprint: Footprint | None = None,
        part_of: str | None = None,
        rooms: tuple[str, ...] = (),
    ) -> None:
        _write(self, "id", id)
        _write(self, "type", type)
        _write(self, "role", role)
        _write(self, "room", room)
        # A door's rooms: it is in both it joins (facts' ``room`` reads them); () for the rest.
        _write(self, "rooms", rooms)
        _write(self, "parent", parent)
        _write(self, "relation", relation)
        _write(self, "states", MappingProxyType(dict(states)))
        _write(self, "attrs", MappingProxyType(dict(attrs)))
        _write(self, "properties", frozenset(properties))
        _write(self, "accepts", tuple(accepts))
        _write(self, "size", size)
        # Where it stands on the floor plane; None for doors and windows (in walls, near
        # nothing, as in Scene.near) and for what was dropped where the agent's position is
        # unknown.
        _write(self, "footprint", footprint)
        # Where it is for the reach rule (WITHIN_REACH): its footprint when the scene's
        # positions are consistent, then wherever the agent put it; None: no distance rule.
        _write(self, "box", footprint)
        # The spot (a floor-standing object id) an object was dropped beside: it lies there,
        # and walking to it is walking to that spot.
        _write(self, "beside", None)
        # The object this one is a part of (a drawer of a dresser): it has no place of its
        # own and goes where its whole goes.
        _write(self, "part_of", part_of)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        # Objects are shared by world copies (copy-on-write): only the world that owns one
        # may change it, through its own methods.
        raise AttributeError(f"cannot set {name!r}: {_READ_ONLY}")

    @classmethod
    def from_scene(cls, obj: SceneObject | Window | Door) -> WorldObject:
        if isinstance(obj, SceneObject):
            return cls(
                obj.id,
                obj.type,
                role=obj.role,
                room=obj.room,
                parent=obj.parent,
                relation=obj.relation,
                states=obj.states,
                attrs=obj.attrs,
                properties=obj.properties,
                accepts=obj.accepts,
                size=obj.size,
                footprint=obj.footprint,
                part_of=obj.part_of,
            )
        return cls(
            obj.id,
            obj.type,
            role=obj.role,
            room=obj.room,
            parent=None,
            relation=obj.relation,
            states=obj.states,
            attrs=obj.attrs,
            properties=obj.properties,
            rooms=obj.rooms if isinstance(obj, Door) else (),
        )

    @property
    def label(self) -> str:
        """How messages name the object: its role when it has one, else its id."""
        return self.role or self.id

    def has(self, prop: str) -> bool:
        return prop in self.properties

    def copy(self) -> WorldObject:
        """A copy whose place and states change independently of this one's."""
        twin = object.__new__(WorldObject)
        for name in WorldObject.__slots__:
            _write(twin, name, getattr(self, name))  # states: a read-only view, replaced on write
        return twin

    def __repr__(self) -> str:
        where = f"{self.relation} {self.parent}" if self.parent else self.relation
        return f"WorldObject({self.id!r}, {self.type!r}, {where})"


@dataclass
class AgentState:
    """Where the agent is and what it holds. ``spot`` is the floor-standing object it stands
    next to (``None`` at its start and right after entering a room); it can reach that object
    and everything on or in it within :data:`REACH_METRES` of ``stand``, except a water
    fixture it does not stand at. ``station`` is the water fixture (a sink, a bathtub) it went
    to along its spot, if any (see :data:`AT_FIXTURE`). ``at`` is the label of the object it
    went to and ``stand`` that object's box then (``None``: no distance rule, see
    :data:`WITHIN_REACH`). ``position`` is its start point until it first moves (then only its
    spot says where it is)."""

    room: str
    spot: str | None = None
    held: str | None = None
    position: tuple[float, float] | None = None
    station: str | None = None
    at: str | None = None
    stand: Footprint | None = None


class WorldState:
    """The state of one run; implements the facts ``World`` protocol (the truth).

    Copies share their objects (copy-on-write): :meth:`copy` copies the mapping of ids to
    objects and the agent, and an object is copied the first time a world changes it, so a
    copy costs what changes after it, not the whole world. Lookups by type, role, id,
    property and whole go through the scene's :class:`~.world_index.SceneIndex`, what rests
    on what through :class:`~.world_index.Children`."""

    def __init__(self, scene: Scene, objects: Iterable[WorldObject], agent: AgentState) -> None:
        self.scene = scene
        self.objects: dict[str, WorldObject] = {obj.id: obj for obj in objects}
        self.agent = agent
        # Bumped by every change, so views computed from the state can be cached.
        self.version = 0
        self._visible: tuple[int, VisibleWorld] | None = None
        self._room_types = {room.id: room.type for room in scene.rooms}
        self.roles = role_names(scene)
        # The doors between two rooms (a door to the outside leads nowhere the agent goes).
        self._passages = {
            door.id: rooms
            for door in scene.doors
            if len(rooms := tuple(r for r in door.rooms if r != "exterior")) == 2
        }
        listed = list(self.objects.values())
        self._index = SceneIndex.of(
            [(o.id, o.type, o.role, o.properties, o.part_of) for o in listed]
        )
        self._children = Children.of([(o.id, o.parent) for o in listed], self._index.order)
        # The ids of the objects this world may change in place (no other world holds them),
        # and of those it changed since it was built (what a tamper check compares).
        self._owned: set[str] = set(self.objects)
        self._changed: set[str] = set()
        self._start: object = object()  # what same_start compares

    @classmethod
    def from_scene(cls, scene: Scene) -> WorldState:
        """A world at the start of ``scene``, built anew."""
        return _Start.of(scene).world()

    @classmethod
    def start(cls, scene: Scene) -> WorldState:
        """A world at the start of ``scene``: a copy of the one built at its first call (a
        few scenes are kept, by identity), so a run of a scene of thousands of objects does
        not build them again."""
        return _Start.cached(scene).world()

    def copy(self) -> WorldState:
        """An independent copy of this state (the same scene): a search tries an action on
        a copy and keeps the original. Both share every object until one changes it."""
        twin = object.__new__(WorldState)
        # What the scene fixes (rooms, roles, doors, the index) is shared; so are objects.
        twin.scene, twin.roles, twin._index = self.scene, self.roles, self._index
        twin._room_types, twin._passages = self._room_types, self._passages
        twin.objects = dict(self.objects)
        agent = self.agent  # built directly: dataclasses.replace reads its fields each call
        twin.agent = AgentState(
            agent.room, agent.spot, agent.held, agent.position, agent.station, agent.at, agent.stand
        )
        twin._children = self._children.share()
        twin.version, twin._visible = 0, None
        twin._owned, twin._changed, twin._start = set(), set(self._changed), self._start
        self._owned = set()  # the copy holds them too now
        return twin

    def changed(self) -> frozenset[str]:
        """The ids of the objects changed since this world (or the one it was copied from)
        was built; every other object is the very one it started with."""
        return frozenset(self._changed)

    @property
    def origin(self) -> object:
        """What this world was copied from (a scene's built world): :meth:`same_start`."""
        return self._start

    def as_started(self, obj_id: str) -> WorldObject:
        """The object ``obj_id`` as the world this one was copied from had it when built (a
        world built by hand: as it is now)."""
        start = self._start
        return start.objects[obj_id] if isinstance(start, _Start) else self.objects[obj_id]

    def same_start(self, other: WorldState) -> bool:
        """Whether ``other`` was copied from the same built world as this one (then objects
        outside both :meth:`changed` sets are shared, hence equal)."""
        return self._start is other._start

    def _located(self, obj: WorldObject) -> bool:
        """Whether ``obj``'s position can be trusted for the reach rule: its footprint touches
        that of what it rests on or is a part of, and so on down to the floor (a layout always
        puts things there; a scene built by hand may leave them anywhere)."""
        for link in self._links(obj):
            up = self.objects.get(link.parent or link.part_of or "")
            if link.footprint is None or up is None:
                return link.footprint is not None and up is None
            if up.footprint is None or footprint_gap(link.footprint, up.footprint) > 1e-6:
                return False
        return False  # a cycle: a malformed scene

    # -- the facts World protocol --------------------------------------------------------

    @property
    def entities(self) -> Iterable[WorldObject]:
        return self.objects.values()

    def room_type(self, room_id: str) -> str | None:
        return self._room_types.get(room_id)

    def near(self, first_id: str, second_id: str) -> bool:
        first, second = self.objects.get(first_id), self.objects.get(second_id)
        if first is None or second is None:
            return False
        if first.room != second.room:
            return False
        first_box, second_box = self._footprint(first), self._footprint(second)
        if first_box is None or second_box is None:
            return False  # doors and windows are near nothing, as in Scene.near
        return footprint_gap(first_box, second_box) <= NEAR_DISTANCE

    def _footprint(self, obj: WorldObject) -> Footprint | None:
        """Where ``obj`` is on the floor plane: where what it rests on stands, or for what
        the agent holds, where the agent stands."""
        bottom = self.bottom(obj)
        if bottom.relation == HELD:
            spot = self.agent.spot
            return self.objects[spot].footprint if spot is not None else self._agent_point()
        return bottom.footprint

    def _agent_point(self) -> Footprint | None:
        """The agent's start point while it has not moved (else it is where its spot is)."""
        if self.agent.position is None:
            return None
        x, z = self.agent.position
        return x, z, x, z

    # -- reading the state ---------------------------------------------------------------

    def candidates(self, ref: str) -> list[WorldObject]:
        """Every object ``ref`` names (a type, a role or an id), in scene order."""
        objects = self.objects
        return [objects[obj_id] for obj_id in self._index.named(ref, self.roles)]

    def named(self, ref: str) -> list[WorldObject]:
        """:meth:`candidates`, as the facts evaluator asks an indexed world."""
        return self.candidates(ref)

    def object_by_id(self, obj_id: str) -> WorldObject | None:
        return self.objects.get(obj_id)

    def of_types(self, types: Iterable[str]) -> list[WorldObject]:
        """The objects of any of ``types``, in scene order."""
        return [self.objects[obj_id] for obj_id in self._index.of_types(types)]

    def having(self, prop: str) -> list[WorldObject]:
        """The objects with the property ``prop``, in scene order."""
        return [self.objects[obj_id] for obj_id in self._index.by_property.get(prop, ())]

    def room_named(self, ref: str) -> str | None:
        """The id of the room ``ref`` names (a room id or type), or ``None``."""
        if ref in self._room_types:
            return ref
        return next((rid for rid, rtype in self._room_types.items() if rtype == ref), None)

    def rooms_of(self, obj: WorldObject) -> tuple[str, ...]:
        """The rooms from which the agent can reach ``obj``: both of a door's, else its own."""
        return self._passages.get(obj.id, (obj.room,))

    def closed_way(self, rooms: Iterable[str]) -> list[WorldObject] | None:
        """The closed doors that bar every way from the agent's room into one of ``rooms``,
        or ``None`` when an open way leads there (or no doors do at all: then the rooms are
        not connected, which is the scene's concern, not the agent's)."""
        wanted = set(rooms)

        def walk(start: str, through_closed: bool, avoid: set[str]) -> set[str]:
            reached, frontier = {start}, [start]
            while frontier:
                here = frontier.pop()
                for door_id, pair in self._passages.items():
                    door = self.objects[door_id]
                    if here in pair and (through_closed or door.states.get("open", False)):
                        for other in pair:
                            if other not in reached and other not in avoid:
                                reached.add(other)
                                frontier.append(other)
            return reached

        open_reach = walk(self.agent.room, through_closed=False, avoid=set())
        if wanted & open_reach or not wanted & walk(self.agent.room, True, avoid=set()):
            return None
        # The closed doors at the edge of where the agent can go that lead on towards rooms.
        blocking = []
        for door_id, pair in self._passages.items():
            beyond = [room for room in pair if room not in open_reach]
            if len(beyond) == 1 and wanted & walk(beyond[0], True, avoid=open_reach):
                blocking.append(self.objects[door_id])
        return blocking

    def ancestors(self, obj: WorldObject) -> Iterator[WorldObject]:
        """The objects ``obj`` rests on or in, innermost first (cycles are cut)."""
        seen = {obj.id}
        while obj.parent is not None and obj.parent in self.objects:
            obj = self.objects[obj.parent]
            if obj.id in seen:
                return
            seen.add(obj.id)
            yield obj

    def whole(self, obj: WorldObject) -> WorldObject:
        """The object ``obj`` is a part of, outermost (a drawer's dresser), else ``obj``."""
        seen = {obj.id}
        while obj.part_of is not None and obj.part_of in self.objects:
            obj = self.objects[obj.part_of]
            if obj.id in seen:
                break
            seen.add(obj.id)
        return obj

    def bottom(self, obj: WorldObject) -> WorldObject:
        """What carries ``obj`` in the end: follows what it rests on and what it is a part
        of down to an object that stands on the floor, hangs on a wall or is held."""
        seen: set[str] = set()
        while obj.id not in seen:
            seen.add(obj.id)
            obj = self.whole([obj, *self.ancestors(obj)][-1])
        return obj

    def ground(self, obj: WorldObject) -> WorldObject | None:
        """The floor-standing (or wall-mounted) object under ``obj`` (a part: under its
        whole); for something the agent holds, the spot where the agent stands (``None`` if
        it stands at no object); for something dropped beside a spot, that spot."""
        bottom = self.bottom(obj)
        if bottom.relation == HELD:
            spot = self.agent.spot
            return self.objects[spot] if spot is not None else None
        if bottom.beside is not None:
            return self.objects[bottom.beside]
        return bottom

    def enclosure(self, obj: WorldObject) -> WorldObject | None:
        """The closed receptacle that hides ``obj`` (the outermost one), or ``None``."""
        hidden_by = None
        current = obj
        for container in self.ancestors(obj):
            closed = container.has("openable") and not container.states.get("open", False)
            if current.relation == "in" and closed:
                hidden_by = container
            current = container
        return hidden_by

    def is_visible(self, obj: WorldObject) -> bool:
        """Whether the agent can see ``obj``: it is not inside a closed receptacle."""
        return self.enclosure(obj) is None

    def station(self, obj: WorldObject) -> WorldObject | None:
        """The water fixture ``obj`` belongs to (:data:`AT_FIXTURE`): the outermost sink,
        bathtub, basin or faucet among what it is, rests on or in, and is a part of (a mug in
        a sink's basin: the sink), or ``None``. The counter a sink is set in is no part of the
        fixture."""
        found = None
        for link in self._links(obj):
            if link.type in WATER_SOURCE_TYPES or link.type in BASIN_TYPES:
                found = link
        return found

    def _links(self, obj: WorldObject) -> Iterator[WorldObject]:
        """``obj``, then what it rests on or in, or else what it is a part of, outwards."""
        seen: set[str] = set()
        current: WorldObject | None = obj
        while current is not None and current.id not in seen:
            seen.add(current.id)
            yield current
            up = current.parent if current.parent is not None else current.part_of
            current = self.objects.get(up) if up is not None else None

    def reachable(self, obj: WorldObject) -> bool:
        """Whether the agent can act on ``obj`` from where it stands: held, or at its spot
        (and, for a water fixture and what is in it, at that fixture) within reach
        (:data:`WITHIN_REACH`)."""
        if obj.relation == HELD:
            return True
        if self.agent.spot is None or self.away_from(obj) is not None:
            return False
        return self.distance_beyond_reach(obj) is None

    def distance_beyond_reach(self, obj: WorldObject) -> float | None:
        """How far (metres) ``obj`` is from where the agent stands when that is beyond
        :data:`REACH_METRES`, else ``None`` (also when either has no position)."""
        stand, box = self.agent.stand, obj.box
        if stand is None or box is None or obj.relation == HELD:
            return None
        gap = footprint_gap(stand, box)
        return gap if gap > REACH_METRES else None

    def away_from(self, obj: WorldObject) -> WorldObject | None:
        """What the agent would have to stand at to reach ``obj`` and does not: the floor
        object under it, or its water fixture; ``None`` when it stands there (or holds it)."""
        if obj.relation == HELD:
            return None
        ground = self.ground(obj)
        if ground is None or ground.id != self.agent.spot:
            return ground if ground is not None else obj
        station = self.station(obj)
        if station is not None and station.id not in (self.agent.station, self.agent.spot):
            return station
        return None

    def children(self, obj: WorldObject, relation: str | None = None) -> list[WorldObject]:
        found = [self.objects[child] for child in self._children.of_parent(obj.id)]
        return found if relation is None else [c for c in found if c.relation == relation]

    def descendants(self, obj: WorldObject) -> Iterator[WorldObject]:
        for child in self.children(obj):
            yield child
            yield from self.descendants(child)

    def parts(self, obj: WorldObject) -> list[WorldObject]:
        """The parts of ``obj`` (a dresser's drawers)."""
        return self.parts_of(obj.id)

    def parts_of(self, whole_id: str) -> list[WorldObject]:
        """The parts of the object ``whole_id`` names (present or not)."""
        return [self.objects[part] for part in self._index.parts.get(whole_id, ())]

    def carried(self, obj: WorldObject) -> Iterator[WorldObject]:
        """Everything that goes where ``obj`` goes: what rests on or in it and its parts, and
        theirs (cycles are cut)."""
        seen, frontier = {obj.id}, [obj]
        while frontier:
            current = frontier.pop()
            for inner in (*self.children(current), *self.parts(current)):
                if inner.id not in seen:
                    seen.add(inner.id)
                    frontier.append(inner)
                    yield inner

    def held(self) -> WorldObject | None:
        held = self.agent.held
        return self.objects[held] if held is not None else None

    def visible(self) -> VisibleWorld:
        """The world as the agent sees it (cached until the next change)."""
        if self._visible is None or self._visible[0] != self.version:
            self._visible = (self.version, VisibleWorld(self))
        return self._visible[1]

    # -- changing the state (only actions call these) --------------------------------------

    def touch(self) -> None:
        """Record that the state changed."""
        self.version += 1

    def _own(self, obj: WorldObject) -> WorldObject:
        """This world's own ``obj`` (by id), copied first if another world shares it: what
        every change writes to. A reference read before is stale after a change: read the
        object again by id."""
        obj_id = obj.id
        if obj_id in self._owned:
            return self.objects[obj_id]
        mine = self.objects[obj_id].copy()
        self.objects[obj_id] = mine
        self._owned.add(obj_id)
        self._changed.add(obj_id)
        return mine

    def place(self, obj: WorldObject, parent: WorldObject | None, relation: str) -> None:
        """Put ``obj`` on/in ``parent`` (``None``: the floor of the agent's room)."""
        obj = self._own(obj)
        parent = self.objects[parent.id] if parent is not None else None
        if self.agent.held == obj.id:
            self.agent.held = None
        self._rest(obj, parent.id if parent is not None else None, relation)
        _write(obj, "beside", None)
        self._locate(obj, self._put_box(parent))
        if parent is None:  # on the floor where the agent stands
            spot = self.agent.spot
            if spot is None:
                _write(obj, "footprint", self._agent_point())
            elif spot != obj.id:  # (else it goes back where the agent took it from)
                _write(obj, "beside", spot)
                _write(obj, "footprint", self.objects[spot].footprint)
        self._set_room(obj, parent.room if parent is not None else self.agent.room)
        self.touch()

    def _rest(self, obj: WorldObject, parent: str | None, relation: str) -> None:
        """``obj`` (owned) rests ``relation`` ``parent`` (an id, or ``None``)."""
        self._children.move(obj.id, obj.parent, parent)
        _write(obj, "parent", parent)
        _write(obj, "relation", relation)

    def unload(self, target: WorldObject) -> None:
        """What rests on or in ``target`` rests on nothing, all else as it was: a what-if for
        the most room ``target`` ever has (no action does this)."""
        for child in self.children(target):
            self._rest(self._own(child), None, "on")
        self.touch()

    def _put_box(self, parent: WorldObject | None) -> Footprint | None:
        """Where an object the agent puts on or in ``parent`` (``None``: drops) lies, for the
        reach rule: the point or strip of ``parent`` nearest where the agent stands."""
        stand = self.agent.stand
        if parent is None or stand is None or parent.box is None:
            return stand if parent is None else parent.box
        return nearest_part(parent.box, stand)

    def _locate(self, obj: WorldObject, box: Footprint | None) -> None:
        """``obj``, and everything that goes where it goes, is now at ``box``."""
        _write(self._own(obj), "box", box)
        for inner in list(self.carried(obj)):
            if inner.box != box:
                _write(self._own(inner), "box", box)

    def hold(self, obj: WorldObject) -> None:
        obj = self._own(obj)
        self._rest(obj, None, HELD)
        _write(obj, "beside", None)
        self._locate(obj, None)  # in the agent's hand, what it holds goes where it goes
        self.agent.held = obj.id
        self._set_room(obj, self.agent.room)
        self.touch()

    def move_agent(
        self,
        room: str,
        spot: WorldObject | None,
        station: WorldObject | None = None,
        at: tuple[str, Footprint | None] | None = None,
    ) -> None:
        """Move the agent into ``room``, next to ``spot``, at the water fixture ``station``
        when it went to one, standing at ``at``: the label and box of the object it went to
        (:data:`WITHIN_REACH`)."""
        self.agent.room = room
        self.agent.spot = spot.id if spot is not None else None
        self.agent.station = station.id if station is not None else None
        self.agent.at, self.agent.stand = at if at is not None else (None, None)
        self.agent.position = None
        held = self.held()
        if held is not None:
            self._set_room(held, room)
        self.touch()

    def set_state(self, obj: WorldObject, state: str, value: bool) -> None:
        obj = self._own(obj)
        _write(obj, "states", MappingProxyType({**obj.states, state: value}))
        self.touch()

    def _set_room(self, obj: WorldObject, room: str) -> None:
        for inner in (obj, *self.carried(obj)):
            if inner.room != room:
                _write(self._own(inner), "room", room)


class _Start:
    """A scene's world at its start, built once, which worlds are copied from. Not itself a
    WorldState (what reaches worlds through ``gc`` does not find it), and nothing changes
    it: its objects are shared, read-only, by its copies."""

    __slots__ = ("agent", "children", "fixed", "objects", "scene")

    #: The starts kept by :meth:`cached`, by the id of their scene (a scene is a frozen
    #: dataclass of thousands of objects: hashing it would cost what building does).
    kept: ClassVar[dict[int, _Start]] = {}
    KEEP: ClassVar[int] = 16

    def __init__(self, template: WorldState) -> None:
        self.scene, self.objects, self.agent = template.scene, template.objects, template.agent
        self.children = template._children
        self.fixed = (template.roles, template._index, template._room_types, template._passages)

    @classmethod
    def of(cls, scene: Scene) -> _Start:
        objects = [WorldObject.from_scene(entity) for entity in scene.entities]
        if scene.agent is not None:
            room = scene.agent.room
        else:
            room = scene.rooms[0].id if scene.rooms else ""
        held = next((obj.id for obj in objects if obj.relation == HELD), None)
        position = scene.agent.position if scene.agent is not None else None
        world = WorldState(scene, objects, AgentState(room=room, held=held, position=position))
        for obj in [o for o in objects if not world._located(o)]:
            _write(obj, "box", None)
        world._owned = set()  # the start's objects are shared from now on
        return cls(world)

    @classmethod
    def cached(cls, scene: Scene) -> _Start:
        start = cls.kept.get(id(scene))
        if start is None or start.scene is not scene:
            if len(cls.kept) >= cls.KEEP:
                cls.kept.pop(next(iter(cls.kept)))
            start = cls.kept[id(scene)] = cls.of(scene)
        return start

    def world(self) -> WorldState:
        """A world at the start, sharing this one's objects."""
        twin = object.__new__(WorldState)
        twin.scene = self.scene
        twin.roles, twin._index, twin._room_types, twin._passages = self.fixed
        twin.objects = dict(self.objects)
        twin.agent = replace(self.agent)
        twin._children = self.children.share()
        twin.version, twin._visible = 0, None
        twin._owned, twin._changed, twin._start = set(), set(), self
        return twin


def nearest_part(box: Footprint, point: Footprint) -> Footprint:
    """The part of ``box`` nearest ``point`` (a box too): their overlap, else the nearest edge
    or corner of ``box``, so that ``footprint_gap(point, result) == footprint_gap(point, box)``.

    >>> nearest_part((0.0, 0.0, 3.0, 0.6), (2.5, 0.8, 2.7, 1.0))
    (2.5, 0.6, 2.7, 0.6)
    """
    x0, x1 = _nearest_span(box[0], box[2], point[0], point[2])
    z0, z1 = _nearest_span(box[1], box[3], point[1], point[3])
    return x0, z0, x1, z1


def _nearest_span(low: float, high: float, p_low: float, p_high: float) -> tuple[float, float]:
    """The part of ``[low, high]`` nearest ``[p_low, p_high]``: their overlap or an end."""
    if p_high < low:
        return low, low
    if p_low > high:
        return high, high
    return max(low, p_low), min(high, p_high)


class VisibleWorld:
    """A facts ``World`` over the objects the agent can see (not inside closed receptacles).
    What it lists is found when first asked for, through the world's index."""

    def __init__(self, world: WorldState) -> None:
        self._world = world
        self._entities: tuple[WorldObject, ...] | None = None

    @property
    def entities(self) -> Iterable[WorldObject]:
        if self._entities is None:
            world = self._world
            self._entities = tuple(o for o in world.objects.values() if world.is_visible(o))
        return self._entities

    def named(self, ref: str) -> list[WorldObject]:
        """The objects in sight ``ref`` names (the facts ``matches``), in scene order."""
        world = self._world
        return [obj for obj in world.candidates(ref) if world.is_visible(obj)]

    def object_by_id(self, obj_id: str) -> WorldObject | None:
        obj = self._world.objects.get(obj_id)
        return obj if obj is not None and self._world.is_visible(obj) else None

    @property
    def roles(self) -> frozenset[str]:
        return self._world.roles

    def room_type(self, room_id: str) -> str | None:
        return self._world.room_type(room_id)

    def near(self, first_id: str, second_id: str) -> bool:
        return self._world.near(first_id, second_id)
