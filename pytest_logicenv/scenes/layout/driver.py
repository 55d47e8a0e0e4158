"""The entry point: :func:`solve_layout` lays out a design, again with other seeds if needed.

It takes the parts out of the design (:mod:`~.part_split`: they come back at their parents after
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
from pytest_logicenv.scenes.layout.clearing import clear_the_way
from pytest_logicenv.scenes.layout.contradictions import precluded
from pytest_logicenv.scenes.layout.decomposition import (
    Problem,
    assign_relations,
    gather_linked,
    problems_in_order,
    stranded_relations,
    wall_floor_links,
)
from pytest_logicenv.scenes.layout.fit_checks import area_problems, fit_problems
from pytest_logicenv.scenes.layout.items import Item, build_items
from pytest_logicenv.scenes.layout.leave_out import Ranking, rank_items
from pytest_logicenv.scenes.layout.openings import opening_obstacles, solve_openings
from pytest_logicenv.scenes.layout.part_split import (
    carried,
    part_problems,
    raised_tops,
    rejoin,
    rider_tops,
    split_parts,
    taken_tops,
)
from pytest_logicenv.scenes.layout.reachability import require_door_paths, walkable
from pytest_logicenv.scenes.layout.relaxation import drop_relation
from pytest_logicenv.scenes.layout.room_grid import RoomPlan, WallRun, derive_walls, make_plan
from pytest_logicenv.scenes.layout.solving import solve_problem
from pytest_logicenv.scenes.layout.state import LayoutState, placed_objects
from pytest_logicenv.scenes.layout.task_needs import need_problems, unmet_error
from pytest_logicenv.scenes.layout.validation import design_problems, problem_error
from pytest_logicenv.scenes.scene_model import (
    REACH_DISTANCE,
    AgentStart,
    Door,
    DroppedObject,
    Scene,
    SceneSpec,
    Window,
)

#: Total time budget of one layout (all its problems), in milliseconds.
DEFAULT_TIMEOUT_MS = 20_000
#: Layouts tried, each with a seed of its own, for one where the agent can walk from its
#: start to every task object (one in ten leaves one out of reach: docs/explanation/layout.md).
ATTEMPTS = 8


def solve_layout(
    spec: SceneSpec,
    *,
    seed: int = 0,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    decompose: bool = True,
) -> Scene:
    """Place everything ``spec`` asks for, or as much as fits, and return the :class:`Scene`.

    The same ``spec`` and ``seed`` give the same scene; another ``seed`` moves things around.
    ``decompose=False`` solves one model for the whole house instead of the small problems (the
    baseline ``benchmarks/bench_solve.py`` measures against). When a room cannot hold
    everything, the least important objects are left out (see :mod:`~.leave_out`) and listed
    in the scene's ``provenance.dropped_objects``; a soft relation that cannot be met is
    dropped and recorded. When ``timeout_ms`` runs out, the layout returns what it placed so
    far. Raises :class:`LayoutError` for a design that cannot be laid out: unknown objects,
    contradictory supports or task-critical relations, a door between rooms that do not
    touch, an object larger than its room or its support, task objects that do not fit or
    that the agent cannot walk to; :class:`~pytest_logicenv.errors.LayoutTimeout` when the
    time runs out before the task objects are placed.
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
    items = build_items(spec, rider_tops(whole, riders), raised_tops(whole))
    ranking = rank_items(items, carried(whole, riders))
    unfit = fit_problems(items, plans)
    problems = [v for i, found in unfit.items() if not ranking.droppable(i) for v in found]
    problems += area_problems(spec, items, plans, ranking)
    problems += need_problems(spec, items, plans, ranking)
    if problems:
        raise problem_error(spec, problems)
    too_big = {i: "; ".join(v.message for v in found) for i, found in unfit.items()}
    clock = Clock(timeout_ms)
    runs = derive_walls(list(plans.values()))
    house = _House(spec, plans, items, z3.Context(), runs, ranking, too_big, taken_tops(whole))
    require_door_paths(spec)
    best: tuple[list[str], Scene] | None = None  # the layout that left the fewest out of reach
    for attempt in range(ATTEMPTS):
        # The first layout uses the seed itself; the others seeds far from it.
        scene = _lay_out(house, seed + attempt * 1_000_003, clock, decompose)
        scene = rejoin(scene, whole, riders)
        out_of_reach, agent = walkable(scene, plans, runs)
        if not out_of_reach:
            return _with_start(scene, agent, seed, attempt, best[0] if best else [])
        if best is None or len(out_of_reach) < len(best[0]):
            best = out_of_reach, scene
        if clock.expired():
            break
    assert best is not None
    return _cleared(house, best[1], best[0], seed)


@dataclass(frozen=True)
class _House:
    """A valid design prepared for solving: its room plans, items and walls, the Z3 context
    all its layouts share, the ranking of its items and those too big to place anywhere."""

    spec: SceneSpec
    plans: dict[str, RoomPlan]
    items: dict[str, Item]
    ctx: z3.Context
    runs: tuple[WallRun, ...]
    ranking: Ranking
    too_big: dict[str, str]
    #: What the parts take of their wholes' tops (a counter's sink), by whole.
    taken_tops: dict[str, float]


def _cleared(house: _House, scene: Scene, out_of_reach: Sequence[str], seed: int) -> Scene:
    """The layout with the fewest task objects out of the agent's reach, with the objects
    left out that close the way (least important first); an error when that is not enough."""
    cleared = clear_the_way(scene, house.plans, house.runs, house.ranking)
    if cleared is None:
        raise LayoutError(
            f"scene design {house.spec.id!r}: in {ATTEMPTS} layouts the agent could not walk "
            f"from its start to within {REACH_DISTANCE} m of {', '.join(out_of_reach)}: "
            "furniture closes them off; enlarge the room or put fewer objects in it"
        )
    cleared_scene, agent = cleared
    return _with_start(cleared_scene, agent, seed, 0, [])


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
    first_steps = problems_in_order(items, spec, house.plans, decompose, house.ranking)
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
            decompose,
            house.ranking,
            taken_tops=house.taken_tops,
        )
        for item_id, why in house.too_big.items():
            state.leave_out(item_id, why)
        for index, (relation, why) in precluded(spec).items():
            drop_relation(state, index, relation, why)
        _solve_in_turn(state, steps)
        stranded = stranded_relations(spec, steps, items, state.dropped, state.left_out)
        if not stranded or clock.expired():
            scene = _scene(house, state, doors, windows)
            unmet = unmet_error(state)
            if unmet is not None:
                raise unmet
            return scene
        gathered.update(stranded)


def _solve_in_turn(state: LayoutState, steps: Sequence[Problem]) -> None:
    """Solve the problems in order, each with the relations whose later object it places
    (but those dropped before solving)."""
    assigned = assign_relations(steps, state.spec)
    for n, step in enumerate(steps):
        relations = [(i, r) for i, r in assigned.get(n, []) if i not in state.dropped]
        solve_problem(state, step, relations)


def _scene(
    house: _House, state: LayoutState, doors: Sequence[Door], windows: Sequence[Window]
) -> Scene:
    """The laid-out scene, with the relations kept and dropped in its provenance."""
    spec = house.spec
    for index, relation in list(state.kept.items()):  # e.g. far across rooms, always met
        gone = [i for i in (relation.subject, relation.target) if i in state.left_out]
        if gone:
            drop_relation(state, index, relation, f"{gone[0]!r} was left out: the room was full")
    objects, agent = placed_objects(state)
    kept = tuple(state.kept[i] for i in sorted(state.kept))
    dropped = tuple(state.dropped[i] for i in sorted(state.dropped))
    provenance = replace(
        spec.provenance,
        seed=state.seed,
        kept=kept,
        dropped=(*spec.provenance.dropped, *dropped),  # the designer's, then the layout's
        notes=(*spec.provenance.notes, *state.notes),
        dropped_objects=(
            *spec.provenance.dropped_objects,
            *(
                DroppedObject(obj.id, obj.type, obj.room, house.ranking.priority[obj.id], why)
                for obj in spec.objects
                if (why := state.left_out.get(obj.id)) is not None
            ),
        ),
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
