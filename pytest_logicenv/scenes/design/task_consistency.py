"""The task objects made consistent, before anything else is added.

Once the facts are applied: every support can hold what rests on it (and none rests on itself
through a circle), each object shares the room of what it rests on, no ``absent`` fact is
contradicted by what the facts require, and each object the facts leave free gets a usual
support (or the floor). :func:`put_on` and :func:`take_support_room` serve a design request
too, which may say where a free task object goes.

>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> catalog = default_catalog()
>>> cannot_hold(catalog.type("FloorLamp"), catalog.type("Book"))
'a FloorLamp is not a receptacle: nothing rests on or in it'
>>> cannot_hold(catalog.type("Sofa"), catalog.type("Book")) is None
True
"""

from __future__ import annotations

import random

from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import describe, evaluate
from pytest_logicenv.scenes.catalog import ObjectType, occurs_in
from pytest_logicenv.scenes.design.draft import Draft, DraftObject
from pytest_logicenv.scenes.design.packing import fits
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.vocabulary import a_or_an


def cannot_hold(holder: ObjectType, obj: ObjectType) -> str | None:
    """Why an object of type ``holder`` cannot hold one of type ``obj`` (``None``: it can)."""
    if not holder.has("receptacle"):
        return f"{a_or_an(holder.name)} is not a receptacle: nothing rests on or in it"
    if holder.accepts and obj.name not in holder.accepts:
        return f"{a_or_an(holder.name)} only takes {', '.join(holder.accepts)}"
    return None


def check_supports(draft: Draft) -> None:
    """Every support the facts name can hold what they put on it, and none is circular."""
    for obj in draft.objects.values():
        cycle = draft.support_cycle(obj)
        if cycle is not None:
            raise SceneError("objects rest on each other in a circle: " + " -> ".join(cycle))
        if obj.parent is None:
            continue
        holder = draft.objects[obj.parent]
        problem = cannot_hold(holder.type, obj.type)
        if problem is not None:
            raise SceneError(
                f"{obj.id} must be {obj.relation} {holder.id} ('{obj.why['place']}'), but "
                + problem
            )


def settle_rooms(draft: Draft) -> None:
    """Give every placed object the room of its support chain; rooms must agree."""
    for obj in list(draft.objects.values()):
        chain = draft.chain(obj)
        rooms = {(o.room, o.why.get("room", "")) for o in chain if o.room is not None}
        if len({r for r, _ in rooms}) > 1:
            listed = "; ".join(f"{r} ('{why}')" for r, why in sorted(rooms))
            raise SceneError(
                f"{obj.id} and what it rests on are required in different rooms: {listed}"
            )
        if not obj.placed and not obj.type.has("pickupable"):
            # Furniture the facts name without a place stands on the floor (or hangs).
            obj.relation = "wall" if obj.type.on_wall and not obj.type.on_floor else "on"
        if rooms:
            room = next(iter(rooms))[0]
        elif obj.placed:
            room = draft.default_room(draft.root(obj).type)
        else:
            continue  # a free small object: its support and room come later
        for link in chain:
            link.room = room


def check_absent_clashes(draft: Draft) -> None:
    """No ``absent`` fact forbids what the other facts require (naming the facts that do)."""
    scene = draft.provisional()
    for fact in draft.absent:
        if evaluate(fact, scene):
            continue
        culprits = [o for o in draft.objects.values() if evaluate(fact, _without(scene, o))]
        reasons = (
            "; ".join(f"'{o.why.get('place') or o.why.get('type', o.id)}'" for o in culprits)
            or "the facts above"
        )
        raise SceneError(
            f"'{describe(fact)}' contradicts {reasons}: the same trajectory requires "
            "and forbids this object; fix the plan's realization facts"
        )


def _without(scene: Scene, obj: DraftObject) -> Scene:
    return scene.with_objects([o for o in scene.objects if o.id != obj.id])


def place_free_objects(draft: Draft) -> None:
    """Objects the facts require without saying where: on a usual support, or the floor."""
    for obj in list(draft.objects.values()):
        if obj.placed:
            continue
        _put_somewhere(draft, obj, draft.rng("free", obj.id))
        if not draft.allowed(obj):
            raise SceneError(
                f"{obj.id} ('{obj.why.get('type', '')}') can be put nowhere that the "
                "plan's 'absent' facts allow; say where it is with a 'where'"
            )


def _put_somewhere(draft: Draft, obj: DraftObject, rng: random.Random) -> None:
    """On the likeliest support in its room that the ``absent`` facts allow and it fits;
    ties in a random order; the floor if there is none."""
    rooms = [obj.room] if obj.room else [r for r, k in draft.rooms if occurs_in(obj.type, k)]
    rooms = rooms or [draft.rooms[0][0]]
    options: list[tuple[float, DraftObject]] = []
    for holder in draft.objects.values():
        weight = obj.type.parents.get(holder.type.name, 0.0)
        if weight > 0 and holder.room in rooms and holder is not obj:
            options.append((weight, holder))
    rng.shuffle(options)
    options.sort(key=lambda item: -item[0])
    for _, holder in options:
        obj.parent = holder.id
        obj.relation = "in" if holder.type.container else "on"
        obj.room = holder.room
        if draft.allowed(obj) and fits(obj.type.laid_assets, holder.type.laid_assets):
            return
    obj.parent, obj.relation, obj.room = None, "on", rooms[0]


def put_on(obj: DraftObject, holder: DraftObject) -> str | None:
    """Rest ``obj`` on or in ``holder`` (the holder decides which); why not, if it cannot."""
    problem = cannot_hold(holder.type, obj.type)
    if problem is not None:
        return f"{holder.id} cannot hold it: {problem}"
    if not fits(obj.type.assets_for(obj.attrs), holder.type.laid_assets):
        return f"no {obj.type.name} fits {holder.id}: it is too big for {a_or_an(holder.type.name)}"
    obj.parent, obj.relation = holder.id, "in" if holder.type.container else "on"
    return None


def take_support_room(draft: Draft, obj: DraftObject) -> str | None:
    """Give an object a request placed its room: its own, or its support's; why it cannot
    have one, if it cannot."""
    if obj.parent is None:
        obj.room = obj.room or draft.default_room(obj.type)
        return None
    root = draft.root(obj)
    if root.room is None:
        return (
            f"{root.id} has no place yet (the designer places it last); rest {obj.id} on "
            "something that has one"
        )
    if obj.room not in (None, root.room):
        return f"it is to be in {obj.room} but rests on {obj.parent}, which is in {root.room}"
    obj.room = root.room
    return None
