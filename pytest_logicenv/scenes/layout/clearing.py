"""Clearing the way: when furniture closes the agent off from a task object in every layout
tried, leave out the enrichment objects that do, least important and nearest first.

The layout keeps the objects it placed where they are; it takes out what stands on the floor
(or hangs on a wall) nearest to the task objects out of reach, one at a time, until the agent
reaches all of them, then puts back, most important first, each one the way does not need.
What was taken out (and what rested on it) is recorded like any object left out, and so are
the relations naming it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from pytest_logicenv.scenes.layout.leave_out import Ranking
from pytest_logicenv.scenes.layout.reachability import reach_targets, walkable
from pytest_logicenv.scenes.layout.room_grid import RoomPlan, WallRun
from pytest_logicenv.scenes.scene_model import (
    AgentStart,
    DroppedObject,
    Scene,
    footprint_gap,
)


def clear_the_way(
    scene: Scene, plans: Mapping[str, RoomPlan], runs: Sequence[WallRun], ranking: Ranking
) -> tuple[Scene, AgentStart] | None:
    """``scene`` without the enrichment objects that keep the agent from its targets, and
    where the agent starts; None when taking out all of them would not be enough."""
    out, agent = walkable(scene, plans, runs)
    if not out:
        return scene, agent
    blocked = [fp for name, _, fp in reach_targets(scene, runs) if name in out]
    candidates = sorted(
        (
            o
            for o in scene.objects
            if o.parent is None and o.id in ranking.priority and ranking.droppable(o.id)
        ),
        key=lambda o: (
            min(footprint_gap(o.footprint, fp) for fp in blocked),
            tuple(-k for k in ranking.key(o.id)),
        ),
    )
    removed: list[str] = []
    for candidate in candidates:
        removed.append(candidate.id)
        out, agent = walkable(_without(scene, removed), plans, runs)
        if not out:
            break
    else:
        return None
    for item_id in ranking.order(removed):  # put back what the way does not need
        trial = [i for i in removed if i != item_id]
        trial_out, trial_agent = walkable(_without(scene, trial), plans, runs)
        if not trial_out:
            removed, agent = trial, trial_agent
    return _record(scene, removed, ranking, out_of_reach=blocked), agent


def _gone(scene: Scene, removed: Collection[str]) -> set[str]:
    """The ids of ``removed`` and of everything resting on them or part of them."""
    by_id = {obj.id: obj for obj in scene.objects}
    gone = set(removed)
    for obj in scene.objects:
        current, seen = obj, {obj.id}
        while (up := current.parent or current.part_of) is not None and up in by_id:
            if up in gone:
                gone.add(obj.id)
                break
            if up in seen:
                break
            seen.add(up)
            current = by_id[up]
    return gone


def _without(scene: Scene, removed: Collection[str]) -> Scene:
    gone = _gone(scene, removed)
    return scene.with_objects([obj for obj in scene.objects if obj.id not in gone])


def _record(
    scene: Scene, removed: Sequence[str], ranking: Ranking, out_of_reach: Sequence[object]
) -> Scene:
    """The scene without ``removed``, each recorded as left out, with its relations."""
    gone = _gone(scene, removed)
    why = "it closed off the agent's way to a task object"
    dropped_objects = tuple(
        DroppedObject(
            obj.id,
            obj.type,
            obj.room,
            ranking.priority.get(obj.id, obj.priority),
            why if obj.id in removed else "it rested on, or was part of, an object left out",
        )
        for obj in scene.objects
        if obj.id in gone
    )
    kept = tuple(r for r in scene.provenance.kept if not {r.subject, r.target} & gone)
    newly = tuple(
        replace(r, reason=f"dropped: an object it names was left out ({why})")
        for r in scene.provenance.kept
        if {r.subject, r.target} & gone
    )
    provenance = replace(
        scene.provenance,
        kept=kept,
        dropped=scene.provenance.dropped + newly,
        dropped_objects=scene.provenance.dropped_objects + dropped_objects,
        notes=scene.provenance.notes
        + tuple(f"left out {d.id} (priority {d.priority}): {d.reason}" for d in dropped_objects),
    )
    return replace(_without(scene, removed), provenance=provenance)
