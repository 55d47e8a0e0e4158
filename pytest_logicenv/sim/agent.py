"""The agent API: what a policy acts and looks through during one run.

The library's action and condition leaves call it, and so can a user's own py_trees
behaviours (subclasses of :class:`~pytest_logicenv.sim.leaves.AgentBehaviour` reach it as
``self.agent``). Every call is recorded in the run's trace, and the world changes only through
them: ``agent.world`` is a read-only view of what the agent sees. An action whose precondition is
broken ends the run at once: the agent raises :class:`PolicyStopped`, which derives from
``BaseException`` so that a policy's ``except Exception`` cannot swallow the fault.

>>> from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject
>>> room = Room("living_room", "LivingRoom", ((0, 0), (4, 0), (4, 4), (0, 4)))
>>> book = SceneObject("book_1", "Book", room="living_room", role="book",
...                    properties=("pickupable",))
>>> agent = Agent(WorldState.from_scene(Scene("s", rooms=(room,), objects=(book,))))
>>> agent.check({"exists": "book", "where": {"on": "Floor"}})
True
>>> agent.go_to("book"); agent.pick_up("book"); agent.holding
'book_1'
>>> [str(step) for step in agent.trace]
['Check(a book on Floor)? yes', 'GoTo(book) ok', 'PickUp(book) ok']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pytest_logicenv.logic.facts import Fact, describe, evaluate, parse_fact
from pytest_logicenv.sim.actions import ACTIONS, PolicyStopped, Target, perform
from pytest_logicenv.sim.outcome import Step
from pytest_logicenv.sim.selectors import selector
from pytest_logicenv.sim.view import WorldView, keep_inside, world_of
from pytest_logicenv.sim.world import WorldState


class Agent:
    """The agent of one run, bound to its world; ``tick`` is set by the runner."""

    def __init__(self, world: WorldState) -> None:
        keep_inside(self, world)  # the run's own: a policy changes it only through act()
        self.tick = 0
        self._trace: list[Step] = []
        # The facts the policy's conditions checked, for diagnosis by branch.
        self.checked: list[Fact] = []

    @property
    def world(self) -> WorldView:
        """The world as the agent sees it, read-only (:mod:`~pytest_logicenv.sim.view`)."""
        return WorldView(world_of(self))

    @property
    def trace(self) -> tuple[Step, ...]:
        return tuple(self._trace)

    # -- acting ----------------------------------------------------------------------------

    def act(self, action: str, **arguments: Target) -> None:
        """Do ``action`` with its ports; raise :class:`PolicyStopped` if a precondition is
        broken (and :class:`~pytest_logicenv.errors.PolicyError` for a malformed call)."""
        world = world_of(self)
        done = perform(world, action, arguments)
        args = tuple(str(selector(arguments[port])) for port in ACTIONS[action].ports)
        violation = done.violation
        self._trace.append(
            Step(
                self.tick,
                "action",
                action,
                args,
                violation is None,
                "" if violation is None else violation.reason,
                objects=done.objects,
                room=world.agent.room,
                spot=world.agent.spot,
            )
        )
        if violation is not None:
            raise PolicyStopped(violation)

    def go_to(self, target: Target) -> None:
        self.act("GoTo", target=target)

    def pick_up(self, obj: Target) -> None:
        self.act("PickUp", object=obj)

    def put_on(self, obj: Target, target: Target) -> None:
        self.act("PutOn", object=obj, target=target)

    def put_in(self, obj: Target, target: Target) -> None:
        self.act("PutIn", object=obj, target=target)

    def open(self, target: Target) -> None:
        self.act("Open", target=target)

    def close(self, target: Target) -> None:
        self.act("Close", target=target)

    def toggle_on(self, target: Target) -> None:
        self.act("ToggleOn", target=target)

    def toggle_off(self, target: Target) -> None:
        self.act("ToggleOff", target=target)

    def clean(self, target: Target, tool: Target) -> None:
        self.act("Clean", target=target, tool=tool)

    def fill(self, target: Target) -> None:
        self.act("Fill", target=target)

    def wet(self, target: Target) -> None:
        self.act("Wet", target=target)

    def refill(self, target: Target, source: Target) -> None:
        self.act("Refill", target=target, source=source)

    def empty(self, target: Target) -> None:
        self.act("Empty", target=target)

    def pour(self, obj: Target, target: Target) -> None:
        self.act("Pour", object=obj, target=target)

    def empty_into(self, obj: Target, target: Target) -> None:
        self.act("EmptyInto", object=obj, target=target)

    def slice(self, target: Target, tool: Target) -> None:
        self.act("Slice", target=target, tool=tool)

    def drop(self, obj: Target) -> None:
        self.act("Drop", object=obj)

    # -- looking ---------------------------------------------------------------------------

    def check(
        self,
        fact: Fact | Mapping[str, Any],
        *,
        name: str = "Check",
        args: Sequence[str] | None = None,
    ) -> bool:
        """Whether ``fact`` holds in what the agent can see (objects inside closed
        receptacles are hidden). ``name`` and ``args`` label the trace step."""
        parsed = parse_fact(fact) if isinstance(fact, Mapping) else fact
        world = world_of(self)
        result = evaluate(parsed, world.visible())
        self.checked.append(parsed)
        label = tuple(args) if args is not None else (describe(parsed),)
        where = world.agent
        step = Step(self.tick, "condition", name, label, result, room=where.room, spot=where.spot)
        self._trace.append(step)
        return result

    def sees(self, ref: str) -> bool:
        """Whether some object ``ref`` names is in sight (not recorded in the trace)."""
        world = world_of(self)
        return any(world.is_visible(obj) for obj in world.candidates(ref))

    @property
    def holding(self) -> str | None:
        """The id of the object in the agent's hand, or ``None``."""
        return world_of(self).agent.held

    @property
    def room(self) -> str:
        return world_of(self).agent.room

    @property
    def next_to(self) -> str | None:
        """The id of the floor-standing object the agent stands next to, or ``None``."""
        return world_of(self).agent.spot
