"""Z3 layout: turn a :class:`~pytest_logicenv.scenes.model.SceneSpec` into a placed :class:`Scene`.

The designer decides *what* is in the house (rooms, doors, windows, objects with their supports,
spatial relations with priorities); this module decides *where*: every object's position and
rotation, every door's and window's wall and offset, and the agent's start.

**Grid.** Positions are integers: on a :data:`GRID` (5 cm) grid for what stands on the floor or
hangs on a wall, on a :data:`FINE_GRID` (1 cm) grid for what rests on or in another object
(small things on small tops), and heights in centimetres. An object occupies whole cells that
contain its real bounding box (sizes are rounded up), so what the solver proves about cells
(no collision, inside the room) holds for the real boxes. Supports and relations are encoded
exactly on the real coordinates.

**Decomposition.** Instead of one model for the whole house, the layout is a sequence of small
problems, each solved by its own Z3 :class:`z3.Solver`, in dependency order: the doors and windows
of the house; the floor of each room; the top and the interior of each receptacle (its size
bounds what goes on or in it, so it is placed first); the walls of each room (wall-mounted
objects, around the doors, windows and whatever already stands against the wall); then what
rests on wall-mounted objects. Objects placed by an earlier problem are constants in later ones.
A relation between objects of two problems is solved in the later one, except that the objects
it links are solved together in the earlier one (with what they rest on) when it relates a
wall-mounted object to floor furniture (a picture above the sofa, a switch near the desk: the
furniture must stand where that is possible), or when solving it in the later problem dropped it
(then the layout is solved again). ``decompose=False`` solves one model of everything instead.

**Hard constraints.** Inside the room; no collision (3D boxes; an object and what it holds are
exempt); supported (floor objects stand at ``y = 0``, an object ``on`` another stands on its top
surface within its footprint, one ``in`` another sits on its bottom within its footprint (and
below its top if it is openable, so that it closes), a wall-mounted object has its back flush
against a wall of its room, below the wall's top); door
clearance (an area in front of each door, on both sides, as deep as
:func:`~pytest_logicenv.scenes.model.door_clearance`:
the sweep of its leaf, holds nothing lower than
the door); windows in exterior walls above the floor, and
nothing against a wall in front of a window opening; rotations 0, 90, 180 or 270.

**Relations** (thresholds in :mod:`pytest_logicenv.scenes.model`; the *footprint* is an object's
rotated bounding box on the floor plane; *front* is where it faces, see that module).
Binary relations other than ``far`` require both objects to be in the same room.

- ``edge(s)``: for an object on the floor, some side of its room's polygon is at most
  ``EDGE_DISTANCE`` from the footprint, the footprint's extent along that side lies within the
  side, and ``s`` faces into the room (its back to that wall). For an object on or in another,
  some side of its footprint is at most ``EDGE_DISTANCE`` from the same side of its parent's
  footprint.
- ``center(s)``: the footprint's centre is within ``CENTER_FRACTION`` of the support's extent
  (along each axis) from the support's centre: the room's bounding box for an object on the
  floor, the parent's footprint otherwise.
- ``mounted_on_wall(s)``: ``s`` is supported by a wall (``relation == "wall"``).
- ``in(s, t)``: ``s`` rests in ``t`` (``parent == t``, ``relation == "in"``).
- ``on_top_of(s, t)``: ``s`` rests on ``t`` (``parent == t``, ``relation == "on"``).
- ``near(s, t)``: the distance between the footprints is at most ``NEAR_DISTANCE``.
- ``far(s, t)``: different rooms, or the distance between the footprints is at least
  ``FAR_DISTANCE``.
- ``above(s, t)``: ``s``'s bottom is at or above ``t``'s top, and ``s``'s footprint centre lies
  within ``t``'s footprint grown by ``ABOVE_MARGIN`` on every side.
- ``in_front_of(s, t)``: ``s``'s footprint lies wholly on the side ``t`` faces, beyond ``t``'s
  front, at most ``ADJACENT_DISTANCE`` from it, and ``s``'s centre lies within ``t``'s extent
  across that direction.
- ``side_of(s, t)``: ``s``'s footprint lies wholly to the left or right of ``t``'s (across
  ``t``'s facing direction), at most ``ADJACENT_DISTANCE`` from it, and ``s``'s centre lies
  within ``t``'s extent along the facing direction.
- ``center_aligned(s, t)``: ``s``'s centre is at most ``ALIGN_TOLERANCE`` from the line through
  ``t``'s centre along ``t``'s facing direction.
- ``face_to(s, t)``: ``t``'s footprint lies wholly beyond ``s``'s front, and ``s``'s centre lies
  within ``t``'s extent across ``s``'s facing direction (``s`` looks straight at ``t``).

**Reach.** The agent must be able to walk (a square of ``2 * WALK_HALF``, between the walls,
through the doors between rooms, around everything standing on the floor or hanging on a
wall) from its start to within ``REACH_DISTANCE`` of every task object (of what it rests on)
and every window with a role. The solver places the agent's start somewhere free; the layout
then moves it to the stretch of floor that reaches the most of them, and when some stays out
of reach, lays the scene out again with another seed (up to :data:`ATTEMPTS` times).

**Relaxation.** ``in``, ``on_top_of`` and ``mounted_on_wall`` restate supports and are checked
before solving (a contradiction is an error). The others are soft: each gets an assumption
literal passed to :meth:`z3.Solver.check`. When the problem is unsatisfiable, the lowest-priority
relation of the unsat core is dropped (enrichment before task-critical; the later one among
equals) and the problem is solved again; afterwards every dropped relation is tried again, most
important first, and may displace kept relations of lower priority that block it. So every
dropped relation conflicts with kept relations of equal or higher priority (the reason names
them: the unsat core, not necessarily minimal), and every relation that could join the kept ones
has. Kept and dropped relations (with the reason) go to the scene's provenance.

>>> from pytest_logicenv.scenes.model import Room, SceneObject, SceneSpec, SpatialRelation
>>> spec = SceneSpec(
...     "demo",
...     rooms=(Room("living", "LivingRoom", ((0, 0), (4, 0), (4, 3), (0, 3))),),
...     objects=(
...         SceneObject("sofa", "Sofa", room="living", size=(1.6, 0.8, 0.9),
...                     properties=("receptacle",)),
...         SceneObject("tv", "Television", room="living", size=(0.8, 0.5, 0.1)),
...         SceneObject("book", "Book", parent="sofa", size=(0.3, 0.05, 0.2)),
...     ),
...     relations=(SpatialRelation("edge", "sofa"), SpatialRelation("face_to", "sofa", "tv")),
... )
>>> scene = solve_layout(spec, seed=1)
>>> [r.kind for r in scene.provenance.kept]
['edge', 'face_to']
>>> round(scene.object("book").position[1], 3)  # on the sofa's 0.8 m top
0.825
>>> solve_layout(spec, seed=1) == scene
True
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias, cast

import z3

from pytest_logicenv.errors import LayoutError, LayoutTimeout, Violation
from pytest_logicenv.scenes.model import (
    ABOVE_MARGIN,
    ADJACENT_DISTANCE,
    AGENT_RADIUS,
    ALIGN_TOLERANCE,
    CENTER_FRACTION,
    DOOR_UNDERCUT,
    EDGE_DISTANCE,
    FAR_DISTANCE,
    NEAR_DISTANCE,
    REACH_DISTANCE,
    RELATION_KINDS,
    WALL_HEIGHT,
    WINDOW_REVEAL,
    AgentStart,
    Door,
    DoorSpec,
    Room,
    Scene,
    SceneObject,
    SceneSpec,
    SpatialRelation,
    Wall,
    Window,
    WindowSpec,
    door_clearance,
)

#: Metres per grid cell on the floor and the walls (furniture, doors, windows, pictures).
GRID = 0.05
#: Metres per grid cell on and in receptacles: two 0.25 m forks fit on a 0.29 m plate only if
#: they can move by less than 5 cm relative to it.
FINE_GRID = 0.01
#: Collision boxes, rooms and obstacles are in FINE_GRID cells; a GRID cell is this many.
SCALE = round(GRID / FINE_GRID)
#: Metres per height unit.
HEIGHT_UNIT = 0.01
#: Total time budget of one layout (all its problems), in milliseconds.
DEFAULT_TIMEOUT_MS = 20_000
#: Footprint of the agent's start, kept free of objects (metres).
AGENT_SIZE = 2 * AGENT_RADIUS
#: Half the side (metres) of the square the layout keeps free around the agent where it lets
#: it stand or walk: its radius and a margin, so that the checker, which moves a disc of
#: AGENT_RADIUS between points of a finer grid that holds these, finds every way found here.
WALK_HALF = AGENT_RADIUS + 0.05
#: Spacing (metres) of the points where the layout lets the agent stand.
WALK_STEP = 0.1
#: Layouts tried, each with a seed of its own, for one where the agent can walk from its
#: start to every task object (measured: about one layout in ten of the example tasks
#: leaves one out of reach).
ATTEMPTS = 8
AGENT_HEIGHT = 1.8
#: Where the middle of a wall-mounted object goes when nothing says otherwise (metres).
EYE_LEVEL = 1.5
#: Doors and windows keep this far from the ends of their wall and from each other (metres).
OPENING_MARGIN = 0.1
#: A room side counts as the same line as another when they are this close (metres).
LINE_TOLERANCE = 1e-6

SUPPORT_RELATIONS = ("in", "on_top_of", "mounted_on_wall")
UNARY_RELATIONS = ("edge", "center", "mounted_on_wall")
SIDES = {"north": ("x", 1), "south": ("x", -1), "east": ("z", 1), "west": ("z", -1)}
_EPS = 1e-9

# Terms are built as SMT-LIB text and parsed by Z3 in one go per problem: constructing them
# through the z3 Python API costs more than solving (measured: about 85% of a 40-object layout).
#: An integer term: an int once known, SMT-LIB text while unknown.
Lin: TypeAlias = int | str
#: A condition: a bool once decided, SMT-LIB text otherwise.
Cond: TypeAlias = bool | str


# --------------------------------------------------------------------------- small algebra


def _num(value: int) -> str:
    return str(value) if value >= 0 else f"(- {-value})"


def _text(value: Lin) -> str:
    return value if isinstance(value, str) else _num(value)


def _sum(terms: Iterable[tuple[int, Lin]]) -> Lin:
    """``sum(coefficient * term)``, folded to an int when every term is known."""
    const = 0
    parts = []
    for coefficient, term in terms:
        if coefficient == 0:
            continue
        if isinstance(term, int):
            const += coefficient * term
        elif coefficient == 1:
            parts.append(term)
        else:
            parts.append(f"(* {_num(coefficient)} {term})")
    if not parts:
        return const
    if const:
        parts.append(_num(const))
    return parts[0] if len(parts) == 1 else f"(+ {' '.join(parts)})"


def _plus(first: Lin, second: Lin) -> Lin:
    return _sum(((1, first), (1, second)))


def _join(operator: str, conds: Iterable[Cond], neutral: bool) -> Cond:
    """``conds`` joined by ``operator`` ("and" with neutral True, "or" with False), folding the
    known ones: a neutral one drops out, the other decides."""
    terms = []
    for cond in conds:
        if cond is neutral:
            continue
        if cond is (not neutral):
            return not neutral
        terms.append(cond)
    if not terms:
        return neutral
    return terms[0] if len(terms) == 1 else f"({operator} {' '.join(map(str, terms))})"


def _all(*conds: Cond) -> Cond:
    return _join("and", conds, True)


def _any(*conds: Cond) -> Cond:
    return _join("or", conds, False)


def _not(cond: Cond) -> Cond:
    return (not cond) if isinstance(cond, bool) else f"(not {cond})"


def _implies(cond: Cond, then: Cond) -> Cond:
    return _any(_not(cond), then)


def _is(cond: Cond, value: bool) -> Cond:
    if isinstance(cond, bool):
        return cond == value
    return cond if value else f"(not {cond})"


def _pick(cond: Cond, if_true: int, if_false: int) -> Lin:
    if isinstance(cond, bool):
        return if_true if cond else if_false
    return if_true if if_true == if_false else f"(ite {cond} {_num(if_true)} {_num(if_false)})"


def _le(low: Lin, high: Lin) -> Cond:
    """``low <= high``, decided now when both are known."""
    if isinstance(low, int) and isinstance(high, int):
        return low <= high
    return f"(<= {_text(low)} {_text(high)})"


def _eq(first: Lin, second: Lin) -> Cond:
    if isinstance(first, int) and isinstance(second, int):
        return first == second
    return f"(= {_text(first)} {_text(second)})"


@dataclass(frozen=True)
class _Len:
    """A real length in metres, ``units * unit + offset``, with ``units`` a solver integer."""

    units: Lin
    offset: float
    unit: float = GRID


def _at_most(terms: Sequence[tuple[int, _Len]], bound: float) -> Cond:
    """``sum(sign * length) <= bound`` (metres), exactly, as one integer constraint in the
    finest unit among the terms (the others are whole multiples of it)."""
    unit = min(length.unit for _, length in terms)
    units = _sum((sign * round(length.unit / unit), length.units) for sign, length in terms)
    offset = sum(sign * length.offset for sign, length in terms)
    return _le(units, math.floor((bound - offset) / unit + _EPS))


def _below(low: _Len, high: _Len, by: float = 0.0) -> Cond:
    """``low <= high + by``."""
    return _at_most([(1, low), (-1, high)], by)


def _within(value: _Len, low: _Len, high: _Len) -> Cond:
    return _all(_below(low, value), _below(value, high))


# --------------------------------------------------------------------------- floor plan


@dataclass(frozen=True)
class _Side:
    """A straight side of a room polygon; ``axis`` is the axis it runs along."""

    room: str
    axis: str
    line: float
    lo: float
    hi: float
    inward: int  # +1 when the room lies on the side of greater coordinate

    @property
    def rotation(self) -> int:
        """Rotation of an object whose back is against this side (it faces into the room)."""
        if self.axis == "x":
            return 0 if self.inward > 0 else 180
        return 90 if self.inward > 0 else 270

    @property
    def grid_line(self) -> int:
        """The :data:`GRID` line nearest to the side on the room's side of it."""
        scaled = self.line / GRID
        return math.ceil(scaled - 1e-6) if self.inward > 0 else math.floor(scaled + 1e-6)


@dataclass(frozen=True)
class _Box:
    """A box: floor ``[x0, x1) x [z0, z1)`` in :data:`FINE_GRID` cells, heights ``[y0, y1)``
    in height units."""

    x0: Lin
    x1: Lin
    z0: Lin
    z1: Lin
    y0: Lin
    y1: Lin

    def apart(self, other: _Box) -> Cond:
        """The two boxes share no volume."""
        return _any(
            _le(self.x1, other.x0),
            _le(other.x1, self.x0),
            _le(self.z1, other.z0),
            _le(other.z1, self.z0),
            _le(self.y1, other.y0),
            _le(other.y1, self.y0),
        )

    def meets(self, other: _Box) -> bool:
        """Whether two *known* boxes share volume."""
        return not self.apart(other)


_TALL = 10**6


@dataclass(frozen=True)
class _Plan:
    """A room in :data:`FINE_GRID` cells: its bounding box rounded inwards, the cells of that
    box outside the room (rounded outwards), its sides and its floor area."""

    room: Room
    index: int
    bbox: tuple[int, int, int, int]
    real_bbox: tuple[float, float, float, float]
    holes: tuple[_Box, ...]
    sides: tuple[_Side, ...]
    area: float


def _corners_in_turn(
    polygon: Sequence[tuple[float, float]],
) -> Iterator[tuple[tuple[float, float], tuple[float, float]]]:
    """Each side of the polygon as (start corner, end corner)."""
    return zip(polygon, (*polygon[1:], polygon[0]), strict=True)


def _point_inside(polygon: Sequence[tuple[float, float]], x: float, z: float) -> bool:
    """Even-odd ray casting; ``(x, z)`` must not lie on the boundary."""
    inside = False
    for (x1, z1), (x2, z2) in _corners_in_turn(polygon):
        if (z1 > z) != (z2 > z) and x < x1 + (z - z1) * (x2 - x1) / (z2 - z1):
            inside = not inside
    return inside


def _room_cells(room: Room) -> tuple[list[tuple[float, float, float, float]], list[Any]]:
    """The polygon's bounding box cut along every vertex coordinate: (inside, outside) cells."""
    xs = sorted({p[0] for p in room.polygon})
    zs = sorted({p[1] for p in room.polygon})
    inside, outside = [], []
    for xa, xb in itertools.pairwise(xs):
        for za, zb in itertools.pairwise(zs):
            cell = (xa, za, xb, zb)
            if _point_inside(room.polygon, (xa + xb) / 2, (za + zb) / 2):
                inside.append(cell)
            else:
                outside.append(cell)
    return inside, outside


def _polygon_problems(room: Room) -> list[str]:
    polygon = room.polygon
    if len(polygon) < 4:
        return ["needs at least 4 corners"]
    problems = []
    for i, (a, b) in enumerate(_corners_in_turn(polygon)):
        if a == b:
            problems.append(f"corners {i} and {i + 1} coincide")
        elif abs(a[0] - b[0]) > LINE_TOLERANCE and abs(a[1] - b[1]) > LINE_TOLERANCE:
            problems.append(
                f"side {i} from {a} to {b} is not axis-aligned (rooms are rectilinear polygons)"
            )
    if problems:
        return problems
    area = abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in _corners_in_turn(polygon)))
    if area / 2 < 0.25:
        return [f"has area {area / 2:.2f} m²; a room needs at least 0.25 m²"]
    inside, _ = _room_cells(room)
    cell_area = sum((c[2] - c[0]) * (c[3] - c[1]) for c in inside)
    if abs(cell_area - area / 2) > 1e-6:
        return ["crosses itself; list the corners in order around the room"]
    return []


def _room_sides(room: Room) -> tuple[_Side, ...]:
    sides = []
    polygon = room.polygon
    for a, b in _corners_in_turn(polygon):
        if abs(a[1] - b[1]) <= LINE_TOLERANCE:  # runs along x
            axis, line, lo, hi = "x", a[1], min(a[0], b[0]), max(a[0], b[0])
            probe = (lo + hi) / 2, line + 1e-4
        else:
            axis, line, lo, hi = "z", a[0], min(a[1], b[1]), max(a[1], b[1])
            probe = line + 1e-4, (lo + hi) / 2
        inward = 1 if _point_inside(polygon, *probe) else -1
        sides.append(_Side(room.id, axis, line, lo, hi, inward))
    return tuple(sides)


def _make_plan(room: Room, index: int) -> _Plan:
    min_x, min_z, max_x, max_z = room.bounds
    bbox = (
        math.ceil(min_x / FINE_GRID - 1e-6),
        math.ceil(min_z / FINE_GRID - 1e-6),
        math.floor(max_x / FINE_GRID + 1e-6),
        math.floor(max_z / FINE_GRID + 1e-6),
    )
    inside, outside = _room_cells(room)
    holes = tuple(
        _Box(
            math.floor(c[0] / FINE_GRID + 1e-6),
            math.ceil(c[2] / FINE_GRID - 1e-6),
            math.floor(c[1] / FINE_GRID + 1e-6),
            math.ceil(c[3] / FINE_GRID - 1e-6),
            -_TALL,
            _TALL,
        )
        for c in outside
    )
    area = sum((c[2] - c[0]) * (c[3] - c[1]) for c in inside)
    return _Plan(room, index, bbox, room.bounds, holes, _room_sides(room), area)


@dataclass(frozen=True)
class _WallRun:
    """A derived wall with the geometry the layout needs."""

    wall: Wall
    axis: str
    line: float
    lo: float
    hi: float
    inward: tuple[tuple[str, int], ...]  # (room, inward sign) for each room it bounds

    @property
    def exterior(self) -> bool:
        return len(self.inward) == 1


def _derive_walls(plans: Sequence[_Plan]) -> tuple[_WallRun, ...]:
    """Cut the room sides into walls: a stretch shared by two rooms is one wall between them,
    the rest are exterior walls of one room. Ids are ``wall|<room>[|<room>]|<n>``."""
    lines: dict[tuple[str, float], list[tuple[int, _Side]]] = {}
    for plan in plans:
        for side in plan.sides:
            lines.setdefault((side.axis, round(side.line, 6)), []).append((plan.index, side))
    runs: list[_WallRun] = []
    counters: dict[tuple[str, ...], int] = {}
    for (axis, _), sides in sorted(lines.items()):
        line = sides[0][1].line
        cuts = sorted({v for _, side in sides for v in (side.lo, side.hi)})
        # Stretches between consecutive cuts, with the (room, inward) of every side covering
        # them; neighbouring stretches with the same cover merge into one wall.
        pieces: list[tuple[float, float, tuple[tuple[str, int], ...]]] = []
        for lo, hi in itertools.pairwise(cuts):
            cover = tuple(
                (side.room, side.inward)
                for _, side in sorted(sides, key=lambda pair: pair[0])
                if side.lo <= lo + LINE_TOLERANCE and side.hi >= hi - LINE_TOLERANCE
            )
            if hi - lo <= LINE_TOLERANCE or not cover:
                continue
            if pieces and pieces[-1][2] == cover and abs(pieces[-1][1] - lo) <= LINE_TOLERANCE:
                pieces[-1] = (pieces[-1][0], hi, cover)
            else:
                pieces.append((lo, hi, cover))
        for lo, hi, cover in pieces:
            rooms = tuple(room for room, _ in cover)
            number = counters.get(rooms, 0)
            counters[rooms] = number + 1
            start, end = ((lo, line), (hi, line)) if axis == "x" else ((line, lo), (line, hi))
            wall = Wall(f"wall|{'|'.join(rooms)}|{number}", rooms, start, end, WALL_HEIGHT)
            runs.append(_WallRun(wall, axis, line, lo, hi, cover))
    return tuple(runs)


def _rooms_overlap(first: Room, second: Room) -> bool:
    inside_a, _ = _room_cells(first)
    inside_b, _ = _room_cells(second)
    return any(
        min(a[2], b[2]) - max(a[0], b[0]) > LINE_TOLERANCE
        and min(a[3], b[3]) - max(a[1], b[1]) > LINE_TOLERANCE
        for a in inside_a
        for b in inside_b
    )


# --------------------------------------------------------------------------- objects


@dataclass(frozen=True)
class _Item:
    """An object (or the agent's start) with what the solver needs to know of it."""

    obj: SceneObject
    kind: str  # floor, wall, on, in, agent
    unit: float  # metres per cell of its position and size: GRID, or FINE_GRID on receptacles
    w: int  # cells along x at rotation 0
    d: int  # cells along z at rotation 0
    chain: tuple[str, ...]  # ids from the root support down to this object
    bottom: float  # metres from the root's bottom to this object's bottom
    order: int
    crown: float  # metres from the root's bottom to the top of it and all it holds

    @property
    def id(self) -> str:
        return self.obj.id

    @property
    def room(self) -> str:
        return self.obj.room

    @property
    def parent(self) -> str | None:
        return self.chain[-2] if len(self.chain) > 1 else None

    @property
    def root(self) -> str:
        return self.chain[0]

    @property
    def height(self) -> float:
        return self.obj.size[1]

    def margin(self, along_x: bool, turned: bool) -> float:
        """Metres between the grid box and the real box on each side, along x or z."""
        spans_w = along_x != turned
        cells = self.w if spans_w else self.d
        real = self.obj.size[0] if spans_w else self.obj.size[2]
        return (cells * self.unit - real) / 2

    @property
    def max_margin(self) -> float:
        """The largest margin between the grid box and the real box, any side, any rotation."""
        return max(
            self.margin(along_x, turned) for along_x in (True, False) for turned in (True, False)
        )

    @property
    def square(self) -> bool:
        """Turning it by 90 degrees changes nothing but where it faces."""
        return self.w == self.d and abs(self.obj.size[0] - self.obj.size[2]) < 1e-9


def _cells(metres: float, unit: float) -> int:
    return max(1, math.ceil(metres / unit - 1e-6))


@dataclass(frozen=True)
class _Pose:
    """Where an item is, in solver units: min grid corner, rotation bits, root bottom height."""

    x: Lin
    z: Lin
    turned: Cond  # rotation 90 or 270
    back: Cond  # rotation 180 or 270
    base: Lin  # height units of the chain root's bottom
    side: Lin = -1  # index into the room's sides, for wall-mounted objects

    def known(self) -> tuple[int, int, bool, bool, int, int]:
        """The values of a solved pose."""
        values = (self.x, self.z, self.turned, self.back, self.base, self.side)
        flags, numbers = values[2:4], (*values[:2], *values[4:])
        if not all(isinstance(v, bool) for v in flags) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in numbers
        ):
            raise TypeError(f"pose {values} is not solved yet")
        return cast("tuple[int, int, bool, bool, int, int]", values)


def _rotation_cond(pose: _Pose, rotation: int) -> Cond:
    return _all(_is(pose.turned, rotation in (90, 270)), _is(pose.back, rotation >= 180))


@dataclass(frozen=True)
class _Geo:
    """An item's real footprint, heights and front for one case of its rotation."""

    x_lo: _Len
    x_hi: _Len
    z_lo: _Len
    z_hi: _Len
    cx: _Len
    cz: _Len
    bottom: _Len
    top: _Len
    extent_x: float
    extent_z: float
    front: tuple[int, int] | None  # None when the case fixes only the axis, not the sense


FRONTS = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}


def _geo(
    item: _Item,
    pose: _Pose,
    turned: bool,
    rotation: int | None,
    shift: tuple[float, float] = (0.0, 0.0),
) -> _Geo:
    """The real box centred in the grid box, moved by ``shift`` (metres; see
    :meth:`_Layout.wall_shift`)."""
    ex = item.d if turned else item.w
    ez = item.w if turned else item.d
    mx = item.margin(True, turned)
    mz = item.margin(False, turned)
    unit = item.unit
    real_x = ex * unit - 2 * mx
    real_z = ez * unit - 2 * mz
    bottom = _Len(pose.base, item.bottom, HEIGHT_UNIT)
    sx, sz = shift
    return _Geo(
        x_lo=_Len(pose.x, mx + sx, unit),
        x_hi=_Len(pose.x, ex * unit - mx + sx, unit),
        z_lo=_Len(pose.z, mz + sz, unit),
        z_hi=_Len(pose.z, ez * unit - mz + sz, unit),
        cx=_Len(pose.x, ex * unit / 2 + sx, unit),
        cz=_Len(pose.z, ez * unit / 2 + sz, unit),
        bottom=bottom,
        top=_Len(pose.base, item.bottom + item.height, HEIGHT_UNIT),
        extent_x=real_x,
        extent_z=real_z,
        front=None if rotation is None else FRONTS[rotation],
    )


def _cases(
    item: _Item, pose: _Pose, facing: bool, shift: tuple[float, float] = (0.0, 0.0)
) -> list[tuple[Cond, _Geo]]:
    """The item's geometry under each rotation it may take: four cases when the front matters,
    two (turned or not) otherwise; one once the pose is known."""
    if facing:
        out: list[tuple[Cond, _Geo]] = []
        for rotation in (0, 90, 180, 270):
            cond = _rotation_cond(pose, rotation)
            if cond is not False:
                out.append((cond, _geo(item, pose, rotation in (90, 270), rotation, shift)))
        return out
    if item.square:
        return [(True, _geo(item, pose, False, None, shift))]
    return [
        (_is(pose.turned, turned), _geo(item, pose, turned, None, shift))
        for turned in (False, True)
        if _is(pose.turned, turned) is not False
    ]


def _box(item: _Item, pose: _Pose, crowned: bool = False) -> _Box:
    """The item's cells (which hold its real box), in :data:`FINE_GRID` cells; ``crowned``,
    up to the top of what rests on it too (which stays within its footprint)."""
    scale = round(item.unit / FINE_GRID)
    ex = _pick(pose.turned, item.d, item.w)
    ez = _pick(pose.turned, item.w, item.d)
    y0 = math.floor(item.bottom / HEIGHT_UNIT + 1e-6)
    top = item.crown if crowned else item.bottom + item.height
    y1 = math.ceil(top / HEIGHT_UNIT - 1e-6)
    return _Box(
        _sum(((scale, pose.x),)),
        _sum(((scale, pose.x), (scale, ex))),
        _sum(((scale, pose.z),)),
        _sum(((scale, pose.z), (scale, ez))),
        _plus(pose.base, y0),
        _plus(pose.base, y1),
    )


# --------------------------------------------------------------------------- validation


def _problem_error(spec: SceneSpec, violations: Sequence[Violation]) -> LayoutError:
    count = len(violations)
    lines = [f"scene design {spec.id!r}: {count} problem{'s' if count != 1 else ''}"]
    lines += [f"  {violation}" for violation in violations]
    return LayoutError("\n".join(lines))


def _validate(spec: SceneSpec, plans: dict[str, _Plan]) -> list[Violation]:
    """Everything wrong with the design that no solver is needed to see."""
    problems: list[Violation] = []

    def bad(code: str, location: str, message: str) -> None:
        problems.append(Violation(code, location, message))

    seen_rooms: set[str] = set()
    for room in spec.rooms:
        if room.id in seen_rooms:
            bad("room", f"rooms[{room.id}]", "two rooms have this id; give each its own")
        seen_rooms.add(room.id)
        for message in _polygon_problems(room):
            bad("room", f"rooms[{room.id}]", f"polygon {message}")
    if not spec.rooms:
        bad("room", "rooms", "the design has no room")
    if problems:
        return problems
    for i, first in enumerate(spec.rooms):
        for second in spec.rooms[i + 1 :]:
            if _rooms_overlap(first, second):
                bad(
                    "room",
                    f"rooms[{first.id}]",
                    f"overlaps room {second.id!r}; rooms may share walls but not floor",
                )

    objects = {obj.id: obj for obj in spec.objects}
    taken: set[str] = set()
    for obj in spec.objects:
        if obj.id in taken:
            bad("object", f"objects[{obj.id}]", "two objects have this id")
        taken.add(obj.id)
        where = f"objects[{obj.id}]"
        if obj.relation not in ("on", "in", "wall"):
            bad("support", where, f"relation {obj.relation!r} must be 'on', 'in' or 'wall'")
            continue
        if obj.relation == "wall" and obj.parent is not None:
            bad("support", where, "a wall-mounted object has no parent; set parent=None")
        if obj.relation == "in" and obj.parent is None:
            bad("support", where, "'in' needs a parent (the receptacle it is in)")
        if obj.parent is None:
            if obj.room not in plans:
                bad(
                    "object",
                    where,
                    f"room {obj.room!r} is not a room of the design "
                    f"(rooms: {', '.join(sorted(plans))})",
                )
        elif obj.parent not in objects:
            bad("support", where, f"parent {obj.parent!r} is not an object of the design")
        else:
            parent = objects[obj.parent]
            if not (parent.has("receptacle") or parent.has("object_specific_receptacle")):
                bad(
                    "support",
                    where,
                    f"rests {obj.relation} {parent.id!r} ({parent.type}), which is not a "
                    "receptacle; put it on a receptacle or give the parent the 'receptacle' "
                    "property",
                )
            elif parent.accepts and obj.type not in parent.accepts:
                bad(
                    "support",
                    where,
                    f"{parent.id!r} accepts only {', '.join(parent.accepts)}, not {obj.type}",
                )
        if any(v < 0 for v in obj.size) or obj.size[0] <= 0 or obj.size[2] <= 0:
            bad("object", where, f"size {obj.size} must be positive along x and z")
        if obj.rotation not in (0, 90, 180, 270):
            bad("object", where, "rotation must be 0, 90, 180 or 270")
    for ids in (tuple(d.id for d in spec.doors), tuple(w.id for w in spec.windows)):
        for opening in ids:
            if opening in taken:
                bad("object", f"doors/windows[{opening}]", "id is already used")
            taken.add(opening)

    # Support chains: no cycles; what rests on something is in that thing's room.
    for obj in spec.objects:
        seen = [obj.id]
        current = obj
        while current.parent is not None and current.parent in objects:
            current = objects[current.parent]
            if current.id in seen:
                bad(
                    "support",
                    f"objects[{obj.id}]",
                    f"support cycle {' -> '.join([*seen, current.id])}",
                )
                break
            seen.append(current.id)
        else:
            if obj.parent is not None and obj.room and obj.room != current.room:
                bad(
                    "support",
                    f"objects[{obj.id}]",
                    f"is in room {obj.room!r} but rests on {current.id!r} in room "
                    f"{current.room!r}; leave its room empty or make them match",
                )

    for door in spec.doors:
        where = f"doors[{door.id}]"
        known = [r for r in door.rooms if r != "exterior"]
        if not 1 <= len(door.rooms) <= 2 or not known:
            bad("door", where, "rooms must name one or two rooms (or a room and 'exterior')")
        for room_id in known:
            if room_id not in plans:
                bad("door", where, f"room {room_id!r} is not a room of the design")
        if not 0 < door.height <= WALL_HEIGHT or door.width <= 0:
            bad(
                "door",
                where,
                f"needs 0 < height <= {WALL_HEIGHT} m (the wall) and width > 0",
            )
    for window in spec.windows:
        where = f"windows[{window.id}]"
        if window.room not in plans:
            bad("window", where, f"room {window.room!r} is not a room of the design")
        if window.side is not None and window.side not in SIDES:
            bad("window", where, f"side {window.side!r} must be one of {', '.join(SIDES)}")
        if window.sill <= 0 or window.width <= 0 or window.height <= 0:
            bad("window", where, "needs a sill above the floor (> 0) and a positive size")
        elif window.sill + window.height > WALL_HEIGHT:
            bad(
                "window",
                where,
                f"top at {window.sill + window.height:.2f} m is above the {WALL_HEIGHT} m wall",
            )
    if spec.agent_room and spec.agent_room not in plans:
        bad("agent", "agent_room", f"room {spec.agent_room!r} is not a room of the design")

    for index, relation in enumerate(spec.relations):
        where = f"relations[{index}] {relation}"
        found_before = len(problems)
        if relation.kind not in RELATION_KINDS:
            bad("relation", where, f"unknown kind; use one of {', '.join(RELATION_KINDS)}")
            continue
        unary = relation.kind in UNARY_RELATIONS
        if unary and relation.target is not None:
            bad("relation", where, f"{relation.kind} takes one object; drop the target")
        if not unary and relation.target is None:
            bad("relation", where, f"{relation.kind} needs a target object")
        for name in (relation.subject, relation.target):
            if name is not None and name not in objects:
                bad(
                    "relation",
                    where,
                    f"names {name!r}, which is not an object of the design"
                    + (" (relations name objects, not doors or windows)" if name in taken else ""),
                )
        if relation.target is not None and relation.target == relation.subject:
            bad("relation", where, "relates an object to itself")
        subject = objects.get(relation.subject)
        if subject is None or len(problems) > found_before:
            continue
        if relation.kind in ("in", "on_top_of"):
            wanted = "in" if relation.kind == "in" else "on"
            target = objects.get(relation.target or "")
            if (
                target is not None
                and relation.kind == "in"
                and not (target.has("receptacle") or target.has("object_specific_receptacle"))
            ):
                bad("relation", where, f"{target.id!r} ({target.type}) is not a receptacle")
            elif subject.parent != relation.target or subject.relation != wanted:
                place = (
                    "on the floor"
                    if subject.parent is None and subject.relation == "on"
                    else "on a wall"
                    if subject.relation == "wall"
                    else f"{subject.relation} {subject.parent!r}"
                )
                bad(
                    "contradiction",
                    where,
                    f"{subject.id!r} rests {place} but this relation puts it {wanted} "
                    f"{relation.target!r}; set its parent={relation.target!r}, "
                    f"relation={wanted!r} or drop one of the two",
                )
        elif relation.kind == "mounted_on_wall" and subject.relation != "wall":
            bad(
                "contradiction",
                where,
                f"{subject.id!r} rests {subject.relation} "
                f"{subject.parent or 'the floor'} but this relation hangs it on a wall; "
                "set relation='wall' (no parent) or drop the relation",
            )
    return problems


def _items(spec: SceneSpec, plans: dict[str, _Plan]) -> dict[str, _Item]:
    objects = {obj.id: obj for obj in spec.objects}
    items: dict[str, _Item] = {}

    def build(obj: SceneObject) -> _Item:
        if obj.id in items:
            return items[obj.id]
        if obj.parent is None:
            kind = "wall" if obj.relation == "wall" else "floor"
            w, d = _cells(obj.size[0], GRID), _cells(obj.size[2], GRID)
            item = _Item(obj, kind, GRID, w, d, (obj.id,), 0.0, 0, obj.size[1])
        else:
            parent = build(objects[obj.parent])
            bottom = parent.bottom if obj.relation == "in" else parent.bottom + parent.height
            w, d = _cells(obj.size[0], FINE_GRID), _cells(obj.size[2], FINE_GRID)
            chain = (*parent.chain, obj.id)
            placed = replace(obj, room=parent.room)
            top = bottom + obj.size[1]
            item = _Item(placed, obj.relation or "on", FINE_GRID, w, d, chain, bottom, 0, top)
        items[obj.id] = replace(item, order=len(items))
        return items[obj.id]

    for obj in spec.objects:
        build(obj)
    crowns = {item_id: item.bottom + item.height for item_id, item in items.items()}
    for item in items.values():
        for ancestor in item.chain[:-1]:
            crowns[ancestor] = max(crowns[ancestor], crowns[item.id])
    items = {item_id: replace(item, crown=crowns[item_id]) for item_id, item in items.items()}
    agent_room = spec.agent_room or spec.rooms[0].id
    agent = SceneObject(
        "agent", "Agent", room=agent_room, size=(AGENT_SIZE, AGENT_HEIGHT, AGENT_SIZE)
    )
    while agent.id in items:
        agent = replace(agent, id="_" + agent.id)
    cells = _cells(AGENT_SIZE, GRID)
    items[agent.id] = _Item(
        agent, "agent", GRID, cells, cells, (agent.id,), 0.0, len(items), crown=AGENT_HEIGHT
    )
    return dict(sorted(items.items(), key=lambda kv: kv[1].order))


def _fits_in(outer: Sequence[float], inner: Sequence[float]) -> bool:
    """Whether a rectangle (sides sorted) fits in another (sides sorted), turned as needed."""
    return outer[0] <= inner[0] and outer[1] <= inner[1]


def _fit_problems(
    spec: SceneSpec, items: dict[str, _Item], plans: dict[str, _Plan]
) -> list[Violation]:
    """Sizes that cannot work whatever the positions: too big for the room or the parent,
    more floor area than the room has."""
    problems = []
    for item in items.values():
        where = f"objects[{item.id}]"
        size = item.obj.size
        if item.parent is None:
            plan = plans[item.room]
            # Compared in whole FINE_GRID cells, as the solver does (in metres, 24 * 0.05 is
            # more than 120 * 0.01 and a bench as wide as its alcove would not fit).
            cells = sorted((item.w * SCALE, item.d * SCALE))
            room_cells = sorted((plan.bbox[2] - plan.bbox[0], plan.bbox[3] - plan.bbox[1]))
            width = (plan.bbox[2] - plan.bbox[0]) * FINE_GRID
            depth = (plan.bbox[3] - plan.bbox[1]) * FINE_GRID
            if not _fits_in(cells, room_cells):
                problems.append(
                    Violation(
                        "fit",
                        where,
                        f"{size[0]:.2f} x {size[2]:.2f} m does not fit in room {item.room!r} "
                        f"({width:.2f} x {depth:.2f} m); use a smaller object or a larger room",
                    )
                )
            if size[1] > WALL_HEIGHT:  # standing or hanging, it must fit under the ceiling
                problems.append(Violation("fit", where, f"{size[1]:.2f} m is taller than the wall"))
            continue
        parent = items[item.parent]
        inner = sorted((parent.obj.size[0], parent.obj.size[2]))
        if not _fits_in(sorted((size[0], size[2])), inner):
            problems.append(
                Violation(
                    "fit",
                    where,
                    f"its {size[0]:.2f} x {size[2]:.2f} m footprint does not fit "
                    f"{item.kind} {parent.id!r} ({parent.obj.size[0]:.2f} x "
                    f"{parent.obj.size[2]:.2f} m); choose another support",
                )
            )
        if item.kind == "in" and size[1] > parent.height + 1e-9 and parent.obj.has("openable"):
            problems.append(
                Violation(
                    "fit",
                    where,
                    f"{size[1]:.2f} m tall does not fit in {parent.id!r} "
                    f"({parent.height:.2f} m tall), which could then not be closed",
                )
            )
        if item.bottom + size[1] > WALL_HEIGHT:
            problems.append(
                Violation(
                    "fit", where, f"its top at {item.bottom + size[1]:.2f} m is above the walls"
                )
            )
    for plan in plans.values():
        standing = [
            i for i in items.values() if i.kind in ("floor", "agent") and i.room == plan.room.id
        ]
        area = sum(i.obj.size[0] * i.obj.size[2] for i in standing)
        if area > plan.area:
            names = ", ".join(i.id if i.kind != "agent" else "the agent's start" for i in standing)
            problems.append(
                Violation(
                    "fit",
                    f"rooms[{plan.room.id}]",
                    f"room {plan.room.id!r} has {plan.area:.2f} m² of floor but its floor "
                    f"objects need {area:.2f} m² ({names}); enlarge the room or move objects "
                    "to another room",
                )
            )
    return problems


# --------------------------------------------------------------------------- openings


@dataclass(frozen=True)
class _Opening:
    id: str
    run: _WallRun
    lo: float  # real coordinate along the wall's axis where it starts
    width: float
    bottom: float
    top: float
    is_door: bool


class _Clock:
    """The layout's time budget, shared by all its problems."""

    def __init__(self, timeout_ms: int) -> None:
        self.timeout_ms = timeout_ms
        self.deadline = time.monotonic() + timeout_ms / 1000

    def remaining_ms(self) -> int:
        return max(1, int((self.deadline - time.monotonic()) * 1000))


def _model_int(model: z3.ModelRef, name: str) -> int:
    """The value of integer variable ``name`` (any value if the model leaves it free)."""
    return int(model.eval(z3.Int(name, model.ctx), model_completion=True).as_long())


def _new_solver(ctx: z3.Context, seed: int, clock: _Clock) -> z3.Solver:
    solver = z3.SimpleSolver(ctx=ctx)
    solver.set("random_seed", seed % (2**32))
    solver.set("timeout", clock.remaining_ms())
    return solver


def _timeout(spec: SceneSpec, what: str, names: Iterable[str], clock: _Clock) -> LayoutTimeout:
    return LayoutTimeout(
        f"scene design {spec.id!r}: layout timed out after {clock.timeout_ms} ms placing {what} "
        f"(objects: {', '.join(names) or 'none'}); raise timeout_ms, or split the room's "
        "objects over more rooms or receptacles"
    )


@dataclass(frozen=True)
class _Request:
    """A door or window to place: its size, heights and the walls it may go in."""

    id: str
    width: float
    bottom: float
    top: float
    is_door: bool
    walls: tuple[_WallRun, ...]

    def starts(self, run: _WallRun) -> tuple[int, int]:
        """The grid cells where it may start along ``run``, clear of the wall's ends."""
        low = math.ceil((run.lo + OPENING_MARGIN) / GRID - _EPS)
        high = math.floor((run.hi - OPENING_MARGIN - self.width) / GRID + _EPS)
        return low, high


def _opening_requests(spec: SceneSpec, runs: Sequence[_WallRun]) -> list[_Request]:
    """Doors go in a wall the two rooms share (or an exterior wall of the room, for an outside
    door), windows in exterior walls (on the side asked for); the wall must be long enough."""
    requests: list[_Request] = []
    errors: list[Violation] = []
    for door in spec.doors:
        rooms = [r for r in door.rooms if r != "exterior"]
        if len(rooms) == 2:
            walls = [r for r in runs if {room for room, _ in r.inward} == set(rooms)]
            missing = f"rooms {rooms[0]!r} and {rooms[1]!r} share no wall"
        else:
            walls = [r for r in runs if r.exterior and r.inward[0][0] == rooms[0]]
            missing = f"room {rooms[0]!r} has no exterior wall"
        need = door.width + 2 * OPENING_MARGIN
        fitting = tuple(r for r in walls if r.hi - r.lo >= need)
        if not fitting:
            why = missing if not walls else f"the walls it may go in are shorter than {need:.2f} m"
            errors.append(
                Violation(
                    "door",
                    f"doors[{door.id}]",
                    f"{why}; make the rooms touch along at least {need:.2f} m or connect "
                    "other rooms",
                )
            )
        requests.append(_Request(door.id, door.width, 0.0, door.height, True, fitting))
    for window in spec.windows:
        need = window.width + 2 * OPENING_MARGIN
        fitting = tuple(
            r
            for r in runs
            if r.exterior
            and r.inward[0][0] == window.room
            and (window.side is None or SIDES[window.side] == (r.axis, -r.inward[0][1]))
            and r.hi - r.lo >= need
        )
        if not fitting:
            side = f" on its {window.side} side" if window.side else ""
            errors.append(
                Violation(
                    "window",
                    f"windows[{window.id}]",
                    f"room {window.room!r} has no exterior wall{side} longer than {need:.2f} m; "
                    "choose another side or room",
                )
            )
        top = window.sill + window.height
        requests.append(_Request(window.id, window.width, window.sill, top, False, fitting))
    if errors:
        raise _problem_error(spec, errors)
    return requests


def _solve_openings(
    spec: SceneSpec,
    runs: Sequence[_WallRun],
    ctx: z3.Context,
    seed: int,
    clock: _Clock,
) -> tuple[list[_Opening], list[Door], list[Window]]:
    """Choose a wall and an offset for every door and window, at least
    :data:`OPENING_MARGIN` from the wall's ends and from each other (one small problem for the
    house: a door's choice of wall couples the walls)."""
    requests = _opening_requests(spec, runs)
    if not requests:
        return [], [], []
    declarations: list[str] = []
    constraints: list[Cond] = []
    initial: list[tuple[str, int]] = []
    for n, request in enumerate(requests):
        rng = random.Random(f"{seed}|{request.id}")
        wall, start = f"w{n}", f"o{n}"
        declarations += [f"(declare-const {wall} Int)", f"(declare-const {start} Int)"]
        constraints += [_le(0, wall), _le(wall, len(request.walls) - 1)]
        for k, run in enumerate(request.walls):
            low, high = request.starts(run)
            constraints.append(_implies(_eq(wall, k), _all(_le(low, start), _le(start, high))))
        pick = rng.randrange(len(request.walls))
        initial += [(wall, pick), (start, rng.randint(*request.starts(request.walls[pick])))]
    for a, b in itertools.combinations(range(len(requests)), 2):
        first, second = requests[a], requests[b]
        gap_first = math.ceil((first.width + OPENING_MARGIN) / GRID - _EPS)
        gap_second = math.ceil((second.width + OPENING_MARGIN) / GRID - _EPS)
        for ka, run in enumerate(first.walls):
            if run in second.walls:
                same_wall = _all(_eq(f"w{a}", ka), _eq(f"w{b}", second.walls.index(run)))
                apart = _any(
                    _le(_sum(((1, f"o{a}"), (1, gap_first))), f"o{b}"),
                    _le(_sum(((1, f"o{b}"), (1, gap_second))), f"o{a}"),
                )
                constraints.append(_implies(same_wall, apart))
    solver = _new_solver(ctx, seed, clock)
    solver.from_string("\n".join([*declarations, *(f"(assert {c})" for c in constraints)]))
    for name, guess in initial:
        solver.set_initial_value(z3.Int(name, ctx), guess)
    result = solver.check()
    if result == z3.unknown:
        raise _timeout(spec, "the doors and windows", [r.id for r in requests], clock)
    if result == z3.unsat:
        raise LayoutError(
            f"scene design {spec.id!r}: the doors and windows "
            f"({', '.join(r.id for r in requests)}) do not fit on the walls with "
            f"{OPENING_MARGIN} m between them and from the corners; use fewer or narrower openings"
        )
    model = solver.model()

    def value(name: str) -> int:
        return _model_int(model, name)

    openings: list[_Opening] = []
    doors = {d.id: d for d in spec.doors}
    windows = {w.id: w for w in spec.windows}
    placed_doors: list[Door] = []
    placed_windows: list[Window] = []
    for n, request in enumerate(requests):
        run = request.walls[value(f"w{n}")]
        lo = value(f"o{n}") * GRID
        openings.append(
            _Opening(
                request.id, run, lo, request.width, request.bottom, request.top, request.is_door
            )
        )
        offset = round(lo - run.lo, 6)
        if request.is_door:
            placed_doors.append(_door(doors[request.id], run.wall.id, offset))
        else:
            placed_windows.append(_window(windows[request.id], run.wall.id, offset))
    return openings, placed_doors, placed_windows


def _door(door: DoorSpec, wall: str, offset: float) -> Door:
    return Door(
        door.id, wall, door.rooms, offset, door.width, door.height, door.open, door.asset_id
    )


def _window(window: WindowSpec, wall: str, offset: float) -> Window:
    return Window(
        window.id,
        wall,
        window.room,
        offset,
        window.width,
        window.height,
        window.sill,
        window.open,
        window.asset_id,
        window.role,
    )


def _opening_obstacles(openings: Sequence[_Opening]) -> dict[str, list[_Box]]:
    """Per room: each door's clearance (floor area in front of it, up to its top) and each
    window's reveal (a thin slab in front of its opening)."""
    out: dict[str, list[_Box]] = {}
    for opening in openings:
        depth = door_clearance(opening.width) if opening.is_door else WINDOW_REVEAL
        # A door's leaf swings over what is no higher than its undercut (a stain, a rug).
        bottom = opening.bottom + (DOOR_UNDERCUT if opening.is_door else 0.0)
        y0 = math.floor(bottom / HEIGHT_UNIT + 1e-6)
        y1 = math.ceil(opening.top / HEIGHT_UNIT - 1e-6)
        a0 = math.floor(opening.lo / FINE_GRID + 1e-6)
        a1 = math.ceil((opening.lo + opening.width) / FINE_GRID - 1e-6)
        for room, inward in opening.run.inward:
            near, far = sorted((opening.run.line, opening.run.line + inward * depth))
            d0 = math.floor(near / FINE_GRID + 1e-6)
            d1 = math.ceil(far / FINE_GRID - 1e-6)
            if opening.run.axis == "x":
                box = _Box(a0, a1, d0, d1, y0, y1)
            else:
                box = _Box(d0, d1, a0, a1, y0, y1)
            out.setdefault(room, []).append(box)
    return out


# --------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class _Problem:
    label: str
    items: tuple[str, ...]
    #: What to do when the objects do not fit (the end of the error message).
    advice: str = "enlarge the rooms or move objects elsewhere"


def _problems(items: dict[str, _Item], spec: SceneSpec, decompose: bool) -> list[_Problem]:
    """The small problems in dependency order (or one problem for everything)."""
    if not decompose:
        return [_Problem("the whole house (one model)", tuple(items))]
    problems: list[_Problem] = []
    for room in spec.rooms:
        ids = tuple(
            i.id for i in items.values() if i.kind in ("floor", "agent") and i.room == room.id
        )
        if ids:
            problems.append(
                _Problem(
                    f"the floor of room {room.id!r}",
                    ids,
                    "they do not fit together with the doors' clearances (as deep as each door "
                    "is wide) and the agent's start; enlarge the room or move objects to another "
                    "room",
                )
            )

    def surfaces(roots: Iterable[str]) -> None:
        frontier = list(roots)
        while frontier:
            next_frontier: list[str] = []
            for parent_id in frontier:
                for kind in ("on", "in"):
                    ids = tuple(
                        i.id for i in items.values() if i.parent == parent_id and i.kind == kind
                    )
                    if ids:
                        where = "the top of" if kind == "on" else "the inside of"
                        room = items[parent_id].room
                        size = items[parent_id].obj.size
                        problems.append(
                            _Problem(
                                f"{where} {parent_id!r} in room {room!r}",
                                ids,
                                f"they do not fit together {kind} {parent_id!r} "
                                f"({size[0]:.2f} x {size[2]:.2f} m); use a larger support or "
                                "put some of them elsewhere",
                            )
                        )
                        next_frontier.extend(ids)
            frontier = next_frontier

    surfaces(i.id for i in items.values() if i.kind == "floor")
    for room in spec.rooms:
        ids = tuple(i.id for i in items.values() if i.kind == "wall" and i.room == room.id)
        if ids:
            problems.append(
                _Problem(
                    f"the walls of room {room.id!r}",
                    ids,
                    "they do not fit on the stretches of wall that doors, windows and furniture "
                    "against the walls leave free; hang fewer or move furniture",
                )
            )
    surfaces(i.id for i in items.values() if i.kind == "wall")
    return problems


def _gather(
    steps: Sequence[_Problem], items: dict[str, _Item], relations: Sequence[SpatialRelation]
) -> list[_Problem]:
    """Move the objects each relation links into one problem, the earliest of theirs (with
    the supports they rest on, and what shares their support): a picture ``above`` the sofa is
    then hung while the sofa is placed, not after it (when the sofa may stand where no picture
    can be above it)."""
    members = [list(step.items) for step in steps]
    step_of = {item_id: n for n, step in enumerate(steps) for item_id in step.items}
    linked = [
        (items[r.subject], items[r.target])
        for r in relations
        if r.target is not None
        and r.kind not in SUPPORT_RELATIONS
        and items[r.subject].room == items[r.target].room
    ]
    moved = True
    while moved:
        moved = False
        for a, b in linked:
            first = min(step_of[a.id], step_of[b.id])
            for link in (*a.chain, *b.chain):
                if step_of[link] <= first:
                    continue
                # What rests on the same receptacle moves too: they must be packed together.
                source = items[link]
                group = [
                    other
                    for other in members[step_of[link]]
                    if other == link
                    or (
                        source.kind in ("on", "in")
                        and items[other].parent == source.parent
                        and items[other].kind == source.kind
                    )
                ]
                for other in group:
                    members[step_of[other]].remove(other)
                    members[first].append(other)
                    step_of[other] = first
                moved = True
    return [
        replace(step, items=tuple(sorted(ids, key=lambda i: items[i].order)))
        for step, ids in zip(steps, members, strict=True)
        if ids
    ]


def _common_split(a: _Item, b: _Item) -> tuple[str | None, str, str]:
    """The deepest common support of two items and their ancestors just below it."""
    common = None
    depth = 0
    while depth < min(len(a.chain), len(b.chain)) and a.chain[depth] == b.chain[depth]:
        common = a.chain[depth]
        depth += 1
    below_a = a.chain[depth] if depth < len(a.chain) else a.id
    below_b = b.chain[depth] if depth < len(b.chain) else b.id
    return common, below_a, below_b


def _needs_apart(a: _Item, b: _Item, items: dict[str, _Item], prune: bool) -> bool:
    """Whether the pair needs its own no-collision constraint, or is kept apart already by
    its supports (or is an object and what holds it). Without ``prune``, every pair in a room
    but an object and what holds it."""
    if a.room != b.room:
        return False  # rooms do not overlap
    common, below_a, below_b = _common_split(a, b)
    if common in (a.id, b.id):
        return False  # one holds the other
    if not prune:
        return True
    if common is not None:
        if items[below_a].kind != items[below_b].kind:
            # One on the common parent's top, one inside it: apart unless what is inside
            # rises above the top (an apple in a shallow bowl).
            inside = items[below_a] if items[below_a].kind == "in" else items[below_b]
            holder = items[common]
            return inside.crown > holder.bottom + holder.height + 1e-9
        return (below_a, below_b) == (a.id, b.id)
    grounded = ("floor", "agent")
    if items[below_a].kind in grounded and items[below_b].kind in grounded:
        # Both stand on the floor: their supports are apart on the floor plane, and each
        # object lies within its support's footprint.
        return (below_a, below_b) == (a.id, b.id)
    return True


class _Layout:
    """The state of one layout run: the plans, items, poses solved so far and the budget."""

    def __init__(
        self,
        spec: SceneSpec,
        plans: dict[str, _Plan],
        items: dict[str, _Item],
        obstacles: dict[str, list[_Box]],
        ctx: z3.Context,
        seed: int,
        clock: _Clock,
        prune: bool,
    ) -> None:
        self.spec = spec
        self.plans = plans
        self.items = items
        self.obstacles = obstacles
        self.ctx = ctx
        self.seed = seed
        self.clock = clock
        self.prune = prune
        self.poses: dict[str, _Pose] = {}
        self.kept: dict[int, SpatialRelation] = {}
        self.dropped: dict[int, SpatialRelation] = {}
        self.notes: list[str] = []

    # -- variables --------------------------------------------------------------------------

    def _variables(
        self, ids: Sequence[str]
    ) -> tuple[dict[str, _Pose], list[str], list[tuple[str, int | bool]]]:
        """Fresh poses for the items of a problem: the poses, the SMT-LIB declarations of their
        variables, and seeded initial values (the seed's preference for positions)."""
        poses: dict[str, _Pose] = {}
        declarations: list[str] = []
        initial: list[tuple[str, int | bool]] = []
        for item_id in ids:
            item = self.items[item_id]
            plan = self.plans[item.room]
            rng = random.Random(f"{self.seed}|{item_id}")
            n = item.order
            x, z = f"x{n}", f"z{n}"
            turned: Cond = f"t{n}"
            back: Cond = f"b{n}"
            base: Lin = 0
            side: Lin = -1
            ints = [x, z]
            if item.kind == "agent":
                turned, back = False, False
            elif item.kind == "wall":
                side, base = f"s{n}", f"y{n}"
                ints += [side, base]
                # At eye level by preference (the solver may move it to meet relations).
                eye = (EYE_LEVEL - item.height / 2) / HEIGHT_UNIT
                highest = (WALL_HEIGHT - item.crown) / HEIGHT_UNIT
                initial += [
                    (side, rng.randrange(len(plan.sides))),
                    (base, max(0, min(round(eye), math.floor(highest)))),
                ]
            elif item.kind in ("on", "in"):
                base = self._pose_of(item.root, poses).base
            declarations += [f"(declare-const {name} Int)" for name in ints]
            scale = round(item.unit / FINE_GRID)
            initial += [
                (x, rng.randint(plan.bbox[0], plan.bbox[2]) // scale),
                (z, rng.randint(plan.bbox[1], plan.bbox[3]) // scale),
            ]
            if isinstance(turned, str) and isinstance(back, str):
                declarations += [f"(declare-const {turned} Bool)", f"(declare-const {back} Bool)"]
                initial += [(turned, rng.random() < 0.5), (back, rng.random() < 0.5)]
            poses[item_id] = _Pose(x, z, turned, back, base, side)
        return poses, declarations, initial

    def _pose_of(self, item_id: str, fresh: dict[str, _Pose]) -> _Pose:
        return fresh[item_id] if item_id in fresh else self.poses[item_id]

    # -- hard constraints -------------------------------------------------------------------

    def _region(self, item: _Item, pose: _Pose, poses: dict[str, _Pose]) -> list[Cond]:
        """Where the item may be: inside the room (floor, agent, wall) or on its parent."""
        plan = self.plans[item.room]
        box = _box(item, pose)
        if item.kind in ("on", "in"):
            # The real footprint within the parent's real footprint, exactly.
            return [
                _any(
                    *(
                        _all(
                            cond,
                            parent_cond,
                            _below(parent.x_lo, geo.x_lo),
                            _below(geo.x_hi, parent.x_hi),
                            _below(parent.z_lo, geo.z_lo),
                            _below(geo.z_hi, parent.z_hi),
                        )
                        for cond, geo in _cases(item, pose, False)
                        for parent_cond, parent in _cases(
                            self.items[item.parent or ""],
                            self._pose_of(item.parent or "", poses),
                            False,
                        )
                    )
                )
            ]
        x0, z0, x1, z1 = plan.bbox
        out = [_le(x0, box.x0), _le(box.x1, x1), _le(z0, box.z0), _le(box.z1, z1)]
        out += [box.apart(hole) for hole in plan.holes]
        if item.kind == "wall":
            top = math.ceil(item.crown / HEIGHT_UNIT - 1e-6)  # with what rests on it
            out += [
                _le(0, pose.side),
                _le(pose.side, len(plan.sides) - 1),
                _le(0, pose.base),
                _le(_plus(pose.base, top), round(WALL_HEIGHT / HEIGHT_UNIT)),
            ]
            for index, side in enumerate(plan.sides):
                out.append(_implies(_eq(pose.side, index), self._against(item, pose, side)))
        return out

    def _against(self, item: _Item, pose: _Pose, side: _Side) -> Cond:
        """The item hangs with its back on ``side``, facing into the room, within its extent
        (its width runs along the wall, its depth away from it; in :data:`GRID` cells)."""
        along, away = (pose.x, pose.z) if side.axis == "x" else (pose.z, pose.x)
        line = side.grid_line
        back = _eq(away, line) if side.inward > 0 else _eq(_plus(away, item.d), line)
        within = _all(
            _le(math.ceil(side.lo / GRID - 1e-6), along),
            _le(_plus(along, item.w), math.floor(side.hi / GRID + 1e-6)),
        )
        return _all(_rotation_cond(pose, side.rotation), back, within)

    def _reach(self, item: _Item, poses: dict[str, _Pose]) -> _Box:
        """A known box that holds the item and what rests on it wherever the problem may put
        them."""
        if item.id not in poses:
            return _box(item, self.poses[item.id], crowned=True)
        root = self.items[item.root]
        own = _box(item, _Pose(0, 0, False, False, 0), crowned=True)  # heights above the root
        if root.id not in poses:
            root_box = _box(root, self.poses[root.id])
            return replace(root_box, y0=_plus(root_box.y0, own.y0), y1=_plus(root_box.y0, own.y1))
        x0, z0, x1, z1 = self.plans[item.room].bbox
        if root.kind == "wall":
            return _Box(x0, x1, z0, z1, 0, round(WALL_HEIGHT / HEIGHT_UNIT))
        return _Box(x0, x1, z0, z1, own.y0, own.y1)

    def _hard(self, ids: Sequence[str], poses: dict[str, _Pose]) -> list[Cond]:
        out: list[Cond] = []
        for item_id in ids:
            item = self.items[item_id]
            out += self._region(item, poses[item_id], poses)
            if self.items[item.root].kind == "floor" and item.kind != "floor":
                continue  # held within a floor object, which keeps clear of the openings
            # With what will rest on it: a watch on an armchair under a window must stay
            # below the sill too.
            box = _box(item, poses[item_id], crowned=True)
            reach = self._reach(item, poses)
            for obstacle in self.obstacles.get(item.room, ()):
                if reach.meets(obstacle):
                    out.append(box.apart(obstacle))
        fresh = [self.items[i] for i in ids]
        others = [self.items[i] for i in self.poses]
        for n, a in enumerate(fresh):
            reach_a = self._reach(a, poses)
            for b in fresh[n + 1 :] + others:
                if not _needs_apart(a, b, self.items, self.prune):
                    continue
                if not reach_a.meets(self._reach(b, poses)):
                    continue
                # Decomposed, with what rests on each: a picture hung in the same problem as
                # the sofa below it keeps clear of the books that will lie on the sofa later.
                crowned = self.prune
                box_a = _box(a, poses[a.id], crowned)
                out.append(box_a.apart(_box(b, self._pose_of(b.id, poses), crowned)))
        return out

    # -- relations --------------------------------------------------------------------------

    def _relation(self, relation: SpatialRelation, poses: dict[str, _Pose]) -> tuple[Cond, str]:
        """The relation as a condition on the poses, and why it cannot hold when it is False."""
        subject = self.items[relation.subject]
        target = self.items[relation.target] if relation.target else None
        if relation.kind in SUPPORT_RELATIONS:
            return True, ""
        if target is not None and target.room != subject.room:
            if relation.kind == "far":
                return True, ""
            return False, f"{subject.id!r} and {target.id!r} are in different rooms"
        if subject.kind == "wall" and relation.kind in ("edge", "center"):
            return False, f"{relation.kind} applies to objects on the floor or on a surface"
        if relation.kind in ("near", "far") and target is not None:
            return (
                _distance(self, subject, target, poses, relation.kind == "near"),
                "it cannot hold for these objects' sizes and supports",
            )
        facing = relation.kind in ("edge", "face_to")
        s_cases = self.cases(subject, poses, facing)
        if target is None:
            encode = _edge if relation.kind == "edge" else _center
            return (
                _any(*(_all(cond, encode(self, subject, geo, poses)) for cond, geo in s_cases)),
                "it cannot hold where the object must stand",
            )
        t_facing = relation.kind in ("in_front_of", "side_of", "center_aligned")
        t_cases = self.cases(target, poses, t_facing)
        encode_pair = _PAIRS[relation.kind]
        return (
            _any(
                *(
                    _all(s_cond, t_cond, encode_pair(s_geo, t_geo))
                    for s_cond, s_geo in s_cases
                    for t_cond, t_geo in t_cases
                )
            ),
            "it cannot hold for these objects' sizes and supports",
        )

    def grid_box(self, item: _Item, poses: dict[str, _Pose]) -> _Box:
        return _box(item, self._pose_of(item.id, poses))

    def shift_bound(self, *items: _Item) -> float:
        """How far (metres) :meth:`wall_shift` may move any of these items' real boxes out of
        their grid boxes: under a grid cell plus a margin for wall-mounted chains, else 0."""
        return max(
            (
                GRID + self.items[i.root].max_margin
                for i in items
                if self.items[i.root].kind == "wall"
            ),
            default=0.0,
        )

    def support_extent(self, item: _Item, poses: dict[str, _Pose]) -> list[tuple[Cond, _Geo]]:
        return self.cases(self.items[item.parent or ""], poses, False)

    def wall_shift(self, root: _Item, side: _Side) -> tuple[float, float]:
        """How far (x, z) the real box of a wall-mounted object hung on ``side`` moves from the
        centre of its grid box so that its back lies on the real wall line (the grid box
        starts at the grid line nearest the wall, on the room's side)."""
        turned = side.axis == "z"
        along_x = side.axis == "z"  # the depth axis
        margin = root.margin(along_x, turned)
        grid_face = side.grid_line * GRID + (margin if side.inward > 0 else -margin)
        move = side.line - grid_face
        return (move, 0.0) if along_x else (0.0, move)

    def cases(self, item: _Item, poses: dict[str, _Pose], facing: bool) -> list[tuple[Cond, _Geo]]:
        """:func:`_cases` for the real positions: an object on a wall, and what rests on it,
        sit where :meth:`wall_shift` moves them for the wall it hangs on."""
        pose = self._pose_of(item.id, poses)
        root = self.items[item.root]
        if root.kind != "wall":
            return _cases(item, pose, facing)
        root_pose = self._pose_of(root.id, poses)
        out: list[tuple[Cond, _Geo]] = []
        for index, side in enumerate(self.plans[root.room].sides):
            on_side = _eq(root_pose.side, index)
            if on_side is False:
                continue
            shift = self.wall_shift(root, side)
            if item is root:
                turned = side.rotation in (90, 270)
                out.append((on_side, _geo(item, pose, turned, side.rotation, shift)))
            else:
                out += [(_all(on_side, c), g) for c, g in _cases(item, pose, facing, shift)]
        return out

    # -- solving ----------------------------------------------------------------------------

    def solve(self, problem: _Problem, relations: Sequence[tuple[int, SpatialRelation]]) -> None:
        """Solve one problem (relaxing its soft relations as needed) and fix its poses."""
        poses, declarations, initial = self._variables(problem.items)
        assertions = []
        for cond in self._hard(problem.items, poses):
            if cond is False:
                raise self._unfit(problem)
            if cond is not True:
                assertions.append(f"(assert {cond})")
        soft: list[int] = []
        for index, relation in relations:
            cond, why = self._relation(relation, poses)
            if cond is True:
                self.kept[index] = relation
            elif cond is False:
                self._drop(index, relation, why)
            else:
                declarations.append(f"(declare-const r{index} Bool)")
                assertions.append(f"(assert (=> r{index} {cond}))")
                soft.append(index)
        solver = _new_solver(self.ctx, self.seed, self.clock)
        solver.from_string("\n".join(declarations + assertions))
        for name, value in initial:
            variable = (
                z3.Bool(name, self.ctx) if isinstance(value, bool) else z3.Int(name, self.ctx)
            )
            solver.set_initial_value(variable, value)
        literals = {index: z3.Bool(f"r{index}", self.ctx) for index in soft}
        model = self._relax(problem, solver, literals, dict(relations))
        for item_id, pose in poses.items():
            self.poses[item_id] = _Pose(
                x=self._value(model, pose.x),
                z=self._value(model, pose.z),
                turned=self._truth(model, pose.turned),
                back=self._truth(model, pose.back),
                base=self._value(model, pose.base),
                side=self._value(model, pose.side),
            )

    def _value(self, model: z3.ModelRef, term: Lin) -> int:
        return term if isinstance(term, int) else _model_int(model, term)

    def _truth(self, model: z3.ModelRef, term: Cond) -> bool:
        if isinstance(term, bool):
            return term
        return bool(z3.is_true(model.eval(z3.Bool(term, model.ctx), model_completion=True)))

    def _check(self, problem: _Problem, solver: z3.Solver, assumptions: Sequence[Any]) -> Any:
        solver.set("timeout", self.clock.remaining_ms())
        result = solver.check(*assumptions)
        if result == z3.unknown:
            names = [i for i in problem.items if self.items[i].kind != "agent"]
            raise _timeout(self.spec, problem.label, names, self.clock)
        return result

    def _relax(
        self,
        problem: _Problem,
        solver: z3.Solver,
        literals: dict[int, Any],
        relations: dict[int, SpatialRelation],
    ) -> z3.ModelRef:
        """Solve with every soft relation assumed. On unsat, drop the lowest-priority relation
        of the unsat core (the later one among equals) and retry. Then give each dropped
        relation another chance, most important first; it may displace kept relations of lower
        priority that block it (they get their own chance later). So a relation ends up
        dropped only when it conflicts with kept relations of equal or higher priority."""
        by_name = {str(lit): index for index, lit in literals.items()}

        def rank(index: int) -> tuple[int, int]:
            return -relations[index].priority, index

        def core() -> list[int]:
            return [by_name[str(lit)] for lit in solver.unsat_core() if str(lit) in by_name]

        active = list(literals)
        dropped: list[int] = []
        while self._check(problem, solver, [literals[i] for i in active]) != z3.sat:
            conflict = core()
            if not conflict:  # the hard constraints alone cannot be met
                raise self._unfit(problem)
            victim = max(conflict, key=rank)
            active.remove(victim)
            dropped.append(victim)
        model = solver.model()
        queue = sorted(dropped, key=rank)
        while queue:
            index = queue.pop(0)
            while True:
                if self._check(problem, solver, [literals[i] for i in (*active, index)]) == z3.sat:
                    active.append(index)
                    model = solver.model()
                    break
                blockers = [i for i in core() if i != index]
                lower = [i for i in blockers if relations[i].priority < relations[index].priority]
                if not lower:
                    # The core (not necessarily minimal) with the hard constraints is unsat.
                    names = ", ".join(str(relations[i]) for i in sorted(blockers))
                    why = (
                        f"cannot hold together with {names}"
                        if blockers
                        else "cannot hold with these sizes, supports, doors and walls"
                    )
                    self._drop(index, relations[index], f"{why} ({problem.label})")
                    break
                victim = max(lower, key=rank)
                active.remove(victim)
                queue.append(victim)
                queue.sort(key=rank)
        for index in active:
            self.kept[index] = relations[index]
        return model

    def _drop(self, index: int, relation: SpatialRelation, why: str) -> None:
        reason = f"dropped: {why}" + (f"; was: {relation.reason}" if relation.reason else "")
        self.dropped[index] = replace(relation, reason=reason)
        self.notes.append(f"dropped {relation} (priority {relation.priority}): {why}")

    def _unfit(self, problem: _Problem) -> LayoutError:
        sizes = ", ".join(
            f"{i} ({self.items[i].obj.size[0]:.2f} x {self.items[i].obj.size[2]:.2f} m)"
            for i in problem.items
            if self.items[i].kind != "agent"
        )
        return LayoutError(
            f"scene design {self.spec.id!r}: cannot place {problem.label} without collisions: "
            f"{sizes}: {problem.advice}"
        )


# --------------------------------------------------------------------------- relation encodings


def _edge(layout: _Layout, item: _Item, geo: _Geo, poses: dict[str, _Pose]) -> Cond:
    if item.kind == "floor":
        options = []
        for side in layout.plans[item.room].sides:
            if geo.front != FRONTS[side.rotation]:
                continue
            wall = _Len(0, side.line)
            if side.axis == "x":
                gap = (
                    _below(geo.z_lo, wall, EDGE_DISTANCE)
                    if side.inward > 0
                    else _below(wall, geo.z_hi, EDGE_DISTANCE)
                )
                along = _below(_Len(0, side.lo), geo.x_lo), _below(geo.x_hi, _Len(0, side.hi))
            else:
                gap = (
                    _below(geo.x_lo, wall, EDGE_DISTANCE)
                    if side.inward > 0
                    else _below(wall, geo.x_hi, EDGE_DISTANCE)
                )
                along = _below(_Len(0, side.lo), geo.z_lo), _below(geo.z_hi, _Len(0, side.hi))
            options.append(_all(gap, *along))
        return _any(*options)
    options = []
    for cond, parent in layout.support_extent(item, poses):
        options.append(
            _all(
                cond,
                _any(
                    _below(geo.x_lo, parent.x_lo, EDGE_DISTANCE),
                    _below(parent.x_hi, geo.x_hi, EDGE_DISTANCE),
                    _below(geo.z_lo, parent.z_lo, EDGE_DISTANCE),
                    _below(parent.z_hi, geo.z_hi, EDGE_DISTANCE),
                ),
            )
        )
    return _any(*options)


def _center(layout: _Layout, item: _Item, geo: _Geo, poses: dict[str, _Pose]) -> Cond:
    def close(value: _Len, centre: _Len, extent: float) -> Cond:
        slack = CENTER_FRACTION * extent
        return _all(_below(value, centre, slack), _below(centre, value, slack))

    if item.kind == "floor":
        x0, z0, x1, z1 = layout.plans[item.room].real_bbox
        return _all(
            close(geo.cx, _Len(0, (x0 + x1) / 2), x1 - x0),
            close(geo.cz, _Len(0, (z0 + z1) / 2), z1 - z0),
        )
    return _any(
        *(
            _all(cond, close(geo.cx, p.cx, p.extent_x), close(geo.cz, p.cz, p.extent_z))
            for cond, p in layout.support_extent(item, poses)
        )
    )


def _distance(layout: _Layout, s: _Item, t: _Item, poses: dict[str, _Pose], near: bool) -> Cond:
    """``near``/``far`` on the grid boxes, whatever the rotations (no case split: these are
    the most common relations). The real boxes lie inside the grid boxes, at most a margin
    in from each side, so the real gap is at least the grid gap and at most the grid gap plus
    the margins. Near: the x gap plus the z gap (>= the Euclidean distance) is within reach.
    Far: apart by the distance along one axis (<= the Euclidean distance)."""
    a = layout.grid_box(s, poses)
    b = layout.grid_box(t, poses)
    if near:
        slack = 2 * (s.max_margin + t.max_margin) + 2 * layout.shift_bound(s, t)
        limit = math.floor((NEAR_DISTANCE - slack) / FINE_GRID + _EPS)
        xs = ((1, b.x0), (-1, a.x1)), ((1, a.x0), (-1, b.x1)), ()
        zs = ((1, b.z0), (-1, a.z1)), ((1, a.z0), (-1, b.z1)), ()
        return _all(*(_le(_sum((*dx, *dz)), limit) for dx in xs for dz in zs if dx or dz))
    cells = math.ceil((FAR_DISTANCE + 2 * layout.shift_bound(s, t)) / FINE_GRID - _EPS)
    return _any(
        _le(_sum(((1, a.x1), (1, cells))), b.x0),
        _le(_sum(((1, b.x1), (1, cells))), a.x0),
        _le(_sum(((1, a.z1), (1, cells))), b.z0),
        _le(_sum(((1, b.z1), (1, cells))), a.z0),
    )


def _grown(value: _Len, low: _Len, high: _Len, margin: float) -> Cond:
    return _all(_below(low, value, margin), _below(value, high, margin))


def _above(s: _Geo, t: _Geo) -> Cond:
    return _all(
        _below(t.top, s.bottom),
        _grown(s.cx, t.x_lo, t.x_hi, ABOVE_MARGIN),
        _grown(s.cz, t.z_lo, t.z_hi, ABOVE_MARGIN),
    )


def _beyond(s: _Geo, t: _Geo, direction: tuple[int, int], reach: float | None) -> Cond:
    """``s`` lies wholly beyond ``t``'s side in ``direction``, at most ``reach`` from it."""
    dx, dz = direction
    if dx != 0:
        near, far = (t.x_hi, s.x_lo) if dx > 0 else (s.x_hi, t.x_lo)
    else:
        near, far = (t.z_hi, s.z_lo) if dz > 0 else (s.z_hi, t.z_lo)
    if reach is None:
        return _below(near, far)
    return _all(_below(near, far), _below(far, near, reach))


def _across(s: _Geo, t: _Geo, direction: tuple[int, int]) -> Cond:
    """``s``'s centre lies within ``t``'s extent across ``direction``."""
    if direction[0] != 0:
        return _within(s.cz, t.z_lo, t.z_hi)
    return _within(s.cx, t.x_lo, t.x_hi)


def _in_front_of(s: _Geo, t: _Geo) -> Cond:
    assert t.front is not None
    return _all(_beyond(s, t, t.front, ADJACENT_DISTANCE), _across(s, t, t.front))


def _side_of(s: _Geo, t: _Geo) -> Cond:
    assert t.front is not None
    fx, fz = t.front
    left, right = (fz, fx), (-fz, -fx)
    return _all(
        _any(_beyond(s, t, left, ADJACENT_DISTANCE), _beyond(s, t, right, ADJACENT_DISTANCE)),
        _across(s, t, left),
    )


def _center_aligned(s: _Geo, t: _Geo) -> Cond:
    assert t.front is not None
    if t.front[0] != 0:  # t faces along x: its axis is the line z = t.cz
        return _all(_below(s.cz, t.cz, ALIGN_TOLERANCE), _below(t.cz, s.cz, ALIGN_TOLERANCE))
    return _all(_below(s.cx, t.cx, ALIGN_TOLERANCE), _below(t.cx, s.cx, ALIGN_TOLERANCE))


def _face_to(s: _Geo, t: _Geo) -> Cond:
    assert s.front is not None
    return _all(_beyond(t, s, s.front, None), _across(s, t, s.front))


_PAIRS = {
    "above": _above,
    "in_front_of": _in_front_of,
    "side_of": _side_of,
    "center_aligned": _center_aligned,
    "face_to": _face_to,
}


# --------------------------------------------------------------------------- the entry point


def solve_layout(
    spec: SceneSpec,
    *,
    seed: int = 0,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    decompose: bool = True,
) -> Scene:
    """Place everything ``spec`` asks for and return the :class:`Scene`.

    The same ``spec`` and ``seed`` give the same scene; another ``seed`` moves things around.
    ``decompose=False`` solves one model for the whole house instead of the small problems (the
    baseline ``benchmarks/bench_solve.py`` measures against). Raises :class:`LayoutError` for a
    design that cannot be laid out (unknown objects, contradictory supports, a door between rooms
    that do not touch, objects that do not fit, task objects the agent cannot walk to in any of
    :data:`ATTEMPTS` layouts) and when ``timeout_ms`` runs out; a soft relation that cannot be
    met is dropped and recorded instead.
    """
    plans = {room.id: _make_plan(room, index) for index, room in enumerate(spec.rooms)}
    problems = _validate(spec, plans)
    if problems:
        raise _problem_error(spec, problems)
    items = _items(spec, plans)
    problems = _fit_problems(spec, items, plans)
    if problems:
        raise _problem_error(spec, problems)
    clock = _Clock(timeout_ms)
    ctx = z3.Context()
    runs = _derive_walls(list(plans.values()))
    _require_door_paths(spec)
    fewest: list[str] = []  # what the best layout so far left out of reach
    for attempt in range(ATTEMPTS):
        # The first layout uses the seed itself; the others seeds far from it.
        scene = _lay_out(
            spec, plans, items, runs, ctx, seed + attempt * 1_000_003, clock, decompose
        )
        out_of_reach, agent = _walkable(scene, plans, runs)
        if not out_of_reach:
            notes = scene.provenance.notes
            if attempt:
                notes += (
                    f"laid out {attempt + 1} times: the agent could not walk to "
                    f"{', '.join(fewest)} in an earlier layout",
                )
            provenance = replace(scene.provenance, seed=seed, notes=notes)
            return replace(scene, agent=agent, provenance=provenance)
        if not fewest or len(out_of_reach) < len(fewest):
            fewest = out_of_reach
    raise LayoutError(
        f"scene design {spec.id!r}: in {ATTEMPTS} layouts the agent could not walk from its "
        f"start to within {REACH_DISTANCE} m of {', '.join(fewest)}: furniture closes them "
        "off; enlarge the room or put fewer objects in it"
    )


def _lay_out(
    spec: SceneSpec,
    plans: dict[str, _Plan],
    items: dict[str, _Item],
    runs: Sequence[_WallRun],
    ctx: z3.Context,
    seed: int,
    clock: _Clock,
    decompose: bool,
) -> Scene:
    """One layout of ``spec`` with ``seed``: the doors and windows, then the problems."""
    openings, doors, windows = _solve_openings(spec, runs, ctx, seed, clock)
    obstacles = _opening_obstacles(openings)

    def solve_in_turn(steps: Sequence[_Problem]) -> _Layout:
        layout = _Layout(spec, plans, items, obstacles, ctx, seed, clock, prune=decompose)
        step_of = {item_id: n for n, step in enumerate(steps) for item_id in step.items}
        assigned: dict[int, list[tuple[int, SpatialRelation]]] = {}
        for index, relation in enumerate(spec.relations):
            names = [relation.subject] + ([relation.target] if relation.target else [])
            assigned.setdefault(max(step_of[n] for n in names), []).append((index, relation))
        for n, step in enumerate(steps):
            layout.solve(step, assigned.get(n, []))
        return layout

    # A relation between objects of two problems is solved in the later one, with the other
    # object already fixed regardless of it. Gathered relations have their objects solved
    # together instead (see _gather): from the start those between something on a wall and
    # something standing on the floor (a picture above the sofa, a switch near the desk), and
    # any other the layout had to drop, solving again, so that it is only dropped if it cannot
    # be met even so.
    gathered = {
        index: relation
        for index, relation in enumerate(spec.relations)
        if relation.target is not None
        and relation.kind not in SUPPORT_RELATIONS
        and {items[items[relation.subject].root].kind, items[items[relation.target].root].kind}
        == {"wall", "floor"}
        and items[relation.subject].room == items[relation.target].room
    }
    first_steps = _problems(items, spec, decompose)
    while True:
        steps = _gather(first_steps, items, list(gathered.values()))
        layout = solve_in_turn(steps)
        step_of = {item_id: n for n, step in enumerate(steps) for item_id in step.items}
        stranded = {
            index: spec.relations[index]
            for index, relation in layout.dropped.items()
            if relation.target is not None
            and step_of[relation.subject] != step_of[relation.target]
            and items[relation.subject].room == items[relation.target].room
        }
        if not stranded:
            break
        gathered.update(stranded)

    objects, agent = _placed_objects(layout)
    kept = tuple(layout.kept[i] for i in sorted(layout.kept))
    dropped = tuple(layout.dropped[i] for i in sorted(layout.dropped))
    provenance = replace(
        spec.provenance,
        seed=seed,
        kept=kept,
        dropped=dropped,
        notes=(*spec.provenance.notes, *layout.notes),
    )
    return Scene(
        id=spec.id,
        rooms=spec.rooms,
        walls=tuple(wall_run.wall for wall_run in runs),
        doors=tuple(doors),
        windows=tuple(windows),
        objects=objects,
        agent=agent,
        relations=spec.relations,
        provenance=provenance,
    )


# --------------------------------------------------------------------------- walking


def _root_room(obj: SceneObject, objects: dict[str, SceneObject]) -> str:
    seen = {obj.id}
    while obj.parent is not None and obj.parent in objects and obj.parent not in seen:
        obj = objects[obj.parent]
        seen.add(obj.id)
    return obj.room


def _require_door_paths(spec: SceneSpec) -> None:
    """Every room holding a task object (or a window with a role) must lead to the agent's
    room through doors: no layout could let the agent reach it otherwise."""
    start = spec.agent_room or spec.rooms[0].id
    links: dict[str, set[str]] = {}
    for door in spec.doors:
        rooms = [r for r in door.rooms if r != "exterior"]
        if len(rooms) == 2:
            links.setdefault(rooms[0], set()).add(rooms[1])
            links.setdefault(rooms[1], set()).add(rooms[0])
    reached, frontier = {start}, [start]
    while frontier:
        for other in sorted(links.get(frontier.pop(), ())):
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    objects = {obj.id: obj for obj in spec.objects}
    wanted = [(_root_room(obj, objects), obj.id) for obj in spec.objects if obj.task]
    wanted += [(window.room, window.id) for window in spec.windows if window.role is not None]
    cut_off = sorted({room for room, _ in wanted if room not in reached})
    if cut_off:
        names = ", ".join(name for room, name in wanted if room in cut_off)
        raise LayoutError(
            f"scene design {spec.id!r}: no doors lead from the agent's room {start!r} to "
            f"{', '.join(map(repr, cut_off))}, where the agent must reach {names}; add doors "
            "between the rooms"
        )


def _cells_out(low: float, high: float) -> tuple[int, int]:
    """``[low, high]`` metres as FINE_GRID cell boundaries, rounded outwards."""
    return math.floor(low / FINE_GRID + 1e-6), math.ceil(high / FINE_GRID - 1e-6)


def _walkable(
    scene: Scene, plans: dict[str, _Plan], runs: Sequence[_WallRun]
) -> tuple[list[str], AgentStart]:
    """What stays out of the agent's reach in a laid-out scene (task objects, through what
    they rest on, and windows with a role) from the stretch of floor in the agent's room that
    reaches the most of them, and the agent's start there, nearest to where the solver put it.
    """
    label, inside = _walk_stretches(scene, plans, runs)
    metres = WALK_STEP
    reaches: dict[str, set[int]] = {}
    for name, room_id, (fx0, fz0, fx1, fz1) in _reach_targets(scene, runs):
        reaches[name] = {
            label[(i, j)]
            for i, j in inside[room_id]
            if math.hypot(
                max(fx0 - i * metres, 0.0, i * metres - fx1),
                max(fz0 - j * metres, 0.0, j * metres - fz1),
            )
            <= REACH_DISTANCE + 1e-9
        }
    assert scene.agent is not None
    start_room = scene.agent.room
    sx, sz = scene.agent.position
    candidates = inside[start_room]
    if not candidates:  # nowhere to walk: nothing can be reached (the solver's start stays)
        return list(reaches), scene.agent
    sizes: dict[int, int] = {}
    for point in candidates:
        sizes[label[point]] = sizes.get(label[point], 0) + 1

    def score(stretch: int) -> tuple[int, int, int]:
        reached = sum(stretch in found for found in reaches.values())
        return reached, sizes[stretch], -stretch

    best = max(sizes, key=score)
    i, j = min(
        (p for p in candidates if label[p] == best),
        key=lambda p: ((p[0] * metres - sx) ** 2 + (p[1] * metres - sz) ** 2, p),
    )
    agent = AgentStart(start_room, (round(i * metres, 6), round(j * metres, 6)))
    return [name for name, found in reaches.items() if best not in found], agent


def _walk_stretches(
    scene: Scene, plans: dict[str, _Plan], runs: Sequence[_WallRun]
) -> tuple[dict[tuple[int, int], int], dict[str, set[tuple[int, int]]]]:
    """Where the agent can stand: the points ``(i, j)`` (at ``i * WALK_STEP``, ``j *
    WALK_STEP``) where a square of half side :data:`WALK_HALF` meets no wall (but in the
    openings of doors between rooms) and nothing standing or hanging there (but flat marks).
    Returns the stretch of floor (a number) each lies in, connected through 4-neighbours, and
    per room the points strictly inside it (not on its walls or in its doorways)."""
    step = round(WALK_STEP / FINE_GRID)
    half = round(WALK_HALF / FINE_GRID)
    boxes: list[tuple[int, int, int, int]] = []  # x0, x1, z0, z1: closed, in FINE_GRID cells
    for obj in scene.objects:
        if obj.parent is None and obj.position[1] + obj.size[1] / 2 > DOOR_UNDERCUT + 1e-6:
            fx0, fz0, fx1, fz1 = obj.footprint
            boxes.append((*_cells_out(fx0, fx1), *_cells_out(fz0, fz1)))
    passages: dict[str, list[tuple[float, float]]] = {}
    for door in scene.doors:
        if len([r for r in door.rooms if r != "exterior"]) == 2:
            passages.setdefault(door.wall, []).append((door.offset, door.offset + door.width))
    for run in runs:
        lo = run.lo
        for start, end in sorted(passages.get(run.wall.id, ())):
            if run.lo + start > lo:
                boxes.append(_wall_box(run, lo, run.lo + start))
            lo = max(lo, run.lo + end)
        if run.hi > lo:
            boxes.append(_wall_box(run, lo, run.hi))
    room_points: dict[str, set[tuple[int, int]]] = {}
    for room_id, plan in plans.items():
        x0, z0, x1, z1 = plan.bbox
        room_points[room_id] = {
            (i, j)
            for i in range(math.ceil(x0 / step), math.floor(x1 / step) + 1)
            for j in range(math.ceil(z0 / step), math.floor(z1 / step) + 1)
            if not any(_inside_hole(hole, i * step, j * step) for hole in plan.holes)
        }
    blocked: set[tuple[int, int]] = set()
    for bx0, bx1, bz0, bz1 in boxes:
        # The open square around (x, z) meets the closed box: bx0 - half < x < bx1 + half.
        for i in range((bx0 - half) // step + 1, -((-bx1 - half) // step)):
            for j in range((bz0 - half) // step + 1, -((-bz1 - half) // step)):
                blocked.add((i, j))
    free = set().union(*room_points.values()) - blocked
    label: dict[tuple[int, int], int] = {}
    stretches = 0
    for point in sorted(free):
        if point in label:
            continue
        label[point] = stretch = stretches
        stretches += 1
        frontier = [point]
        while frontier:
            i, j = frontier.pop()
            for near in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if near in free and near not in label:
                    label[near] = stretch
                    frontier.append(near)
    inside = {}
    for room_id, points in room_points.items():
        x0, z0, x1, z1 = plans[room_id].bbox
        inside[room_id] = {
            (i, j) for i, j in points & free if x0 < i * step < x1 and z0 < j * step < z1
        }
    return label, inside


def _reach_targets(
    scene: Scene, runs: Sequence[_WallRun]
) -> list[tuple[str, str, tuple[float, float, float, float]]]:
    """What the agent must reach, with the room and the footprint (metres) to get near: each
    task object's ground (what it rests on, down to the floor or wall), each window with a
    role (its stretch of wall)."""
    by_id = {obj.id: obj for obj in scene.objects}
    targets = []
    for obj in scene.objects:
        if obj.task:
            ground = obj
            while ground.parent is not None:
                ground = by_id[ground.parent]
            targets.append((obj.id, ground.room, ground.footprint))
    walls = {run.wall.id: run for run in runs}
    for window in scene.windows:
        if window.role is not None:
            run = walls[window.wall]
            a, b = run.lo + window.offset, run.lo + window.offset + window.width
            span = (a, run.line, b, run.line) if run.axis == "x" else (run.line, a, run.line, b)
            targets.append((window.id, window.room, span))
    return targets


def _wall_box(run: _WallRun, low: float, high: float) -> tuple[int, int, int, int]:
    """A stretch ``[low, high]`` of a wall, as a (thin) box in cells."""
    along, across = _cells_out(low, high), _cells_out(run.line, run.line)
    return (*along, *across) if run.axis == "x" else (*across, *along)


def _inside_hole(box: _Box, x: int, z: int) -> bool:
    """Whether the point ``(x, z)`` (cells) lies strictly inside a known box."""
    return (
        isinstance(box.x0, int)
        and isinstance(box.x1, int)
        and isinstance(box.z0, int)
        and isinstance(box.z1, int)
        and box.x0 < x < box.x1
        and box.z0 < z < box.z1
    )


def _placed_objects(layout: _Layout) -> tuple[tuple[SceneObject, ...], AgentStart]:
    """Real positions from the solved grid poses. A wall-mounted object is moved back onto the
    real wall line (its grid box starts at the grid line nearest the wall), and what rests on it
    moves with it."""
    shift: dict[str, tuple[float, float]] = {}
    objects: list[SceneObject] = []
    agent = AgentStart(layout.spec.agent_room or layout.spec.rooms[0].id)
    for item in layout.items.values():
        pose = layout.poses[item.id]
        x, z, turned, back, base, side = pose.known()
        geo = _geo(item, pose, turned, None)
        cx = x * item.unit + geo.cx.offset
        cz = z * item.unit + geo.cz.offset
        if item.kind == "wall":
            shift[item.id] = layout.wall_shift(item, layout.plans[item.room].sides[side])
        dx, dz = shift.get(item.root, (0.0, 0.0))
        if item.kind == "agent":
            agent = AgentStart(item.room, (round(cx + dx, 6), round(cz + dz, 6)))
            continue
        y = base * HEIGHT_UNIT + item.bottom + item.height / 2
        rotation = (90 if turned else 0) + (180 if back else 0)
        objects.append(
            replace(
                item.obj,
                position=(round(cx + dx, 6), round(y, 6), round(cz + dz, 6)),
                rotation=rotation,
            )
        )
    order = {obj.id: n for n, obj in enumerate(layout.spec.objects)}
    objects.sort(key=lambda obj: order[obj.id])
    return tuple(objects), agent
