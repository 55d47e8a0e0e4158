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
from dataclasses import dataclass

import z3

from pytest_logicenv.scenes.layout.budget import model_int, new_solver, timeout_error
from pytest_logicenv.scenes.layout.constraints import hard_constraints
from pytest_logicenv.scenes.layout.decomposition import Problem
from pytest_logicenv.scenes.layout.fit_checks import crowded, floor_use
from pytest_logicenv.scenes.layout.items import Item
from pytest_logicenv.scenes.layout.poses import Pose
from pytest_logicenv.scenes.layout.relations import relation_condition
from pytest_logicenv.scenes.layout.relaxation import (
    Failure,
    Relaxation,
    drop_relation,
    relax_relations,
    unfit_error,
)
from pytest_logicenv.scenes.layout.smt import HEIGHT_UNIT, Cond, Lin
from pytest_logicenv.scenes.layout.state import LayoutState, Poses
from pytest_logicenv.scenes.layout.task_needs import lost_relations, relation_error
from pytest_logicenv.scenes.layout.tolerances import NATURAL, WITH_MARGIN
from pytest_logicenv.scenes.scene_model import FINE_GRID, WALL_HEIGHT, SpatialRelation

#: Where the middle of a wall-mounted object goes when nothing says otherwise (metres).
EYE_LEVEL = 1.5
#: Checks spent on meeting the kept relations with their natural margins, per problem, and
#: Z3's resource units (``rlimit``) each may use: a count, unlike a time, keeps the same design
#: and seed giving the same scene (measured: docs/explanation/layout.md).
MARGIN_ROUNDS = 10
MARGIN_EFFORT = 300_000
#: The share of what is left of the budget that a problem's first attempt (every item
#: present) may spend when leaving some out is the fallback: the rest is the fallback's.
FIRST_SHARE = 0.5
#: The share of what is left that adding the items one at a time (the fallback out of time)
#: may spend: the rest goes to the relations between them, quick to check once they are fixed.
GROW_SHARE = 0.75

#: Initial values for the solver's variables, by name.
Initial = list[tuple[str, int | bool]]


def solve_problem(
    state: LayoutState, problem: Problem, relations: Sequence[tuple[int, SpatialRelation]]
) -> None:
    """Solve one problem (relaxing its soft relations as needed) and fix its poses. When its
    items cannot all be placed, solve it again leaving out the least important ones; when that
    loses a relation the task needs, once more with that relation enforced."""
    ids = _placeable(state, problem)
    full = crowded(state.spec, state.items, state.plans, state.ranking, ids, list(state.poses))
    if state.clock.expired():  # out of time: only what the task needs
        late = f"the layout's budget ran out before {problem.label} was solved"
        full = {i: late for i in ids if state.ranking.droppable(i)} | full
    for item_id, why in full.items():
        state.leave_out(item_id, why)
    ids = [i for i in ids if i not in full]
    wanted = _wanted(state, relations)
    if not ids:
        return
    before = _Record.of(state)
    droppable = [i for i in ids if state.ranking.droppable(i)]
    with state.clock.part(FIRST_SHARE if droppable else 1.0):
        failure = _attempt(state, problem, ids, wanted, presence=False)
    lost = lost_relations(state, wanted, ids) if failure is None else []
    if droppable and (failure is not None or lost):
        before.restore(state)
        # Out of time with every item present: add them one at a time instead.
        grow = failure is not None and failure.kind == "time"
        failure = _attempt(state, problem, ids, wanted, presence=True, grow=grow)
        lost = lost_relations(state, wanted, ids) if failure is None else []
        if lost:  # what the task needs first, the rest left out around it
            before.restore(state)
            failure = _attempt(state, problem, ids, wanted, presence=True, enforce=lost)
    if failure is None and lost and not droppable:
        raise relation_error(state, problem, ids, lost)
    if failure is None:
        return
    names = [i for i in ids if not state.ranking.droppable(i) and state.items[i].kind != "agent"]
    if failure.kind == "time":
        needed = names or ["the agent's start"]
        floor = floor_use(
            state.spec, state.items, state.plans, state.ranking, problem.floor_of, ids
        )
        raise timeout_error(state.spec, problem.label, needed, state.clock, floor)
    if lost:
        raise relation_error(state, problem, ids, lost)
    raise unfit_error(state, problem, ids)


def _placeable(state: LayoutState, problem: Problem) -> list[str]:
    """The problem's items but those resting on something left out (left out too)."""
    ids = []
    for item_id in problem.items:
        if item_id in state.left_out:
            continue
        lost = state.lost_support(item_id)
        if lost is None:
            ids.append(item_id)
        else:
            state.leave_out(item_id, f"it rests on {lost!r}, which was left out")
    return ids


def _wanted(
    state: LayoutState, relations: Sequence[tuple[int, SpatialRelation]]
) -> list[tuple[int, SpatialRelation]]:
    """The relations to solve; those naming an object left out are dropped."""
    wanted = []
    for index, relation in relations:
        gone = next((i for i in _names(relation) if i in state.left_out), None)
        if gone is None:
            wanted.append((index, relation))
        else:
            drop_relation(state, index, relation, f"{gone!r} was left out: the room was full")
    return wanted


def _names(relation: SpatialRelation) -> tuple[str, ...]:
    return (relation.subject,) + ((relation.target,) if relation.target else ())


@dataclass(frozen=True)
class _Record:
    """What a problem's attempt may have recorded in the state, to undo it."""

    kept: dict[int, SpatialRelation]
    dropped: dict[int, SpatialRelation]
    notes: int
    left_out: dict[str, str]
    poses: Poses

    @classmethod
    def of(cls, state: LayoutState) -> _Record:
        return cls(
            dict(state.kept),
            dict(state.dropped),
            len(state.notes),
            dict(state.left_out),
            dict(state.poses),
        )

    def restore(self, state: LayoutState) -> None:
        state.kept, state.dropped = dict(self.kept), dict(self.dropped)
        state.left_out = dict(self.left_out)
        state.poses = dict(self.poses)
        del state.notes[self.notes :]


def _attempt(
    state: LayoutState,
    problem: Problem,
    ids: Sequence[str],
    relations: Sequence[tuple[int, SpatialRelation]],
    presence: bool,
    enforce: Sequence[tuple[int, SpatialRelation]] = (),
    grow: bool = False,
) -> Failure | None:
    """Solve the problem once (``presence``: items may be left out, added one at a time with
    ``grow``; ``enforce``: relations that must hold, as the hard constraints); None when
    solved."""
    present = {
        i: f"p{state.items[i].order}" for i in ids if presence and state.ranking.droppable(i)
    }
    encoding = _encode(state, ids, relations, present)
    if encoding is None:
        return Failure("unfit")
    poses, text, initial, soft, margins = encoding
    solver = new_solver(state.ctx, state.seed, state.clock)
    solver.from_string(text)
    for name, value in initial:
        variable = z3.Bool(name, state.ctx) if isinstance(value, bool) else z3.Int(name, state.ctx)
        solver.set_initial_value(variable, value)
    forced = [(i, r) for i, r in soft if i in dict(enforce)]
    soft = [(i, r) for i, r in soft if i not in dict(forced)]
    essential_only = bool(present) or not any(state.ranking.droppable(i) for i in ids)
    relaxation = Relaxation(state, problem, solver, [f"r{i}" for i, _ in forced], essential_only)
    if not present:  # a model places every item: no need to keep time for leaving some out
        relaxation.on_model = state.clock.lift
    kept_ids = list(ids)
    if present:
        needs = ", ".join(str(r) for _, r in forced)
        with state.clock.part(GROW_SHARE if grow else 1.0):  # the rest for the relations
            chosen = _choose_items(relaxation, ids, present, poses, grow, needs)
        if isinstance(chosen, Failure):
            return chosen
        picked = [present[i] for i in chosen if i in present]
        relaxation.base += picked
        relaxation.grace = not picked
        kept_ids = chosen
        soft = _wanted(state, soft)
    kept = relax_relations(relaxation, dict(soft))
    if isinstance(kept, Failure):
        return kept
    state.kept.update(forced)
    with_margin = [i for i in (*dict(forced), *kept) if i in margins]
    _prefer_margins(relaxation, dict(soft) | dict(forced), with_margin)
    for item_id in kept_ids:
        state.poses[item_id] = _solved(relaxation.model, poses[item_id])
    return None


def _prefer_margins(
    relaxation: Relaxation, relations: dict[int, SpatialRelation], indices: Sequence[int]
) -> None:
    """Meet as many of the kept relations ``indices`` with their natural margins as hold
    together: the most important, and of the most visible kinds, first."""

    def rank(name: str) -> tuple[int, ...]:
        relation = relations[int(name[1:])]
        return -relation.priority, WITH_MARGIN.index(relation.kind), int(name[1:])

    relaxation.prefer([f"m{i}" for i in indices], rank, MARGIN_ROUNDS, MARGIN_EFFORT)


def _encode(
    state: LayoutState,
    ids: Sequence[str],
    relations: Sequence[tuple[int, SpatialRelation]],
    present: dict[str, str],
) -> tuple[Poses, str, Initial, list[tuple[int, SpatialRelation]], set[int]] | None:
    """The problem in SMT-LIB: its poses, text, initial values, the soft relations (by index)
    and those with a margin to prefer; None when its hard constraints cannot hold."""
    poses, declarations, initial = declare_poses(state, ids)
    declarations += [f"(declare-const {name} Bool)" for name in present.values()]
    # What rests on something left out is left out too (its support in the same problem).
    assertions = [
        f"(assert (=> {literal} {present[parent]}))"
        for item_id, literal in present.items()
        if (parent := state.items[item_id].parent) in present
    ]
    for cond in hard_constraints(state, ids, poses, present):
        if cond is False:
            return None
        if cond is not True:
            assertions.append(f"(assert {cond})")
    soft: list[tuple[int, SpatialRelation]] = []
    margins: set[int] = set()
    for index, relation in relations:
        cond, why = relation_condition(state, relation, poses)
        if cond is True:
            state.kept[index] = relation
        elif cond is False:
            drop_relation(state, index, relation, why)
        else:
            declarations.append(f"(declare-const r{index} Bool)")
            assertions.append(f"(assert (=> r{index} {cond}))")
            soft.append((index, relation))
            tight = _margin(state, relation, poses)
            if tight is not None:
                declarations.append(f"(declare-const m{index} Bool)")
                assertions.append(f"(assert (=> m{index} {tight}))")
                margins.add(index)
    return poses, "\n".join(declarations + assertions), initial, soft, margins


def _margin(state: LayoutState, relation: SpatialRelation, poses: Poses) -> str | None:
    """The relation with its natural margins (SMT-LIB), when they ask more than it does."""
    if relation.kind not in WITH_MARGIN:
        return None
    tight, _ = relation_condition(state, relation, poses, NATURAL)
    return tight if isinstance(tight, str) else None


def _choose_items(
    relaxation: Relaxation,
    ids: Sequence[str],
    present: dict[str, str],
    poses: Poses,
    grow: bool,
    needs: str,
) -> list[str] | Failure:
    """The items to place: the essential ones and as many others as fit, most important first
    (the relations aside but those the task ``needs``, enforced; with ``grow``, added one at a
    time); the others are left out, with the reason."""
    state, problem = relaxation.state, relaxation.problem
    by_literal = {literal: item_id for item_id, literal in present.items()}

    def rank(literal: str) -> tuple[int, ...]:
        return state.ranking.key(by_literal[literal])

    def give_up(literal: str, blockers: Sequence[str] | None) -> None:
        item = state.items[by_literal[literal]]
        size = f"{item.obj.size[0]:.2f} x {item.obj.size[2]:.2f} m"
        if blockers is None:
            why = f"Z3 could not fit it on {problem.label} in time (the layout's budget)"
        else:
            why = f"no room for its {size} footprint on {problem.label}"
            others = [by_literal[b] for b in blockers]
            why += f" beside {', '.join(others)}" if others else " beside what is placed"
            why += f" with {needs}, which the task needs" if needs else ""
        state.leave_out(item.id, why)

    def pin(literals: Sequence[str]) -> None:
        placed = [i for i in ids if i not in present] + [by_literal[lit] for lit in literals]
        _pin(relaxation, [poses[i] for i in placed if i not in pinned])
        pinned.update(placed)

    pinned: set[str] = set()
    relaxation.pin = pin
    ordered = sorted(present.values(), key=rank)
    chosen = (relaxation.grow if grow else relaxation.relax)(ordered, rank, give_up)
    relaxation.pin = None
    if isinstance(chosen, Failure):
        return chosen
    kept = {by_literal[literal] for literal in chosen}
    return [i for i in ids if i not in present or i in kept]


def _pin(relaxation: Relaxation, poses: Sequence[Pose]) -> None:
    """Fix these poses where the last model has them, for the rest of the problem."""
    ctx, model = relaxation.state.ctx, relaxation.model
    for pose in poses:
        for term in (pose.x, pose.z, pose.base, pose.side):
            if isinstance(term, str):
                variable = z3.Int(term, ctx)
                relaxation.solver.add(variable == model.eval(variable, model_completion=True))
        for cond in (pose.turned, pose.back):
            if isinstance(cond, str):
                flag = z3.Bool(cond, ctx)
                relaxation.solver.add(flag == model.eval(flag, model_completion=True))


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
