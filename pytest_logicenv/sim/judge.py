"""Judge a policy in a situation: the one way a run is set up, whoever asks for it.

A :class:`Situation` is everything a run is judged by besides the policy: the scene, the goal
facts a SUCCESS must have made true, the situation's answers in the plan's words, the plan's
branches (for diagnosis by branch), the names a policy may use though the scene lacks them,
and the tick budget. :func:`situation_of` makes one from a plan, a trajectory and a scene,
the way the fixture, ``logicenv run``, the evaluation, the strategies and exploration all
make it; :func:`judge` runs a policy in it. Nothing else calls
:func:`~pytest_logicenv.sim.runner.run_policy` with a plan's facts, so the five cannot judge
the same run differently.

>>> from pytest_logicenv.logic.plan import plan_from_paper
>>> from pytest_logicenv.logic.trajectories import select
>>> from pytest_logicenv.scenes.scene_model import Scene
>>> plan = plan_from_paper([{"Is the window open?": {"YES": "Close it.", "NO": "Do nothing."}}])
>>> trajectory = select(plan).trajectories[0]
>>> situation = situation_of(plan, trajectory, Scene("empty"))
>>> situation.id, situation.answers
('window=yes', (('Is the window open?', 'YES'),))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from pytest_logicenv.logic.facts import Fact
from pytest_logicenv.logic.plan import Plan, located_facts
from pytest_logicenv.logic.trajectories import Trajectory, situation
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.branches import SubtaskBranches, branches_of
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.runner import DEFAULT_MAX_TICKS, Policy, RunSetup, run_checked, vocabulary
from pytest_logicenv.sim.tamper import TAMPERED, Replay

__all__ = ["Situation", "judge", "plan_names", "scene_situation", "situation_of"]


@dataclass(frozen=True)
class Situation:
    """What a run in one scene is judged by. ``answers`` are the trajectory's conditions as
    ``(question, answer)`` pairs (``None``: the scene's provenance conditions); ``known`` the
    names a policy may use though this scene lacks them (``None``: names are not checked);
    ``plan`` and ``trajectory`` the situation's source, when it has one; ``witness`` a
    passing sequence of this scene (its cache entry's witness), which a failing outcome shows."""

    id: str
    scene: Scene
    goal: tuple[Fact, ...] = ()
    answers: tuple[tuple[str, str], ...] | None = None
    branches: tuple[SubtaskBranches, ...] = ()
    known: frozenset[str] | None = None
    max_ticks: int = DEFAULT_MAX_TICKS
    plan: Plan | None = None
    trajectory: Trajectory | None = None
    witness: str = ""

    def in_scene(self, scene: Scene) -> Situation:
        """The same situation in another scene of it (a variation, a redesigned layout): the
        witness of this scene proves nothing there."""
        return replace(self, scene=scene, witness="")

    def adding_goal(self, facts: Iterable[Fact]) -> Situation:
        """This situation with more goal facts (``logicenv run --goal`` beside a plan)."""
        return replace(self, goal=(*self.goal, *facts))


def situation_of(
    plan: Plan,
    trajectory: Trajectory,
    scene: Scene,
    *,
    known: frozenset[str] | None = None,
    max_ticks: int | None = None,
) -> Situation:
    """The situation ``trajectory`` of ``plan`` is in ``scene``: its goal, its answers in the
    plan's words and the plan's branches, as every caller judges it."""
    return Situation(
        trajectory.id,
        scene,
        goal=trajectory.goal,
        answers=situation(plan, trajectory.paths),
        branches=branches_of(plan, trajectory),
        known=known,
        max_ticks=max_ticks or DEFAULT_MAX_TICKS,
        plan=plan,
        trajectory=trajectory,
    )


def scene_situation(
    scene: Scene,
    *,
    goal: Iterable[Fact] = (),
    known: frozenset[str] | None = None,
    max_ticks: int | None = None,
) -> Situation:
    """A scene judged without a plan: only ``goal`` must hold (``logicenv run --goal``)."""
    return Situation(
        scene.id, scene, goal=tuple(goal), known=known, max_ticks=max_ticks or DEFAULT_MAX_TICKS
    )


#: The status of a run whose policy did two things in one situation.
NONDETERMINISTIC = "NONDETERMINISTIC"


def judge(policy: Policy, situation: Situation, *, twice: bool = True) -> Outcome:
    """Run ``policy`` in ``situation`` and classify the outcome (what
    :func:`~pytest_logicenv.sim.runner.run_policy` raises for bad input, this raises).

    The run is made ``twice`` and the two compared: a policy that acts differently in one
    situation (random choices, the clock, state kept between runs) is an ``error`` saying
    it is not deterministic, since no verdict of it (coverage, a mutation score, a scene
    exploration blames) would hold on the next run. Our own action sequences (witnesses)
    and mutants of a policy judged so are run once. The situation's witness goes with the
    outcome, so every caller shows how the scene is solved.

    Each run's world is checked against its trace's replay (``sim/tamper.py``); the second
    run of a deterministic policy has the first one's trace, so it is checked against the
    first one's replay: three worlds built, not four. A run that changed its world past its
    actions is the outcome, whichever of the two it was."""
    setup = RunSetup.of(
        situation.scene, situation.goal, situation.answers, situation.max_ticks,
        situation.branches,
    )  # fmt: skip
    first, replayed = _run(policy, situation, setup)
    if not twice:
        return first
    second, _ = _run(policy, situation, setup, replayed)
    if _signature(first) == _signature(second):
        return first
    if TAMPERED in (first.status, second.status):  # what changed the world says more
        return first if first.status == TAMPERED else second
    return replace(
        first,
        kind="error",
        status=NONDETERMINISTIC,
        error=(
            "this policy is not deterministic: two runs in the same scene differed (run 1: "
            f"{_shown(first)}; run 2: {_shown(second)}), so no verdict of it would hold on "
            "the next run; make its choices depend only on what it senses (seed any random "
            "choice, keep no state between runs)"
        ),
    )


def _run(
    policy: Policy, situation: Situation, setup: RunSetup, replayed: Replay | None = None
) -> tuple[Outcome, Replay | None]:
    outcome, replay = run_checked(policy, setup, situation.known, replayed)
    if situation.witness:
        outcome = replace(outcome, witness=situation.witness)
    return outcome, replay


def _signature(outcome: Outcome) -> tuple[Any, ...]:
    return (
        outcome.kind,
        outcome.status,
        outcome.ticks,
        outcome.trace,
    )  # not the traceback's addresses


def _shown(outcome: Outcome) -> str:
    steps = ", ".join(str(step) for step in outcome.trace[:6])
    more = ", ..." if len(outcome.trace) > 6 else ""
    return f"{outcome.kind} after {outcome.ticks} ticks ({steps}{more})"


def plan_names(plan: Plan) -> frozenset[str]:
    """Names a policy of this plan's task may use though a scene lacks them: every catalog
    type and room type, and every role and type the plan's facts name. Anything else a
    policy names (``wet_wipe`` for ``wet_wipes``) is an error before the run, not a
    misleading lackbranch."""
    names = set(vocabulary([], [fact for _, fact in located_facts(plan)]))
    names.update(default_catalog().types)
    names.update(plan.rooms)
    return frozenset(names)
