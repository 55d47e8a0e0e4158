"""Sizes that cannot work wherever things go: too big for the room or the support, taller
than the walls, more floor area than the room has. A task object that does not fit is an
error; another is left out.

Checked on the :class:`~.items.Item` s of a design that passed
:func:`~.validation.design_problems`, before any solver runs, so that such a design fails with
a message naming the object rather than with an unsatisfiable problem.

>>> from pytest_logicenv.scenes.layout.room_grid import make_plan
>>> from pytest_logicenv.scenes.layout.items import build_items
>>> from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec
>>> den = Room("den", "LivingRoom", ((0, 0), (2, 0), (2, 2), (0, 2)))
>>> spec = SceneSpec("demo", rooms=(den,), objects=(
...     SceneObject("bed", "Bed", room="den", size=(2.1, 0.5, 1.6)),))
>>> [problem] = fit_problems(build_items(spec), {"den": make_plan(den, 0)})["bed"]
>>> problem.location, problem.message
('objects[bed]', "2.10 x 1.60 m does not fit in room 'den' (2.00 x 2.00 m); ...")
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from pytest_logicenv.errors import Violation
from pytest_logicenv.scenes.layout.items import AGENT_SIZE, Item
from pytest_logicenv.scenes.layout.leave_out import Ranking
from pytest_logicenv.scenes.layout.reachability import WALK_HALF
from pytest_logicenv.scenes.layout.room_grid import RoomPlan
from pytest_logicenv.scenes.layout.smt import SCALE
from pytest_logicenv.scenes.scene_model import FINE_GRID, WALL_HEIGHT, SceneSpec, door_clearance


def fit_problems(
    items: Mapping[str, Item], plans: Mapping[str, RoomPlan]
) -> dict[str, list[Violation]]:
    """Sizes that cannot work whatever the positions, by item: too big for the room (or any
    of its walls) or the parent."""
    problems = {}
    for item in items.values():
        if item.parent is None:
            found = _standing_fit(item, plans[item.room])
        else:
            found = _resting_fit(item, items[item.parent])
        if found:
            problems[item.id] = found
    return problems


def _fits_in(outer: Sequence[float], inner: Sequence[float]) -> bool:
    """Whether a rectangle (sides sorted) fits in another (sides sorted), turned as needed."""
    return outer[0] <= inner[0] and outer[1] <= inner[1]


def _standing_fit(item: Item, plan: RoomPlan) -> list[Violation]:
    """An object on the floor or a wall (or the agent's start) fits in its room."""
    where = f"objects[{item.id}]"
    size = item.obj.size
    problems = []
    # Compared in whole FINE_GRID cells, as the solver does (in metres, 24 * 0.05 is more
    # than 120 * 0.01 and a bench as wide as its alcove would not fit).
    cells = sorted((item.w * SCALE, item.d * SCALE))
    room_cells = sorted((plan.bbox[2] - plan.bbox[0], plan.bbox[3] - plan.bbox[1]))
    width = (plan.bbox[2] - plan.bbox[0]) * FINE_GRID
    depth = (plan.bbox[3] - plan.bbox[1]) * FINE_GRID
    if not _fits_in(cells, room_cells):
        message = (
            f"{size[0]:.2f} x {size[2]:.2f} m does not fit in room {item.room!r} "
            f"({width:.2f} x {depth:.2f} m); use a smaller object or a larger room"
        )
        problems.append(Violation("fit", where, message))
    if item.kind == "wall" and not problems:
        problems += _wall_fit(item, plan)
    if size[1] > WALL_HEIGHT:  # standing or hanging, it must fit under the ceiling
        message = (
            f"{size[1]:.2f} m is taller than the wall ({WALL_HEIGHT:.2f} m); use a lower object"
        )
        problems.append(Violation("fit", where, message))
    return problems


def _wall_fit(item: Item, plan: RoomPlan) -> list[Violation]:
    """A wall-mounted object is no wider than the longest side of its room."""
    longest = max(side.hi - side.lo for side in plan.sides)
    if item.obj.size[0] <= longest + 1e-9:
        return []
    message = (
        f"{item.obj.size[0]:.2f} m wide does not fit on any wall of room {item.room!r} (the "
        f"longest is {longest:.2f} m); use a narrower object or a larger room"
    )
    return [Violation("fit", f"objects[{item.id}]", message)]


def _resting_fit(item: Item, parent: Item) -> list[Violation]:
    """An object on or in another fits its footprint (and, in it, under its lid)."""
    where = f"objects[{item.id}]"
    size = item.obj.size
    problems = []
    inner = sorted((parent.obj.size[0], parent.obj.size[2]))
    if not _fits_in(sorted((size[0], size[2])), inner):
        message = (
            f"its {size[0]:.2f} x {size[2]:.2f} m footprint does not fit "
            f"{item.kind} {parent.id!r} ({parent.obj.size[0]:.2f} x "
            f"{parent.obj.size[2]:.2f} m); choose another support"
        )
        problems.append(Violation("fit", where, message))
    if item.kind == "in" and size[1] > parent.height + 1e-9 and parent.obj.has("openable"):
        message = (
            f"{size[1]:.2f} m tall does not fit in {parent.id!r} "
            f"({parent.height:.2f} m tall), which could then not be closed"
        )
        problems.append(Violation("fit", where, message))
    if item.bottom + size[1] > WALL_HEIGHT:
        message = (
            f"its top at {item.bottom + size[1]:.2f} m is above the walls ({WALL_HEIGHT:.2f} m)"
        )
        problems.append(Violation("fit", where, message))
    return problems


# --------------------------------------------------------------------------- areas


@dataclass(frozen=True)
class FloorBudget:
    """A room's floor, and what of it no object may take (square metres)."""

    room: str
    area: float
    sweeps: float  # the doors' clearances: each door's width times its leaf's sweep
    agent: float  # the agent's start, in its room
    walkways: float  # a square of the agent's body beside each task object, to reach it

    @property
    def free(self) -> float:
        return self.area - self.sweeps - self.agent - self.walkways

    def __str__(self) -> str:
        return (
            f"room {self.room!r} has {self.free:.2f} m² of free floor ({self.area:.2f} m² less "
            f"{self.sweeps:.2f} m² the doors sweep, {self.agent:.2f} m² for the agent's start "
            f"and {self.walkways:.2f} m² of walkways to its task objects)"
        )


def floor_budget(
    spec: SceneSpec, plan: RoomPlan, items: Mapping[str, Item], ranking: Ranking
) -> FloorBudget:
    """What of the room's floor objects may take."""
    room = plan.room.id
    sweeps = sum(
        door.width * door_clearance(door.width) for door in spec.doors if room in door.rooms
    )
    agent = sum(AGENT_SIZE**2 for i in items.values() if i.kind == "agent" and i.room == room)
    task = [
        i
        for i in items.values()
        if i.kind == "floor" and i.room == room and i.id in ranking.essential
    ]
    walkways = len(task) * (2 * WALK_HALF) ** 2
    return FloorBudget(room, plan.area, sweeps, agent, walkways)


def _area(item: Item) -> float:
    return item.obj.size[0] * item.obj.size[2]


@dataclass
class _Area:
    """What shares one area: the floor of a room, or the top or the inside of an object."""

    where: str
    room: str | None = None  # a room's floor
    parent: str | None = None  # an object's top or inside
    members: list[Item] = field(default_factory=list)


def _areas(items: Mapping[str, Item], plans: Mapping[str, RoomPlan]) -> list[_Area]:
    out = {room: _Area(f"the floor of room {room!r}", room=room) for room in plans}
    for item in items.values():
        if item.kind == "floor":
            out[item.room].members.append(item)
        elif item.kind in ("on", "in"):
            where = "the top of" if item.kind == "on" else "the inside of"
            key = f"{item.kind} {item.parent}"
            out.setdefault(key, _Area(f"{where} {item.parent!r}", parent=item.parent))
            out[key].members.append(item)
    return list(out.values())


def _capacity(
    spec: SceneSpec,
    area: _Area,
    items: Mapping[str, Item],
    plans: Mapping[str, RoomPlan],
    ranking: Ranking,
) -> tuple[float, str]:
    """The area objects may take, and words for it."""
    if area.parent is not None:
        size = _area(items[area.parent])
        return size, f"{area.parent!r} is {size:.2f} m²"
    budget = floor_budget(spec, plans[area.room or ""], items, ranking)
    return budget.free, str(budget)


def area_problems(
    spec: SceneSpec, items: Mapping[str, Item], plans: Mapping[str, RoomPlan], ranking: Ranking
) -> list[Violation]:
    """Task objects (and what holds them) that need more area than their room's free floor
    or their support's top has: no layout can hold them."""
    problems = []
    for area in _areas(items, plans):
        task = [i for i in area.members if i.id in ranking.essential]
        need = sum(_area(i) for i in task)
        free, words = _capacity(spec, area, items, plans, ranking)
        if task and need > free + 1e-9:
            names = ", ".join(f"{i.id} ({i.obj.size[0]:.2f} x {i.obj.size[2]:.2f} m)" for i in task)
            message = (
                f"the task objects on {area.where} need {need:.2f} m² ({names}) but {words}; "
                "enlarge it, use smaller objects or move some elsewhere"
            )
            problems.append(Violation("fit", f"objects[{task[0].id}]", message))
    return problems


def crowded(
    spec: SceneSpec,
    items: Mapping[str, Item],
    plans: Mapping[str, RoomPlan],
    ranking: Ranking,
    ids: Sequence[str],
    placed: Collection[str],
) -> dict[str, str]:
    """Of one problem's items ``ids``, those to leave out before solving it, by id with the
    reason: in priority order, those whose footprints no longer fit the area their room's
    floor (or their support) has left, after what is ``placed`` there already and the more
    important items of ``ids``. The area is necessary, not sufficient: the solver may have to
    leave out more; and what it leaves out frees area for the problems after it."""
    out: dict[str, str] = {}
    mine = set(ids)
    for area in _areas({i: items[i] for i in (*placed, *ids)}, plans):
        if not any(i.id in mine for i in area.members):
            continue
        free, words = _capacity(spec, area, items, plans, ranking)
        used = sum(_area(i) for i in area.members if i.id not in mine)
        for item in (items[i] for i in ranking.order(i.id for i in area.members if i.id in mine)):
            if used + _area(item) <= free + 1e-9 or item.id in ranking.essential:
                used += _area(item)
                continue
            out[item.id] = (
                f"{area.where} is full: its {item.obj.size[0]:.2f} x {item.obj.size[2]:.2f} m "
                f"footprint does not fit in what more important objects leave of it "
                f"({used:.2f} m² taken; {words})"
            )
    return out


def floor_use(
    spec: SceneSpec,
    items: Mapping[str, Item],
    plans: Mapping[str, RoomPlan],
    ranking: Ranking,
    room: str | None,
    ids: Collection[str],
) -> str:
    """Words for how much of ``room``'s free floor what the task needs of ``ids`` takes
    (nothing when the problem is not a floor)."""
    if room is None:
        return ""
    needed = [items[i] for i in ids if i in ranking.essential and items[i].kind == "floor"]
    budget = floor_budget(spec, plans[room], items, ranking)
    taken = sum(_area(i) for i in needed)
    share = f" ({taken / budget.free:.0%})" if budget.free > 0 else ""
    return f"; they take {taken:.2f} m²{share}: {budget}"
