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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.actions import ACTIONS, perform
from pytest_logicenv.sim.outcome import Step
from pytest_logicenv.sim.scene_memo import per_scene
from pytest_logicenv.sim.world import WorldState

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


def replay(scene: Scene, trace: Sequence[Step]) -> Replay:
    """``trace``'s actions, done again in a fresh world built from ``scene``."""
    actions = [step for step in trace if step.kind == "action" and step.name in ACTIONS]
    if not actions:
        return Replay(tuple(trace), _as_built(scene))
    replayed = WorldState.from_scene(scene)
    for step in actions:
        ports = ACTIONS[step.name].ports
        words = step.objects if len(step.objects) == len(ports) else step.args
        done = perform(replayed, step.name, dict(zip(ports, words, strict=False)))
        if (done.violation is None) != step.ok:
            problem = f"{step} at tick {step.tick} took effect otherwise when replayed"
            return Replay(tuple(trace), (), problem)
    return Replay(tuple(trace), tuple(snapshot(replayed).items()))


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
    differs = _difference(snapshot(world), dict(done.end))
    return (None if differs is None else f"{differs}, which no action of the trace did"), done


def _as_built(scene: Scene) -> tuple[tuple[str, Any], ...]:
    """The snapshot of ``scene``'s world as built, made once per scene."""
    return per_scene("as built", scene, lambda s: tuple(snapshot(WorldState.from_scene(s)).items()))


def snapshot(world: WorldState) -> dict[str, Any]:
    """What the actions change: each object's place, states and attributes, and the
    agent's, as tuples (kept in a :class:`Replay`)."""
    found: dict[str, Any] = {
        obj.id: (obj.room, obj.parent, obj.relation, obj.part_of,
                 tuple(sorted(obj.states.items())), tuple(sorted(obj.attrs.items())))
        for obj in world.entities
    }  # fmt: skip
    agent = world.agent
    found["the agent"] = (agent.room, agent.spot, agent.held)
    return found


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
