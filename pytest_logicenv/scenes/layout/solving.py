"""Solve one problem of the decomposition and fix its items' poses.

Its items get fresh pose variables (with initial values drawn from the seed: the seed's
preference for positions); the hard constraints are asserted; each soft relation is asserted
behind an assumption literal ``r<index>`` and :func:`~.relaxation.relax` decides which hold.
The solved poses become constants for the problems after it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import z3

from pytest_logicenv.scenes.layout.budget import model_int, new_solver
from pytest_logicenv.scenes.layout.constraints import hard_constraints
from pytest_logicenv.scenes.layout.decomposition import Problem
from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.poses import Pose
from pytest_logicenv.scenes.layout.relations import relation_condition
from pytest_logicenv.scenes.layout.relaxation import drop_relation, relax, unfit_error
from pytest_logicenv.scenes.layout.smt import FINE_GRID, HEIGHT_UNIT, Cond, Lin
from pytest_logicenv.scenes.layout.state import LayoutState, Poses
from pytest_logicenv.scenes.model import WALL_HEIGHT, SpatialRelation

#: Where the middle of a wall-mounted object goes when nothing says otherwise (metres).
EYE_LEVEL = 1.5

#: Initial values for the solver's variables, by name.
Initial = list[tuple[str, int | bool]]


def solve_problem(
    state: LayoutState, problem: Problem, relations: Sequence[tuple[int, SpatialRelation]]
) -> None:
    """Solve one problem (relaxing its soft relations as needed) and fix its poses."""
    poses, declarations, initial = declare_poses(state, problem.items)
    assertions = []
    for cond in hard_constraints(state, problem.items, poses):
        if cond is False:
            raise unfit_error(state, problem)
        if cond is not True:
            assertions.append(f"(assert {cond})")
    soft: list[int] = []
    for index, relation in relations:
        cond, why = relation_condition(state, relation, poses)
        if cond is True:
            state.kept[index] = relation
        elif cond is False:
            drop_relation(state, index, relation, why)
        else:
            declarations.append(f"(declare-const r{index} Bool)")
            assertions.append(f"(assert (=> r{index} {cond}))")
            soft.append(index)
    solver = new_solver(state.ctx, state.seed, state.clock)
    solver.from_string("\n".join(declarations + assertions))
    for name, value in initial:
        variable = z3.Bool(name, state.ctx) if isinstance(value, bool) else z3.Int(name, state.ctx)
        solver.set_initial_value(variable, value)
    literals = {index: z3.Bool(f"r{index}", state.ctx) for index in soft}
    model = relax(state, problem, solver, literals, dict(relations))
    for item_id, pose in poses.items():
        state.poses[item_id] = _solved(model, pose)


def _solved(model: z3.ModelRef, pose: Pose) -> Pose:
    return Pose(
        x=_value(model, pose.x),
        z=_value(model, pose.z),
        turned=_truth(model, pose.turned),
        back=_truth(model, pose.back),
        base=_value(model, pose.base),
        side=_value(model, pose.side),
    )


def _value(model: z3.ModelRef, term: Lin) -> int:
    return term if isinstance(term, int) else model_int(model, term)


def _truth(model: z3.ModelRef, term: Cond) -> bool:
    if isinstance(term, bool):
        return term
    return bool(z3.is_true(model.eval(z3.Bool(term, model.ctx), model_completion=True)))


# --------------------------------------------------------------------------- variables


def declare_poses(state: LayoutState, ids: Sequence[str]) -> tuple[Poses, list[str], Initial]:
    """Fresh poses for the items of a problem: the poses, the SMT-LIB declarations of their
    variables, and seeded initial values (the seed's preference for positions)."""
    poses: Poses = {}
    declarations: list[str] = []
    initial: Initial = []
    for item_id in ids:
        poses[item_id] = _declare_pose(state, state.items[item_id], poses, declarations, initial)
    return poses, declarations, initial


def _declare_pose(
    state: LayoutState, item: Item, poses: Poses, declarations: list[str], initial: Initial
) -> Pose:
    """The item's fresh pose: ``x<n>``, ``z<n>`` (its grid corner), ``t<n>``, ``b<n>`` (its
    rotation) and, on a wall, ``s<n>`` (which side) and ``y<n>`` (its height); the variables'
    declarations and initial values are added to ``declarations`` and ``initial``."""
    plan = state.plans[item.room]
    rng = random.Random(f"{state.seed}|{item.id}")
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
        initial += _wall_initial(item, side, base, len(plan.sides), rng)
    elif item.kind in ("on", "in"):
        base = state.pose_of(item.root, poses).base
    declarations += [f"(declare-const {name} Int)" for name in ints]
    scale = round(item.unit / FINE_GRID)
    initial += [
        (x, rng.randint(plan.bbox[0], plan.bbox[2]) // scale),
        (z, rng.randint(plan.bbox[1], plan.bbox[3]) // scale),
    ]
    if isinstance(turned, str) and isinstance(back, str):
        declarations += [f"(declare-const {turned} Bool)", f"(declare-const {back} Bool)"]
        initial += [(turned, rng.random() < 0.5), (back, rng.random() < 0.5)]
    return Pose(x, z, turned, back, base, side)


def _wall_initial(item: Item, side: str, base: str, sides: int, rng: random.Random) -> Initial:
    """A random side of the room, at eye level by preference (the solver may move it to meet
    relations)."""
    eye = (EYE_LEVEL - item.height / 2) / HEIGHT_UNIT
    highest = (WALL_HEIGHT - item.crown) / HEIGHT_UNIT
    return [
        (side, rng.randrange(sides)),
        (base, max(0, min(round(eye), math.floor(highest)))),
    ]
