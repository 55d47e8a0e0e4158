"""Doors and windows: which wall each goes in, where along it, and what it keeps clear.

A door goes in a wall its two rooms share (an outside door in an exterior wall of its room), a
window in an exterior wall of its room, on the side asked for. All of them are placed by one
small problem for the house (a door's choice of wall couples the walls), before any object;
then each becomes an obstacle for the objects of its rooms (:func:`opening_obstacles`): the
clearance in front of a door, the reveal in front of a window.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import z3

from pytest_logicenv.errors import LayoutError, Violation
from pytest_logicenv.scenes.layout.budget import Clock, model_int, new_solver, timeout_error
from pytest_logicenv.scenes.layout.room_grid import SIDES, WallRun
from pytest_logicenv.scenes.layout.smt import (
    EPS,
    GRID,
    HEIGHT_UNIT,
    CellBox,
    Cond,
    all_of,
    any_of,
    eq,
    implies,
    le,
    lin_sum,
)
from pytest_logicenv.scenes.layout.validation import problem_error
from pytest_logicenv.scenes.scene_model import (
    DOOR_UNDERCUT,
    FINE_GRID,
    WINDOW_REVEAL,
    Door,
    DoorSpec,
    SceneSpec,
    Window,
    WindowSpec,
    door_clearance,
)

#: Doors and windows keep this far from the ends of their wall and from each other (metres).
OPENING_MARGIN = 0.1


@dataclass(frozen=True)
class PlacedOpening:
    """A door or window placed in a wall, as the objects' obstacles need it."""

    id: str
    run: WallRun
    lo: float  # real coordinate along the wall's axis where it starts
    width: float
    bottom: float
    top: float
    is_door: bool


@dataclass(frozen=True)
class OpeningRequest:
    """A door or window to place: its size, heights, the walls it may go in and, when the
    design pins it, its offset from the start of its wall."""

    id: str
    width: float
    bottom: float
    top: float
    is_door: bool
    walls: tuple[WallRun, ...]
    offset: float | None = None

    def starts(self, run: WallRun) -> tuple[int, int]:
        """The grid cells where it may start along ``run``, clear of the wall's ends (the
        cell holding its pinned start, when pinned)."""
        if self.offset is not None:
            cell = math.floor((run.lo + self.offset) / GRID + EPS)
            return cell, cell
        low = math.ceil((run.lo + OPENING_MARGIN) / GRID - EPS)
        high = math.floor((run.hi - OPENING_MARGIN - self.width) / GRID + EPS)
        return low, high

    @property
    def span(self) -> float:
        """How far (metres) from the start of its cell it may reach: a pinned start off the
        grid lies up to a cell past it."""
        return self.width + (GRID if self.offset is not None else 0.0)


def solve_openings(
    spec: SceneSpec,
    runs: Sequence[WallRun],
    ctx: z3.Context,
    seed: int,
    clock: Clock,
) -> tuple[list[PlacedOpening], list[Door], list[Window]]:
    """Choose a wall and an offset for every door and window, at least
    :data:`OPENING_MARGIN` from the wall's ends and from each other (one small problem for the
    house: a door's choice of wall couples the walls)."""
    requests = _opening_requests(spec, runs)
    if not requests:
        return [], [], []
    declarations, constraints, initial = _encode(requests, seed)
    solver = new_solver(ctx, seed, clock)
    solver.from_string("\n".join([*declarations, *(f"(assert {c})" for c in constraints)]))
    for name, guess in initial:
        solver.set_initial_value(z3.Int(name, ctx), guess)
    result = solver.check()
    if result == z3.unknown:
        raise timeout_error(spec, "the doors and windows", [r.id for r in requests], clock)
    if result == z3.unsat:
        raise LayoutError(
            f"scene design {spec.id!r}: the doors and windows "
            f"({', '.join(r.id for r in requests)}) do not fit on the walls with "
            f"{OPENING_MARGIN} m between them and from the corners; use fewer or narrower openings"
        )
    model = solver.model()  # freed after the solver, on return (see budget.py)
    return _read(spec, requests, model)


# --------------------------------------------------------------------------- requests


def _opening_requests(spec: SceneSpec, runs: Sequence[WallRun]) -> list[OpeningRequest]:
    """Doors go in a wall the two rooms share (or an exterior wall of the room, for an outside
    door), windows in exterior walls (on the side asked for); the wall must be long enough."""
    requests: list[OpeningRequest] = []
    errors: list[Violation] = []
    for door in spec.doors:
        request, error = _door_request(door, runs)
        requests.append(request)
        errors += error
    for window in spec.windows:
        request, error = _window_request(window, runs)
        requests.append(request)
        errors += error
    if errors:
        raise problem_error(spec, errors)
    return requests


def _door_request(
    door: DoorSpec, runs: Sequence[WallRun]
) -> tuple[OpeningRequest, list[Violation]]:
    """The door's request, and why no wall can take it (if none can)."""
    rooms = [r for r in door.rooms if r != "exterior"]
    if len(rooms) == 2:
        walls = [r for r in runs if {room for room, _ in r.inward} == set(rooms)]
        missing = f"rooms {rooms[0]!r} and {rooms[1]!r} share no wall"
    else:
        walls = [r for r in runs if r.exterior and r.inward[0][0] == rooms[0]]
        missing = f"room {rooms[0]!r} has no exterior wall"
    pinned = _pinned(walls, rooms[0], door.side, door.wall, door.offset, door.width)
    need = door.width + 2 * OPENING_MARGIN
    fitting = tuple(r for r in pinned if r.hi - r.lo >= need)
    errors = []
    if not fitting:
        if not walls:
            why = missing
        elif not pinned:
            why = _pin_missed(walls, rooms[0], door.side, door.wall, door.offset, door.width)
        else:
            why = f"the walls it may go in are shorter than {need:.2f} m"
        message = f"{why}; make the rooms touch along at least {need:.2f} m or connect other rooms"
        errors.append(Violation("door", f"doors[{door.id}]", message))
    request = OpeningRequest(door.id, door.width, 0.0, door.height, True, fitting, door.offset)
    return request, errors


def _window_request(
    window: WindowSpec, runs: Sequence[WallRun]
) -> tuple[OpeningRequest, list[Violation]]:
    """The window's request, and why no wall can take it (if none can)."""
    need = window.width + 2 * OPENING_MARGIN
    exterior = [r for r in runs if r.exterior and r.inward[0][0] == window.room]
    pinned = _pinned(exterior, window.room, window.side, window.wall, window.offset, window.width)
    fitting = tuple(r for r in pinned if r.hi - r.lo >= need)
    errors = []
    if not fitting:
        if not pinned and (window.wall is not None or window.offset is not None):
            why = _pin_missed(
                exterior, window.room, window.side, window.wall, window.offset, window.width
            )
            message = f"{why}; choose another"
        else:
            side = f" on its {window.side} side" if window.side else ""
            message = (
                f"room {window.room!r} has no exterior wall{side} longer than {need:.2f} m; "
                "choose another side or room"
            )
        errors.append(Violation("window", f"windows[{window.id}]", message))
    top = window.sill + window.height
    request = OpeningRequest(
        window.id, window.width, window.sill, top, False, fitting, window.offset
    )
    return request, errors


def _on_side(run: WallRun, room: str, side: str) -> bool:
    """Whether ``run`` is on the ``side`` (north, south, east, west) of ``room``."""
    inward = dict(run.inward).get(room)
    return inward is not None and SIDES[side] == (run.axis, -inward)


def _pinned(
    walls: Sequence[WallRun],
    room: str,
    side: str | None,
    wall: str | None,
    offset: float | None,
    width: float,
) -> list[WallRun]:
    """The walls of ``walls`` the pins allow: on ``side`` of ``room``, with id ``wall``, long
    enough for the opening at ``offset`` with :data:`OPENING_MARGIN` to the wall's ends."""
    return [
        r
        for r in walls
        if (side is None or _on_side(r, room, side))
        and (wall is None or r.wall.id == wall)
        and (
            offset is None
            or OPENING_MARGIN - EPS <= offset <= r.hi - r.lo - width - OPENING_MARGIN + EPS
        )
    ]


def _pin_missed(
    walls: Sequence[WallRun],
    room: str,
    side: str | None,
    wall: str | None,
    offset: float | None,
    width: float,
) -> str:
    """Why no wall of ``walls`` takes the pinned opening, naming the walls it may go in."""
    named = ", ".join(f"{r.wall.id} ({r.hi - r.lo:.2f} m, {_side_of(r, room)})" for r in walls)
    pins = [f"side {side!r}" if side else "", f"wall {wall!r}" if wall else ""]
    if offset is not None:
        pins.append(
            f"offset {offset:g} m (it must leave {OPENING_MARGIN} m to both ends of the wall "
            f"with its {width:g} m width)"
        )
    return f"no wall fits {' and '.join(p for p in pins if p)}: the walls it may go in: {named}"


def _side_of(run: WallRun, room: str) -> str:
    return next((side for side in SIDES if _on_side(run, room, side)), "?")


# --------------------------------------------------------------------------- the problem


def _encode(
    requests: Sequence[OpeningRequest], seed: int
) -> tuple[list[str], list[Cond], list[tuple[str, int]]]:
    """The SMT-LIB declarations, the constraints and the seeded initial values: opening ``n``
    goes in wall ``w<n>`` of its request's walls, starting at grid cell ``o<n>``."""
    declarations: list[str] = []
    constraints: list[Cond] = []
    initial: list[tuple[str, int]] = []
    for n, request in enumerate(requests):
        rng = random.Random(f"{seed}|{request.id}")
        wall, start = f"w{n}", f"o{n}"
        declarations += [f"(declare-const {wall} Int)", f"(declare-const {start} Int)"]
        constraints += [le(0, wall), le(wall, len(request.walls) - 1)]
        for k, run in enumerate(request.walls):
            low, high = request.starts(run)
            constraints.append(implies(eq(wall, k), all_of(le(low, start), le(start, high))))
        pick = rng.randrange(len(request.walls))
        initial += [(wall, pick), (start, rng.randint(*request.starts(request.walls[pick])))]
    for a, b in itertools.combinations(range(len(requests)), 2):
        constraints += _apart(a, requests[a], b, requests[b])
    return declarations, constraints, initial


def _apart(a: int, first: OpeningRequest, b: int, second: OpeningRequest) -> list[Cond]:
    """Openings ``a`` and ``b``, when in the same wall, keep :data:`OPENING_MARGIN` apart."""
    gap_first = math.ceil((first.span + OPENING_MARGIN) / GRID - EPS)
    gap_second = math.ceil((second.span + OPENING_MARGIN) / GRID - EPS)
    constraints = []
    for ka, run in enumerate(first.walls):
        if run in second.walls:
            same_wall = all_of(eq(f"w{a}", ka), eq(f"w{b}", second.walls.index(run)))
            apart = any_of(
                le(lin_sum(((1, f"o{a}"), (1, gap_first))), f"o{b}"),
                le(lin_sum(((1, f"o{b}"), (1, gap_second))), f"o{a}"),
            )
            constraints.append(implies(same_wall, apart))
    return constraints


def _read(
    spec: SceneSpec, requests: Sequence[OpeningRequest], model: z3.ModelRef
) -> tuple[list[PlacedOpening], list[Door], list[Window]]:
    """The placed openings, doors and windows of a solved model."""
    openings: list[PlacedOpening] = []
    doors = {d.id: d for d in spec.doors}
    windows = {w.id: w for w in spec.windows}
    placed_doors: list[Door] = []
    placed_windows: list[Window] = []
    for n, request in enumerate(requests):
        run = request.walls[model_int(model, f"w{n}")]
        lo = model_int(model, f"o{n}") * GRID
        if request.offset is not None:
            lo = run.lo + request.offset
        openings.append(
            PlacedOpening(
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
        door.id,
        wall,
        door.rooms,
        offset,
        door.width,
        door.height,
        door.open,
        door.asset_id,
        door.role,
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


# --------------------------------------------------------------------------- obstacles


def opening_obstacles(openings: Sequence[PlacedOpening]) -> dict[str, list[CellBox]]:
    """Per room: each door's clearance (floor area in front of it, up to its top) and each
    window's reveal (a thin slab in front of its opening)."""
    out: dict[str, list[CellBox]] = {}
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
                box = CellBox(a0, a1, d0, d1, y0, y1)
            else:
                box = CellBox(d0, d1, a0, a1, y0, y1)
            out.setdefault(room, []).append(box)
    return out
