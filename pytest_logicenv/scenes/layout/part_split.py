"""Parts in the layout: they have no layout of their own, so they leave the problem and come
back at their parents.

Before solving, :func:`split_parts` takes out every part (a dresser's drawers) and everything
resting in or on a part, however deep (the apple in the drawer, the plate on the shelf and the
cake on the plate): the *riders*. The solver places the rest. :func:`rejoin` then puts the
riders back, each part at its parent's slot and its contents in it
(:func:`~pytest_logicenv.scenes.part_geometry.attach_parts`); what rests in a part stands where
its part
is, so the spatial relations of riders other than their supports are recorded as dropped, with
the reason. A part whose ``part_of`` names no object of the design is a design problem. A
part that takes its whole's top (a counter's sink) keeps what stands on the whole off it
(:func:`taken_tops`).

>>> from pytest_logicenv.scenes.scene_model import Room, SceneObject, SceneSpec
>>> spec = SceneSpec("s", rooms=(Room("r", "Bedroom", ((0, 0), (3, 0), (3, 3), (0, 3))),),
...     objects=(SceneObject("dresser", "Dresser", room="r"),
...              SceneObject("drawer", "Drawer", room="r", relation="part", part_of="dresser"),
...              SceneObject("sock", "Sock", room="r", parent="drawer", relation="in")))
>>> solid, riders = split_parts(spec)
>>> [o.id for o in solid.objects], [o.id for o in riders]
(['dresser'], ['drawer', 'sock'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pytest_logicenv.errors import Violation
from pytest_logicenv.scenes.part_geometry import attach_parts, top_raise, top_taken
from pytest_logicenv.scenes.scene_model import (
    DroppedObject,
    Scene,
    SceneObject,
    SceneSpec,
    SpatialRelation,
)

#: Relations that restate where a rider rests: they hold by construction.
SUPPORTS = frozenset({"in", "on_top_of"})


def part_problems(spec: SceneSpec) -> list[Violation]:
    """Parts whose parent is not an object of the design, or that rest on something."""
    ids = {obj.id for obj in spec.objects}
    problems = []
    for obj in spec.objects:
        if obj.part_of is None:
            continue
        where = f"objects[{obj.id}]"
        if obj.part_of not in ids:
            problems.append(
                Violation(
                    "support",
                    where,
                    f"a part of {obj.part_of!r}, which is not an object of the design: add "
                    "its parent, or make it an object of its own (no part_of)",
                )
            )
        elif obj.parent is not None:
            problems.append(
                Violation(
                    "support",
                    where,
                    f"a part of {obj.part_of!r} cannot also rest on {obj.parent!r}: a part "
                    "is where its parent is",
                )
            )
    return problems


def split_parts(spec: SceneSpec) -> tuple[SceneSpec, tuple[SceneObject, ...]]:
    """The design without its riders (parts and what rests in them), and the riders."""
    riding = {obj.id for obj in spec.objects if obj.part_of is not None}
    grew = True
    while grew:
        more = {o.id for o in spec.objects if o.parent in riding and o.id not in riding}
        riding |= more
        grew = bool(more)
    if not riding:
        return spec, ()
    solid = replace(
        spec,
        objects=tuple(o for o in spec.objects if o.id not in riding),
        relations=tuple(r for r in spec.relations if not _names(r, riding)),
    )
    return solid, tuple(o for o in spec.objects if o.id in riding)


def _part_types(spec: SceneSpec) -> dict[str, list[str]]:
    kinds: dict[str, list[str]] = {}
    for obj in spec.objects:
        if obj.part_of is not None:
            kinds.setdefault(obj.part_of, []).append(obj.type)
    return kinds


def taken_tops(spec: SceneSpec) -> dict[str, float]:
    """Object id -> the width at its right end its parts take from its top (a counter's sink):
    what stands on it keeps off that end (:func:`~.constraints.hard_constraints`)."""
    kinds = _part_types(spec)
    taken = {obj.id: top_taken(kinds.get(obj.id, ()), obj.size[0]) for obj in spec.objects}
    return {object_id: width for object_id, width in taken.items() if width > 0}


def raised_tops(spec: SceneSpec) -> dict[str, float]:
    """Object id -> how far above its top what stands on it rests, on the parts that cover
    the top (a stove's burners: :func:`~pytest_logicenv.scenes.part_geometry.top_raise`)."""
    raised = {whole: top_raise(kinds) for whole, kinds in _part_types(spec).items()}
    return {object_id: height for object_id, height in raised.items() if height > 0}


def rejoin(scene: Scene, spec: SceneSpec, riders: Sequence[SceneObject]) -> Scene:
    """The laid-out ``scene`` of the design without riders, with the riders back in place
    and the design's relations; riders' relations other than supports are dropped. The riders
    of an object the layout left out (a room too full for the dresser) are left out with it,
    and all their relations dropped."""
    if not riders:
        return scene
    owner = owners(spec, riders)
    gone = {d.id for d in scene.provenance.dropped_objects}
    lost = {obj.id for obj in riders if owner[obj.id] in gone}
    placed = {obj.id: obj for obj in (*scene.objects, *riders)}
    objects = tuple(placed[obj.id] for obj in spec.objects if obj.id not in gone | lost)
    riding = {obj.id for obj in riders}
    dropped = tuple(
        replace(relation, reason=_why_dropped(relation, riding, lost))
        for relation in spec.relations
        if _names(relation, lost) or (_names(relation, riding) and relation.kind not in SUPPORTS)
    )
    left_out = tuple(
        DroppedObject(
            obj.id,
            obj.type,
            obj.room,
            obj.priority,
            f"it is part of, or rests in a part of, {owner[obj.id]!r}, which was left out",
        )
        for obj in riders
        if obj.id in lost
    )
    provenance = replace(
        scene.provenance,
        dropped=(*scene.provenance.dropped, *dropped),
        dropped_objects=(*scene.provenance.dropped_objects, *left_out),
    )
    joined = replace(scene, objects=objects, relations=spec.relations, provenance=provenance)
    return attach_parts(joined)


def owners(spec: SceneSpec, riders: Sequence[SceneObject]) -> dict[str, str]:
    """For each rider, the object of the design without riders it goes with (the dresser of
    a drawer, or of the sock in the drawer)."""
    by_id = {obj.id: obj for obj in spec.objects}
    riding = {obj.id for obj in riders}
    out = {}
    for obj in riders:
        current, seen = obj, {obj.id}
        while current.id in riding:
            up = current.part_of or current.parent
            if up is None or up not in by_id or up in seen:
                break
            seen.add(up)
            current = by_id[up]
        out[obj.id] = current.id
    return out


def carried(spec: SceneSpec, riders: Sequence[SceneObject]) -> dict[str, tuple[bool, int]]:
    """For each object of the design without riders that riders go with: whether one of them
    is a task object, and the highest priority among them (a dresser whose drawer holds the
    task's sock is as important as the sock)."""
    out: dict[str, tuple[bool, int]] = {}
    for rider_id, owner in owners(spec, riders).items():
        rider = next(obj for obj in riders if obj.id == rider_id)
        task, priority = out.get(owner, (False, rider.priority))
        out[owner] = (task or rider.task, max(priority, rider.priority))
    return out


def rider_tops(spec: SceneSpec, riders: Sequence[SceneObject]) -> dict[str, float]:
    """For each object riders go with, how high (metres above its bottom) the highest of them
    reaches once in place: a sink's faucet stands above the sink, and the layout must keep
    the mirror above the sink clear of it."""
    owner = owners(spec, riders)
    by_id = {obj.id: obj for obj in spec.objects}
    out = {}
    for owner_id in sorted(set(owner.values())):
        base = by_id[owner_id]
        anchor = replace(base, position=(0.0, base.size[1] / 2, 0.0), rotation=0)
        group = (anchor, *(obj for obj in riders if owner[obj.id] == owner_id))
        placed = attach_parts(Scene("rider_tops", objects=group))
        out[owner_id] = max(obj.position[1] + obj.size[1] / 2 for obj in placed.objects)
    return out


def _why_dropped(relation: SpatialRelation, riding: set[str], lost: set[str]) -> str:
    if _names(relation, lost):
        return f"dropped: {_rider(relation, lost)} was left out with what it is part of"
    return f"{_rider(relation, riding)} rests in a part: where it is follows the part's parent"


def _names(relation: SpatialRelation, ids: set[str]) -> bool:
    return relation.subject in ids or (relation.target is not None and relation.target in ids)


def _rider(relation: SpatialRelation, ids: set[str]) -> str:
    return relation.subject if relation.subject in ids else str(relation.target)
