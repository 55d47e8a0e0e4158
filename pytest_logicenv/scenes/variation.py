"""Scene variations: other scenes of the same situation, for exploring beyond the one drawn.

A generated environment is one scene per situation. A :class:`Variation` says how another
scene of that situation differs from the plainest one: the room templates or the task objects
alone, other design and layout seeds (other assets of the same type, other enrichment, other
room proportions and places), another room for the agent to start in, distractors of the
task's and the policy's types elsewhere (:mod:`~pytest_logicenv.scenes.design.distractors`:
a pickable one on a floor or a surface, furniture where its type stands, one more window),
and the scene's objects listed in reverse order (the order in which "the first one" is found: the
distractors, added last, then come first). Every field's zero is the plain choice, so a
variation of zeros is the plainest scene, and Hypothesis, which shrinks numbers toward zero
and lists toward empty, shrinks a failing variation toward fewer objects and plainer layouts
(``pytest_logicenv.strategies`` draws them).

:func:`vary_scene` builds the scene and checks it as every generated scene is checked
(Table 1, then the situation's facts): a variation that cannot keep them raises a
:class:`~pytest_logicenv.errors.SceneError`.

>>> Variation().describe()
'the task objects alone, seeds 0, no distractors'
>>> Variation(furnished=True, layout_seed=3, distractors=(DistractorRequest("Book", 1, 2),),
...           reverse=True).describe()
'furnished, layout seed 3, distractors: a Book (room 1, place 2), objects listed in reverse order'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from pytest_logicenv.logic.facts import Absent, Exists, Fact, is_type_ref, walk
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.catalog import Catalog, default_catalog
from pytest_logicenv.scenes.design import DistractorRequest, Enrichment, design_scene
from pytest_logicenv.scenes.realization import realize
from pytest_logicenv.scenes.scene_model import Scene

#: The designer named in a variation's provenance when it has the task objects alone.
EXPLORER = "explore"


@dataclass(frozen=True)
class Variation:
    """How a scene of a situation varies; every zero (and ``False``, and ``()``) is plain."""

    furnished: bool = False
    design_seed: int = 0
    layout_seed: int = 0
    agent_room: int = 0
    distractors: tuple[DistractorRequest, ...] = ()
    reverse: bool = False

    def describe(self) -> str:
        """The variation in words, plain choices left out."""
        parts = ["furnished" if self.furnished else "the task objects alone"]
        seeds = [
            f"{name} seed {value}"
            for name, value in (("design", self.design_seed), ("layout", self.layout_seed))
            if value
        ]
        parts += seeds or ["seeds 0"]
        if self.agent_room:
            parts.append(f"agent starts in room {self.agent_room}")
        if self.distractors:
            listed = ", ".join(
                f"{_article(d.type)} {d.type} (room {d.room}, place {d.support})"
                for d in self.distractors
            )
            parts.append(f"distractors: {listed}")
        else:
            parts.append("no distractors")
        if self.reverse:
            parts.append("objects listed in reverse order")
        return ", ".join(parts)

    @property
    def key(self) -> str:
        """A short, stable name for the variation (part of its scene's id)."""
        return hashlib.sha1(repr(self).encode()).hexdigest()[:8]


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def distractor_types(
    plan: Plan, catalog: Catalog | None = None, also: Iterable[str] = ()
) -> tuple[str, ...]:
    """The types a distractor may have, sorted: the types the plan's facts name (by type, or
    bound to a role, or absent) and ``also`` (the types a policy's selectors name), those
    that stand on their own somewhere: a second book on a shelf, a second desk against a
    wall, a second window, but no drawer without its dresser, no second door.

    >>> from pytest_logicenv.llm.planner import example_plan
    >>> distractor_types(example_plan(), also=["Window", "Drawer", "Door", "toy"])
    ('Book', 'CoffeeTable', 'Mop', 'Sofa', 'Stain', 'Toy', 'ToyBox', 'WetWipes', 'Window')
    """
    catalog = catalog or default_catalog()
    named = {
        item.ref
        for fact in _plan_facts(plan)
        for item in walk(fact)
        if isinstance(item, Exists | Absent)
    }
    return tuple(sorted(t for t in named | set(also) if _stands_alone(t, catalog)))


def _stands_alone(type_name: str, catalog: Catalog) -> bool:
    if not is_type_ref(type_name) or not catalog.has(type_name):
        return False
    if type_name in OPENINGS:
        return OPENINGS[type_name]
    return not catalog.type(type_name).part_only


#: Openings in walls, which are not objects, and whether a distractor can be one more: a
#: window can, a doorway (one between each pair of neighbouring rooms) cannot.
OPENINGS = {"Window": True, "Door": False}


def _plan_facts(plan: Plan) -> Iterator[Fact]:
    yield from plan.setting
    for factor in plan.factors:
        for realization in factor.realizations.values():
            yield from realization


def vary_scene(
    plan: Plan,
    trajectory: Trajectory | None,
    variation: Variation,
    *,
    seed: int = 0,
    catalog: Catalog | None = None,
) -> Scene:
    """The scene of ``trajectory`` that ``variation`` describes (``seed``: the task's seed,
    to which the design and layout seeds are added), checked like a generated scene."""
    spec = design_scene(
        plan,
        trajectory,
        seed=seed + variation.design_seed,
        catalog=catalog,
        enrichment=None if variation.furnished else Enrichment(made_by=EXPLORER),
        distractors=variation.distractors,
    )
    rooms = [room.id for room in spec.rooms]
    spec = replace(
        spec,
        agent_room=rooms[variation.agent_room % len(rooms)]
        if variation.agent_room
        else spec.agent_room,
    )
    scene = realize(spec, plan, trajectory, seed=seed + variation.layout_seed)
    return reorder(scene, variation)


def reorder(scene: Scene, variation: Variation) -> Scene:
    """``scene`` (laid out for ``variation`` but maybe in another object order) with its
    objects in the variation's order, and the variation in its provenance notes. The order
    is the scene's own affair: the layout does not depend on it. Windows are listed in
    reverse too: "the first window" is found among them."""
    objects = scene.objects[::-1] if variation.reverse else scene.objects
    windows = scene.windows[::-1] if variation.reverse else scene.windows
    notes = tuple(n for n in scene.provenance.notes if not n.startswith(_NOTE))
    notes += (f"{_NOTE}{variation.describe()}",)
    return replace(
        scene,
        id=f"{scene.id.partition('~')[0]}~{variation.key}",
        objects=tuple(objects),
        windows=tuple(windows),
        provenance=replace(scene.provenance, notes=notes),
    )


_NOTE = "variation: "
