"""What the LLM scene designer says to the model (paper 4.4): one system prompt (the answer
format, the relation kinds, the catalog's types, the rules and a worked example) and one
message per situation (the task, the situation, the rooms, the task objects already placed
with what each receptacle takes, the types to leave out, and the corrections this task's
earlier scenes needed).

Short rules stand in for long lists: the ~200 floor and wall material names are a rule with
a few examples (an unknown name is answered with the closest ones), and each type's mark says
whether things go in it, on it, or it hangs on a wall.

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> print(receptacle_note(default_catalog().type("ShelvingUnit")))
things go on it (on_top_of)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

from pytest_logicenv.llm.plan_prompts import example_plan
from pytest_logicenv.logic.facts import Fact, describe, references
from pytest_logicenv.logic.plan import Plan, located_facts
from pytest_logicenv.logic.rules.implication import implies
from pytest_logicenv.logic.trajectories import Trajectory, select, situation
from pytest_logicenv.scenes.catalog import STRUCTURAL_TYPES, Catalog, ObjectType, default_catalog
from pytest_logicenv.scenes.design import (
    ON_FLOOR,
    ON_WALL,
    Enrichment,
    condition_types,
    design_scene,
    trajectory_facts,
)
from pytest_logicenv.scenes.scene_model import FAR_DISTANCE, NEAR_DISTANCE, SceneSpec

ASK = "Design the rest of this scene. Answer with the JSON object only."
#: Material names shown as examples of each kind; the rest are checked, not listed.
MATERIAL_EXAMPLES = 4

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
    plan = example_plan()
    trajectory = select(plan, "minimal").trajectories[0]
    catalog = default_catalog()
    base = design_scene(plan, trajectory, catalog=catalog, enrichment=Enrichment())
    text = situation_prompt(plan, trajectory, base, catalog)
    return plan, trajectory, text


# --------------------------------------------------------------------------- one situation


def receptacle_note(obj_type: ObjectType) -> str:
    """How things rest on or in a type, as the relations say it ("" for no receptacle)."""
    if not obj_type.has("receptacle"):
        return ""
    if obj_type.accepts:
        return f"takes only {', '.join(obj_type.accepts)} (in)"
    return "things go in it (in)" if obj_type.container else "things go on it (on_top_of)"


def _place(parent: str | None, relation: str | None) -> str:
    if relation == "wall":
        return "on a wall"
    if parent is None:
        return "on the floor"
    return f"{relation} {parent}"


def _excluded_text(plan: Plan, catalog: Catalog) -> str:
    """The task's own types, each with the types that stand in for it on export (a teddy
    bear shows a toy): the model adds none of them."""
    excluded = condition_types(plan, catalog)
    own = sorted(t for t in excluded if t in catalog.types and _named(plan, t))
    shown = []
    for name in own:
        look_alikes = sorted(
            ({a.source_type for a in catalog.type(name).assets} - {name}) & excluded
        )
        shown.append(f"{name} (also {', '.join(look_alikes)})" if look_alikes else name)
    return ", ".join(shown or sorted(excluded))


def _named(plan: Plan, type_name: str) -> bool:
    return any(type_name in references(fact) for _, fact in located_facts(plan))


def _fact_texts(plan: Plan, trajectory: Trajectory) -> list[str]:
    """The situation's facts, each once: a fact another one implies is left out (the setting's
    toy on the floor, when a realization says it is a doll on the floor)."""
    facts: list[Fact] = []
    for fact in trajectory_facts(plan, trajectory):
        if fact not in facts:
            facts.append(fact)
    kept = [
        fact
        for fact in facts
        if not any(other != fact and implies((other,), (fact,)) for other in facts)
    ]
    return list(dict.fromkeys(describe(fact) for fact in kept))


def situation_prompt(
    plan: Plan,
    trajectory: Trajectory,
    base: SceneSpec,
    catalog: Catalog,
    corrections: Sequence[str] = (),
) -> str:
    """What the model is shown of one situation: the task, the situation in words and facts,
    the rooms, the task objects the designer placed (with what each receptacle takes), the
    types it must not add, and the corrections earlier scenes of this task needed."""
    lines = [f"Task: {plan.task}", f"Situation {trajectory.id}:"]
    lines += [f"- {question} {answer}" for question, answer in situation(plan, trajectory.paths)]
    lines.append("Facts this scene makes true: " + "; ".join(_fact_texts(plan, trajectory)))
    lines.append("Rooms:")
    for room in base.rooms:
        x0, z0, x1, z1 = room.bounds
        lines.append(
            f"- {room.id} ({room.type}), {x1 - x0:.1f} x {z1 - z0:.1f} m with the task objects "
            "alone"
        )
    lines.append("Task objects, already placed (relate to them by id; do not add or move them):")
    for obj in base.objects:
        if obj.part_of is not None:
            continue  # parts come with their whole
        attrs = ", ".join(f"{k}={v}" for k, v in sorted(obj.attrs.items()))
        note = receptacle_note(catalog.type(obj.type)) if catalog.has(obj.type) else ""
        lines.append(
            f"- {obj.id}: {obj.type}{f' ({attrs})' if attrs else ''}, in {obj.room}, "
            + _place(obj.parent, obj.relation)
            + (f"; {note}" if note else "")
        )
    for window in base.windows:
        state = "open" if window.open else "closed"
        lines.append(
            f"- {window.role or 'a window'}: Window ({state}), in {window.room}: an opening in "
            "a wall, not an object to relate"
        )
    lines.append("Types the task is about (add none of them): " + _excluded_text(plan, catalog))
    if corrections:
        lines.append("Corrections this task's earlier scenes needed (do not repeat them):")
        lines += [f"- {correction}" for correction in corrections]
    return "\n".join(lines)


# --------------------------------------------------------------------------- the system prompt


def mark(obj_type: ObjectType) -> str:
    """The listing's mark: ``wall`` for a type the checker hangs on a wall (a TowelHolder is
    ``wall, on``), then ``in`` or ``on`` for a receptacle."""
    marks = ["wall"] if obj_type.on_wall and not obj_type.on_floor else []
    if obj_type.has("receptacle"):
        marks.append("in" if obj_type.container else "on")
    return ", ".join(marks)


def _type_list(catalog: Catalog) -> str:
    entries = []
    for name, obj_type in sorted(catalog.types.items()):
        if name in STRUCTURAL_TYPES or obj_type.part_only:
            continue
        shown = mark(obj_type)
        entries.append(f"{name} ({shown})" if shown else name)
    return ", ".join(entries)


def _materials_rule(catalog: Catalog) -> str:
    if not (catalog.floor_materials or catalog.wall_materials):
        return ""
    floors = ", ".join(catalog.floor_materials[:MATERIAL_EXAMPLES])
    walls = ", ".join(catalog.wall_materials[:MATERIAL_EXAMPLES])
    return (
        f"Materials are AI2-THOR's names: floors such as {floors}; walls such as {walls} "
        "(an unknown name is answered with the closest ones; leave a room out to let the "
        "designer choose).\n"
    )


def system_prompt(catalog: Catalog) -> str:
    """The instructions, the answer format, the relation kinds, the catalog's types, the
    materials rule, the rules the answer is checked against, and the worked example."""
    _, _, example = example_situation()
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
Object types (in: things go in it; on: things go on it; wall: hangs on a wall; drawers, \
shelves, a sink's basin and the like come with their whole): {_type_list(catalog)}.
{_materials_rule(catalog)}
Relations (unary kinds take no target):
- edge: against a wall, or at the rim of its support; corner: in a corner of the room, its \
back to a wall, or at a corner of its support; middle: away from the walls, with a walkway \
round it (on a support: its centre); center: in the middle of the room, or of its support; \
mounted_on_wall: hangs on a wall
- in, on_top_of: rests in or on the target, as its mark says (they restate the support)
- near: at most {NEAR_DISTANCE:g} m from the target; far: at least {FAR_DISTANCE:g} m away, or \
in another room
- above: higher than the target and over it (a painting above the sofa); in_front_of: in front \
of the target's front (a coffee table in front of the sofa); side_of: beside the target; \
center_aligned: on the line the target faces along; face_to: faces the target (an armchair \
facing the TV)

Rules (your answer is checked against them):
- Add only the types listed, and none of the types the task is about: another one would blur \
which situation the scene shows.
- Add to a room only types that occur in rooms of its type, as ProcTHOR's annotations say: \
no floor lamp in a bedroom, no counter outside a kitchen.
- Do not add the task objects again or move them; relate your objects to them.
- An object stands on the floor, hangs on a wall (wall types only), or rests on or in a \
receptacle (in and on types) of its room; what rests on one surface must fit on it together.
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
