"""The action calls a world state allows, ground from the simulator's own action table.

Every action of :data:`~pytest_logicenv.sim.actions.ACTIONS` is tried with every object the
agent can see in each port (and every room for a room port). A port's preconditions are read
from the table and checked as soon as the ports they read are bound (a check that reads a
port not bound yet raises ``KeyError`` and waits), so ``PutIn(x, y)`` is not ground for every
``y`` when the agent does not hold ``x``. Nothing here knows what an action needs: the checks
are the simulator's, and a call that passes them is still performed by
:func:`~pytest_logicenv.sim.actions.perform` on a copy of the world, which has the last word.
The rules a call broke are reported to :class:`Refusals`, which the diagnosis reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from pytest_logicenv.sim.actions import ACTIONS, ActionSpec
from pytest_logicenv.sim.preconditions import Broken
from pytest_logicenv.sim.world import WorldObject, WorldState


@dataclass(frozen=True)
class Call:
    """One action call: the action and the object (or room) id each port is bound to."""

    action: str
    objects: tuple[str, ...]

    @property
    def ports(self) -> tuple[str, ...]:
        return ACTIONS[self.action].ports

    @property
    def arguments(self) -> dict[str, str]:
        """The call as :func:`~pytest_logicenv.sim.actions.perform` takes it."""
        return dict(zip(self.ports, self.objects, strict=True))


#: Told of every call a rule refused: the action, its bound ids (partial: the ports bound so
#: far), the index of the broken precondition in the action's order and what it reported.
Refused = Callable[[str, tuple[str, ...], int, str, Broken], None]


class Partial(Mapping[str, WorldObject]):
    """The ports bound so far; reading another raises ``KeyError`` (the check waits)."""

    def __init__(self, bound: dict[str, WorldObject]) -> None:
        self._bound = bound

    def __getitem__(self, port: str) -> WorldObject:
        return self._bound[port]

    def __iter__(self) -> Iterator[str]:
        return iter(self._bound)

    def __len__(self) -> int:
        return len(self._bound)


def calls(
    world: WorldState,
    refused: Refused | None = None,
    among: frozenset[str] | None = None,
    besides: frozenset[str] | None = None,
) -> Iterator[Call]:
    """Every call whose preconditions hold in ``world`` on objects the agent can see, in
    action-table order, then walks into each other room. ``among``: only calls on those
    objects alone; ``besides``: only calls on some other object (the two split the calls
    in two parts, so a search can try the calls on the objects that matter first)."""
    seen = [obj for obj in world.objects.values() if world.is_visible(obj)]
    if among is not None:
        seen = [obj for obj in seen if obj.id in among]
    for spec in ACTIONS.values():
        for call in _ground(world, spec, seen, {}, refused):
            if besides is None or not besides.issuperset(call.objects):
                yield call
    if among is None:
        here = world.agent.room
        for room in world.scene.rooms:
            for spec in ACTIONS.values():
                if spec.room_ports and room.id != here:
                    yield Call(spec.name, (room.id,))


def _ground(
    world: WorldState,
    spec: ActionSpec,
    seen: list[WorldObject],
    bound: dict[str, WorldObject],
    refused: Refused | None,
) -> Iterator[Call]:
    port = spec.ports[len(bound)]
    for obj in seen:
        trial = {**bound, port: obj}
        if _holds(world, spec, trial, refused):
            if len(trial) == len(spec.ports):
                yield Call(spec.name, tuple(trial[p].id for p in spec.ports))
            else:
                yield from _ground(world, spec, seen, trial, refused)


def _holds(
    world: WorldState, spec: ActionSpec, bound: dict[str, WorldObject], refused: Refused | None
) -> bool:
    """Whether no precondition that reads only bound ports is broken (the first one broken,
    in the action's order, is reported)."""
    partial = Partial(bound)
    for index, rule in enumerate(spec.preconditions):
        try:
            broken = rule.check(world, partial)
        except KeyError:
            continue
        if broken is not None:
            if refused is not None:
                ids = tuple(bound[p].id for p in spec.ports if p in bound)
                refused(spec.name, ids, index, rule.code, broken)
            return False
    return True
