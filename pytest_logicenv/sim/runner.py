"""Run a behavior-tree policy in a scene and classify what happened.

A policy is a py_trees root behaviour, a zero-argument factory that returns one (called once
per run, so no state leaks between runs), or the path of a BehaviorTree.CPP v4 XML file. The
runner builds the world from the scene, binds every simulator leaf to the run's agent, ticks
the root until it returns SUCCESS or FAILURE or the tick budget is spent, and returns an
:class:`~pytest_logicenv.sim.outcome.Outcome`. Runs are deterministic; the py_trees blackboard is
restored after each run, so every run starts from the blackboard it was called with.

>>> import py_trees
>>> from pytest_logicenv.sim.leaves import GoTo, PickUp, PutOn
>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> room = Room("living_room", "LivingRoom", ((0, 0), (4, 0), (4, 4), (0, 4)))
>>> scene = Scene("s", rooms=(room,), objects=(
...     SceneObject("sofa_1", "Sofa", role="sofa", room="living_room", size=(2, 0.9, 0.9),
...                 properties=("receptacle",)),
...     SceneObject("book_1", "Book", role="book", room="living_room", size=(0.2, 0.05, 0.3),
...                 properties=("pickupable",))))
>>> def policy():
...     return py_trees.composites.Sequence("tidy", memory=True, children=[
...         GoTo("book"), PutOn("book", "sofa")])
>>> outcome = run_policy(policy, scene, goal=[{"on": ["book", "sofa"]}])
>>> print(outcome.explain())
Counterfactual: PutOn(book, sofa) broke a precondition: the agent holds book
broken precondition [holding]: the agent holds book; but the agent holds nothing
trace: GoTo(book) ok, PutOn(book, sofa) -> the agent holds nothing
"""

from __future__ import annotations

import difflib
import json
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeAlias

import py_trees
from py_trees.blackboard import Blackboard, KeyMetaData

from pytest_logicenv.errors import PolicyError, PolicyRuntimeError
from pytest_logicenv.logic.facts import (
    Fact,
    bound_roles,
    evaluate,
    parse_fact,
    references,
    to_json,
)
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.sim.actions import PolicyStopped
from pytest_logicenv.sim.agent import Agent
from pytest_logicenv.sim.branches import SubtaskBranches, diagnose
from pytest_logicenv.sim.bt.node import SKIPPED
from pytest_logicenv.sim.bt.policy import load_bt_xml
from pytest_logicenv.sim.leaves import AgentBehaviour
from pytest_logicenv.sim.naming import policy_names
from pytest_logicenv.sim.outcome import Outcome
from pytest_logicenv.sim.scene_memo import per_scene
from pytest_logicenv.sim.tamper import TAMPERED, Replay, tampering
from pytest_logicenv.sim.world import WorldState
from pytest_logicenv.vocabulary import NOT_OBJECT_TYPES

Policy: TypeAlias = (
    py_trees.behaviour.Behaviour
    | Callable[[], py_trees.behaviour.Behaviour]
    | str
    | os.PathLike[str]
)
#: Ticks a run may take before it counts as not finishing (a ``lackbranch``).
DEFAULT_MAX_TICKS = 1000
#: Wall-clock seconds one tick may take: a leaf that sleeps or waits in ``update()`` would
#: otherwise hang the run (ticks are bounded, a tick's time was not).
TICK_SECONDS = 5.0
_PY_TREES_DIR = str(Path(py_trees.__file__).resolve().parent)

Status = py_trees.common.Status


def run_policy(
    policy: Policy,
    scene: Scene,
    *,
    goal: Iterable[Fact | Mapping[str, Any]] = (),
    situation: Sequence[tuple[str, str]] | None = None,
    max_ticks: int = DEFAULT_MAX_TICKS,
    known: Collection[str] | None = None,
    branches: Sequence[SubtaskBranches] = (),
) -> Outcome:
    """Run ``policy`` once in ``scene`` and classify the outcome.

    ``goal`` holds the facts that must be true when the policy returns SUCCESS; ``situation``
    the trajectory's conditions in words, ``(question, answer)`` pairs (default: the scene's
    provenance conditions). ``known`` lists names that may legitimately be absent from this
    scene (those of every scene of the task, see :func:`vocabulary`): when given, a policy
    that names anything else is rejected with a :class:`PolicyError` before the run.
    ``branches`` are the plan's leaves per subtask (:func:`~pytest_logicenv.sim.branches.
    branches_of`): a SUCCESS with this situation's goal false but another leaf's goal true,
    the question between them never checked, is a ``lackbranch`` naming the branch taken.

    Bad input (an unloadable XML file, a factory that returns no behaviour, a name that can
    never resolve, a malformed goal fact) raises a :class:`PolicyError` or ``FactError``;
    everything the policy does at run time, exceptions included, becomes the outcome.
    """
    run = RunSetup.of(scene, goal, situation, max_ticks, branches)
    return run_checked(policy, run, known)[0]


def run_checked(
    policy: Policy, run: RunSetup, known: Collection[str] | None, replayed: Replay | None = None
) -> tuple[Outcome, Replay | None]:
    """:func:`run_policy` of ``run``, and the replay that checked its world (``None``: the
    policy never ran); ``replayed`` is a replay of this scene to check against when its
    trace is this run's (:func:`~pytest_logicenv.sim.tamper.tampering`)."""
    scene = run.scene
    with _isolated_blackboard():
        try:
            root = _root(policy)
        except PolicyError:
            raise
        except Exception as error:  # the user's factory raised
            return run.finish("error", status="RAISED", error=_user_traceback(error)), None
        check_references(root, scene, known)
        world = WorldState.start(scene)
        agent = Agent(world)
        _bind(root, agent)
        try:
            outcome = _tick(root, agent, world, run)
        finally:
            _bind(root, None)
    tampered, replay = tampering(scene, outcome.trace, world, replayed)
    if tampered is None:
        return outcome, replay
    return run.finish(
        "error", status=TAMPERED, ticks=outcome.ticks, trace=outcome.trace,
        error=f"the world changed outside the policy's actions: {tampered}. A policy changes "
        "the world only through the agent's actions (self.agent.open(...), ...); reaching "
        "past the read-only view is not a way to pass",
    ), replay  # fmt: skip


@dataclass(frozen=True)
class RunSetup:
    """What every outcome of one run carries, whatever it ends in."""

    scene: Scene
    situation: tuple[tuple[str, str], ...]
    goals: tuple[Fact, ...]
    max_ticks: int
    branches: tuple[SubtaskBranches, ...]

    @classmethod
    def of(
        cls,
        scene: Scene,
        goal: Iterable[Fact | Mapping[str, Any]] = (),
        situation: Sequence[tuple[str, str]] | None = None,
        max_ticks: int = DEFAULT_MAX_TICKS,
        branches: Sequence[SubtaskBranches] = (),
    ) -> RunSetup:
        """A run's setup, checked (a tick budget below 1 or a malformed goal fact raises)."""
        if max_ticks < 1:
            raise PolicyError(f"max_ticks must be at least 1, got {max_ticks}")
        goals = tuple(
            parse_fact(fact, f"goal[{i}]") if isinstance(fact, Mapping) else fact
            for i, fact in enumerate(goal)
        )
        pairs = tuple(situation) if situation is not None else scene.provenance.conditions
        return cls(scene, pairs, goals, max_ticks, tuple(branches))

    def finish(self, kind: str, **fields: Any) -> Outcome:
        if kind != "pass":  # only a failing run is explained, in the policy's names
            violation = fields.get("violation")
            written = violation.bound() if violation is not None else ()
            fields["names"] = policy_names(self.scene, fields.get("trace", ()), *written)
        return Outcome(
            kind, situation=self.situation, scene=self.scene.id, max_ticks=self.max_ticks,
            goal=self.goals, **fields,
        )  # fmt: skip


def _tick(
    root: py_trees.behaviour.Behaviour, agent: Agent, world: WorldState, run: RunSetup
) -> Outcome:
    """Tick ``root`` until it ends or the budget is spent; whatever it raises is the outcome."""
    if root.status != Status.INVALID:  # a root reused from an earlier run starts afresh
        root.stop(Status.INVALID)
    try:
        with _tick_clock(TICK_SECONDS) as clock:
            while agent.tick < run.max_ticks:
                agent.tick += 1
                clock(TICK_SECONDS)
                root.tick_once()
                clock(0)
                if _ended(root):
                    break
    except TickTimeout:
        return run.finish(
            "error", status="TIMEOUT", ticks=agent.tick, trace=agent.trace,
            error=f"tick {agent.tick} took more than {TICK_SECONDS:g} s of wall-clock time: a "
            "behaviour sleeps, waits or loops in update(); a tick must return (do long work "
            "over several ticks, returning RUNNING)",
        )  # fmt: skip
    except PolicyRuntimeError as error:  # a BT.CPP tree failed as BT.CPP would throw
        return _raised(run, agent, f"PolicyRuntimeError: {error}")
    except PolicyStopped as stop:
        return run.finish(
            stop.violation.kind, status="STOPPED", ticks=agent.tick, trace=agent.trace,
            violation=stop.violation,
        )  # fmt: skip
    except Exception as error:
        return _raised(run, agent, _user_traceback(error))
    return _ending(root, agent, world, run)


class TickTimeout(BaseException):
    """A tick ran past :data:`TICK_SECONDS` (a BaseException: a behaviour's ``except
    Exception`` must not swallow it)."""


@contextmanager
def _tick_clock(seconds: float) -> Iterator[Callable[[float], None]]:
    """An alarm that interrupts a tick running past ``seconds`` (arm it with the seconds, 0
    to disarm); where signals cannot be used (not the main thread), a check after the tick."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield _after_the_tick(seconds)
        return

    def ring(signum: int, frame: object) -> None:
        raise TickTimeout

    def arm(after: float) -> None:
        signal.setitimer(signal.ITIMER_REAL, after)

    previous = signal.signal(signal.SIGALRM, ring)
    try:
        yield arm
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _after_the_tick(seconds: float) -> Callable[[float], None]:
    started = [0.0]

    def clock(after: float) -> None:
        now = time.monotonic()
        if after:
            started[0] = now
        elif now - started[0] > seconds:
            raise TickTimeout

    return clock


def _ended(root: py_trees.behaviour.Behaviour) -> bool:
    return root.status in (Status.SUCCESS, Status.FAILURE, Status.INVALID) or (
        getattr(root, "result", None) is SKIPPED
    )


def _raised(run: RunSetup, agent: Agent, error: str) -> Outcome:
    return run.finish("error", status="RAISED", ticks=agent.tick, trace=agent.trace, error=error)


def _ending(
    root: py_trees.behaviour.Behaviour, agent: Agent, world: WorldState, run: RunSetup
) -> Outcome:
    """The outcome of a run that ended without raising: what its root's status means."""
    done = {"ticks": agent.tick, "trace": agent.trace}
    if getattr(root, "result", None) is SKIPPED:
        return run.finish("lackbranch", status="SKIPPED", **done)
    status = root.status.name
    if root.status == Status.INVALID:
        message = (
            "the tree ended INVALID: some behaviour's update() returned something that is not "
            "a py_trees Status"
        )
        return run.finish("error", status=status, error=message, **done)
    if root.status != Status.SUCCESS:
        return run.finish("lackbranch", status=status, **done)
    false = _once(fact for fact in run.goals if not evaluate(fact, world))
    taken = tuple(diagnose(world, run.branches, agent.checked)) if false else ()
    unchecked = bool(taken) and not any(diagnosis.checked for diagnosis in taken)
    kind = "lackbranch" if unchecked else "unreachable" if false else "pass"
    return run.finish(kind, status=status, false_goals=false, branches=taken, **done)


def _once(facts: Iterable[Fact]) -> tuple[Fact, ...]:
    """Each fact once: a goal fact two subtasks share is one unmet fact, explained once."""
    seen: dict[str, Fact] = {}
    for fact in facts:
        seen.setdefault(json.dumps(to_json(fact), sort_keys=True), fact)
    return tuple(seen.values())


def vocabulary(scenes: Iterable[Scene], facts: Iterable[Fact] = ()) -> frozenset[str]:
    """Every name a policy may use across ``scenes`` (ids, roles, types, room ids and types)
    and ``facts`` (the references of a plan's realizations and goals): pass it as ``known``.
    """
    names: set[str] = set()
    for scene in scenes:
        for entity in scene.entities:
            names.update(name for name in (entity.id, entity.role, entity.type) if name)
        for room in scene.rooms:
            names.update((room.id, room.type))
    for fact in facts:
        names.update(references(fact))
        names.update(bound_roles(fact))
    return frozenset(names)


def check_references(
    root: py_trees.behaviour.Behaviour, scene: Scene, known: Collection[str] | None
) -> None:
    """Raise one :class:`PolicyError` listing every simulator leaf that names something
    neither ``scene`` nor ``known`` contains, each with the closest valid name (nothing is
    checked when ``known`` is ``None``)."""
    if known is None:
        return
    names = per_scene("names", scene, lambda s: vocabulary([s]))
    unknown = [
        (node, ref)
        for node in root.iterate()
        if isinstance(node, AgentBehaviour)
        for ref in node.references()
        if ref not in names and ref not in known
    ]
    if unknown:  # the hints' sorted names only then: a run that names nothing wrong is common
        _unknown_references(unknown, scene, sorted(names | set(known)))


def _unknown_references(
    unknown: Sequence[tuple[AgentBehaviour, str]], scene: Scene, valid: Sequence[str]
) -> NoReturn:
    """Raise the :class:`PolicyError` naming each unknown reference, with a hint."""
    rooms = ", ".join(f"{room.id} ({room.type})" for room in scene.rooms)
    room_names = sorted({name for room in scene.rooms for name in (room.id, room.type)})
    problems = []
    for node, ref in unknown:
        where = node.origin or _tree_path(node)
        room = ref in node.rooms()
        close = difflib.get_close_matches(ref, room_names if room else valid, 1, 0.75)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        if room:
            problems.append(
                f"{where}: room={ref!r} names no room of scene {scene.id!r} or of any "
                f"other scene of the task{hint}; this scene's rooms: {rooms}"
            )
            continue
        if ref in NOT_OBJECT_TYPES:
            problems.append(f"{where}: {NOT_OBJECT_TYPES[ref]}")
            continue
        problems.append(
            f"{where}: {ref!r} names no object, type or room of scene {scene.id!r} or "
            f"of any other scene of the task{hint}"
        )
    raise PolicyError(
        "\n".join(problems) + "\ncheck the spelling (types are capitalized, e.g. Mug; "
        "roles are lower case, e.g. red_box)"
    )


def _tree_path(node: py_trees.behaviour.Behaviour) -> str:
    names = []
    current: py_trees.behaviour.Behaviour | None = node
    while current is not None:
        names.append(current.name)
        current = current.parent
    return "/".join(reversed(names))


def _root(policy: Policy) -> py_trees.behaviour.Behaviour:
    if isinstance(policy, py_trees.behaviour.Behaviour):
        return policy
    if isinstance(policy, str | os.PathLike):
        return load_bt_xml(policy)()
    if callable(policy):
        root = policy()
        if not isinstance(root, py_trees.behaviour.Behaviour):
            raise PolicyError(
                f"policy factory {getattr(policy, '__name__', policy)!r} returned "
                f"{type(root).__name__}, not a py_trees behaviour"
            )
        return root
    raise PolicyError(
        f"a policy is a py_trees behaviour, a function returning one, or the path of a "
        f"BehaviorTree.CPP XML file; got {type(policy).__name__}"
    )


def _bind(root: py_trees.behaviour.Behaviour, agent: Agent | None) -> None:
    for node in root.iterate():
        if isinstance(node, AgentBehaviour):
            node.bind(agent)


def _user_traceback(error: BaseException) -> str:
    """The traceback of an exception in user code, without py_trees' and the runner's
    frames."""
    here = os.path.realpath(__file__)
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        # Resolved: a virtualenv reached through a symlink names py_trees' files by that path.
        if not (real := os.path.realpath(frame.filename)).startswith(_PY_TREES_DIR) and real != here
    ]
    lines = ["Traceback (most recent call last):\n", *traceback.format_list(frames)]
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines)


@contextmanager
def _isolated_blackboard() -> Iterator[None]:
    """Restore py_trees' global blackboard (values, key registrations and clients) on exit,
    so what one run writes is gone before the next."""
    storage = dict(Blackboard.storage)
    metadata = {key: _copy_metadata(meta) for key, meta in Blackboard.metadata.items()}
    clients = dict(Blackboard.clients)
    stream = Blackboard.activity_stream
    try:
        yield
    finally:
        Blackboard.storage.clear()
        Blackboard.storage.update(storage)
        Blackboard.metadata.clear()
        Blackboard.metadata.update(metadata)
        Blackboard.clients.clear()
        Blackboard.clients.update(clients)
        Blackboard.activity_stream = stream


def _copy_metadata(meta: KeyMetaData) -> KeyMetaData:
    copy = KeyMetaData()
    copy.read, copy.write, copy.exclusive = set(meta.read), set(meta.write), set(meta.exclusive)
    return copy
