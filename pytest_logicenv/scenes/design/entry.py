"""The designer's entry points, and the order of its steps.

:func:`design_scene` turns a trajectory's facts
(:func:`~pytest_logicenv.scenes.realized.trajectory_facts`) into a
:class:`~pytest_logicenv.scenes.scene_model.SceneSpec`: the task objects the facts require
(``task_objects.py``), made consistent (``task_consistency.py``), each part with its whole
(``part_completion.py``); then the enrichment, from the room templates (``furnish.py``) or a design
request (``request_objects.py``, ``request_relations.py``), each floor object's spot as ProcTHOR
annotates its type (``placement.py``) and every object's parts; the assets (with the
distractors a scene variation asks for, ``distractors.py``), then what rests on each support
made to fit (``assets.py``, ``packing.py``), and added furniture left out of a room that
would outgrow the plan (``fitting.py``); last the floor plan
(``house_plan.py``) with its doors and windows (``doors_windows.py``). The design must already
realize every fact that needs no geometry, which :func:`provisional_scene` lets anyone check.

>>> from pytest_logicenv.logic.plan import Plan
>>> from pytest_logicenv.logic.facts import parse_facts
>>> plan = Plan("tidy", (), setting=parse_facts([
...     {"exists": "Sofa", "as": "sofa"},
...     {"exists": "Book", "as": "book", "where": {"on": "Floor"}}], "setting"),
...     rooms=("LivingRoom",))
>>> spec = design_scene(plan, None, seed=1)
>>> [(o.id, o.parent, o.relation) for o in spec.objects if o.task]
[('sofa', None, 'on'), ('book', None, 'on')]
>>> design_scene(plan, None, seed=1) == spec
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

from pytest_logicenv.errors import EnrichmentError, SceneError, Violation
from pytest_logicenv.logic.facts import (
    Absent,
    Attr,
    Exists,
    Fact,
    Related,
    State,
    describe,
    evaluate,
    is_type_ref,
    walk,
)
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.catalog import Catalog, default_catalog
from pytest_logicenv.scenes.design.assets import choose_assets, settle_supports
from pytest_logicenv.scenes.design.controls import keep_controls_in_step
from pytest_logicenv.scenes.design.design_request import Enrichment
from pytest_logicenv.scenes.design.distractors import add_distractors
from pytest_logicenv.scenes.design.doors_windows import openings
from pytest_logicenv.scenes.design.draft import DistractorRequest, Draft, scene_object
from pytest_logicenv.scenes.design.fitting import fit_rooms
from pytest_logicenv.scenes.design.furnish import (
    add_small_objects,
    furnish,
    keep_holdable_template_relations,
)
from pytest_logicenv.scenes.design.house_plan import floor_plan
from pytest_logicenv.scenes.design.part_completion import (
    complete_parts,
    give_wholes,
    sinks_into_counters,
)
from pytest_logicenv.scenes.design.placement import place_as_annotated
from pytest_logicenv.scenes.design.request_objects import request_materials, request_objects
from pytest_logicenv.scenes.design.request_relations import request_relations
from pytest_logicenv.scenes.design.task_consistency import (
    check_absent_clashes,
    check_supports,
    place_free_objects,
    settle_rooms,
)
from pytest_logicenv.scenes.design.task_objects import apply_fact, bind_roles, flatten, make_rooms
from pytest_logicenv.scenes.design.temperature import start_temperatures
from pytest_logicenv.scenes.realized import trajectory_facts
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    Door,
    Provenance,
    Scene,
    SceneSpec,
    SpatialRelation,
    Window,
)

DESIGNER = "procedural"


def design_scene(
    plan: Plan,
    trajectory: Trajectory | None,
    *,
    seed: int = 0,
    catalog: Catalog | None = None,
    enrichment: Enrichment | None = None,
    distractors: Sequence[DistractorRequest] = (),
) -> SceneSpec:
    """Design a scene for ``trajectory`` (or, with ``None``, for the plan's setting alone);
    ``enrichment`` replaces the room templates (an empty one: the task objects alone);
    ``distractors`` adds objects of the task's own types elsewhere (``distractors.py``)."""
    facts = trajectory_facts(plan, trajectory)
    catalog = catalog or default_catalog()
    draft = Draft(
        plan,
        catalog,
        seed,
        enrichment,
        facts=flatten(facts, random.Random(f"{seed}:or")),
        excluded=condition_types(plan, catalog),
        distractors=tuple(distractors),
    )
    spec = _build(draft, trajectory)
    _self_check(spec, facts)
    return spec


def condition_types(plan: Plan, catalog: Catalog) -> frozenset[str]:
    """Types the plan's facts talk about, and their stand-ins: enrichment never adds them, so
    that no extra object blurs which situation a scene shows.

    >>> from pytest_logicenv.llm.planner import example_plan
    >>> types = condition_types(example_plan(), default_catalog())
    >>> "Toy" in types, "TeddyBear" in types, "Television" in types  # a teddy stands in for a toy
    (True, True, False)
    """
    facts = list(plan.setting) + [
        fact
        for factor in plan.factors
        for realization in factor.realizations.values()
        for fact in realization
    ]
    types: set[str] = set()
    for ref in (ref for fact in facts for ref in _refs(fact)):
        if is_type_ref(ref) and catalog.has(ref):
            types.add(ref)
            types.update(a.source_type for a in catalog.type(ref).assets)
    return frozenset(types)


def _refs(fact: Fact) -> Iterator[str]:
    """The objects (roles or types) a fact and its parts are about."""
    for item in walk(fact):
        if isinstance(item, Exists | Absent):
            yield item.ref
        elif isinstance(item, Related | State | Attr):
            yield getattr(item, "subject", getattr(item, "ref", ""))


def provisional_scene(spec: SceneSpec) -> Scene:
    """The scene a design describes before layout (no positions): facts about what exists,
    where it rests, its states and attributes already evaluate on it."""
    return Scene(
        spec.id,
        rooms=spec.rooms,
        doors=tuple(
            Door(d.id, "", d.rooms, 0.0, d.width, d.height, d.open, d.asset_id, d.role)
            for d in spec.doors
        ),
        windows=tuple(
            Window(w.id, "", w.room, 0.0, w.width, w.height, w.sill, w.open, w.asset_id, w.role)
            for w in spec.windows
        ),
        objects=spec.objects,
        relations=spec.relations,
        provenance=spec.provenance,
    )


# --------------------------------------------------------------------------- the steps


def _build(draft: Draft, trajectory: Trajectory | None) -> SceneSpec:
    _read_facts(draft)
    if draft.enrichment is None:
        for room_id, kind in draft.rooms:
            furnish(draft, room_id, kind)
    else:
        _apply_request(draft, draft.enrichment)
    place_free_objects(draft)
    place_as_annotated(draft)  # corners, walls, the middle, as ProcTHOR annotates each type
    complete_parts(draft)  # every object with the parts it is made of
    keep_controls_in_step(draft)  # a knob that is on has its burner on
    choose_assets(draft)  # furniture first: small objects must fit what they rest on
    if draft.enrichment is None:
        for room_id, kind in draft.rooms:
            add_small_objects(draft, room_id, kind)
    add_distractors(draft, draft.distractors)
    if draft.enrichment is None or draft.distractors:
        choose_assets(draft)
    keep_holdable_template_relations(draft)  # no picture above a headboard to the ceiling
    start_temperatures(draft)  # food in a fridge starts cold
    settle_supports(draft)
    fit_rooms(draft)  # what the designer added left out of a room too big for the plan
    return _spec(draft, trajectory)


def _read_facts(draft: Draft) -> None:
    """The rooms and task objects the facts require, checked for consistency."""
    make_rooms(draft)
    bind_roles(draft)
    for fact in draft.facts:
        apply_fact(draft, fact)
    check_supports(draft)
    give_wholes(draft)
    settle_rooms(draft)
    sinks_into_counters(draft)
    check_absent_clashes(draft)


def _apply_request(draft: Draft, request: Enrichment) -> None:
    """Add a design request's materials, objects and relations. Every item that cannot
    be added is reported at once, in an :class:`EnrichmentError`, so that whoever asked
    can fix them all in one go."""
    problems: list[Violation] = []
    request_materials(draft, request.materials, problems)
    left_out = request_objects(draft, request.objects, problems)
    request_relations(draft, request, left_out, problems)
    if problems:
        raise EnrichmentError(problems)


def _spec(draft: Draft, trajectory: Trajectory | None) -> SceneSpec:
    plan = floor_plan(draft)
    doors, windows = openings(draft, plan)
    objects = tuple(scene_object(obj) for obj in draft.objects.values())
    relations = tuple(_spec_relations(draft))  # before the provenance: it adds notes
    return SceneSpec(
        id=trajectory.id if trajectory is not None else "setting",
        rooms=plan.rooms,
        objects=objects,
        doors=doors,
        windows=windows,
        relations=relations,
        agent_room=draft.rooms[0][0],
        provenance=Provenance(
            trajectory=trajectory.id if trajectory is not None else None,
            conditions=trajectory.conditions if trajectory is not None else (),
            designer=DESIGNER if draft.enrichment is None else draft.enrichment.made_by,
            seed=draft.seed,
            notes=tuple(draft.notes),
            dropped=tuple(draft.dropped_relations),
            dropped_objects=tuple(draft.dropped),
        ),
    )


def _spec_relations(draft: Draft) -> list[SpatialRelation]:
    """The draft's relations and each object's contact relation, one per kind and pair (the
    highest priority), but for those naming an object left out."""
    unique: dict[tuple[str, str, str | None], SpatialRelation] = {}
    for relation in [*draft.relations, *_contacts(draft)]:
        key = (relation.kind, relation.subject, relation.target)
        if key not in unique or unique[key].priority < relation.priority:
            unique[key] = relation
    kept = []
    dropped = {d.id: d.reason for d in draft.dropped}
    for relation in unique.values():
        gone = [n for n in (relation.subject, relation.target) if n and n not in draft.objects]
        if gone and gone[0] in dropped:  # left out of a room too full, as the layout does
            reason = f"dropped: an object it names was left out ({dropped[gone[0]]})"
            draft.dropped_relations.append(replace(relation, reason=reason))
        elif gone:  # a requested object left out (no room for it on its support)
            draft.notes.append(f"{relation} left out with {gone[0]}")
        else:
            kept.append(relation)
    return kept


def _contacts(draft: Draft) -> Iterator[SpatialRelation]:
    """What rests on or in another object, or hangs on a wall, as relations to satisfy."""
    for obj in draft.objects.values():
        priority = PRIORITY_TASK if obj.task else PRIORITY_ENRICHMENT
        if obj.part_of is not None:
            continue  # a part is where its whole is: no relation places it
        if obj.parent is not None:
            kind = "in" if obj.relation == "in" else "on_top_of"
            reason = obj.why.get("place", "support")
            yield SpatialRelation(kind, obj.id, obj.parent, priority, reason)
        elif obj.relation == "wall":
            yield SpatialRelation("mounted_on_wall", obj.id, None, priority, "wall")


def _self_check(spec: SceneSpec, facts: Sequence[Fact]) -> None:
    """The design must already realize every fact that needs no geometry."""
    scene = provisional_scene(spec)
    wrong = [
        fact
        for fact in facts
        if not any(isinstance(item, Related) and item.relation == "near" for item in walk(fact))
        and not evaluate(fact, scene)
    ]
    if wrong:
        raise SceneError(
            f"design {spec.id!r} does not realize: "
            + "; ".join(describe(f) for f in wrong)
            + " (the facts may be unsatisfiable together; check the plan)"
        )
