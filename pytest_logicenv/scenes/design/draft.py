"""The design in progress: the state every step of the designer reads and extends.

A :class:`Draft` is the one shared, explicit state of a design: the objects so far (mutable
:class:`DraftObject` records, since facts refine them one at a time), the roles bound to them,
the window and door requests, the relations, the rooms and the notes for the provenance. Each
step (``task_objects``, ``consistency``, ``furnish``, ``request_objects``, ``assets``,
``packing``, ...) is a plain function over it; the queries they share live here.

>>> from pytest_logicenv.logic.plan import Plan
>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> draft = Draft(Plan("p", ()), default_catalog(), seed=3, enrichment=None, facts=[])
>>> sofa = draft.new_object("Sofa", "couch", task=True)
>>> sofa.id, draft.roles, draft.named("couch") is sofa
('couch', {'couch': 'couch'}, True)
>>> draft.add(DraftObject("", draft.catalog.type("Sofa"), None, task=False)).id
'sofa_1'
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytest_logicenv.errors import SceneError
from pytest_logicenv.logic.facts import Absent, Fact, evaluate
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.scenes.catalog import Asset, Catalog, ObjectType, occurs_in
from pytest_logicenv.scenes.design.templates import room_type
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    DroppedObject,
    Room,
    Scene,
    SceneObject,
    SpatialRelation,
    Vector,
    Window,
)

if TYPE_CHECKING:
    from pytest_logicenv.scenes.design.design_request import Enrichment

#: Why an object resting on (or part of) an object left out went with it, as the layout says.
WENT_WITH = "it rested on, or was part of, an object left out"


@dataclass
class DraftObject:
    """An object being designed (mutable while the designer works on it)."""

    id: str
    type: ObjectType
    role: str | None
    task: bool
    room: str | None = None
    parent: str | None = None
    relation: str | None = None  # "on"/"in" (parent None + "on": the floor), "wall", "part"
    part_of: str | None = None  # the object it is a part of (a drawer's dresser)
    states: dict[str, bool] = field(default_factory=dict)
    attrs: dict[str, str] = field(default_factory=dict)
    asset: Asset | None = None
    size: Vector = (0.3, 0.3, 0.3)
    # Which fact set each constraint, to name both sides of a contradiction.
    why: dict[str, str] = field(default_factory=dict)

    @property
    def placed(self) -> bool:
        return self.relation is not None


@dataclass
class WindowRequest:
    """What the facts ask of one window (by role; ``""``: any window): its room, open or not,
    and the fact that said so last."""

    role: str | None
    room: str | None
    open: bool | None
    why: str


@dataclass
class DoorRequest:
    """What the facts ask of one door (by role; ``""``: the front door named without one):
    whether it is the door to the outside (``front``), its room, open or not, and the fact
    that said so last."""

    role: str | None
    front: bool | None
    room: str | None
    open: bool | None
    why: str


@dataclass(frozen=True)
class NotNear:
    """``not (subject near target)``: the two objects must be far apart."""

    subject: str
    target: str


@dataclass(frozen=True)
class DistractorRequest:
    """One more object of type ``type``: in the ``room``-th room of the design of a type it
    occurs in, on its ``support``-th place (``0``: the floor; then the room's surfaces that can
    hold it, by id)."""

    type: str
    room: int = 0
    support: int = 0


@dataclass
class Draft:
    """A design in progress. ``facts`` are flat (no ``and``/``or``, negations resolved);
    ``excluded`` are the types enrichment never adds (see ``condition_types``);
    ``distractors`` the objects of those types a scene variation asks for all the same."""

    plan: Plan
    catalog: Catalog
    seed: int
    enrichment: Enrichment | None
    facts: list[Fact | NotNear]
    excluded: frozenset[str] = frozenset()
    distractors: Sequence[DistractorRequest] = ()
    objects: dict[str, DraftObject] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)  # role -> object id
    windows: dict[str, WindowRequest] = field(default_factory=dict)  # role (or "") -> request
    door_states: list[tuple[str | None, bool, str]] = field(default_factory=list)
    doors: dict[str, DoorRequest] = field(default_factory=dict)  # role (or "") -> request
    relations: list[SpatialRelation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: Objects the designer added and then left out (a room too full), and their relations.
    dropped: list[DroppedObject] = field(default_factory=list)
    dropped_relations: list[SpatialRelation] = field(default_factory=list)
    rooms: list[tuple[str, str]] = field(default_factory=list)  # (id, type)
    materials: dict[str, tuple[str, str]] = field(default_factory=dict)  # room -> floor, wall
    absent: list[Absent] = field(init=False)  # checked against every object added

    def __post_init__(self) -> None:
        self.absent = [f for f in self.facts if isinstance(f, Absent)]

    def rng(self, *purpose: object) -> random.Random:
        """A generator for one purpose: each decision draws from its own, so that adding a
        decision elsewhere leaves the others as they were for a seed."""
        return random.Random(":".join(str(p) for p in (self.seed, *purpose)))

    # -- objects ---------------------------------------------------------------------------

    def new_object(self, type_name: str, role: str | None, task: bool) -> DraftObject:
        """A new object of ``type_name``, named after its role (or its type) and bound to it."""
        obj_type = self.catalog.type(type_name)
        base = role or f"{snake(type_name)}_1"
        object_id, n = base, 2
        while object_id in self.objects:
            object_id = f"{role}_{n}" if role else f"{snake(type_name)}_{n}"
            n += 1
        obj = DraftObject(object_id, obj_type, role, task, states=dict(obj_type.states))
        self.objects[object_id] = obj
        if role is not None:
            self.roles[role] = object_id
        return obj

    def add(self, obj: DraftObject) -> DraftObject:
        """Add an enrichment object under the first free ``<type>_<n>`` id."""
        n = 1
        while f"{snake(obj.type.name)}_{n}" in self.objects:
            n += 1
        obj.id = f"{snake(obj.type.name)}_{n}"
        self.objects[obj.id] = obj
        return obj

    def named(self, name: str) -> DraftObject | None:
        """The object a request names: by id, or a task object by its role."""
        if name in self.objects:
            return self.objects[name]
        return self.objects[self.roles[name]] if name in self.roles else None

    def children(self) -> dict[str, list[DraftObject]]:
        """Support id -> what rests on or in it, in the order the objects were added."""
        found: dict[str, list[DraftObject]] = {}
        for obj in self.objects.values():
            if obj.parent is not None and obj.relation in ("on", "in"):
                found.setdefault(obj.parent, []).append(obj)
        return found

    def in_room(self, room_id: str, type_name: str) -> list[DraftObject]:
        return [o for o in self.objects.values() if o.room == room_id and o.type.name == type_name]

    def chain(self, obj: DraftObject) -> list[DraftObject]:
        """``obj`` and what it rests on (or is a part of), down to what stands on the floor or
        hangs."""
        chain = [obj]
        while (up := chain[-1].parent or chain[-1].part_of) is not None:
            chain.append(self.objects[up])
        return chain

    def carried(self, obj: DraftObject) -> list[DraftObject]:
        """What rests on ``obj`` or is a part of it, and so on up: every object whose chain
        passes through it."""
        return [o for o in self.objects.values() if any(up is obj for up in self.chain(o)[1:])]

    def priority(self, obj: DraftObject) -> int:
        """An object's priority, raised to that of anything it carries, as the layout ranks."""
        return max(
            PRIORITY_TASK if o.task else PRIORITY_ENRICHMENT for o in [obj, *self.carried(obj)]
        )

    def leave_out(self, obj: DraftObject, reason: str, *, recorded: bool = True) -> None:
        """Take ``obj`` out of the draft with everything it carries, so that no object names a
        support or whole that is gone: each is noted and, if ``recorded``, listed among the
        scene's dropped objects (and the relations naming it among the dropped ones)."""
        priority = self.priority(obj)
        for item in [obj, *self.carried(obj)]:
            del self.objects[item.id]
            why = reason if item is obj else WENT_WITH
            if recorded:
                room = obj.room or ""
                self.dropped.append(DroppedObject(item.id, item.type.name, room, priority, why))
            self.notes.append(f"left out {item.id} (priority {priority}): {why}")

    def parts_of(self, whole: DraftObject) -> list[DraftObject]:
        """The parts of ``whole`` so far, in the order they were added."""
        return [o for o in self.objects.values() if o.part_of == whole.id]

    def root(self, obj: DraftObject) -> DraftObject:
        return self.chain(obj)[-1]

    def support_cycle(self, obj: DraftObject) -> list[str] | None:
        """The ids of a circle of supports (or wholes) ``obj`` rests on, if there is one."""
        seen = [obj.id]
        parent = obj.parent or obj.part_of
        while parent is not None:
            if parent in seen:
                return [*seen, parent]
            seen.append(parent)
            parent = self.objects[parent].parent or self.objects[parent].part_of
        return None

    # -- rooms -----------------------------------------------------------------------------

    def find_room(self, name: str) -> str | None:
        """The id of the room ``name`` names (an id, or the first room of a type), if any."""
        if any(name == room_id for room_id, _kind in self.rooms):
            return name
        try:
            kind = room_type(name)
        except SceneError:
            return None
        return next((room_id for room_id, room_kind in self.rooms if room_kind == kind), None)

    def room_of(self, name: str, why: str) -> str:
        """A room id for a room id or type named in a fact."""
        room = self.find_room(name)
        if room is None:
            room_type(name)  # an unknown room type: says so, with the known ones
            raise SceneError(f"{why}: no room {name!r} in this scene")  # pragma: no cover
        return room

    def default_room(self, obj_type: ObjectType) -> str:
        """The first room of a type it occurs in (``catalog/rooms.py``), else the first room."""
        for room_id, kind in self.rooms:
            if occurs_in(obj_type, kind):
                return room_id
        return self.rooms[0][0]

    def no_room(self, name: str) -> str:
        rooms = ", ".join(f"{room_id} ({kind})" for room_id, kind in self.rooms)
        return f"no room {name!r} in this scene; its rooms: {rooms}"

    # -- facts that need no geometry -------------------------------------------------------

    def provisional(self, extra: Sequence[DraftObject] = ()) -> Scene:
        """A scene without geometry, for evaluating facts that need none."""
        objects = [scene_object(o) for o in (*self.objects.values(), *extra)]
        windows = [
            Window(f"window_{i}", "", req.room or "", 0.0, open=bool(req.open), role=req.role)
            for i, req in enumerate(self.windows.values())
        ]
        rooms = tuple(Room(room_id, kind, ()) for room_id, kind in self.rooms)
        return Scene("provisional", rooms=rooms, windows=tuple(windows), objects=tuple(objects))

    def allowed(self, candidate: DraftObject) -> bool:
        """Whether adding ``candidate`` keeps every ``absent`` fact true."""
        if not self.absent:
            return True
        known = self.objects.get(candidate.id) is candidate
        scene = self.provisional([] if known else [candidate])
        return all(evaluate(fact, scene) for fact in self.absent)


def scene_object(obj: DraftObject) -> SceneObject:
    """The finished object a draft object becomes (size and asset as chosen so far)."""
    return SceneObject(
        id=obj.id,
        type=obj.type.name,
        asset_id=obj.asset.id if obj.asset is not None else "",
        role=obj.role,
        room=obj.room or "",
        size=obj.size,
        parent=obj.parent,
        relation=obj.relation if obj.relation is not None else "on",
        states=dict(obj.states),
        attrs=dict(obj.attrs),
        properties=obj.type.properties,
        task=obj.task,
        custom_type=obj.type.custom,
        accepts=obj.type.accepts,
        part_of=obj.part_of,
    )


def snake(name: str) -> str:
    """``"CoffeeTable"`` -> ``"coffee_table"``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
