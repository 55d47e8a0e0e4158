"""Binding an action call's ports to objects: which object each reference means.

One rule for every port of every action, checked before the action's own preconditions:

1. **exists**: the reference (with its selector's qualifiers) names something this scene
   contains; if not, the policy acts on what this situation does not have (``lackbranch``).
2. **visible**: the agent can see it. The contents of a closed container (or of a closed part,
   a drawer) are hidden: no condition sees them and no action reaches them, until the
   container is opened (``counterfactual``: the object is there, the policy skipped opening).
   Hidden objects are no candidates either: a type names only what the agent can see.
3. **unambiguous**: the reference names one object the agent can see. When it names several,
   the one at hand (held, or at the spot the agent stands at) is meant, for ports the action
   needs within reach; otherwise the call is ambiguous, which is a bug in the policy (the
   ``error`` outcome, listing the candidates and their rooms) unless the selector says
   ``any=True``.

A port with ``any=True`` binds the first candidate, in scene order, that meets every
precondition; the violation reported when none does is that of the candidate that got
furthest.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_logicenv.logic.facts import is_type_ref
from pytest_logicenv.sim.preconditions import Broken
from pytest_logicenv.sim.selectors import Select
from pytest_logicenv.sim.world import WorldObject, WorldState

#: Candidates listed in an ambiguity message before "and N more".
LISTED = 6
#: The binding rules in the order they are checked, as the action table prints them.
BINDING_RULES: tuple[tuple[str, str], ...] = (
    ("exists", "the reference, with its selector, names an object this scene contains"),
    (
        "visible",
        "the agent can see it: it is not inside a closed container or a closed part "
        "(a drawer); hidden objects are no candidates",
    ),
    (
        "unambiguous",
        "it names one object in sight, or one at hand (held, or at the agent's spot) for a "
        "port the action needs within reach; `any=True` takes the first that meets the "
        "preconditions",
    ),
)


@dataclass(frozen=True)
class Unbound:
    """Why a port could not be bound: the rule (``exists``, ``visible``, ``unambiguous``), what
    it requires, what was true instead, and (for ``exists``) what the scene lacks."""

    code: str
    broken: Broken
    absent: str | None = None
    objects: tuple[str, ...] = ()


def candidates(world: WorldState, select: Select, *, at_hand: bool) -> list[WorldObject] | Unbound:
    """The objects a port may be bound to, or why it cannot be bound. ``at_hand`` says
    whether the action needs this port within reach (then the candidate at hand is meant)."""
    fitting = select.select(world)
    if not fitting:
        return _missing(select, bool(world.candidates(select.ref)))
    seen = [obj for obj in fitting if world.is_visible(obj)]
    if not seen:
        return _hidden(world, fitting[0])
    if len(seen) == 1 or select.any:
        return seen
    if at_hand:
        near = [obj for obj in seen if world.reachable(obj)]
        if len(near) == 1:
            return near
    return _ambiguous(world, select, seen)


def _missing(select: Select, named: bool) -> Unbound:
    thing = f"a {select}" if is_type_ref(select.ref) or not select.bare else str(select)
    # When the reference names objects but none meets the qualifiers, say which qualifiers.
    facts = (f"no {select if named else select.ref} in this scene",)
    return Unbound("exists", Broken(f"this scene contains {thing}", facts), absent=str(select))


def _hidden(world: WorldState, obj: WorldObject) -> Unbound:
    container = world.enclosure(obj)
    assert container is not None  # not visible means enclosed
    facts = (f"{obj.label} is inside {container.label}", f"{container.label} is closed")
    return Unbound("visible", Broken(f"the agent can see {obj.label}", facts), objects=(obj.id,))


def _ambiguous(world: WorldState, select: Select, seen: list[WorldObject]) -> Unbound:
    listed = [f"{obj.id} in {obj.room}" for obj in seen[:LISTED]]
    if len(seen) > LISTED:
        listed.append(f"and {len(seen) - LISTED} more")
    requirement = (
        f"{select} names one object the agent can see (add a selector: room=, on=, in=, "
        "part_of=, attrs=, states=; or use a role; or any=True if any one will do)"
    )
    facts = (f"{select} names {len(seen)} objects: {', '.join(listed)}",)
    return Unbound("unambiguous", Broken(requirement, facts))
