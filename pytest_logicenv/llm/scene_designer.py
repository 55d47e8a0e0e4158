"""LLM-guided scene design (paper 4.4): a trajectory -> a design request, by an LLM, checked.

The procedural designer places the task objects that the situation's facts require. The model
is shown the task, the situation (its conditions in words and the facts that realize them), the
rooms and those task objects, and answers with the paper's 4.4 outputs as one JSON object:

* ``materials``: each room's floor and wall material (4.4.1), by the catalog's names;
* ``objects``: the enrichment objects (4.4.2), each with a description retrieved to a catalog
  type (:meth:`~pytest_logicenv.scenes.catalog.Catalog.resolve`) unless the model names the type, a
  room, and a support (the floor, a wall, or the receptacle it rests on or in);
* ``relations``: spatial relations (4.4.3): unary ``edge``, ``center``, ``mounted_on_wall``;
  contact ``in``, ``on_top_of``; distance ``near``, ``far``; relative ``above``,
  ``in_front_of``, ``side_of``, ``center_aligned``, ``face_to``.

The answer becomes an :class:`~pytest_logicenv.scenes.design.Enrichment` and is checked by the
designer's own rules (:func:`~pytest_logicenv.scenes.design.design_scene` with it): unknown types,
supports that are no receptacle, objects the situation forbids, relations naming no object,
contradictions. Every violation goes back to the model, which answers again (the paper's
rule-based physical compatibility checker with iterative refinement), up to ``max_rounds``
answers; then :class:`SceneDesignError` lists what remained wrong. :class:`LLMSceneBuilder`
lays the accepted design out with Z3 and checks it as every scene is checked
(:func:`~pytest_logicenv.scenes.realization.generate_scene`).

>>> from pytest_logicenv.llm.protocol import CallableLLM
>>> plan, trajectory, _ = example_situation()
>>> llm = CallableLLM(lambda messages: json.dumps(EXAMPLE_ANSWER), model="canned")
>>> design = design_with_llm(plan, trajectory, llm)
>>> design.rounds, len(design.exchanges), design.request.made_by
(1, 1, 'llm:canned')
>>> [(o.name, o.type, o.support) for o in design.request.objects][:2]
[('tv_stand', 'TVStand', 'floor'), ('tv', 'Television', 'tv_stand')]
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pytest_logicenv.errors import (
    EnrichmentError,
    LLMError,
    Rejected,
    SceneDesignError,
    SceneError,
    Violation,
)
from pytest_logicenv.llm.conversation import Conversation
from pytest_logicenv.llm.exchange import Exchange, exchange_to_json
from pytest_logicenv.llm.protocol import LLM
from pytest_logicenv.logic.facts import describe
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory, select, situation
from pytest_logicenv.scenes.catalog import STRUCTURAL_TYPES, Catalog, default_catalog
from pytest_logicenv.scenes.design import (
    ON_FLOOR,
    ON_WALL,
    Enrichment,
    EnrichmentObject,
    EnrichmentRelation,
    RoomMaterials,
    condition_types,
    design_scene,
    trajectory_facts,
)
from pytest_logicenv.scenes.model import FAR_DISTANCE, NEAR_DISTANCE, Scene, SceneSpec

PURPOSE = "scene.design"


@dataclass(frozen=True)
class LLMDesign:
    """What the model designed for one situation: ``request`` (checked: the designer accepts
    it), every exchange in order, how many answers were checked (``rounds``; 1: the first
    passed) and the violations of each answer sent back."""

    request: Enrichment
    exchanges: tuple[Exchange, ...]
    rounds: int
    rejected: tuple[tuple[Violation, ...], ...] = ()


def design_with_llm(
    plan: Plan,
    trajectory: Trajectory,
    llm: LLM,
    *,
    seed: int = 0,
    catalog: Catalog | None = None,
    max_rounds: int = 3,
) -> LLMDesign:
    """Ask ``llm`` to design the scene of ``trajectory`` around its task objects.

    Raises :class:`SceneDesignError` when the answers still break the designer's rules after
    ``max_rounds``, :class:`~pytest_logicenv.errors.SceneError` when the task objects alone
    cannot be designed (the plan's facts are at fault, not the model), and
    :class:`~pytest_logicenv.errors.LLMError` when the endpoint fails.
    """
    if max_rounds < 1:
        raise LLMError(f"max_rounds must be at least 1, got {max_rounds}")
    catalog = catalog or default_catalog()
    base = design_scene(plan, trajectory, seed=seed, catalog=catalog, enrichment=Enrichment())
    made_by = f"llm:{llm.model}"

    def read(data: dict[str, Any]) -> Enrichment:
        request = read_answer(data, catalog, made_by)
        try:
            design_scene(plan, trajectory, seed=seed, catalog=catalog, enrichment=request)
        except EnrichmentError as error:
            raise Rejected(error.violations) from None
        except SceneError as error:  # the request as a whole: too much for a room, a shelf
            raise Rejected([Violation("design", "answer", str(error))]) from None
        return request

    talk = Conversation(llm, system_prompt(catalog), max_rounds, SceneDesignError)
    prompt = situation_prompt(plan, trajectory, base, condition_types(plan, catalog))
    request = talk.step(PURPOSE, prompt + "\n\n" + ASK, read)
    return LLMDesign(
        request=request,
        exchanges=tuple(talk.exchanges),
        rounds=len(talk.rejected) + 1,
        rejected=tuple(talk.rejected),
    )


class LLMSceneBuilder:
    """The LLM designer as a scene builder ``(plan, trajectory, seed) -> Scene``: it designs
    with the model, then lays out, checks Table 1 and the realization exactly as every scene
    is (:func:`~pytest_logicenv.scenes.realization.generate_scene`). ``name`` says who designs the
    scenes (``llm:<model>``); :meth:`take_exchanges` hands over the exchanges made since it
    was last called, as the JSON objects the cache writes."""

    def __init__(self, llm: LLM, catalog: Catalog | None = None, *, max_rounds: int = 3) -> None:
        self.llm = llm
        self.catalog = catalog
        self.max_rounds = max_rounds
        self._exchanges: list[dict[str, Any]] = []

    @property
    def name(self) -> str:
        return f"llm:{self.llm.model}"

    def __call__(self, plan: Plan, trajectory: Trajectory, seed: int) -> Scene:
        from pytest_logicenv.scenes.realization import (
            generate_scene,  # imports the layout, and z3, when used
        )

        design = design_with_llm(
            plan,
            trajectory,
            self.llm,
            seed=seed,
            catalog=self.catalog,
            max_rounds=self.max_rounds,
        )
        self._exchanges += [exchange_to_json(exchange) for exchange in design.exchanges]
        return generate_scene(
            plan, trajectory, seed=seed, catalog=self.catalog, enrichment=design.request
        )

    def take_exchanges(self) -> list[dict[str, Any]]:
        taken, self._exchanges = self._exchanges, []
        return taken


def llm_scene_builder(llm: LLM, catalog: Catalog | None = None) -> LLMSceneBuilder:
    """The scene builder that designs with ``llm`` (see :class:`LLMSceneBuilder`)."""
    return LLMSceneBuilder(llm, catalog)


# --------------------------------------------------------------------------- reading answers


def read_answer(data: Mapping[str, Any], catalog: Catalog, made_by: str) -> Enrichment:
    """The design request a model's answer makes, its descriptions retrieved to catalog
    types; raises :class:`~pytest_logicenv.errors.Rejected` listing every malformed item and
    every description no type matches. What the designer checks is left to it.

    >>> request = read_answer({"objects": [{"name": "seat", "description": "a leather sofa"}],
    ...                        "relations": [{"kind": "edge", "subject": "seat"}]},
    ...                       default_catalog(), "llm:m")
    >>> request.objects[0].type, request.objects[0].support, str(request.relations[0])
    ('Sofa', 'floor', 'edge(seat)')
    """
    problems: list[Violation] = []
    objects = [
        item
        for i, raw in enumerate(_list(data, "objects", problems))
        if (item := _read_object(raw, f"objects[{i}]", catalog, problems)) is not None
    ]
    relations = [
        relation
        for i, raw in enumerate(_list(data, "relations", problems))
        if (relation := _read_relation(raw, f"relations[{i}]", problems)) is not None
    ]
    materials = _read_materials(data.get("materials", {}), problems)
    if problems:
        raise Rejected(problems)
    return Enrichment(tuple(objects), tuple(relations), tuple(materials), made_by)


def _list(data: Mapping[str, Any], key: str, problems: list[Violation]) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        problems.append(Violation("syntax", key, f"expected a list, got {type(value).__name__}"))
        return []
    return value


def _text(
    raw: Mapping[str, Any], key: str, where: str, problems: list[Violation], required: bool
) -> str | None:
    value = raw.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        problems.append(Violation("syntax", f"{where}.{key}", "expected a non-empty string"))
        return None
    return value.strip()


def _read_object(
    raw: Any, where: str, catalog: Catalog, problems: list[Violation]
) -> EnrichmentObject | None:
    if not isinstance(raw, dict):
        problems.append(Violation("syntax", where, "expected an object with a name"))
        return None
    found = len(problems)
    name = _text(raw, "name", where, problems, required=True)
    description = _text(raw, "description", where, problems, required=False)
    type_name = _text(raw, "type", where, problems, required=False)
    room = _text(raw, "room", where, problems, required=False)
    support = _text(raw, "support", where, problems, required=False) or ON_FLOOR
    if len(problems) > found or name is None:
        return None
    where = f"{where} {name}"
    if type_name is None or not catalog.has(type_name):
        match = catalog.resolve_or_none(description) if description else None
        if match is not None:
            type_name = match.type
        elif type_name is None:
            # Retrieval failed: no type to hand to the designer, so say it here.
            close = catalog.suggestions(description or name)
            hint = f"; the closest catalog types: {', '.join(close)}" if close else ""
            problems.append(
                Violation(
                    "type",
                    where,
                    f"no object type matches the description {description or ''!r}{hint}; "
                    "describe it with a type's name, or give its 'type'",
                )
            )
            return None
    return EnrichmentObject(name, type_name, room, support, description or "")


def _read_relation(raw: Any, where: str, problems: list[Violation]) -> EnrichmentRelation | None:
    if not isinstance(raw, dict):
        problems.append(Violation("syntax", where, "expected an object with kind and subject"))
        return None
    found = len(problems)
    kind = _text(raw, "kind", where, problems, required=True)
    subject = _text(raw, "subject", where, problems, required=True)
    target = _text(raw, "target", where, problems, required=False)
    if len(problems) > found or kind is None or subject is None:
        return None
    return EnrichmentRelation(kind, subject, target)


def _read_materials(raw: Any, problems: list[Violation]) -> list[RoomMaterials]:
    if not isinstance(raw, dict):
        problems.append(
            Violation("syntax", "materials", 'expected {"<room id>": {"floor": ..., "wall": ...}}')
        )
        return []
    looks = []
    for room, chosen in raw.items():
        where = f"materials.{room}"
        if not isinstance(chosen, dict):
            problems.append(Violation("syntax", where, 'expected {"floor": ..., "wall": ...}'))
            continue
        floor = _text(chosen, "floor", where, problems, required=False)
        wall = _text(chosen, "wall", where, problems, required=False)
        looks.append(RoomMaterials(str(room), floor or "", wall or ""))
    return looks


# --------------------------------------------------------------------------- prompts

ASK = "Design the rest of this scene. Answer with the JSON object only."

#: The few-shot answer, for the first situation of the planner's worked example (the paper's
#: Clean Living Room): what :func:`example_situation` shows the model.
EXAMPLE_ANSWER: dict[str, Any] = {
    "materials": {"living_room": {"floor": "DarkWoodFloors", "wall": "DrywallBeige"}},
    "objects": [
        {"name": "tv_stand", "description": "a low oak TV stand", "room": "living_room"},
        {
            "name": "tv",
            "description": "a flat-screen television",
            "type": "Television",
            "room": "living_room",
            "support": "tv_stand",
        },
        {"name": "armchair", "description": "a grey fabric armchair", "room": "living_room"},
        {"name": "side_table", "description": "a small round end table", "room": "living_room"},
        {
            "name": "vase",
            "description": "a blue ceramic vase",
            "room": "living_room",
            "support": "side_table",
        },
        {"name": "floor_lamp", "description": "a tall floor lamp", "room": "living_room"},
        {"name": "plant", "description": "a potted house plant", "room": "living_room"},
        {
            "name": "painting",
            "description": "a landscape painting",
            "room": "living_room",
            "support": "wall",
        },
    ],
    "relations": [
        {"kind": "edge", "subject": "tv_stand"},
        {"kind": "face_to", "subject": "tv_stand", "target": "sofa"},
        {"kind": "on_top_of", "subject": "tv", "target": "tv_stand"},
        {"kind": "near", "subject": "armchair", "target": "table"},
        {"kind": "face_to", "subject": "armchair", "target": "table"},
        {"kind": "side_of", "subject": "side_table", "target": "sofa"},
        {"kind": "near", "subject": "floor_lamp", "target": "armchair"},
        {"kind": "edge", "subject": "plant"},
        {"kind": "above", "subject": "painting", "target": "sofa"},
    ],
}


@cache
def example_situation() -> tuple[Plan, Trajectory, str]:
    """The worked example's plan, its first situation, and what the model is shown of it
    (with the default catalog, whatever catalog a run uses: it is an example)."""
    from pytest_logicenv.llm.planner import example_plan

    plan = example_plan()
    trajectory = select(plan, "minimal").trajectories[0]
    catalog = default_catalog()
    base = design_scene(plan, trajectory, catalog=catalog, enrichment=Enrichment())
    text = situation_prompt(plan, trajectory, base, condition_types(plan, catalog))
    return plan, trajectory, text


def _place(obj_parent: str | None, relation: str | None) -> str:
    if relation == "wall":
        return "on a wall"
    if obj_parent is None:
        return "on the floor"
    return f"{relation} {obj_parent}"


def situation_prompt(
    plan: Plan, trajectory: Trajectory, base: SceneSpec, excluded: frozenset[str]
) -> str:
    """What the model is shown of one situation: the task, the situation in words and facts,
    the rooms, the task objects the designer placed, and the types it must not add."""
    lines = [f"Task: {plan.task}", f"Situation {trajectory.id}:"]
    lines += [f"- {question} {answer}" for question, answer in situation(plan, trajectory.paths)]
    lines.append(
        "Facts this scene makes true: "
        + "; ".join(describe(fact) for fact in trajectory_facts(plan, trajectory))
    )
    lines.append("Rooms:")
    for room in base.rooms:
        x0, z0, x1, z1 = room.bounds
        lines.append(
            f"- {room.id} ({room.type}), {x1 - x0:.1f} x {z1 - z0:.1f} m with the task objects "
            "alone"
        )
    lines.append("Task objects, already placed (relate to them by id; do not add or move them):")
    for obj in base.objects:
        attrs = ", ".join(f"{k}={v}" for k, v in sorted(obj.attrs.items()))
        lines.append(
            f"- {obj.id}: {obj.type}{f' ({attrs})' if attrs else ''}, in {obj.room}, "
            + _place(obj.parent, obj.relation)
        )
    for window in base.windows:
        state = "open" if window.open else "closed"
        lines.append(
            f"- {window.role or 'a window'}: Window ({state}), in {window.room}: an opening in "
            "a wall, not an object to relate"
        )
    lines.append("Types the task is about (add none of them): " + ", ".join(sorted(excluded)))
    return "\n".join(lines)


def _type_list(catalog: Catalog) -> str:
    entries = []
    for name, obj_type in sorted(catalog.types.items()):
        if name in STRUCTURAL_TYPES:
            continue
        marks = ("R" if obj_type.has("receptacle") else "") + ("W" if obj_type.on_wall else "")
        entries.append(f"{name} ({marks})" if marks else name)
    return ", ".join(entries)


def system_prompt(catalog: Catalog) -> str:
    """The instructions, the answer format, the relation kinds, the catalog's types and
    materials, the rules the answer is checked against, and the worked example."""
    _, _, example = example_situation()
    materials = ""
    if catalog.floor_materials or catalog.wall_materials:
        materials = (
            f"Floor materials: {', '.join(catalog.floor_materials)}.\n"
            f"Wall materials: {', '.join(catalog.wall_materials)}.\n"
        )
    return f"""\
You design household scenes for testing robot agents in simulation. Each scene shows one \
situation of a task; the objects the task is about are already placed as the situation \
requires. You complete the scene as people furnish such rooms: the rooms' floor and wall \
materials, the other objects (furniture, appliances, decoration, small things on surfaces), and \
the spatial relations between objects. Give no coordinates: a constraint solver places \
everything from your relations. Answer with one JSON object and nothing else:

{{"materials": {{"<room id>": {{"floor": "<floor material>", "wall": "<wall material>"}}}},
 "objects": [{{"name": "<new id>", "description": "<what it looks like>", \
"type": "<object type (optional)>", "room": "<room id>", \
"support": "{ON_FLOOR}" | "{ON_WALL}" | "<name or id of the receptacle it rests on or in>"}}],
 "relations": [{{"kind": "<kind>", "subject": "<name or id>", "target": "<name or id>"}}]}}

Objects: each description is matched to an object type; give "type" when you know it. A name \
is lower case letters, digits and underscores, and unique; relations name your objects by it \
and the task objects by their ids. "support" is "{ON_FLOOR}" unless you say otherwise.
Object types (R: a receptacle, things rest on or in it; W: hangs on a wall): \
{_type_list(catalog)}.
{materials}
Relations (unary kinds take no target):
- edge: against a wall, or at the rim of its support; corner: in a corner of the room, its \
back to a wall, or at a corner of its support; middle: away from the walls, with a walkway \
round it (on a support: its centre); center: in the middle of the room, or of its support; \
mounted_on_wall: hangs on a wall
- in, on_top_of: rests in or on the target (they restate the support)
- near: at most {NEAR_DISTANCE:g} m from the target; far: at least {FAR_DISTANCE:g} m away, or \
in another room
- above: higher than the target and over it (a painting above the sofa); in_front_of: in front \
of the target's front (a coffee table in front of the sofa); side_of: beside the target; \
center_aligned: on the line the target faces along; face_to: faces the target (an armchair \
facing the TV)

Rules (your answer is checked against them):
- Add only the types listed, and none of the types the task is about: another one would blur \
which situation the scene shows.
- Do not add the task objects again or move them; relate your objects to them.
- An object stands on the floor, hangs on a wall (W types only), or rests on or in a \
receptacle (R types) of its room; what rests on one surface must fit on it together.
- Relations must not contradict each other or the supports: an object has one place; nothing \
is near and far, or at the edge (or in a corner) and in the middle or the center; only far \
relates objects of different rooms.
- Furnish each room as its type usually is, with about 4 to 12 objects; a room grows with \
what stands on its floor, up to 10 m a side.

Example.
{example}

{ASK}
Answer: {json.dumps(EXAMPLE_ANSWER)}
"""
