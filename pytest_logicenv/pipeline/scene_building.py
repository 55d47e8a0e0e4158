"""Select a plan's trajectories and build one scene each; a combination whose scene cannot be
built is excluded and its decision paths are covered again by other combinations."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pytest_logicenv.errors import LayoutRejected, LogicEnvError, SceneError
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import (
    DecisionPath,
    Trajectory,
    make_trajectory,
    plan_paths,
    select,
)
from pytest_logicenv.pipeline.task_request import Builders, SceneBuilder, TaskRequest
from pytest_logicenv.scenes.realization import generate_scene
from pytest_logicenv.scenes.scene_model import Scene

#: Designs tried per trajectory before it counts as infeasible: a design that cannot be laid
#: out (an overfull shelf) says little about the situation, another seed often fits.
DESIGN_ATTEMPTS = 3
_SEED_STRIDE = 7919

Signature = tuple[int, ...]  # a combination: the index of each subtask's decision path


@dataclass
class _Progress:
    """What the rounds of selection and building have found so far."""

    infeasible: set[Signature] = field(default_factory=set)
    failures: list[tuple[Trajectory, str]] = field(default_factory=list)
    #: Ids of the trajectories whose every failure was the layout's (its scene rejected).
    layout_bugs: set[str] = field(default_factory=set)
    built: dict[Signature, Scene] = field(default_factory=dict)
    realized: set[str] = field(default_factory=set)  # keys of the paths some scene holds
    notes: list[str] = field(default_factory=list)

    def feasible(self, combo: Sequence[DecisionPath]) -> bool:
        return _signature(combo) not in self.infeasible


def build_scenes(
    plan: Plan, request: TaskRequest, builders: Builders, build: SceneBuilder
) -> tuple[tuple[Trajectory, ...], dict[str, Scene], list[str]]:
    """The selected trajectories, their scenes by trajectory id, and notes on what failed."""
    progress = _Progress()
    total_paths = sum(len(group) for group in plan_paths(plan))
    for _ in range(total_paths + 1):  # each round excludes at least one more combination
        trajectories = _select(plan, request, progress)
        if not _build_round(trajectories, plan, request, builders, build, progress):
            selected = tuple(make_trajectory(t.paths) for t in trajectories)
            scenes = {t.id: progress.built[_signature(t.paths)] for t in selected}
            return selected, scenes, progress.notes
    raise SceneError("scene generation kept failing; see the notes")  # pragma: no cover


def _select(plan: Plan, request: TaskRequest, progress: _Progress) -> tuple[Trajectory, ...]:
    feasible = progress.feasible if progress.infeasible else None
    try:
        return select(plan, request.select, feasible).trajectories
    except LogicEnvError as error:
        if not progress.failures:
            raise
        raise _unbuildable(request, progress, error) from None


def _build_round(
    trajectories: Sequence[Trajectory],
    plan: Plan,
    request: TaskRequest,
    builders: Builders,
    build: SceneBuilder,
    progress: _Progress,
) -> bool:
    """Build the scenes not built yet; whether some combination turned out infeasible."""
    new_failure = False
    for trajectory in trajectories:
        signature = _signature(trajectory.paths)
        if signature in progress.built:
            continue
        try:
            scene = _build_one(build, plan, trajectory, request.seed, progress.notes)
        except SceneError as error:
            progress.infeasible.add(signature)
            progress.failures.append((trajectory, str(error)))
            if isinstance(error, LayoutRejected):
                progress.layout_bugs.add(trajectory.id)
            progress.notes.append(f"{trajectory.id}: no valid scene ({error}); excluded")
            new_failure = True
            continue
        progress.built[signature] = scene
        progress.realized.update(path.key for path in trajectory.paths)
        builders.on_scene(scene, trajectory)
    return new_failure


def _signature(paths: Sequence[DecisionPath]) -> Signature:
    return tuple(p.index for p in paths)


def _build_one(
    build: SceneBuilder, plan: Plan, trajectory: Trajectory, seed: int, notes: list[str]
) -> Scene:
    for attempt in range(DESIGN_ATTEMPTS):
        attempt_seed = seed + attempt * _SEED_STRIDE
        try:
            return build(plan, trajectory, attempt_seed)
        except SceneError as error:
            if attempt == DESIGN_ATTEMPTS - 1:
                raise
            notes.append(f"{trajectory.id}: design seed {attempt_seed} failed ({error})")
    raise AssertionError("unreachable")  # pragma: no cover


def _unbuildable(request: TaskRequest, progress: _Progress, error: LogicEnvError) -> SceneError:
    """The decision paths no scene could hold, and why each scene that held them failed."""
    failures = progress.failures
    tried = {p.key for trajectory, _ in failures for p in trajectory.paths}
    stuck = sorted(tried - progress.realized)
    where = f"in {request.plan_file}" if request.plan_file is not None else "in the plan"
    reasons = "\n".join(f"  {trajectory.id}: {why}" for trajectory, why in failures)
    if not stuck:
        return SceneError(f"{error}\nscenes that could not be built:\n{reasons}")
    if all(trajectory.id in progress.layout_bugs for trajectory, _ in failures):
        return LayoutRejected(
            f"a layout bug: no scene was built for {', '.join(stuck)}, though its facts can "
            "hold (the design held them); the layout placed the objects where its own checker "
            "rejects them (Table 1), so the plan is not at fault. Report it with this message; "
            f"meanwhile try another seed (the marker's seed=). Every scene tried:\n{reasons}"
        )
    return SceneError(
        f"no scene can be built for {', '.join(stuck)}: its facts cannot all hold in one "
        f"scene; fix them {where}. Every scene tried for it failed:\n{reasons}"
    )


def default_scene_builder(catalog: Any = None) -> SceneBuilder:
    """Procedural designer -> Z3 layout -> realization check, as one ``SceneBuilder``."""

    def build(plan: Plan, trajectory: Trajectory, seed: int) -> Scene:
        return generate_scene(plan, trajectory, seed=seed, catalog=catalog)

    return build
