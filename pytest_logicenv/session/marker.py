"""The ``logic_env`` marker: what it accepts, and its arguments checked into a task request.

Errors name the test and the argument and show a correct use. Collection loads this module;
what start-up needs of the marker (its help line, the check that a marked test takes the
fixture) is :mod:`~pytest_logicenv.session.marker_registration`, which imports nothing heavy.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_logicenv.errors import ExpectFaultError, MarkerError
from pytest_logicenv.logic.trajectories import STRATEGIES
from pytest_logicenv.pipeline.task_request import TaskRequest
from pytest_logicenv.scenes.design.templates import unknown_rooms
from pytest_logicenv.sim.outcome import FAULTS

if TYPE_CHECKING:
    from pytest_logicenv.pipeline.task_request import TaskRequest

#: The marker's line in ``pytest --markers``.
ACCEPTED = ("task", "plan", "rooms", "select", "seed", "expect_fault", "tree", "nodes")


def _marker_signature(
    task: str,
    *,
    plan: str | os.PathLike[str] | None = None,
    rooms: Any = None,
    select: str = "minimal",
    seed: int = 0,
    expect_fault: str | None = None,
    tree: str | None = None,
    nodes: str | Sequence[str] | None = None,
) -> None:
    """The arguments ``@pytest.mark.logic_env`` accepts."""


@dataclass(frozen=True)
class MarkerArgs:
    """A checked marker: the task to prepare environments for, and the defaults of the
    test's policy runs: the fault they declare, the BehaviorTree an XML policy runs and the
    modules of the user's own XML nodes."""

    request: TaskRequest
    expect_fault: str | None
    tree: str | None = None
    nodes: tuple[str, ...] = ()


def check_fault(value: object, where: str) -> str | None:
    """``value`` if it is ``None`` or a fault class, else an error naming it, ``where`` it
    was given and the classes there are.

    >>> check_fault("lackbranch", "test_x")
    'lackbranch'
    >>> check_fault("crash", "test_x")
    Traceback (most recent call last):
    ...
    pytest_logicenv.errors.ExpectFaultError: test_x: expect_fault='crash' is not a fault ...
    """
    if value is None or (isinstance(value, str) and value in FAULTS):
        return value
    raise ExpectFaultError(
        f"{where}: expect_fault={value!r} is not a fault class; choose one of {', '.join(FAULTS)}"
    )


def parse_marker(
    marker: pytest.Mark, test_file: Path, nodeid: str, rootdir: Path | None = None
) -> MarkerArgs:
    """Validate a ``logic_env`` marker; errors name the test and the argument."""
    args = _bind(marker, nodeid)
    select = args.get("select", "minimal")
    if select not in STRATEGIES:
        raise MarkerError(
            f"{nodeid}: select={select!r} is not a strategy; choose one of {', '.join(STRATEGIES)}"
        )
    seed = args.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise MarkerError(f"{nodeid}: seed={seed!r} must be an integer")
    expect_fault = check_fault(args.get("expect_fault"), nodeid)
    rooms = args.get("rooms") or ()
    if isinstance(rooms, str):
        rooms = (rooms,)
    if not all(isinstance(r, str) for r in rooms):
        raise MarkerError(f"{nodeid}: rooms={rooms!r} must be room types like ['Kitchen']")
    _check_rooms(rooms, nodeid)
    plan = args.get("plan")
    plan_path = None if plan is None else _plan_path(plan, test_file, nodeid, rootdir)
    request = TaskRequest(
        task=args["task"], plan_file=plan_path, rooms=tuple(rooms), select=select, seed=seed
    )
    tree, nodes = _xml_options(args, nodeid)
    return MarkerArgs(request, expect_fault, tree, nodes)


def _check_rooms(rooms: Sequence[str], nodeid: str) -> None:
    """Unknown room types are the marker's error, before any model is asked about them."""
    problem = unknown_rooms(rooms)
    if problem is not None:
        raise MarkerError(f"{nodeid}: rooms={list(rooms)!r}: {problem}")


#: The marker's signature, read once (binding runs for every marked function).
_SIGNATURE = inspect.signature(_marker_signature)


def _bind(marker: pytest.Mark, nodeid: str) -> dict[str, Any]:
    """The marker's arguments by name, with a task; else an error showing a correct use."""
    needs_task = MarkerError(
        f"{nodeid}: @pytest.mark.logic_env needs the task description as its first "
        'argument, e.g. @pytest.mark.logic_env("Close the window if it is open.")'
    )
    if not marker.args and "task" not in marker.kwargs:
        raise needs_task
    try:
        bound = _SIGNATURE.bind(*marker.args, **marker.kwargs)
    except TypeError as error:
        unknown = sorted(set(marker.kwargs) - set(ACCEPTED))
        detail = f"unknown argument(s) {', '.join(unknown)}" if unknown else str(error)
        if len(marker.args) > 1:
            detail += " (only the task is positional: give the others by name, plan=...)"
        raise MarkerError(
            f"{nodeid}: @pytest.mark.logic_env: {detail}; it accepts {', '.join(ACCEPTED)}, "
            'e.g. @pytest.mark.logic_env("Put the toy in the box.", select="pairwise")'
        ) from None
    task = bound.arguments["task"]
    if not isinstance(task, str) or not task.strip():
        raise needs_task
    return dict(bound.arguments)


def _xml_options(args: dict[str, Any], nodeid: str) -> tuple[str | None, tuple[str, ...]]:
    """The marker's ``tree`` (a tree ID) and ``nodes`` (module names) for XML policies."""
    tree = args.get("tree")
    if tree is not None and (not isinstance(tree, str) or not tree):
        raise MarkerError(f"{nodeid}: tree={tree!r} must be the ID of a BehaviorTree")
    nodes = args.get("nodes") or ()
    if isinstance(nodes, str):
        nodes = (nodes,)
    if not isinstance(nodes, list | tuple) or not all(isinstance(n, str) for n in nodes):
        raise MarkerError(
            f"{nodeid}: nodes={nodes!r} must name modules, e.g. nodes='my_robot.bt_nodes'"
        )
    return tree, tuple(nodes)


def _plan_path(
    plan: str | os.PathLike[str], test_file: Path, nodeid: str, rootdir: Path | None
) -> Path:
    """The plan file, relative to the test file's folder; a path that does not exist is an
    error that says where it was looked for (and how to write it when given from the
    rootdir)."""
    plan_path = (test_file.parent / plan).resolve()  # an absolute plan stays itself
    if plan_path.is_file():
        return plan_path
    hint = "paths are relative to the test file's folder"
    at_root = rootdir / plan if rootdir is not None else None
    if at_root is not None and at_root.is_file():
        relative = Path(os.path.relpath(at_root, test_file.parent)).as_posix()
        hint += f"; for {at_root} write plan={relative!r}"
    raise MarkerError(
        f"{nodeid}: plan={str(plan)!r} does not exist (looked for {plan_path}); {hint}"
    )
