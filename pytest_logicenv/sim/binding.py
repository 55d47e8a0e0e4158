"""Binding an action call's ports to objects: which object each reference means.

One rule for every port of every action, checked before the action's own preconditions:

1. **exists**: the reference (with its selector's qualifiers) names something this scene
   contains; if not, the policy acts on what this situation does not have (``lackbranch``).
   That holds for a selector too: when the scene has books but no hard-cover one,
   ``PickUp("Book", attrs={"cover": "hard"})`` assumed a situation this one is not (another
   scene of the task may have the hard-cover book), which is a missing branch, not a broken
   rule on the book that is there. The message lists the objects the reference does name here,
   with their rooms, places, attributes and the states the selector asks about, and the
   scene's rooms when the selector's room is none of them. (A name or room that no scene of
   the task has is a typo, refused before the run: :func:`~pytest_logicenv.sim.runner.
   check_references`.)
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

from pytest_logicenv.logic.facts import FLOOR, INNER_PARTS, is_type_ref
from pytest_logicenv.sim.preconditions import Broken, state_word
from pytest_logicenv.sim.selectors import Select
from pytest_logicenv.sim.world import HELD, WorldObject, WorldState
from pytest_logicenv.vocabulary import a_or_an

#: Candidates listed in an ambiguity message before "and N more".
LISTED = 6
#: The binding rules in the order they are checked, as the action table prints them.
BINDING_RULES: tuple[tuple[str, str], ...] = (
    (
        "exists",
        "the reference, with its selector, names an object this scene contains (a selector "
        "that fits none of the objects the reference names here, such as a hard-cover `Book` "
        "when only a soft one is there, is also a situation the policy has no branch for; "
        "the message lists those objects)",
    ),
    (
        "visible",
        "the agent can see it: it is not inside a closed container or a closed part "
        "(a drawer); hidden objects are no candidates",
    ),
    (
        "unambiguous",
        "it names one object in sight, or one at hand for a port the action needs within reach "
        "(the one held, else the one within reach: *Reaching*); `any=True` takes the first "
        "that meets the preconditions",
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
        return _missing(world, select)
    seen = [obj for obj in fitting if world.is_visible(obj)]
    if not seen:
        return _hidden(world, fitting[0])
    if len(seen) == 1 or select.any:
        return seen
    if at_hand:  # what the agent holds is meant before what is within its reach
        held = [obj for obj in seen if obj is world.held()]
        near = held or [obj for obj in seen if world.reachable(obj)]
        if len(near) == 1:
            return near
    return _ambiguous(world, select, seen)


def inner(world: WorldState, obj: WorldObject) -> WorldObject:
    """What putting something *in* ``obj`` puts it in: a sink's or bathtub's basin part (where
    its faucet's water falls, as a person means "in the sink"), else ``obj`` itself."""
    kind = INNER_PARTS.get(obj.type)
    basins = [part for part in world.parts(obj) if part.type == kind] if kind else []
    return basins[0] if len(basins) == 1 else obj


def _missing(world: WorldState, select: Select) -> Unbound:
    thing = a_or_an(str(select)) if is_type_ref(select.ref) or not select.bare else str(select)
    named = world.candidates(select.ref)
    # When the reference names objects but none meets the qualifiers, say which qualifiers,
    # and list what the reference does name here so the policy's author sees the difference.
    facts = [f"no {select if named else select.ref} in this scene"]
    if named and not select.bare:
        facts.append(f"{select.ref} names {_count(named)} here: {listing(world, select, named)}")
    if select.room is not None and world.room_named(select.room) is None:
        rooms = ", ".join(f"{room.id} ({room.type})" for room in world.scene.rooms)
        facts.append(f"no room {select.room!r} in this scene; its rooms: {rooms}")
    broken = Broken(f"this scene contains {thing}", tuple(facts))
    return Unbound("exists", broken, absent=str(select))


def _count(objects: list[WorldObject]) -> str:
    return "1 object" if len(objects) == 1 else f"{len(objects)} objects"


def listing(world: WorldState, select: Select, objects: list[WorldObject]) -> str:
    """The objects, each with its room, where it is and what it has, for choosing a selector:
    ``drawer in kitchen (part of counter), shelf_1 in study (level=top)``."""
    shown = [describe_candidate(world, select, obj) for obj in objects[:LISTED]]
    if len(objects) > LISTED:
        shown.append(f"and {len(objects) - LISTED} more")
    return ", ".join(shown)


def describe_candidate(world: WorldState, select: Select, obj: WorldObject) -> str:
    """One candidate: its id and room, then what it is a part of or rests on or in (``on
    Floor`` only when the selector asks where), its attributes (``no cover`` for one the
    selector asks about and it lacks) and the states the selector asks about."""
    details = []
    parent = world.objects.get(obj.parent) if obj.parent is not None else None
    whole = world.objects.get(obj.part_of) if obj.part_of is not None else None
    if whole is not None:
        details.append(f"part of {whole.label}")
    elif parent is not None:
        details.append(f"{obj.relation} {parent.label}")
    elif obj.relation == HELD:
        details.append("held")
    elif select.on is not None or select.in_ is not None:
        details.append(f"on {FLOOR}")
    details += [f"{key}={value}" for key, value in sorted(obj.attrs.items())]
    details += [f"no {key}" for key in select.attrs if key not in obj.attrs]
    details += [state_word(state, obj.states.get(state, False)) for state in select.states]
    return f"{obj.id} in {obj.room}" + (f" ({', '.join(details)})" if details else "")


def _hidden(world: WorldState, obj: WorldObject) -> Unbound:
    container = world.enclosure(obj)
    assert container is not None  # not visible means enclosed
    facts = (f"{obj.label} is inside {container.label}", f"{container.label} is closed")
    return Unbound("visible", Broken(f"the agent can see {obj.label}", facts), objects=(obj.id,))


def _ambiguous(world: WorldState, select: Select, seen: list[WorldObject]) -> Unbound:
    requirement = (
        f"{select} names one object the agent can see (add a selector: room=, on=, in=, "
        "part_of=, attrs=, states=; or use a role; or any=True if any one will do)"
    )
    facts = (f"{select} names {len(seen)} objects: {listing(world, select, seen)}",)
    return Unbound("unambiguous", Broken(requirement, facts))
