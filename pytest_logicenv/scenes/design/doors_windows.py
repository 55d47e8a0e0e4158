"""Doors and windows: what the facts ask of them, and their specs in the floor plan.

Windows and doors are openings in walls, not objects: a fact may give a window a role, a room
and an open state, and doors an open state (per room, or all of them); a door may take a role
and its ``kind``: ``front`` (the door to the outside) or ``interior``. Once the floor plan is
laid out, every pair of neighbouring rooms gets a door, the house a front door when the facts
name one (in their room, else the first), and every room a window on an outside wall (one per
window the facts ask for in it), with assets that fit the wall.

>>> _neighbours((1, 1), {(0, 0): "a", (1, 0): "b", (0, 1): "c", (1, 1): "d"})
['b']
>>> _outside_sides((0, 0), {(0, 0): "a", (1, 0): "b"})
['south', 'north', 'west']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import Where
from pytest_logicenv.scenes.catalog import Asset
from pytest_logicenv.scenes.catalog.properties import DOOR_ATTRS
from pytest_logicenv.scenes.design.draft import DoorRequest, Draft, WindowRequest
from pytest_logicenv.scenes.design.house_plan import FloorPlan
from pytest_logicenv.scenes.scene_model import EXTERIOR, DoorSpec, Room, WindowSpec

WINDOW_SILL = 0.9
DOOR_KINDS = DOOR_ATTRS["kind"]
#: Windows taller than this (m) would not fit above the sill under the ceiling.
MAX_WINDOW_HEIGHT = 1.3

Cells = Mapping[tuple[int, int], str]  # (column, row) -> room id


# --------------------------------------------------------------------------- from the facts


def window_request(draft: Draft, role: str | None, why: str) -> WindowRequest:
    """The request for the window ``role`` names (``None``: any window), made on first use."""
    key = role or ""
    if key not in draft.windows:
        draft.windows[key] = WindowRequest(role, None, None, why)
    return draft.windows[key]


def door_request(draft: Draft, role: str | None, why: str) -> DoorRequest:
    """The request for the door ``role`` names (``None``: the front door), made on first use."""
    key = role or ""
    if key not in draft.doors:
        draft.doors[key] = DoorRequest(role, None if role else True, None, None, why)
    return draft.doors[key]


def apply_opening(
    draft: Draft,
    ref: str,
    role: str | None,
    where: Where,
    states: Mapping[str, bool],
    text: str,
    attrs: Mapping[str, str] | None = None,
) -> None:
    """What a fact says of a window or a door: its room, whether it is open, a door's kind."""
    extra = set(states) - {"open"}
    if extra:
        raise SceneError(f"'{text}': windows and doors have only the state 'open'")
    if where.on is not None or where.in_ is not None or where.part_of is not None:
        raise SceneError(f"'{text}': windows and doors are in walls, not on, in or part of objects")
    room = draft.room_of(where.room, text) if where.room is not None else None
    if ref == "Door" or (role is not None and role in draft.doors):
        _apply_door(draft, role, room, attrs or {}, states, text)
        return
    _constrain_window(window_request(draft, role, text), room, states.get("open"), text)


def _apply_door(
    draft: Draft,
    role: str | None,
    room: str | None,
    attrs: Mapping[str, str],
    states: Mapping[str, bool],
    text: str,
) -> None:
    kind = attrs.get("kind")
    if set(attrs) - {"kind"} or kind not in (None, *DOOR_KINDS):
        raise SceneError(
            f"'{text}': a door's one attribute is 'kind': 'front' (the door to the outside) "
            "or 'interior' (between two rooms)"
        )
    if role is None and kind != "front":  # any door (of a room): every one of them
        if "open" in states:
            draft.door_states.append((room, states["open"], text))
        return
    request = door_request(draft, role, text)
    if kind is not None:
        front = kind == "front"
        if request.front not in (None, front):
            raise SceneError(
                f"door {request.role or 'front'} must be a front and an interior "
                f"door: '{request.why}' vs '{text}'"
            )
        request.front = front
    if room is not None:
        if request.room not in (None, room):
            raise SceneError(
                f"door {request.role or 'front'} must be in {request.room} ('{request.why}') "
                f"and in {room} ('{text}')"
            )
        request.room = room
    if "open" in states:
        if request.open not in (None, states["open"]):
            raise SceneError(
                f"door {request.role or 'front'} must be open and closed: '{request.why}' vs "
                f"'{text}'"
            )
        request.open = states["open"]
    request.why = text


def _constrain_window(
    window: WindowRequest, room: str | None, open_: bool | None, text: str
) -> None:
    name = window.role or ""
    if room is not None:
        if window.room not in (None, room):
            raise SceneError(
                f"window {name} must be in {window.room} ('{window.why}') and in {room} ('{text}')"
            )
        window.room = room
    if open_ is not None:
        if window.open not in (None, open_):
            raise SceneError(f"window {name} must be open and closed: '{window.why}' vs '{text}'")
        window.open = open_
        window.why = text


# --------------------------------------------------------------------------- in the floor plan


def openings(draft: Draft, plan: FloorPlan) -> tuple[tuple[DoorSpec, ...], tuple[WindowSpec, ...]]:
    """A door between each pair of neighbouring rooms, and the windows."""
    by_cell = {cell: room_id for room_id, cell in plan.cells.items()}
    rng = draft.rng("openings")
    doors = _doors(draft, plan, by_cell, rng)
    return doors, _windows(draft, plan, by_cell, rng)


def _doors(
    draft: Draft, plan: FloorPlan, by_cell: Cells, rng: random.Random
) -> tuple[DoorSpec, ...]:
    door_assets = [a for a in draft.catalog.type("Door").assets if "Double" not in a.id]
    doors: list[DoorSpec] = []
    for room_id, cell in plan.cells.items():
        for other in _neighbours(cell, by_cell):
            doors.append(
                _door_spec(draft, f"door_{len(doors) + 1}", (other, room_id), door_assets, rng)
            )
    doors = _with_roles(draft, doors)
    front = [r for r in draft.doors.values() if r.front]
    if front:
        room = _front_room(draft, front)
        spec = _door_spec(draft, "front_door", (room, EXTERIOR), door_assets, rng)
        doors.append(_requested(spec, front))
    return tuple(doors)


def _door_spec(
    draft: Draft,
    door_id: str,
    rooms: tuple[str, str],
    assets: Sequence[Asset],
    rng: random.Random,
) -> DoorSpec:
    asset = rng.choice(list(assets))
    width, height, _ = draft.catalog.wall_hole(asset.id)
    return DoorSpec(
        door_id,
        rooms,
        open=door_open(draft, *rooms),
        width=round(width, 3),
        height=round(height, 3),
        asset_id=asset.id,
    )


def _with_roles(draft: Draft, doors: list[DoorSpec]) -> list[DoorSpec]:
    """The interior doors, each role of the facts' given to a door of its room."""
    out = list(doors)
    for request in draft.doors.values():
        if request.front:
            continue
        free = [
            n
            for n, d in enumerate(out)
            if d.role is None and (request.room is None or request.room in d.rooms)
        ]
        if not free:
            where = f" of {request.room}" if request.room else ""
            raise SceneError(
                f"'{request.why}': the house has no interior door{where} left for "
                f"{request.role!r} (its doors join neighbouring rooms: {len(out)} here); "
                'add a room to the plan, or name the door to the outside with "attrs": '
                '{"kind": "front"}'
            )
        out[free[0]] = _requested(out[free[0]], [request])
    return out


def _front_room(draft: Draft, front: Sequence[DoorRequest]) -> str:
    rooms = {r.room for r in front if r.room is not None}
    if len(rooms) > 1:
        raise SceneError(
            f"the house has one front door, and the facts put it in {', '.join(sorted(rooms))}: "
            f"{'; '.join(repr(r.why) for r in front)}"
        )
    return rooms.pop() if rooms else draft.rooms[0][0]


def _requested(spec: DoorSpec, requests: Sequence[DoorRequest]) -> DoorSpec:
    """``spec`` as the facts ask: its role (one), open or not (the front door stands closed
    unless they say)."""
    roles = sorted({r.role for r in requests if r.role})
    if len(roles) > 1:
        raise SceneError(
            f"roles {', '.join(map(repr, roles))} all name the front door: one door, one role"
        )
    wanted = {r.open for r in requests if r.open is not None}
    if len(wanted) > 1:
        raise SceneError(
            f"the front door must be open and closed: {'; '.join(repr(r.why) for r in requests)}"
        )
    return replace(
        spec, role=roles[0] if roles else None, open=wanted.pop() if wanted else spec.open
    )


def _neighbours(cell: tuple[int, int], by_cell: Cells) -> list[str]:
    """The rooms a room at ``cell`` shares a door with: west in the first row, else south."""
    col, row = cell
    found = []
    if col > 0 and row == 0:
        found.append(by_cell[(col - 1, 0)])
    if row == 1:
        found.append(by_cell[(col, 0)])
    return found


def door_open(draft: Draft, first: str, second: str) -> bool:
    """Whether the door between two rooms (or a room and the outside) stands open: the last
    fact about it decides; interior doors stand open, the front door closed, unless one does."""
    state = second != EXTERIOR
    for room, flag, _ in draft.door_states:
        if room is None or room in (first, second):
            state = flag
    return state


def _windows(
    draft: Draft, plan: FloorPlan, by_cell: Cells, rng: random.Random
) -> tuple[WindowSpec, ...]:
    requests = list(draft.windows.values())
    for unplaced in requests:
        if unplaced.room is None:
            unplaced.room = draft.rooms[0][0]
    window_assets = [
        a
        for a in draft.catalog.type("Window").assets
        if not a.id.startswith("Window_Bay")
        and draft.catalog.wall_hole(a.id)[1] <= MAX_WINDOW_HEIGHT
    ]
    specs: list[WindowSpec] = []
    for room in plan.rooms:
        sides = _outside_sides(plan.cells[room.id], by_cell)
        if not sides:  # pragma: no cover - every cell of a 2-row grid has an outside
            continue
        mine: list[WindowRequest | None] = [r for r in requests if r.room == room.id]
        for request in mine or [None]:
            side = rng.choice(sides)
            asset = _window_asset(draft, room, side, window_assets, rng)
            specs.append(
                _window_spec(draft, f"window_{len(specs) + 1}", room, side, asset, request)
            )
    return tuple(specs)


def _outside_sides(cell: tuple[int, int], by_cell: Cells) -> list[str]:
    """The sides of a room at ``cell`` that face outside (no room beyond them)."""
    col, row = cell
    around = (
        ("south", (col, row - 1)),
        ("north", (col, row + 1)),
        ("west", (col - 1, row)),
        ("east", (col + 1, row)),
    )
    return [side for side, beyond in around if beyond not in by_cell]


def _window_asset(
    draft: Draft, room: Room, side: str, assets: Sequence[Asset], rng: random.Random
) -> Asset:
    """A window asset a metre narrower than the wall on ``side`` (any, if none is)."""
    x0, z0, x1, z1 = room.bounds
    length = (x1 - x0) if side in ("north", "south") else (z1 - z0)
    fitting = [a for a in assets if draft.catalog.wall_hole(a.id)[0] <= length - 1.0]
    return rng.choice(fitting or list(assets))


def _window_spec(
    draft: Draft,
    window_id: str,
    room: Room,
    side: str,
    asset: Asset,
    request: WindowRequest | None,
) -> WindowSpec:
    width, height, _ = draft.catalog.wall_hole(asset.id)
    return WindowSpec(
        window_id,
        room.id,
        open=bool(request.open) if request is not None else False,
        width=round(width, 3),
        height=round(height, 3),
        sill=WINDOW_SILL,
        asset_id=asset.id,
        role=request.role if request is not None else None,
        side=side,
    )
