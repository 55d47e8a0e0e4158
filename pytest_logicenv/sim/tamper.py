"""Whether a run's world changed only through its actions: the tamper check.

A policy is Python running in our process, so a determined one can reach the mutable world
past the read-only views (``view.world_of(self.agent)``, ``gc.get_objects()``). It cannot
reach a world made after it ran: the run's trace is replayed, action by action, in a fresh
world built from the scene, and each action must take effect (or not) as it did in the run,
and the world must end as the run's did. A run whose world changed any other way is an
``error`` that says so. (What this does not catch: a policy that rewrites the simulator's
own code or state for the replay too; only a separate process would.)

A replay depends only on the scene and the trace, so a :class:`Replay` is kept and handed to
the check of another run of the same scene: a run whose trace is the replayed one's (the
judge's second run of a deterministic policy) is checked against it without replaying again.
A trace with no action leaves the scene's world as built, whose snapshot is made once per scene
(``scene_memo``): a policy that only checks conditions builds no world to
be checked.

Runs and replays are copies of the scene's world built once (``WorldState.start``), which
share every object they did not change, and a shared object cannot be changed (it refuses
writes; a world copies it first): so only the objects either world changed are compared, and
a check costs what the run changed, not the whole scene.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.actions import ACTIONS, perform
from pytest_logicenv.sim.outcome import Step
from pytest_logicenv.sim.scene_memo import per_scene
from pytest_logicenv.sim.world import WorldObject, WorldState

#: The status of a run whose world changed past its actions.
TAMPERED = "TAMPERED"


@dataclass(frozen=True)
class Replay:
    """What ``trace``'s actions make of a scene: the world's end (:func:`snapshot`'s items),
    or the step that took effect otherwise when replayed (``problem``; the replay stops
    there). Immutable through and through: a later run's policy may find it (``gc``), and
    must not be able to make it agree with a world it changed."""

    trace: tuple[Step, ...]
    end: tuple[tuple[str, Any], ...]
    problem: str | None = None
    #: The built world the replay was copied from and the objects it changed (``end`` then
    #: holds only theirs and the agent's); ``None``: ``end`` holds every object.
    origin: object | None = None
    changed: frozenset[str] = frozenset()


def replay(scene: Scene, trace: Sequence[Step]) -> Replay:
    """``trace``'s actions, done again in a fresh world built from ``scene``."""
    actions = [step for step in trace if step.kind == "action" and step.name in ACTIONS]
    if not actions:
        end, origin = _as_built(scene)
        return Replay(tuple(trace), end, origin=origin)
    replayed = WorldState.start(scene)
    for step in actions:
        ports = ACTIONS[step.name].ports
        words = step.objects if len(step.objects) == len(ports) else step.args
        done = perform(replayed, step.name, dict(zip(ports, words, strict=False)))
        if (done.violation is None) != step.ok:
            problem = f"{step} at tick {step.tick} took effect otherwise when replayed"
            return Replay(tuple(trace), (), problem)
    changed = replayed.changed()
    end = tuple(snapshot(replayed, changed).items())
    return Replay(tuple(trace), end, origin=replayed.origin, changed=changed)


def tampering(
    scene: Scene, trace: Sequence[Step], world: WorldState, known: Replay | None = None
) -> tuple[str | None, Replay]:
    """Why ``world`` (the run's, at its end) is not what ``trace``'s actions make of
    ``scene`` (``None``: it is), and the replay that says so: ``known``, a replay of this
    scene, when its trace is this one (the same actions make the same world), else a new
    one."""
    done = known if known is not None and known.trace == tuple(trace) else replay(scene, trace)
    if done.problem is not None:
        return done.problem, done
    differs = _difference(*_compared(scene, world, done))
    return (None if differs is None else f"{differs}, which no action of the trace did"), done


_Built = tuple[tuple[tuple[str, Any], ...], object]


def _as_built(scene: Scene) -> _Built:
    """The snapshot of ``scene``'s world as built (of no object: each is the built one's)
    and what it was copied from, made once per scene."""
    return per_scene("as built", scene, _built)


def _built(scene: Scene) -> _Built:
    world = WorldState.start(scene)
    return tuple(snapshot(world, frozenset()).items()), world.origin


def _compared(
    scene: Scene, world: WorldState, done: Replay
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The run's and the replay's snapshots: of the objects either changed when both are
    copies of one built world (every other object is that world's, in both), else whole."""
    if done.origin is None or done.origin is not world.origin:
        replayed = dict(done.end)
        if done.origin is not None:  # a replay of its changes only: the rest as built
            replayed = {**snapshot(WorldState.start(scene)), **replayed}
        return snapshot(world), replayed
    ids = world.changed() | done.changed
    replayed = dict(done.end)
    for obj_id in ids - done.changed:
        replayed[obj_id] = _entry(world.as_started(obj_id))
    return snapshot(world, ids), replayed


def snapshot(world: WorldState, ids: frozenset[str] | None = None) -> dict[str, Any]:
    """What the actions change: each object's place, states and attributes (of the objects
    ``ids`` only, when given), and the agent's, as tuples (kept in a :class:`Replay`)."""
    objects = world.entities if ids is None else [world.objects[i] for i in sorted(ids)]
    found: dict[str, Any] = {obj.id: _entry(obj) for obj in objects}
    agent = world.agent
    found["the agent"] = (agent.room, agent.spot, agent.held)
    return found


def _entry(obj: WorldObject) -> tuple[Any, ...]:
    return (obj.room, obj.parent, obj.relation, obj.part_of,
            tuple(sorted(obj.states.items())), tuple(sorted(obj.attrs.items())))  # fmt: skip


def _difference(run: dict[str, Any], replayed: dict[str, Any]) -> str | None:
    for name in sorted(set(run) | set(replayed)):
        if run.get(name) != replayed.get(name):
            after, made = _said(run.get(name)), _said(replayed.get(name))
            return f"{name} is {after} after the run, {made} by its actions"
    return None


def _said(value: Any) -> str:
    if value is None:
        return "absent"
    if isinstance(value, tuple) and len(value) == 6:
        room, parent, relation, _, states, _ = value
        where = f"{relation} {parent}" if parent else f"in {room}"
        shown = ", ".join(f"{k}={v}" for k, v in states)
        return f"{where} ({shown})" if shown else where
    return str(value)
