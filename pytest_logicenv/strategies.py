"""Hypothesis strategies for scenes: other scenes of a situation, for property-based tests.

A generated environment is one scene per situation; whether a policy's pass holds beyond that
one layout is what these strategies explore. :func:`scenes` draws scenes that keep a
trajectory's facts true (the setting's and its conditions'), each a :class:`DrawnScene` that
carries its situation's goal: a run without the goal passes whatever the policy leaves
undone (an unreachable fault is never seen), so run the policy with ``drawn.run(policy)``
(its goal, situation and branches, as the plugin runs it: ``drawn.judged_by`` is the
:class:`~pytest_logicenv.sim.judge.Situation` it is judged in). The scenes vary: the room
templates or the task objects alone, other design and layout seeds (other assets of the same
type, other enrichment), another room for the agent to start in, distractors of the types the
plan and the policy name (another room, another surface, one more window) and the objects
listed in reverse order (:class:`~pytest_logicenv.scenes.variation.Variation`). Each choice is
drawn as a small integer, a boolean or a list whose zero (``False``, empty) is the plain one,
so Hypothesis shrinks a failing scene toward fewer objects and plainer layouts. Every scene
drawn is checked as a generated scene is (Table 1, then the facts); one that cannot be built or
checked is rejected.

Laying a scene out takes a fraction of a second, so a test drawing from :func:`scenes` needs
``deadline=None``, the ``too_slow`` health check suppressed and few examples: the ``logicenv``
settings profile this module registers (:data:`PROFILE`) is that, with 10 examples; take it as
the test's settings (add ``max_examples=`` to explore more). :func:`scenes` takes a plan or
the path of a plan file, and a failing example is shown as its situation and variation, not as
the whole scene::

    from hypothesis import given, settings
    from pytest_logicenv.strategies import scenes

    @settings(settings.get_profile("logicenv"))
    @given(scenes("plans/tidy.json"))
    def test_tidy_everywhere(drawn):
        drawn.run(tidy_policy).assert_ok()
        # drawn.judged_by is the Situation it is judged in: goal, answers, branches

The plugin's ``--logicenv-explore=N`` draws :func:`variations` and builds their scenes in the
test body instead (``pytest_logicenv.session.explore``). Hypothesis is an optional dependency:
``pip install pytest-logicenv[explore]``.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from hypothesis import HealthCheck, reject, settings
from hypothesis import strategies as st

from pytest_logicenv.bounded import shown
from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import Fact, describe, is_type_ref, references
from pytest_logicenv.logic.plan import Plan, load_plan
from pytest_logicenv.logic.trajectories import Trajectory, select, situation
from pytest_logicenv.mutation import factory
from pytest_logicenv.mutation.tree import Behaviour, targets, walk
from pytest_logicenv.scenes.catalog import Catalog
from pytest_logicenv.scenes.design import DistractorRequest
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.scenes.variation import Variation, distractor_types, reorder, vary_scene
from pytest_logicenv.sim.judge import Situation, judge, situation_of
from pytest_logicenv.sim.selectors import selector

if TYPE_CHECKING:
    from pytest_logicenv.sim.outcome import Outcome

__all__ = ["PROFILE", "DrawnScene", "ScenePool", "policy_types", "scenes", "variations"]

#: The settings profile for tests drawing scenes: each example lays a scene out.
PROFILE = "logicenv"
settings.register_profile(
    PROFILE, deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=10
)

#: The largest seed drawn (design and layout); zero is the task's own seed.
MAX_SEED = 2**16 - 1
#: Distractors a variation adds at most.
MAX_DISTRACTORS = 3
# Room and place indices wrap around what a scene has (scenes/design/distractors.py).
_MAX_ROOM = 3
_MAX_PLACE = 7


def variations(
    plan: Plan,
    trajectory: Trajectory | None = None,
    *,
    catalog: Catalog | None = None,
    max_distractors: int = MAX_DISTRACTORS,
    policy: Any = None,
) -> st.SearchStrategy[Variation]:
    """How scenes of ``trajectory`` may vary (every draw is valid; zeros are plain). The
    distractors have the types the plan's facts name and those ``policy``'s selectors and
    conditions name (:func:`policy_types`): a second window challenges ``GoTo("Window",
    any=True)``, a second desk ``Open("Drawer", part_of="Desk")``."""
    types = distractor_types(plan, catalog, policy_types(policy))
    seeds = st.integers(0, MAX_SEED)
    distractor = st.builds(
        DistractorRequest,
        st.sampled_from(types) if types else st.nothing(),
        st.integers(0, _MAX_ROOM),
        st.integers(0, _MAX_PLACE),
    )
    return st.builds(
        Variation,
        furnished=st.booleans(),
        design_seed=seeds,
        layout_seed=seeds,
        agent_room=st.integers(0, _MAX_ROOM),
        distractors=st.lists(distractor, max_size=max_distractors if types else 0).map(tuple),
        reverse=st.booleans(),
    )


def policy_types(policy: Any) -> frozenset[str]:
    """The object types a policy names (``None``: none): its actions' selectors (``Window``
    in ``GoTo("Window", any=True)``, ``Desk`` in ``Select("Drawer", part_of="Desk")``) and
    its conditions' facts. A policy is a py_trees factory or root, or BehaviorTree.CPP XML.

    >>> from pytest_logicenv.sim.controls import sequence
    >>> from pytest_logicenv.sim.leaves import Exists, GoTo, Open, Select
    >>> sorted(policy_types(lambda: sequence("S", Exists("book", on="Shelf"),
    ...     GoTo("Window", any=True), Open(Select("Drawer", part_of="Desk")))))
    ['Desk', 'Drawer', 'Shelf', 'Window']
    """
    if policy is None:
        return frozenset()
    root = policy if isinstance(policy, Behaviour) else factory(policy)()
    named: set[str] = set()
    for _, node in walk(root):
        for target in targets(node).values():
            named.update(selector(target).references())
        fact = getattr(node, "fact", None)
        if fact is not None:
            named.update(references(fact))
    return frozenset(ref for ref in named if is_type_ref(ref))


@dataclass
class ScenePool:
    """The scenes of one trajectory's variations, built once each (Hypothesis draws the same
    variation again while it shrinks), and the last reason one could not be built."""

    plan: Plan
    trajectory: Trajectory | None
    seed: int = 0
    catalog: Catalog | None = None
    built: dict[Variation, Scene | SceneError] = field(default_factory=dict)
    invalid: int = 0
    last_error: SceneError | None = None

    def scene(self, variation: Variation) -> Scene:
        """The variation's scene, checked; :class:`SceneError` when it cannot be built or
        does not keep the situation's facts true. Variations that differ in the order of
        the objects alone share one layout."""
        laid_out = replace(variation, reverse=False)
        if laid_out not in self.built:
            try:
                self.built[laid_out] = vary_scene(
                    self.plan, self.trajectory, laid_out, seed=self.seed, catalog=self.catalog
                )
            except SceneError as error:
                self.built[laid_out] = error
        found = self.built[laid_out]
        if isinstance(found, SceneError):
            self.invalid += 1
            self.last_error = found
            raise found
        return reorder(found, variation) if variation.reverse else found


@dataclass(frozen=True)
class DrawnScene:
    """A scene drawn for a situation, with what a run in it is judged by: the trajectory it
    realizes, whose ``goal`` a policy that returns SUCCESS must have made true."""

    scene: Scene
    plan: Plan
    trajectory: Trajectory
    variation: Variation

    @property
    def goal(self) -> tuple[Fact, ...]:
        return self.trajectory.goal

    @property
    def situation(self) -> tuple[tuple[str, str], ...]:
        """The situation's conditions in the plan's words (``(question, answer)`` pairs)."""
        return situation(self.plan, self.trajectory.paths)

    @property
    def judged_by(self) -> Situation:
        """What a run in this scene is judged by, as the plugin judges it
        (:func:`~pytest_logicenv.sim.judge.situation_of`)."""
        return situation_of(self.plan, self.trajectory, self.scene)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Hypothesis prints a dataclass field by field (the scene's hundreds of lines):
        the short ``repr`` instead."""
        printer.text(repr(self))

    def run(
        self, policy: Any, *, max_ticks: int | None = None, known: Collection[str] | None = None
    ) -> Outcome:
        """Run ``policy`` in the scene as the plugin does: with the situation's goal, its
        conditions and the plan's other branches; ``known`` names may be absent from it."""
        names = None if known is None else frozenset(known)
        situation = situation_of(
            self.plan, self.trajectory, self.scene, known=names, max_ticks=max_ticks
        )
        return judge(policy, situation)

    def __repr__(self) -> str:  # what Hypothesis prints of a falsifying example
        goal = "; ".join(describe(fact) for fact in self.goal) or "nothing"
        return (
            f"DrawnScene({self.trajectory.id}: {self.variation.describe()}; scene "
            f"{self.scene.id!r}; goal: {goal})"
        )


def scenes(
    plan: Plan | str | os.PathLike[str],
    trajectory: Trajectory | None = None,
    *,
    catalog: Catalog | None = None,
    seed: int = 0,
    policy: Any = None,
) -> st.SearchStrategy[DrawnScene]:
    """Scenes that keep ``trajectory``'s facts true (``None``: any situation the ``minimal``
    selection of the plan's trajectories has), checked like generated scenes, each with its
    situation's goal (:class:`DrawnScene`); ``policy`` adds the types it names to the
    distractors' (:func:`variations`). ``plan`` may be the path of a plan file."""
    plan = _plan(plan)
    if trajectory is not None:
        return _scenes_of(ScenePool(plan, trajectory, seed, catalog), policy)
    pools = [ScenePool(plan, t, seed, catalog) for t in select(plan).trajectories]
    return st.one_of(*(_scenes_of(pool, policy) for pool in pools))


def _plan(plan: object) -> Plan:
    """A plan, or the one a path names (its errors name the file); else a clear error."""
    if isinstance(plan, str | os.PathLike):
        return load_plan(os.fspath(plan))
    if not isinstance(plan, Plan):
        raise TypeError(
            f"scenes(plan): {shown(plan)} is neither a Plan nor the path of a plan file; "
            "give a path (scenes('plans/tidy.json')) or load_plan(path)"
        )
    return plan


def _scenes_of(pool: ScenePool, policy: Any) -> st.SearchStrategy[DrawnScene]:
    trajectory = pool.trajectory
    assert trajectory is not None  # scenes() gives every pool its trajectory
    drawn = variations(pool.plan, trajectory, catalog=pool.catalog, policy=policy)

    @st.composite
    def draw_scene(draw: st.DrawFn) -> DrawnScene:
        variation = draw(drawn)
        try:
            return DrawnScene(pool.scene(variation), pool.plan, trajectory, variation)
        except SceneError:
            reject()

    return draw_scene()
