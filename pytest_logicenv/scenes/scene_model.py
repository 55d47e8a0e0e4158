"""The Scene: one concrete, solved household environment, as JSON that round-trips.

A Scene is what the designers and the layout solver produce, what the checker judges, what the
simulator acts in and what the exporter turns into an AI2-THOR house. It is self-contained: each
object carries the catalog properties the simulator needs (``pickupable``, ``receptacle``, ...),
so running a policy needs no catalog.

Coordinates are metres. The floor is the ``x``/``z`` plane and ``y`` points up, as in AI2-THOR.
An object's ``position`` is the centre of its bounding box; ``size`` is its ``(x, y, z)`` extent
before rotation; ``rotation`` turns it about ``y`` by 0, 90, 180 or 270 degrees. At rotation 0 an
object's front faces ``+z``; 90 turns it to face ``+x``, 180 to ``-z``, 270 to ``-x`` (AI2-THOR's
sense of rotation). A window's ``side`` names the way its wall faces out: ``north`` is ``+z``,
``east`` ``+x``, ``south`` ``-z``, ``west`` ``-x``.

A Scene implements the facts :class:`~pytest_logicenv.logic.facts.World` protocol, so facts evaluate
on it directly:

>>> room = Room("living_room", "LivingRoom", ((0, 0), (4, 0), (4, 4), (0, 4)))
>>> toy = SceneObject("toy_1", "TeddyBear", room="living_room", role="toy",
...                   attrs={"kind": "doll"})
>>> scene = Scene("example", rooms=(room,), objects=(toy,))
>>> from pytest_logicenv.logic.facts import evaluate, parse_fact
>>> evaluate(parse_fact({"exists": "toy", "where": {"on": "Floor"}}), scene)
True

Its JSON form, and reading a scene file, are in :mod:`pytest_logicenv.scenes.scene_json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from pytest_logicenv.errors import SceneError

#: Version of the scene JSON format; a file with another version is stale, not an error.
SCENE_FORMAT = "logicenv-scene/1"
#: Priorities: relations that realize the task outrank those that only enrich the scene; so do
#: objects (a task object is never left out; see :attr:`SceneObject.priority`).
PRIORITY_TASK = 10
PRIORITY_ENRICHMENT = 1
#: Metres per step of a position on and in receptacles, in the layout: two 0.25 m forks fit on a
#: 0.29 m plate only if they can move by less than 5 cm relative to it.
FINE_GRID = 0.01
#: Two objects whose footprints are at most this far apart (metres) are ``near``.
NEAR_DISTANCE = 1.0
# Thresholds of the spatial relations (metres). The relations are defined precisely in
# the docstring of the ``scenes.layout`` package; the solver encodes them and the physics
# checker tests them, each with its own geometry code, so these numbers are all the two share.
#: ``far``: the footprints are at least this far apart (or the objects are in different rooms).
FAR_DISTANCE = 1.5
#: ``edge``: the footprint side nearest to a wall (or to its support's rim) is this close to it;
#: ``corner``: so are two sides of the footprint, each to one of two walls meeting at a corner.
EDGE_DISTANCE = 0.15
#: ``middle``: a floor object's footprint is at least this far from every wall (a walkway wide
#: enough for the agent's body all round it).
MIDDLE_DISTANCE = 0.5
#: ``center``: the footprint centre is within this fraction of the support's extent of its centre.
CENTER_FRACTION = 0.125
#: ``above``: the subject's centre lies over the target's footprint grown by this margin.
ABOVE_MARGIN = 0.15
#: ``center_aligned``: the subject's centre is this close to the target's facing axis.
ALIGN_TOLERANCE = 0.05
#: ``in_front_of`` / ``side_of``: the gap between the two footprints is at most this.
ADJACENT_DISTANCE = NEAR_DISTANCE
# Margins. Where space allows, the layout meets relations with room to spare: after meeting
# as many as it can, it prefers the tighter versions below (as many as hold together). These
# are preferences of the layout, never checked; the tolerances above define the relations.
#: ``near``: preferably at most this far apart.
NEAR_NATURAL = 0.5
#: ``far``: preferably at least this far apart.
FAR_NATURAL = 2.0
#: ``edge``, ``corner``: preferably this close to the wall or the rim (flush, to a grid cell).
EDGE_NATURAL = 0.05
#: ``center``: preferably within this fraction of the support's extent of its centre.
CENTER_NATURAL = CENTER_FRACTION / 2
#: ``center_aligned``: preferably this close to the axis (half the 5 cm grid: as close as
#: the grid lets any two sizes come).
ALIGN_NATURAL = 0.025
#: ``in_front_of``: preferably this far (least, most) beyond the target's front: room for
#: legs between a sofa and its coffee table.
IN_FRONT_NATURAL = (0.3, 0.6)
#: ``side_of``: preferably at most this far beside the target.
SIDE_NATURAL = 0.3
#: ``in_front_of``, ``side_of``, ``face_to``: preferably centred on the target, within this
#: fraction of its extent across of its centre.
CENTRED_NATURAL = 0.25
#: ``above``: preferably over the target's footprint itself (no margin).
ABOVE_NATURAL = 0.0
#: The agent's body on the floor is a disc of this radius (metres); AI2-THOR's agent is
#: a capsule about 0.2 m in radius. It must fit where it starts and where it walks.
AGENT_RADIUS = 0.2
#: The agent acts on an object when it stands within this distance (metres, on the floor
#: plane) of the footprint of what the object rests on (AI2-THOR's agent interacts with what
#: it sees within 1.5 m of its camera, 0.9 m above the floor).
REACH_DISTANCE = 1.0
#: Least depth (metres) of the floor area in front of a door, on each side, that must stay
#: free (see :func:`door_clearance`).
DOOR_CLEARANCE = 0.8
#: A door's leaf clears the floor by this much (metres): a stain or a rug may lie where it
#: swings.
DOOR_UNDERCUT = 0.02
#: Depth (metres) of the slab in front of a window's opening that nothing reaching the
#: opening's height may stand or hang in (a sofa may stand below the sill, not a wardrobe or a
#: picture in front of the glass).
WINDOW_REVEAL = 0.05
#: What a door's ``rooms`` name for the outside: a front door joins its room and this.
EXTERIOR = "exterior"
#: Height of the walls (metres) the layout derives from the room polygons.
WALL_HEIGHT = 2.5
#: Catalog properties an object may carry (AI2-THOR's, in snake case, plus ours).
PROPERTIES: tuple[str, ...] = (
    "pickupable",
    "moveable",
    "static",
    "receptacle",
    "object_specific_receptacle",
    "openable",
    "toggleable",
    "breakable",
    "dirtyable",
    "sliceable",
    "fillable",
    "cookable",
    "can_be_used_up",
    "heat_source",
    "cold_source",
    "see_through",
    "cleaning_tool",
    "cutting_tool",
    "wall_mounted",
    "wettable",  # wets under running water; a wet cloth cleans (our extension)
    "refill_source",  # refills a used-up object (our extension)
    "drain",  # takes what is emptied into it: a basin, a toilet (our extension)
    "temperature",  # heats on a heat source, cools in a cold one: food (our extension)
)

Point = tuple[float, float]
Vector = tuple[float, float, float]


@dataclass(frozen=True)
class Room:
    """A room: a polygon of ``(x, z)`` corners in metres, counter-clockwise."""

    id: str
    type: str
    polygon: tuple[Point, ...]
    floor_material: str = ""
    wall_material: str = ""

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(min_x, min_z, max_x, max_z)``."""
        xs = [p[0] for p in self.polygon]
        zs = [p[1] for p in self.polygon]
        return min(xs), min(zs), max(xs), max(zs)


@dataclass(frozen=True)
class Wall:
    """A straight wall segment; ``rooms`` holds one room (exterior wall) or the two it
    separates."""

    id: str
    rooms: tuple[str, ...]
    start: Point
    end: Point
    height: float = 2.5
    material: str = ""


class _Opening:
    """What facts and the simulator see of a door or window: a wall-mounted object that
    opens (its ``open`` field is its one state)."""

    open: bool

    @property
    def parent(self) -> str | None:
        return None

    @property
    def relation(self) -> str | None:
        return "wall"

    @property
    def states(self) -> Mapping[str, bool]:
        return {"open": self.open}

    @property
    def attrs(self) -> Mapping[str, str]:
        return {}

    @property
    def properties(self) -> tuple[str, ...]:
        return ("openable", "static")


@dataclass(frozen=True)
class Door(_Opening):
    """A door in ``wall``, ``offset`` metres from the wall's start to the door's near edge."""

    id: str
    wall: str
    rooms: tuple[str, ...]
    offset: float
    width: float = 0.9
    height: float = 2.1
    open: bool = True
    asset_id: str = ""
    role: str | None = None

    @property
    def type(self) -> str:
        return "Door"

    @property
    def room(self) -> str:
        return self.rooms[0] if self.rooms else ""

    @property
    def front(self) -> bool:
        """Whether it is the door to the outside (the front door)."""
        return EXTERIOR in self.rooms

    @property
    def attrs(self) -> Mapping[str, str]:
        """``kind``: ``front`` for the door to the outside, else ``interior`` (what facts and
        selectors tell doors apart by: ``Select("Door", attrs={"kind": "front"})``)."""
        return {"kind": "front" if self.front else "interior"}


@dataclass(frozen=True)
class Window(_Opening):
    """A window in an exterior ``wall``; ``sill`` is the height of its bottom edge."""

    id: str
    wall: str
    room: str
    offset: float
    width: float = 1.2
    height: float = 1.2
    sill: float = 0.9
    open: bool = False
    asset_id: str = ""
    role: str | None = None

    @property
    def type(self) -> str:
        return "Window"


@dataclass(frozen=True)
class SceneObject:
    """One object. ``parent``/``relation`` say what it rests on: ``on``/``in`` another object,
    ``on`` with no parent for the floor, ``wall`` with no parent for wall-mounted objects.

    A *part* (a drawer of a dresser, the basin of a sink) has ``part_of``, its parent object's
    id, no parent and the relation ``part``: it has no layout of its own, it is where its
    parent is (at a fixed offset, ``scenes/part_geometry.py``) and in its room. What rests in a part
    has the part as its ``parent`` (an apple ``in`` the drawer)."""

    id: str
    type: str
    asset_id: str = ""
    role: str | None = None
    room: str = ""
    size: Vector = (0.3, 0.3, 0.3)
    position: Vector = (0.0, 0.0, 0.0)
    rotation: int = 0
    parent: str | None = None
    relation: str | None = "on"
    states: Mapping[str, bool] = field(default_factory=dict)
    attrs: Mapping[str, str] = field(default_factory=dict)
    properties: tuple[str, ...] = ()
    task: bool = False
    custom_type: bool = False
    #: For object-specific receptacles (a toaster, a towel holder): the types they accept.
    #: Empty means anything that fits.
    accepts: tuple[str, ...] = ()
    #: The id of the object this one is a part of (``None``: not a part).
    part_of: str | None = None
    #: When the room cannot hold everything, the layout leaves out the objects of lowest
    #: priority first (the later among equals); task objects, and what they rest on, never.
    priority: int = PRIORITY_ENRICHMENT

    def has(self, prop: str) -> bool:
        """Whether the catalog gave this object property ``prop``."""
        return prop in self.properties

    @property
    def footprint(self) -> tuple[float, float, float, float]:
        """``(min_x, min_z, max_x, max_z)`` of the rotated bounding box on the floor plane."""
        sx, _, sz = self.size
        if self.rotation % 180 == 90:
            sx, sz = sz, sx
        x, _, z = self.position
        return x - sx / 2, z - sz / 2, x + sx / 2, z + sz / 2


@dataclass(frozen=True)
class SpatialRelation:
    """A spatial relation the layout was asked to satisfy (paper 4.4.3).

    ``kind`` is one of :data:`RELATION_KINDS`; unary kinds have no ``target``. ``priority``:
    higher is more important; task-critical relations outrank enrichment ones.
    """

    kind: str
    subject: str
    target: str | None = None
    priority: int = 1
    reason: str = ""

    def __str__(self) -> str:
        return f"{self.kind}({self.subject}{', ' + self.target if self.target else ''})"


RELATION_KINDS: tuple[str, ...] = (
    "edge",
    "center",
    "corner",
    "middle",
    "mounted_on_wall",
    "in",
    "on_top_of",
    "near",
    "far",
    "above",
    "in_front_of",
    "side_of",
    "center_aligned",
    "face_to",
)
#: The kinds that relate one object to its surroundings, not to another object (no target).
UNARY_RELATION_KINDS: tuple[str, ...] = ("edge", "center", "corner", "middle", "mounted_on_wall")


@dataclass(frozen=True)
class AgentStart:
    room: str
    position: Point = (0.0, 0.0)


@dataclass(frozen=True)
class DroppedObject:
    """An object the design asked for that the layout left out, and why (the room was full)."""

    id: str
    type: str
    room: str
    priority: int
    reason: str


@dataclass(frozen=True)
class Provenance:
    """Where a scene came from, so that a reader can trust or regenerate it: ``kept`` and
    ``dropped`` are the relations the layout met and left out, ``dropped_objects`` the objects
    it could not place."""

    trajectory: str | None = None
    conditions: tuple[tuple[str, str], ...] = ()
    designer: str = ""
    seed: int = 0
    kept: tuple[SpatialRelation, ...] = ()
    dropped: tuple[SpatialRelation, ...] = ()
    notes: tuple[str, ...] = ()
    dropped_objects: tuple[DroppedObject, ...] = ()


@dataclass(frozen=True)
class Scene:
    """A complete scene; implements the facts ``World`` protocol."""

    id: str
    rooms: tuple[Room, ...] = ()
    walls: tuple[Wall, ...] = ()
    doors: tuple[Door, ...] = ()
    windows: tuple[Window, ...] = ()
    objects: tuple[SceneObject, ...] = ()
    agent: AgentStart | None = None
    relations: tuple[SpatialRelation, ...] = ()
    provenance: Provenance = field(default_factory=Provenance)
    #: Names that are roles only here, never ids (the facts ``role_names``): a scene judged
    #: against a plan it was not made from has that plan's roles, bound explicitly. Not
    #: saved: a scene file's roles are its objects' own.
    roles: tuple[str, ...] = ()

    # -- lookups --------------------------------------------------------------------------

    @cached_property
    def entities(self) -> tuple[SceneObject | Window | Door, ...]:
        """Everything facts can name: the objects, then the windows and doors."""
        return (*self.objects, *self.windows, *self.doors)

    @cached_property
    def _objects_by_id(self) -> dict[str, SceneObject]:
        return {obj.id: obj for obj in self.objects}

    @cached_property
    def _rooms_by_id(self) -> dict[str, Room]:
        return {room.id: room for room in self.rooms}

    def object(self, object_id: str) -> SceneObject:
        try:
            return self._objects_by_id[object_id]
        except KeyError:
            raise SceneError(f"scene {self.id!r} has no object {object_id!r}") from None

    def room(self, room_id: str) -> Room:
        try:
            return self._rooms_by_id[room_id]
        except KeyError:
            raise SceneError(f"scene {self.id!r} has no room {room_id!r}") from None

    def by_role(self, role: str) -> tuple[SceneObject, ...]:
        return tuple(obj for obj in self.objects if obj.role == role)

    def parts(self, parent_id: str) -> tuple[SceneObject, ...]:
        """The parts of the object ``parent_id`` (its drawers, its basin), in order."""
        return tuple(obj for obj in self.objects if obj.part_of == parent_id)

    def children(self, parent_id: str) -> tuple[SceneObject, ...]:
        return tuple(obj for obj in self.objects if obj.parent == parent_id)

    # -- the facts World protocol ----------------------------------------------------------

    def room_type(self, room_id: str) -> str | None:
        room = self._rooms_by_id.get(room_id)
        return room.type if room is not None else None

    def near(self, first_id: str, second_id: str) -> bool:
        if first_id not in self._objects_by_id or second_id not in self._objects_by_id:
            return False  # windows and doors are in walls; nearness is about objects
        first = self._ground(self._objects_by_id[first_id])
        second = self._ground(self._objects_by_id[second_id])
        if first.id == second.id:
            return True
        if first.room != second.room:
            return False
        return footprint_gap(first.footprint, second.footprint) <= NEAR_DISTANCE

    def _ground(self, obj: SceneObject) -> SceneObject:
        """The floor-standing ancestor of ``obj`` (an apple in a fridge is where the fridge is;
        an apple in a drawer, where the drawer's dresser is)."""
        seen = {obj.id}
        while (up := obj.parent or obj.part_of) is not None and up in self._objects_by_id:
            obj = self._objects_by_id[up]
            if obj.id in seen:  # a cycle is a malformed scene; stop rather than loop
                break
            seen.add(obj.id)
        return obj

    def with_objects(self, objects: Sequence[SceneObject]) -> Scene:
        return replace(self, objects=tuple(objects))


# --------------------------------------------------------------------------- the design


@dataclass(frozen=True)
class DoorSpec:
    """A door the design asks for between two rooms (or a room and ``"exterior"``). The layout
    chooses its wall and offset unless the design pins them: ``side`` (``north``/``south``/
    ``east``/``west`` of its first room) or ``wall`` (a wall id, ``wall|<room>[|<room>]|<n>``)
    pins the wall, ``offset`` the metres from the wall's start to its near edge (as
    :attr:`Door.offset`)."""

    id: str
    rooms: tuple[str, ...]
    open: bool = True
    width: float = 0.9
    height: float = 2.1
    asset_id: str = ""
    role: str | None = None
    side: str | None = None
    wall: str | None = None
    offset: float | None = None


@dataclass(frozen=True)
class WindowSpec:
    """A window the design asks for in a room's exterior wall; the layout places it.
    ``side`` (``north``/``south``/``east``/``west``) or ``wall`` (a wall id) pins the wall,
    ``offset`` the metres from the wall's start to its near edge (as :attr:`Window.offset`)."""

    id: str
    room: str
    open: bool = False
    width: float = 1.2
    height: float = 1.2
    sill: float = 0.9
    asset_id: str = ""
    role: str | None = None
    side: str | None = None
    wall: str | None = None
    offset: float | None = None


@dataclass(frozen=True)
class SceneSpec:
    """What a designer decides before layout: the floor plan (room polygons), doors and
    windows to place, every object with its support (``parent``/``relation``), states and
    attributes, and the spatial relations to satisfy. The layout solver turns it into a
    :class:`Scene` by choosing positions and rotations (and wall offsets)."""

    id: str
    rooms: tuple[Room, ...]
    objects: tuple[SceneObject, ...]
    doors: tuple[DoorSpec, ...] = ()
    windows: tuple[WindowSpec, ...] = ()
    relations: tuple[SpatialRelation, ...] = ()
    agent_room: str = ""
    provenance: Provenance = field(default_factory=Provenance)


def door_clearance(width: float) -> float:
    """Depth (metres) of the floor in front of a door ``width`` metres wide, on each side, that
    must stay free: its leaf, as wide as the opening, sweeps that far into the room as it
    swings open (which way it swings, the scene does not say), and people pass there.

    >>> door_clearance(1.07), door_clearance(0.6)
    (1.07, 0.8)
    """
    return max(DOOR_CLEARANCE, width)


def footprint_gap(
    first: tuple[float, float, float, float], second: tuple[float, float, float, float]
) -> float:
    """Euclidean distance between two axis-aligned rectangles (0 when they touch or overlap)."""
    dx = max(second[0] - first[2], first[0] - second[2], 0.0)
    dz = max(second[1] - first[3], first[1] - second[3], 0.0)
    return float((dx * dx + dz * dz) ** 0.5)
