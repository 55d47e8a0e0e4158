"""A plan's scenes, each proved solvable; a derived plan whose scenes are not goes back to its
model (issue 21, item 2).

:func:`build_proven` selects the plan's trajectories, builds a scene for each
(``scene_building.py``) and searches each one's witness (``witnesses.py``). When some scene
has none and the plan is an LLM's derived in this run, what blocked each goal
(``witness_feedback.py``) goes back to the planner's conversation as a refinement round
(:meth:`~pytest_logicenv.pipeline.task_request.PlanSource.refine`, the same rounds as every
plan answer), and the new plan is checked, selected, designed and laid out again, up to
:data:`WITNESS_ROUNDS` times. The witness search cannot run before the layout (the windows and
doors a goal may need exist only then), hence after it.

When the scenes still fail (or the plan is not a derivation of this run: a file's, or a kept
``plan.json``), the error stands. For an LLM's plan the entry is kept without scenes, with the
plan and every exchange (``failed_plans.keep_unbuilt``), so that a rerun asks the model
nothing for the same failure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pytest_logicenv.errors import NoWitnessError, SceneError
from pytest_logicenv.llm.exchange import PlanDerivationError
from pytest_logicenv.logic.rules import validate_plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.pipeline.failed_plans import derived_by_llm, keep_failed, keep_unbuilt
from pytest_logicenv.pipeline.kept_scenes import KeepingDesigner
from pytest_logicenv.pipeline.plan_choice import ChosenPlan
from pytest_logicenv.pipeline.scene_building import build_scenes
from pytest_logicenv.pipeline.task_request import Builders, TaskRequest, Where
from pytest_logicenv.pipeline.witness_feedback import witness_violations
from pytest_logicenv.pipeline.witnesses import prove
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.witness import WitnessResult

#: Rounds of witness feedback a derived plan gets: each costs a layout and a witness search of
#: every scene, and a model that fixed nothing in two rarely does in a third.
WITNESS_ROUNDS = 2


@dataclass(frozen=True)
class Proven:
    """The plan the scenes were built from (refined, or as chosen), its trajectories, their
    scenes and witnesses by trajectory id, and notes on what failed on the way."""

    chosen: ChosenPlan
    trajectories: tuple[Trajectory, ...]
    scenes: dict[str, Scene]
    witnesses: dict[str, WitnessResult]
    notes: tuple[str, ...]


def build_proven(
    chosen: ChosenPlan,
    request: TaskRequest,
    builders: Builders,
    where: Where,
    designer: KeepingDesigner | None,
) -> Proven:
    """The scenes of ``chosen``'s plan with their witnesses, after up to
    :data:`WITNESS_ROUNDS` refinements; raises the scenes' error (kept, for an LLM's plan)."""
    source = str(request.plan_file or where.entry.plan_path)
    build = designer if designer is not None else builders.scene
    for round_number in range(1, WITNESS_ROUNDS + 2):
        try:
            trajectories, scenes, notes = build_scenes(chosen.plan, request, builders, build)
            budget = builders.witness_budget
            witnesses = prove(trajectories, scenes, budget, whose(chosen, source))
        except NoWitnessError as error:
            if chosen.planner is None or round_number > WITNESS_ROUNDS:
                raise _kept(error, chosen, designer, request, where) from None
            chosen = _refined(chosen, error, trajectories, scenes, builders, request, where)
            validate_plan(
                chosen.plan, source, known_types=builders.known_types(), require_facts=True
            )
            continue
        except SceneError as error:
            raise _kept(error, chosen, designer, request, where) from None
        return Proven(chosen, trajectories, scenes, witnesses, tuple(notes))
    raise AssertionError("unreachable")  # pragma: no cover


def _refined(
    chosen: ChosenPlan,
    error: NoWitnessError,
    trajectories: Sequence[Trajectory],
    scenes: dict[str, Scene],
    builders: Builders,
    request: TaskRequest,
    where: Where,
) -> ChosenPlan:
    """The plan its model answers when told what blocked each goal: the refinement round."""
    assert chosen.planner is not None
    results = error.results
    violations = witness_violations(chosen.plan, trajectories, scenes, results, builders.catalog)
    try:
        plan, exchanges = chosen.planner.refine(violations)
    except PlanDerivationError as failed:  # kept for a person to fix, as a derivation's
        raise keep_failed(failed, chosen.planner.name, request, where) from None
    rounds = sum(note.startswith(ROUND_NOTE) for note in chosen.notes) + 1
    note = (
        f"{ROUND_NOTE} {rounds}: {len(results)} scene(s) had no witness "
        f"({', '.join(results)}); the model answered with another plan"
    )
    return replace(
        chosen,
        plan=plan,
        exchanges=[*chosen.exchanges, *exchanges],
        notes=(*chosen.notes, note),
    )


#: How the manifest's note of a witness round begins.
ROUND_NOTE = "witness round"


def _kept(
    error: SceneError,
    chosen: ChosenPlan,
    designer: KeepingDesigner | None,
    request: TaskRequest,
    where: Where,
) -> SceneError:
    """The scenes' error; an LLM's plan kept with its exchanges first (not in strict mode,
    which writes nothing)."""
    if where.mode.strict or not derived_by_llm(chosen.record):
        return error
    talk = [*chosen.exchanges, *(designer.take_exchanges() if designer is not None else [])]
    return keep_unbuilt(error, chosen.plan, chosen.record, talk, request, where)


def whose(chosen: ChosenPlan, source: str) -> str:
    """The plan as a message names it: its file, and who made it."""
    made_by = chosen.record.get("made_by")
    return f"{source} (plan {made_by})" if made_by else source
