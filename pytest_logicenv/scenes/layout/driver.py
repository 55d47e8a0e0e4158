"""The entry point: :func:`solve_layout` lays out a design, again with other seeds if needed.

It takes the parts out of the design (:mod:`~.parts`: they come back at their parents after
solving), validates the design, builds the room plans, walls and items, then lays the house out
(:func:`_lay_out`: the doors and windows, then the problems of the decomposition in turn, each
relaxing its soft relations) and checks that the agent can walk to every task object; when
some stays out of reach it lays the house out again with another seed, up to :data:`ATTEMPTS`
times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import z3

from pytest_logicenv.errors import LayoutError
from pytest_logicenv.scenes.layout.budget import Clock
from pytest_logicenv.scenes.layout.decomposition import (
    Problem,
    assign_relations,
    gather_linked,
    problems_in_order,
    stranded_relations,
    wall_floor_links,
)
from pytest_logicenv.scenes.layout.fit_checks import fit_problems
from pytest_logicenv.scenes.layout.floor_plan import RoomPlan, WallRun, derive_walls, make_plan
from pytest_logicenv.scenes.layout.items import Item, build_items
from pytest_logicenv.scenes.layout.openings import opening_obstacles, solve_openings
from pytest_logicenv.scenes.layout.parts import (
    part_problems,
    rejoin,
    split_parts,
    taken_tops,
)
from pytest_logicenv.scenes.layout.reachability import require_door_paths, walkable
from pytest_logicenv.scenes.layout.solving import solve_problem
from pytest_logicenv.scenes.layout.state import LayoutState, placed_objects
from pytest_logicenv.scenes.layout.validation import design_problems, problem_error
from pytest_logicenv.scenes.model import (
    REACH_DISTANCE,
    AgentStart,
    Door,
    Scene,
    SceneSpec,
    Window,
)

#: Total time budget of one layout (all its problems), in milliseconds.
DEFAULT_TIMEOUT_MS = 20_000
#: Layouts tried, each with a seed of its own, for one where the agent can walk from its
#: start to every task object (measured: about one layout in ten of the example tasks
#: leaves one out of reach).
ATTEMPTS = 8


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
    problems = part_problems(spec)
    if problems:
        raise problem_error(spec, problems)
    whole = spec  # the parts and what rests in them come back after solving, at their parents
    spec, riders = split_parts(spec)
    plans = {room.id: make_plan(room, index) for index, room in enumerate(spec.rooms)}
    problems = design_problems(spec, plans)
    if problems:
        raise problem_error(spec, problems)
    items = build_items(spec)
    problems = fit_problems(items, plans)
    if problems:
        raise problem_error(spec, problems)
    clock = Clock(timeout_ms)
    runs = derive_walls(list(plans.values()))
    house = _House(spec, plans, items, z3.Context(), runs, taken_tops(whole))
    require_door_paths(spec)
    fewest: list[str] = []  # what the best layout so far left out of reach
    for attempt in range(ATTEMPTS):
        # The first layout uses the seed itself; the others seeds far from it.
        scene = _lay_out(house, seed + attempt * 1_000_003, clock, decompose)
        scene = rejoin(scene, whole, riders)
        out_of_reach, agent = walkable(scene, plans, house.runs)
        if not out_of_reach:
            return _with_start(scene, agent, seed, attempt, fewest)
        if not fewest or len(out_of_reach) < len(fewest):
            fewest = out_of_reach
    raise LayoutError(
        f"scene design {spec.id!r}: in {ATTEMPTS} layouts the agent could not walk from its "
        f"start to within {REACH_DISTANCE} m of {', '.join(fewest)}: furniture closes them "
        "off; enlarge the room or put fewer objects in it"
    )


@dataclass(frozen=True)
class _House:
    """A valid design prepared for solving: its room plans, items and walls, and the Z3
    context all its layouts share."""

    spec: SceneSpec
    plans: dict[str, RoomPlan]
    items: dict[str, Item]
    ctx: z3.Context
    runs: tuple[WallRun, ...]
    #: What the parts take of their wholes' tops (a counter's sink), by whole.
    taken_tops: dict[str, float]


def _with_start(
    scene: Scene, agent: AgentStart, seed: int, attempt: int, fewest: Sequence[str]
) -> Scene:
    """The scene of a layout (the ``attempt``-th) with the agent's start that reaches all."""
    notes = scene.provenance.notes
    if attempt:
        notes += (
            f"laid out {attempt + 1} times: the agent could not walk to "
            f"{', '.join(fewest)} in an earlier layout",
        )
    provenance = replace(scene.provenance, seed=seed, notes=notes)
    return replace(scene, agent=agent, provenance=provenance)


def _lay_out(house: _House, seed: int, clock: Clock, decompose: bool) -> Scene:
    """One layout of the design with ``seed``: the doors and windows, then the problems."""
    spec, items = house.spec, house.items
    openings, doors, windows = solve_openings(spec, house.runs, house.ctx, seed, clock)
    obstacles = opening_obstacles(openings)
    # A relation between objects of two problems is solved in the later one, with the other
    # object already fixed regardless of it. Gathered relations have their objects solved
    # together instead (see gather_linked): from the start those between something on a wall
    # and something standing on the floor (a picture above the sofa, a switch near the desk),
    # and any other the layout had to drop, solving again, so that it is only dropped if it
    # cannot be met even so.
    gathered = wall_floor_links(spec, items)
    first_steps = problems_in_order(items, spec, decompose)
    while True:
        steps = gather_linked(first_steps, items, list(gathered.values()))
        state = LayoutState(
            spec,
            house.plans,
            items,
            obstacles,
            house.ctx,
            seed,
            clock,
            prune=decompose,
            taken_tops=house.taken_tops,
        )
        _solve_in_turn(state, steps)
        stranded = stranded_relations(spec, steps, items, state.dropped)
        if not stranded:
            return _scene(house, state, doors, windows)
        gathered.update(stranded)


def _solve_in_turn(state: LayoutState, steps: Sequence[Problem]) -> None:
    """Solve the problems in order, each with the relations whose later object it places."""
    assigned = assign_relations(steps, state.spec)
    for n, step in enumerate(steps):
        solve_problem(state, step, assigned.get(n, []))


def _scene(
    house: _House, state: LayoutState, doors: Sequence[Door], windows: Sequence[Window]
) -> Scene:
    """The laid-out scene, with the relations kept and dropped in its provenance."""
    spec = house.spec
    objects, agent = placed_objects(state)
    kept = tuple(state.kept[i] for i in sorted(state.kept))
    dropped = tuple(state.dropped[i] for i in sorted(state.dropped))
    provenance = replace(
        spec.provenance,
        seed=state.seed,
        kept=kept,
        dropped=dropped,
        notes=(*spec.provenance.notes, *state.notes),
    )
    return Scene(
        id=spec.id,
        rooms=spec.rooms,
        walls=tuple(wall_run.wall for wall_run in house.runs),
        doors=tuple(doors),
        windows=tuple(windows),
        objects=objects,
        agent=agent,
        relations=spec.relations,
        provenance=provenance,
    )
