"""Sizes that cannot work wherever things go: too big for the room or the support, taller
than the walls, more floor area than the room has.

Checked on the :class:`~.items.Item` s of a design that passed
:func:`~.validation.design_problems`, before any solver runs, so that such a design fails with
a message naming the object rather than with an unsatisfiable problem.

>>> from pytest_logicenv.scenes.layout.floor_plan import make_plan
>>> from pytest_logicenv.scenes.layout.items import build_items
>>> from pytest_logicenv.scenes.model import Room, SceneObject, SceneSpec
>>> den = Room("den", "LivingRoom", ((0, 0), (2, 0), (2, 2), (0, 2)))
>>> spec = SceneSpec("demo", rooms=(den,), objects=(
...     SceneObject("bed", "Bed", room="den", size=(2.1, 0.5, 1.6)),))
>>> [problem] = fit_problems(build_items(spec), {"den": make_plan(den, 0)})
>>> problem.location, problem.message
('objects[bed]', "2.10 x 1.60 m does not fit in room 'den' (2.00 x 2.00 m); ...")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pytest_logicenv.errors import Violation
from pytest_logicenv.scenes.layout.floor_plan import RoomPlan
from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.smt import FINE_GRID, SCALE
from pytest_logicenv.scenes.model import WALL_HEIGHT


def fit_problems(items: Mapping[str, Item], plans: Mapping[str, RoomPlan]) -> list[Violation]:
    """Sizes that cannot work whatever the positions: too big for the room or the parent,
    more floor area than the room has."""
    problems = []
    for item in items.values():
        if item.parent is None:
            problems += _standing_fit(item, plans[item.room])
        else:
            problems += _resting_fit(item, items[item.parent])
    for plan in plans.values():
        problems += _floor_area_fit(plan, items)
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
    if size[1] > WALL_HEIGHT:  # standing or hanging, it must fit under the ceiling
        problems.append(Violation("fit", where, f"{size[1]:.2f} m is taller than the wall"))
    return problems


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
        message = f"its top at {item.bottom + size[1]:.2f} m is above the walls"
        problems.append(Violation("fit", where, message))
    return problems


def _floor_area_fit(plan: RoomPlan, items: Mapping[str, Item]) -> list[Violation]:
    """What stands on a room's floor (with the agent's start) needs no more than its area."""
    standing = [
        i for i in items.values() if i.kind in ("floor", "agent") and i.room == plan.room.id
    ]
    area = sum(i.obj.size[0] * i.obj.size[2] for i in standing)
    if area <= plan.area:
        return []
    names = ", ".join(i.id if i.kind != "agent" else "the agent's start" for i in standing)
    message = (
        f"room {plan.room.id!r} has {plan.area:.2f} m² of floor but its floor "
        f"objects need {area:.2f} m² ({names}); enlarge the room or move objects "
        "to another room"
    )
    return [Violation("fit", f"rooms[{plan.room.id}]", message)]
