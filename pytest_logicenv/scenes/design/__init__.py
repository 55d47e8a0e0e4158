"""The procedural scene designer: a trajectory's facts -> a :class:`~scene.SceneSpec` (no LLM).

It reads the plan's ``setting`` facts and the realization facts of the trajectory's
conditions, and decides everything the layout solver does not: which rooms there are and how
big, where the doors and windows go (which rooms, which side), which objects exist (the task
objects the facts require, placed as they say, plus a room template of what such a room
usually holds), what rests on or in what, and the spatial relations to satisfy, task-critical
ones above enrichment ones. Positions are the layout's job.

Facts are read as a designer must: ``exists`` adds (or binds, by role) an object; ``where``
puts it on or in something or in a room; ``absent`` forbids any object that would match it,
enrichment included; ``near`` becomes a task-critical relation. Contradictions (one object
required in two places, an ``exists`` that an ``absent`` forbids, a towel that must be both
dirty and clean) are reported before any layout, with the facts that clash.

A design request from outside (:class:`Enrichment`: an LLM's, see ``llm_designer.py``)
replaces the room templates: it names the enrichment objects (type, room, support), the
materials of the rooms and extra relations, below the task's in priority. Everything else is
the designer's as without one, and a request the design cannot hold raises an
:class:`EnrichmentError` naming every bad item and why.

Deterministic for a seed; different seeds vary the room proportions, the materials, the
assets and the enrichment.

>>> from pytest_logicenv.logic.plan import Plan
>>> from pytest_logicenv.logic.facts import parse_facts
>>> plan = Plan("tidy", (), setting=parse_facts([
...     {"exists": "Sofa", "as": "sofa"},
...     {"exists": "Book", "as": "book", "where": {"on": "Floor"}}], "setting"),
...     rooms=("LivingRoom",))
>>> spec = design_scene(plan, None, seed=1)
>>> [(o.id, o.parent, o.relation) for o in spec.objects if o.task]
[('sofa', None, 'on'), ('book', None, 'on')]
>>> design_scene(plan, None, seed=1) == spec
True
"""

from __future__ import annotations

import difflib
import itertools
import math
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pytest_logicenv.errors import EnrichmentError, SceneError, Violation
from pytest_logicenv.logic.facts import (
    FLOOR,
    Absent,
    And,
    Attr,
    Exists,
    Fact,
    Held,
    Not,
    Or,
    Related,
    State,
    Where,
    describe,
    evaluate,
    is_type_ref,
    walk,
)
from pytest_logicenv.logic.plan import Leaf, Plan, iter_nodes
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.catalog import (
    STATE_PROPERTY,
    STRUCTURAL_TYPES,
    Asset,
    Catalog,
    ObjectType,
    default_catalog,
)
from pytest_logicenv.scenes.model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    RELATION_KINDS,
    UNARY_RELATION_KINDS,
    Door,
    DoorSpec,
    Provenance,
    Room,
    Scene,
    SceneObject,
    SceneSpec,
    SpatialRelation,
    Vector,
    Window,
    WindowSpec,
)

DESIGNER = "procedural"
#: Room types the designer has templates for, and spellings people use for them.
ROOM_TYPES: tuple[str, ...] = (
    "LivingRoom",
    "Kitchen",
    "Bedroom",
    "Bathroom",
    "Study",
    "LaundryRoom",
    "DiningRoom",
)
ROOM_ALIASES: Mapping[str, str] = {
    "lounge": "LivingRoom",
    "office": "Study",
    "homeoffice": "Study",
    "laundry": "LaundryRoom",
    "utilityroom": "LaundryRoom",
    "restroom": "Bathroom",
    "toilet": "Bathroom",
}
#: Relations that are not task-critical but belong to task objects rank between the two.
PRIORITY_TASK_OBJECT = (PRIORITY_TASK + PRIORITY_ENRICHMENT) // 2
WALL_HEIGHT = 2.5
GRID = 0.5  # room sides are multiples of this (metres)
MIN_SIDE = 2.5
MAX_SIDE = 10.0
WINDOW_SILL = 0.9
MAX_SMALL_PER_RECEPTACLE = 3
MAX_SMALL_PER_ROOM = 8
#: A small enrichment object goes where receptacles.json finds it at least this often.
MIN_USUAL = 0.05
#: What rests on a piece of furniture lies on its top; furniture holding things gets an asset
#: no taller than this (metres) when its type has one: a bed without a canopy, a desk without a
#: hutch, a low shelving unit (the agent reaches a top it can see).
MAX_SURFACE_HEIGHT = 1.3
#: Receptacles whose contents would only distract (what is in the bin is nobody's business).
NO_ENRICHMENT_INSIDE = frozenset({"GarbageCan", "Toilet", "Sink"})


# --------------------------------------------------------------------------- templates


@dataclass(frozen=True)
class Slot:
    """One line of a room template: ``count`` objects of ``type`` with probability
    ``chance``, on the floor (``on`` is ``None``), on the wall (``"wall"``) or on/in an
    object of type ``on``; ``relations`` are ``(kind, target type or None)`` pairs."""

    type: str
    chance: float = 1.0
    count: tuple[int, int] = (1, 1)
    on: str | None = None
    relations: tuple[tuple[str, str | None], ...] = ()


#: What each room type usually holds (from placement-annotations.json and judgement), in
#: placement order: anchors first, then what relates to them.
TEMPLATES: Mapping[str, tuple[Slot, ...]] = {
    "LivingRoom": (
        Slot("Sofa", relations=(("edge", None),)),
        Slot("CoffeeTable", 0.9, relations=(("in_front_of", "Sofa"), ("near", "Sofa"))),
        Slot("TVStand", 0.8, relations=(("edge", None), ("face_to", "Sofa"))),
        Slot("Television", 1.0, on="TVStand"),
        Slot("ArmChair", 0.5, relations=(("near", "CoffeeTable"), ("face_to", "CoffeeTable"))),
        Slot("SideTable", 0.6, relations=(("side_of", "Sofa"), ("near", "Sofa"))),
        Slot("FloorLamp", 0.5, relations=(("near", "Sofa"),)),
        Slot("HousePlant", 0.5, relations=(("edge", None),)),
        Slot("ShelvingUnit", 0.4, relations=(("edge", None),)),
        Slot("GarbageCan", 0.3, relations=(("edge", None),)),
        Slot("Painting", 0.7, on="wall", relations=(("above", "Sofa"),)),
        Slot("LightSwitch", on="wall"),
    ),
    "Kitchen": (
        Slot("CounterTop", count=(1, 2), relations=(("edge", None),)),
        Slot("Fridge", relations=(("edge", None), ("near", "CounterTop"))),
        Slot("DiningTable", 0.9, relations=(("center", None),)),
        Slot(
            "Chair",
            0.9,
            count=(2, 4),
            relations=(("near", "DiningTable"), ("face_to", "DiningTable")),
        ),
        Slot("Microwave", 0.7, on="CounterTop"),
        Slot("CoffeeMachine", 0.6, on="CounterTop"),
        Slot("Toaster", 0.5, on="CounterTop"),
        Slot("GarbageCan", 0.8, relations=(("edge", None),)),
        Slot("LightSwitch", on="wall"),
    ),
    "Bedroom": (
        Slot("Bed", relations=(("edge", None),)),
        Slot("SideTable", 0.8, relations=(("side_of", "Bed"), ("near", "Bed"))),
        Slot("DeskLamp", 0.5, on="SideTable"),
        Slot("Dresser", 0.7, relations=(("edge", None),)),
        Slot("Desk", 0.4, relations=(("edge", None),)),
        Slot("Chair", 0.4, relations=(("near", "Desk"), ("face_to", "Desk"))),
        Slot("ShelvingUnit", 0.4, relations=(("edge", None),)),
        Slot("FloorLamp", 0.3, relations=(("edge", None),)),
        Slot("GarbageCan", 0.3, relations=(("edge", None),)),
        Slot("Painting", 0.5, on="wall", relations=(("above", "Bed"),)),
        Slot("LightSwitch", on="wall"),
    ),
    "Bathroom": (
        Slot("Toilet", relations=(("edge", None),)),
        Slot("ToiletPaperHanger", 0.9, on="wall", relations=(("near", "Toilet"),)),
        Slot("TowelHolder", 0.7, on="wall"),
        Slot("HandTowelHolder", 0.4, on="wall"),
        Slot("GarbageCan", 0.7, relations=(("edge", None), ("near", "Toilet"))),
        Slot("Plunger", 0.4, relations=(("near", "Toilet"),)),
        Slot("ScrubBrush", 0.3, relations=(("near", "Toilet"),)),
        Slot("LightSwitch", on="wall"),
    ),
    "Study": (
        Slot("Desk", relations=(("edge", None),)),
        Slot("Chair", relations=(("near", "Desk"), ("face_to", "Desk"))),
        Slot("DeskLamp", 0.7, on="Desk"),
        Slot("Laptop", 0.6, on="Desk"),
        Slot("ShelvingUnit", 0.8, relations=(("edge", None),)),
        Slot("ArmChair", 0.4, relations=(("edge", None),)),
        Slot("FloorLamp", 0.4, relations=(("near", "ArmChair"),)),
        Slot("GarbageCan", 0.5, relations=(("near", "Desk"),)),
        Slot("Painting", 0.5, on="wall", relations=(("above", "Desk"),)),
        Slot("LightSwitch", on="wall"),
    ),
    "LaundryRoom": (
        Slot("WashingMachine", relations=(("edge", None),)),
        Slot("ClothesDryer", 0.8, relations=(("edge", None), ("side_of", "WashingMachine"))),
        Slot("LaundryHamper", 0.8, relations=(("near", "WashingMachine"),)),
        Slot("ShelvingUnit", 0.5, relations=(("edge", None),)),
        Slot("GarbageCan", 0.3, relations=(("edge", None),)),
        Slot("LightSwitch", on="wall"),
    ),
    "DiningRoom": (
        Slot("DiningTable", relations=(("center", None),)),
        Slot(
            "Chair",
            count=(2, 6),
            relations=(("near", "DiningTable"), ("face_to", "DiningTable")),
        ),
        Slot("SideTable", 0.4, relations=(("edge", None),)),
        Slot("HousePlant", 0.5, relations=(("edge", None),)),
        Slot("Painting", 0.6, on="wall", relations=(("above", "DiningTable"),)),
        Slot("LightSwitch", on="wall"),
    ),
}


# --------------------------------------------------------------------------- design requests

#: An enrichment object's support besides another object.
ON_FLOOR = "floor"
ON_WALL = "wall"
_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


@dataclass(frozen=True)
class EnrichmentObject:
    """An object a design request adds to the task objects.

    ``name`` becomes its id (relations name it by it); ``type`` is a catalog type; ``room`` a
    room id or type of the design (``None``: its support's room, else a room where the type is
    usual); ``support`` is :data:`ON_FLOOR`, :data:`ON_WALL` or the id or role of the
    receptacle it rests on or in (which of the two, the receptacle decides)."""

    name: str
    type: str
    room: str | None = None
    support: str = ON_FLOOR
    description: str = ""


@dataclass(frozen=True)
class EnrichmentRelation:
    """A spatial relation a design request asks for, between objects named by id or role
    (``target`` is ``None`` for the unary kinds); it ranks below the task's relations."""

    kind: str
    subject: str
    target: str | None = None
    priority: int = PRIORITY_ENRICHMENT

    def __str__(self) -> str:
        return f"{self.kind}({self.subject}{', ' + self.target if self.target else ''})"


@dataclass(frozen=True)
class RoomMaterials:
    """A room's floor and wall materials, by the catalog's names (empty: the seed's choice)."""

    room: str
    floor: str = ""
    wall: str = ""


@dataclass(frozen=True)
class Enrichment:
    """A design request: what to add to the task objects, in place of the room templates.
    ``made_by`` says who asked (``llm:<model>``), for the scene's provenance.

    >>> from pytest_logicenv.logic.plan import Plan
    >>> from pytest_logicenv.logic.facts import parse_facts
    >>> plan = Plan("read", (), setting=parse_facts([{"exists": "Sofa", "as": "sofa"}], "s"),
    ...             rooms=("LivingRoom",))
    >>> request = Enrichment(
    ...     objects=(EnrichmentObject("lamp", "FloorLamp"), EnrichmentObject("cushion", "Pillow",
    ...              support="sofa")),
    ...     relations=(EnrichmentRelation("near", "lamp", "sofa"),))
    >>> spec = design_scene(plan, None, seed=1, enrichment=request)
    >>> [(o.id, o.parent) for o in spec.objects]
    [('sofa', None), ('lamp', None), ('cushion', 'sofa')]
    >>> design_scene(plan, None, enrichment=Enrichment(objects=(
    ...     EnrichmentObject("lamp", "FloorLamp"), EnrichmentObject("pot", "Pot", support="lamp"),
    ...     EnrichmentObject("rug", "Carpet"))))
    Traceback (most recent call last):
    ...
    pytest_logicenv.errors.EnrichmentError: the design request: 2 problems
      [type] objects[2] rug: unknown object type 'Carpet'; the closest catalog types: ...
      [support] objects[1] pot: lamp cannot hold it: a FloorLamp is not a receptacle: ...
    """

    objects: tuple[EnrichmentObject, ...] = ()
    relations: tuple[EnrichmentRelation, ...] = ()
    materials: tuple[RoomMaterials, ...] = ()
    made_by: str = "request"


# --------------------------------------------------------------------------- entry points


def trajectory_facts(plan: Plan, trajectory: Trajectory | None) -> tuple[Fact, ...]:
    """The facts a scene for ``trajectory`` must make true: the plan's setting, then the
    realization facts of each of its conditions. A condition without facts is an error."""
    facts = list(plan.setting)
    if trajectory is None:
        return tuple(facts)
    missing = []
    for factor_id, value in trajectory.conditions:
        try:
            factor = plan.factor(factor_id)
        except KeyError:
            raise SceneError(
                f"trajectory {trajectory.id!r} names factor {factor_id!r}, which the plan "
                "does not have; select the trajectories again from this plan"
            ) from None
        realization = factor.realizations.get(value, ())
        if not realization:
            missing.append(f"{factor_id}={value}")
        facts.extend(realization)
    if missing:
        raise SceneError(
            f"trajectory {trajectory.id!r}: no realization facts for {', '.join(missing)}; "
            "a scene can only be built for conditions the plan says how to make true "
            "(add 'realization' facts to those factor values in the plan)"
        )
    return tuple(facts)


def design_scene(
    plan: Plan,
    trajectory: Trajectory | None,
    *,
    seed: int = 0,
    catalog: Catalog | None = None,
    enrichment: Enrichment | None = None,
) -> SceneSpec:
    """Design a scene for ``trajectory`` (or, with ``None``, for the plan's setting alone);
    ``enrichment`` replaces the room templates (an empty one: the task objects alone)."""
    facts = trajectory_facts(plan, trajectory)
    builder = _Builder(plan, facts, seed, catalog or default_catalog(), enrichment)
    spec = builder.build(trajectory)
    _self_check(spec, facts)
    return spec


def condition_types(plan: Plan, catalog: Catalog) -> frozenset[str]:
    """Types the plan's facts talk about, and their stand-ins: enrichment never adds them, so
    that no extra object blurs which situation a scene shows.

    >>> from pytest_logicenv.llm.planner import example_plan
    >>> types = condition_types(example_plan(), default_catalog())
    >>> "Toy" in types, "TeddyBear" in types, "Television" in types  # a teddy stands in for a toy
    (True, True, False)
    """
    facts = list(plan.setting) + [
        fact
        for factor in plan.factors
        for realization in factor.realizations.values()
        for fact in realization
    ]
    types: set[str] = set()
    for fact in facts:
        for item in walk(fact):
            refs: list[str] = []
            if isinstance(item, Exists | Absent):
                refs = [item.ref]
            elif isinstance(item, Related | State | Attr):
                refs = [getattr(item, "subject", getattr(item, "ref", ""))]
            for ref in refs:
                if is_type_ref(ref) and catalog.has(ref):
                    obj_type = catalog.type(ref)
                    types.add(ref)
                    types.update(a.source_type for a in obj_type.assets)
    return frozenset(types)


def room_type(name: str) -> str:
    """The canonical room type for ``name`` (``"living room"`` -> ``"LivingRoom"``)."""
    key = re.sub(r"[^a-z]", "", name.lower())
    for known in ROOM_TYPES:
        if known.lower() == key:
            return known
    if key in ROOM_ALIASES:
        return ROOM_ALIASES[key]
    raise SceneError(
        f"unknown room type {name!r}; known room types: {', '.join(ROOM_TYPES)} "
        f"(also: {', '.join(sorted(ROOM_ALIASES))})"
    )


# --------------------------------------------------------------------------- the builder


@dataclass
class _Object:
    """An object being designed (mutable while the builder works on it)."""

    id: str
    type: ObjectType
    role: str | None
    task: bool
    room: str | None = None
    parent: str | None = None
    relation: str | None = None  # "on"/"in" (parent None + "on": the floor), "wall"
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
class _WindowReq:
    role: str | None
    room: str | None
    open: bool | None
    why: str


@dataclass(frozen=True)
class _Far:
    subject: str
    target: str


def _room_id(room_type_name: str, taken: set[str]) -> str:
    base = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", room_type_name).lower()
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}_{n}", n + 1
    taken.add(candidate)
    return candidate


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


class _Builder:
    def __init__(
        self,
        plan: Plan,
        facts: Sequence[Fact],
        seed: int,
        catalog: Catalog,
        enrichment: Enrichment | None = None,
    ) -> None:
        self.plan = plan
        self.catalog = catalog
        self.seed = seed
        self.enrichment = enrichment
        self.materials: dict[str, tuple[str, str]] = {}  # room id -> requested floor, wall
        self.facts = self._flatten(facts, random.Random(f"{seed}:or"))
        self.absent: list[Absent] = [f for f in self.facts if isinstance(f, Absent)]
        self.objects: dict[str, _Object] = {}
        self.roles: dict[str, str] = {}  # role -> object id
        self.windows: dict[str, _WindowReq] = {}  # role (or "") -> requirement
        self.door_states: list[tuple[str | None, bool, str]] = []
        self.relations: list[SpatialRelation] = []
        self.notes: list[str] = []
        self.rooms: list[tuple[str, str]] = []  # (id, type)
        self.cells: dict[str, tuple[int, int]] = {}  # room id -> (column, row) of the grid
        self.excluded = condition_types(plan, catalog)

    # -- facts ---------------------------------------------------------------------------

    def _flatten(self, facts: Iterable[Fact], rng: random.Random) -> list[Fact | _Far]:
        flat: list[Fact | _Far] = []
        for fact in facts:
            match fact:
                case And(items):
                    flat += self._flatten(items, rng)
                case Or(items):
                    # A disjunction is realized by one branch, chosen by the seed.
                    flat += self._flatten([rng.choice(items)], rng)
                case Not(Exists(ref, _, where, attrs, states)):
                    flat.append(Absent(ref, where, attrs, states))
                case Not(Absent(ref, where, attrs, states)):
                    flat.append(Exists(ref, None, where, attrs, states))
                case Not(Related("near", subject, target)):
                    flat.append(_Far(subject, target))
                case Not(Not(item)):
                    flat += self._flatten([item], rng)
                case Not(item):
                    raise SceneError(
                        f"cannot design a scene for 'not ({describe(item)})': state it "
                        "positively (e.g. a state false, or an 'absent' fact)"
                    )
                case Held(ref):
                    raise SceneError(
                        f"'agent holds {ref}' cannot hold in a designed scene: the agent "
                        "starts with empty hands; put the object somewhere instead"
                    )
                case _:
                    flat.append(fact)
        return flat

    # -- the whole design ----------------------------------------------------------------

    def build(self, trajectory: Trajectory | None) -> SceneSpec:
        self._make_rooms()
        self._bind_roles()
        for fact in self.facts:
            self._apply(fact)
        self._check_supports()
        self._settle_rooms()
        self._check_absent_clashes()
        if self.enrichment is None:
            for room_id, kind in self.rooms:
                self._furnish(room_id, kind)
        else:
            self._add_requested(self.enrichment)
        self._place_free_objects()
        self._choose_assets()  # furniture first: small objects must fit what they rest on
        if self.enrichment is None:
            for room_id, kind in self.rooms:
                self._add_small_objects(room_id, kind)
            self._choose_assets()
        self._settle_supports()
        rooms = self._floor_plan()
        doors, windows = self._openings(rooms)
        objects = tuple(self._scene_object(obj) for obj in self.objects.values())
        return SceneSpec(
            id=trajectory.id if trajectory is not None else "setting",
            rooms=rooms,
            objects=objects,
            doors=doors,
            windows=windows,
            relations=tuple(self._all_relations()),
            agent_room=self.rooms[0][0],
            provenance=Provenance(
                trajectory=trajectory.id if trajectory is not None else None,
                conditions=trajectory.conditions if trajectory is not None else (),
                designer=DESIGNER if self.enrichment is None else self.enrichment.made_by,
                seed=self.seed,
                notes=tuple(self.notes),
            ),
        )

    # -- rooms ---------------------------------------------------------------------------

    def _make_rooms(self) -> None:
        kinds = [room_type(r) for r in self.plan.rooms]
        for fact in self.facts:
            room = getattr(getattr(fact, "where", None), "room", None)
            if room is None or room in kinds:
                continue
            kind = room_type(room)
            if kind not in kinds:
                kinds.append(kind)
                self.notes.append(f"room {kind} added: a fact puts something there")
        if not kinds:
            kinds = ["LivingRoom"]
            self.notes.append("the plan names no rooms: designed one LivingRoom")
        taken: set[str] = set()
        self.rooms = [(_room_id(kind, taken), kind) for kind in kinds]

    def _room_of(self, name: str, why: str) -> str:
        """A room id for a room id or type named in a fact."""
        room = self._find_room(name)
        if room is None:
            room_type(name)  # an unknown room type: says so, with the known ones
            raise SceneError(f"{why}: no room {name!r} in this scene")  # pragma: no cover
        return room

    def _find_room(self, name: str) -> str | None:
        """The id of the room ``name`` names (an id, or the first room of a type), if any."""
        if any(name == room_id for room_id, _kind in self.rooms):
            return name
        try:
            kind = room_type(name)
        except SceneError:
            return None
        return next((room_id for room_id, room_kind in self.rooms if room_kind == kind), None)

    # -- objects from facts --------------------------------------------------------------

    def _new_object(self, type_name: str, role: str | None, task: bool) -> _Object:
        obj_type = self.catalog.type(type_name)
        base = role or f"{_snake(type_name)}_1"
        object_id, n = base, 2
        while object_id in self.objects:
            object_id = f"{role}_{n}" if role else f"{_snake(type_name)}_{n}"
            n += 1
        obj = _Object(object_id, obj_type, role, task, states=dict(obj_type.states))
        self.objects[object_id] = obj
        if role is not None:
            self.roles[role] = object_id
        return obj

    def _bind_roles(self) -> None:
        """Create one object per role an ``exists`` binds, checking it has one type."""
        for fact in self.facts:
            if not (isinstance(fact, Exists) and fact.as_ is not None):
                continue
            text = describe(fact)
            if not is_type_ref(fact.ref):
                raise SceneError(
                    f"'{text}': 'as' binds a role to a type; write the type in 'exists' "
                    f"(e.g. {{'exists': 'Toy', 'as': '{fact.as_}'}})"
                )
            if fact.ref == "Window":
                if fact.as_ in self.roles:
                    raise SceneError(f"role {fact.as_!r} is an object and a Window ('{text}')")
                self._window(fact.as_, text)
                continue
            if fact.ref == "Door":
                raise SceneError(f"'{text}': doors cannot take roles; state their 'open' only")
            if fact.as_ in self.windows:
                raise SceneError(f"role {fact.as_!r} is a Window and a {fact.ref} ('{text}')")
            if fact.as_ in self.roles:
                existing = self.objects[self.roles[fact.as_]]
                if existing.type.name != fact.ref:
                    raise SceneError(
                        f"role {fact.as_!r} is a {existing.type.name} "
                        f"('{existing.why['type']}') and a {fact.ref} ('{text}'): "
                        "one role names one object; use two roles"
                    )
                continue
            obj = self._new_object(fact.ref, fact.as_, task=True)
            obj.why["type"] = text

    def _window(self, role: str | None, why: str) -> _WindowReq:
        key = role or ""
        if key not in self.windows:
            self.windows[key] = _WindowReq(role, None, None, why)
        return self.windows[key]

    def _resolve(self, ref: str, why: str, room: str | None = None) -> _Object:
        """The object a reference names: a bound role, or some object of a type (created
        when none exists yet, preferably in ``room``)."""
        if not is_type_ref(ref):
            if ref in self.roles:
                return self.objects[self.roles[ref]]
            if ref in self.windows:
                raise SceneError(
                    f"'{why}' puts something on or in {ref!r}, a window: windows are openings "
                    "in a wall, not receptacles; name a sill-side piece of furniture instead"
                )
            raise SceneError(
                f"'{why}' names {ref!r}, but no 'exists' fact binds that role; add one such "
                f'as {{"exists": "SomeType", "as": "{ref}"}} to the setting or realization'
            )
        candidates = [o for o in self.objects.values() if o.type.name == ref]
        in_room = [o for o in candidates if room is not None and o.room == room]
        if in_room or candidates:
            return (in_room or candidates)[0]
        obj = self._new_object(ref, None, task=True)
        obj.why["type"] = why
        return obj

    def _apply(self, fact: Fact | _Far) -> None:
        match fact:
            case Exists(ref, role, where, attrs, states):
                text = describe(fact)
                if ref in ("Window", "Door") or (role is not None and role in self.windows):
                    self._apply_opening(ref, role, where, states, text)
                    return
                if role is not None:
                    obj = self.objects[self.roles[role]]
                elif not is_type_ref(ref):
                    obj = self._resolve(ref, text)
                else:
                    obj = self._find_or_make(ref, where, attrs, states, text)
                self._constrain(obj, where, attrs, states, text)
            case Related("near", subject, target):
                self._distance("near", subject, target, describe(fact))
            case Related(relation, subject, target):
                text = describe(fact)
                where = Where(on=target) if relation == "on" else Where(in_=target)
                self._constrain(self._resolve(subject, text), where, {}, {}, text)
            case State(ref, states):
                text = describe(fact)
                if ref in self.windows or ref == "Window":
                    self._apply_opening(
                        "Window", ref if ref != "Window" else None, Where(), states, text
                    )
                    return
                self._constrain(self._resolve(ref, text), Where(), {}, states, text)
            case Attr(ref, attrs):
                text = describe(fact)
                self._constrain(self._resolve(ref, text), Where(), attrs, {}, text)
            case _Far(subject, target):
                self._distance("far", subject, target, f"not ({subject} near {target})")
            case Absent():
                pass  # checked against every object the design adds

    def _distance(self, kind: str, subject: str, target: str, text: str) -> None:
        first, second = self._resolve(subject, text), self._resolve(target, text)
        self.relations.append(SpatialRelation(kind, first.id, second.id, PRIORITY_TASK, text))

    def _find_or_make(
        self,
        ref: str,
        where: Where,
        attrs: Mapping[str, str],
        states: Mapping[str, bool],
        text: str,
    ) -> _Object:
        """An anonymous ``exists``: an object already designed may satisfy it."""
        for obj in self.objects.values():
            if obj.type.name != ref:
                continue
            if any(obj.attrs.get(k, v) != v for k, v in attrs.items()):
                continue
            if any(obj.states.get(k, v) != v for k, v in states.items()):
                continue
            if where.on is None and where.in_ is None and where.room is None:
                return obj
            if not obj.placed and where.room is None:
                return obj
        obj = self._new_object(ref, None, task=True)
        obj.why["type"] = text
        return obj

    def _apply_opening(
        self,
        ref: str,
        role: str | None,
        where: Where,
        states: Mapping[str, bool],
        text: str,
    ) -> None:
        extra = set(states) - {"open"}
        if extra:
            raise SceneError(f"'{text}': windows and doors have only the state 'open'")
        if where.on is not None or where.in_ is not None:
            raise SceneError(f"'{text}': windows and doors are in walls, not on or in objects")
        room = self._room_of(where.room, text) if where.room is not None else None
        if ref == "Door":
            if "open" in states:
                self.door_states.append((room, states["open"], text))
            return
        window = self._window(role, text)
        if room is not None:
            if window.room not in (None, room):
                raise SceneError(
                    f"window {role or ''} must be in {window.room} ('{window.why}') "
                    f"and in {room} ('{text}')"
                )
            window.room = room
        if "open" in states:
            if window.open not in (None, states["open"]):
                raise SceneError(
                    f"window {role or ''} must be open and closed: '{window.why}' vs '{text}'"
                )
            window.open = states["open"]
            window.why = text

    def _constrain(
        self,
        obj: _Object,
        where: Where,
        attrs: Mapping[str, str],
        states: Mapping[str, bool],
        text: str,
    ) -> None:
        for name, value in attrs.items():
            allowed = obj.type.attrs.get(name)
            if allowed and value not in allowed:
                raise SceneError(
                    f"'{text}': a {obj.type.name} has {name} in {', '.join(allowed)}, not {value!r}"
                )
            if name in obj.attrs and obj.attrs[name] != value and f"attr:{name}" in obj.why:
                raise SceneError(
                    f"{obj.id} cannot have {name}={obj.attrs[name]} "
                    f"('{obj.why[f'attr:{name}']}') and {name}={value} ('{text}')"
                )
            obj.attrs[name] = value
            obj.why[f"attr:{name}"] = text
        for name, flag in states.items():
            needed = STATE_PROPERTY.get(name)
            if needed is not None and not obj.type.has(needed):
                raise SceneError(
                    f"'{text}': a {obj.type.name} cannot be {name} (it is not {needed}); "
                    "pick a type that can, or drop the state"
                )
            if f"state:{name}" in obj.why and obj.states.get(name) != flag:
                raise SceneError(
                    f"{obj.id} cannot be {name}={str(obj.states.get(name)).lower()} "
                    f"('{obj.why[f'state:{name}']}') and {name}={str(flag).lower()} ('{text}')"
                )
            obj.states[name] = flag
            obj.why[f"state:{name}"] = text
        if where.room is not None:
            room = self._room_of(where.room, text)
            if obj.room not in (None, room):
                raise SceneError(
                    f"{obj.id} must be in {obj.room} ('{obj.why['room']}') and in {room} ('{text}')"
                )
            obj.room = room
            obj.why["room"] = text
        target_ref = where.on if where.on is not None else where.in_
        if target_ref is None:
            return
        relation = "on" if where.on is not None else "in"
        if target_ref in (FLOOR, "floor"):
            if relation == "in":
                raise SceneError(f"'{text}': things are on the Floor, not in it")
            parent = None
        else:
            parent_obj = self._resolve(target_ref, text, obj.room)
            if parent_obj is obj:
                raise SceneError(f"'{text}': an object cannot rest on or in itself")
            parent = parent_obj.id
        if obj.placed and (obj.parent, obj.relation) != (parent, relation):
            here = "the Floor" if obj.parent is None else obj.parent
            there = "the Floor" if parent is None else parent
            raise SceneError(
                f"{obj.id} is required {obj.relation} {here} ('{obj.why['place']}') and "
                f"{relation} {there} ('{text}'): one object cannot be in two places; use two "
                "roles, or fix one of the facts"
            )
        obj.parent, obj.relation = parent, relation
        obj.why["place"] = text

    # -- consistency -----------------------------------------------------------------------

    def _check_supports(self) -> None:
        for obj in self.objects.values():
            cycle = self._support_cycle(obj)
            if cycle is not None:
                raise SceneError("objects rest on each other in a circle: " + " -> ".join(cycle))
            if obj.parent is None:
                continue
            holder = self.objects[obj.parent]
            problem = _cannot_hold(holder.type, obj.type)
            if problem is not None:
                raise SceneError(
                    f"{obj.id} must be {obj.relation} {holder.id} ('{obj.why['place']}'), but "
                    + problem
                )

    def _support_cycle(self, obj: _Object) -> list[str] | None:
        """The ids of a circle of supports ``obj`` rests on, if there is one."""
        seen = [obj.id]
        parent = obj.parent
        while parent is not None:
            if parent in seen:
                return [*seen, parent]
            seen.append(parent)
            parent = self.objects[parent].parent
        return None

    def _root(self, obj: _Object) -> _Object:
        while obj.parent is not None:
            obj = self.objects[obj.parent]
        return obj

    def _chain(self, obj: _Object) -> list[_Object]:
        chain = [obj]
        while chain[-1].parent is not None:
            chain.append(self.objects[chain[-1].parent])
        return chain

    def _settle_rooms(self) -> None:
        """Give every placed object the room of its support chain; rooms must agree."""
        for obj in list(self.objects.values()):
            chain = self._chain(obj)
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
                room = self._default_room(self._root(obj).type)
            else:
                continue  # a free small object: its support and room come later
            for link in chain:
                link.room = room

    def _default_room(self, obj_type: ObjectType) -> str:
        for room_id, kind in self.rooms:
            if kind in obj_type.rooms:
                return room_id
        return self.rooms[0][0]

    def _provisional(self, extra: Sequence[_Object] = ()) -> Scene:
        """A scene without geometry, for evaluating facts that need none."""
        objects = [self._scene_object(o) for o in (*self.objects.values(), *extra)]
        windows = [
            Window(f"window_{i}", "", req.room or "", 0.0, open=bool(req.open), role=req.role)
            for i, req in enumerate(self.windows.values())
        ]
        rooms = tuple(Room(room_id, kind, ()) for room_id, kind in self.rooms)
        return Scene("provisional", rooms=rooms, windows=tuple(windows), objects=tuple(objects))

    def _check_absent_clashes(self) -> None:
        scene = self._provisional()
        for fact in self.absent:
            if evaluate(fact, scene):
                continue
            culprits = [o for o in self.objects.values() if evaluate(fact, _without(scene, o))]
            reasons = (
                "; ".join(f"'{o.why.get('place') or o.why.get('type', o.id)}'" for o in culprits)
                or "the facts above"
            )
            raise SceneError(
                f"'{describe(fact)}' contradicts {reasons}: the same trajectory requires "
                "and forbids this object; fix the plan's realization facts"
            )

    def _allowed(self, candidate: _Object) -> bool:
        """Whether adding ``candidate`` keeps every ``absent`` fact true."""
        if not self.absent:
            return True
        known = self.objects.get(candidate.id) is candidate
        scene = self._provisional([] if known else [candidate])
        return all(evaluate(fact, scene) for fact in self.absent)

    # -- enrichment --------------------------------------------------------------------------

    def _rng(self, *purpose: object) -> random.Random:
        return random.Random(":".join(str(p) for p in (self.seed, *purpose)))

    def _in_room(self, room_id: str, type_name: str) -> list[_Object]:
        return [o for o in self.objects.values() if o.room == room_id and o.type.name == type_name]

    def _furnish(self, room_id: str, kind: str) -> None:
        rng = self._rng("furnish", room_id)
        for slot in TEMPLATES.get(kind, ()):
            present = self._in_room(room_id, slot.type)
            wanted = rng.randint(*slot.count) if rng.random() < slot.chance else 0
            if present:
                anchors = present  # a task object fills the slot; the template relates to it
            elif slot.type in self.excluded or not self.catalog.has(slot.type):
                continue
            else:
                anchors = []
                for _ in range(wanted):
                    obj = self._enrichment(slot, room_id)
                    if obj is None:
                        break
                    anchors.append(obj)
            for obj in anchors:
                for kind_name, target_type in slot.relations:
                    self._template_relation(obj, kind_name, target_type, room_id)

    def _enrichment(self, slot: Slot, room_id: str) -> _Object | None:
        obj_type = self.catalog.type(slot.type)
        obj = _Object("", obj_type, None, task=False, room=room_id, states=dict(obj_type.states))
        if slot.on == "wall" or (slot.on is None and obj_type.on_wall and not obj_type.on_floor):
            obj.relation = "wall"
        elif slot.on is None:
            obj.relation = "on"
        else:
            holders = self._in_room(room_id, slot.on)
            if not holders:
                return None
            obj.parent = holders[0].id
            obj.relation = "in" if holders[0].type.container else "on"
        if not self._allowed(obj):
            return None
        return self._add(obj)

    def _add(self, obj: _Object) -> _Object:
        n = 1
        while f"{_snake(obj.type.name)}_{n}" in self.objects:
            n += 1
        obj.id = f"{_snake(obj.type.name)}_{n}"
        self.objects[obj.id] = obj
        return obj

    def _template_relation(
        self, obj: _Object, kind: str, target_type: str | None, room_id: str
    ) -> None:
        """A template relation for a floor or wall object (what rests on another object is
        placed by its contact relation alone)."""
        if obj.parent is not None or obj.relation is None:
            return
        priority = PRIORITY_TASK_OBJECT if obj.task else PRIORITY_ENRICHMENT
        if target_type is None:
            self.relations.append(SpatialRelation(kind, obj.id, None, priority, "template"))
            return
        targets = [
            t for t in self._in_room(room_id, target_type) if t is not obj and t.parent is None
        ]
        if targets:
            self.relations.append(
                SpatialRelation(kind, obj.id, targets[0].id, priority, "template")
            )

    # -- a design request ------------------------------------------------------------------

    def _named(self, name: str) -> _Object | None:
        """The object a request names: by id, or a task object by its role."""
        if name in self.objects:
            return self.objects[name]
        return self.objects[self.roles[name]] if name in self.roles else None

    def _add_requested(self, request: Enrichment) -> None:
        """Add a design request's materials, objects and relations. Every item that cannot
        be added is reported at once, in an :class:`EnrichmentError`, so that whoever asked
        can fix them all in one go."""
        problems: list[Violation] = []
        self._request_materials(request.materials, problems)
        left_out = self._request_objects(request.objects, problems)
        self._request_relations(request, left_out, problems)
        if problems:
            raise EnrichmentError(problems)

    def _no_room(self, name: str) -> str:
        rooms = ", ".join(f"{room_id} ({kind})" for room_id, kind in self.rooms)
        return f"no room {name!r} in this scene; its rooms: {rooms}"

    def _request_materials(self, looks: Sequence[RoomMaterials], problems: list[Violation]) -> None:
        for i, look in enumerate(looks):
            where = f"materials[{i}] {look.room}"
            room = self._find_room(look.room)
            if room is None:
                problems.append(Violation("room", where, self._no_room(look.room)))
                continue
            for what, name, known in (
                ("floor", look.floor, self.catalog.floor_materials),
                ("wall", look.wall, self.catalog.wall_materials),
            ):
                if name and known and name not in known:
                    close = difflib.get_close_matches(name, known, n=4, cutoff=0.3)
                    hint = f"; the closest: {', '.join(close)}" if close else ""
                    problems.append(
                        Violation("material", where, f"unknown {what} material {name!r}{hint}")
                    )
            self.materials[room] = (look.floor, look.wall)

    def _request_objects(
        self, items: Sequence[EnrichmentObject], problems: list[Violation]
    ) -> set[str]:
        """Add the requested objects with their supports and rooms, and report those that
        break a rule; what rests on a rejected object is left out with it. Returns the names
        left out, so that relations naming them are not reported again."""
        made: dict[str, tuple[_Object, EnrichmentObject]] = {}
        where: dict[str, str] = {}  # every well-formed name -> its place in the request
        for i, item in enumerate(items):
            place = f"objects[{i}] {item.name}"
            name_problem = self._name_problem(item.name, where)
            if name_problem is not None:
                problems.append(Violation("name", place, name_problem))
                continue
            where[item.name] = place
            type_problem = self._type_problem(item.type)
            if type_problem is not None:
                problems.append(Violation("type", place, type_problem))
                continue
            room = None if item.room is None else self._find_room(item.room)
            if item.room is not None and room is None:
                problems.append(Violation("room", place, self._no_room(item.room)))
                continue
            obj_type = self.catalog.type(item.type)
            obj = _Object(item.name, obj_type, None, task=False, room=room)
            obj.states = dict(obj_type.states)
            obj.why["type"] = f"{item.name}: {item.description or item.type}"
            made[item.name] = (obj, item)
        candidates = {name: obj for name, (obj, _) in made.items()}
        for name, (obj, item) in made.items():
            problem = self._request_support(obj, item.support, candidates, where)
            if problem is not None:
                problems.append(Violation("support", where[name], problem))
                del candidates[name]
        while True:  # what rests on a rejected object goes with it
            orphans = [
                name
                for name, obj in candidates.items()
                if obj.parent is not None
                and obj.parent not in candidates
                and obj.parent not in self.objects
            ]
            if not orphans:
                break
            for name in orphans:
                del candidates[name]
        self.objects.update(candidates)
        placed = []
        for obj in sorted(candidates.values(), key=lambda o: o.parent is not None):
            cycle = self._support_cycle(obj)
            problem = (
                "rests on a circle of supports: " + " -> ".join(cycle)
                if cycle is not None
                else self._request_room(obj)
            )
            if problem is not None:
                problems.append(Violation("support", where[obj.id], problem))
            else:
                placed.append(obj)
        problems.extend(self._forbidden(placed, where))
        return set(where) - set(candidates)

    def _name_problem(self, name: str, taken: Mapping[str, str]) -> str | None:
        if not _NAME.match(name):
            return (
                "a name is lower-case letters, digits and underscores, starting with a letter "
                "(it becomes the object's id)"
            )
        if name in taken:
            return f"{name!r} already names {taken[name]}; give each object its own name"
        if self._named(name) is not None or name in self.windows:
            return f"{name!r} already names a task object; give the added object its own name"
        return None

    def _type_problem(self, type_name: str) -> str | None:
        if type_name in STRUCTURAL_TYPES or type_name == "Door":
            return "doors and windows belong to the floor plan; they are not objects to add"
        if not self.catalog.has(type_name):
            close = self.catalog.suggestions(type_name)
            hint = f"the closest catalog types: {', '.join(close)}" if close else "none is close"
            return f"unknown object type {type_name!r}; {hint}"
        return None

    def _request_support(
        self, obj: _Object, support: str, made: Mapping[str, _Object], names: Mapping[str, str]
    ) -> str | None:
        """Put ``obj`` where ``support`` says; why it cannot be, if it cannot."""
        if support == ON_FLOOR:
            obj.relation = "on"
            if obj.type.on_wall and not obj.type.on_floor:
                return f"a {obj.type.name} hangs on a wall: give it the support {ON_WALL!r}"
            return None
        if support == ON_WALL:
            obj.relation = "wall"
            if not obj.type.on_wall:
                return (
                    f"a {obj.type.name} does not hang on a wall: put it on the floor or on a "
                    "receptacle"
                )
            return None
        holder = made.get(support) or self._named(support)
        if holder is None and support in names:
            obj.parent = support  # an object rejected for its own reported problem
            return None
        if holder is None:
            receptacles = sorted(
                o.id
                for o in (*self.objects.values(), *made.values())
                if o.type.has("receptacle") and o is not obj
            )
            return (
                f"{support!r} is not an object of this scene; a support is {ON_FLOOR!r}, "
                f"{ON_WALL!r} or a receptacle: {', '.join(receptacles)}"
            )
        if holder is obj:
            return "an object cannot rest on or in itself"
        return self._put_on(obj, holder)

    def _put_on(self, obj: _Object, holder: _Object) -> str | None:
        problem = _cannot_hold(holder.type, obj.type)
        if problem is not None:
            return f"{holder.id} cannot hold it: {problem}"
        if not _fits(obj.type.assets_for(obj.attrs), holder.type.assets):
            return f"no {obj.type.name} fits {holder.id}: it is too big for a {holder.type.name}"
        obj.parent, obj.relation = holder.id, "in" if holder.type.container else "on"
        return None

    def _request_room(self, obj: _Object) -> str | None:
        """Give an object a request placed its room: its own, or its support's."""
        if obj.parent is None:
            obj.room = obj.room or self._default_room(obj.type)
            return None
        root = self._root(obj)
        if root.room is None:
            return (
                f"{root.id} has no place yet (the designer places it last); rest {obj.id} on "
                "something that has one"
            )
        if obj.room not in (None, root.room):
            return f"it is to be in {obj.room} but rests on {obj.parent}, which is in {root.room}"
        obj.room = root.room
        return None

    def _forbidden(self, added: Sequence[_Object], where: Mapping[str, str]) -> list[Violation]:
        """Added objects that an ``absent`` fact forbids, or whose type the task's conditions
        are about (another one would blur which situation the scene shows)."""
        found = []
        scene = self._provisional()
        others = set(self.objects) - {obj.id for obj in added}
        for obj in added:
            keep = others | {link.id for link in self._chain(obj)}
            view = scene.with_objects([o for o in scene.objects if o.id in keep])
            forbidding = [fact for fact in self.absent if not evaluate(fact, view)]
            if forbidding:
                message = (
                    f"the task requires '{describe(forbidding[0])}' in this situation: leave "
                    f"the {obj.type.name} out"
                )
                found.append(Violation("absent", where[obj.id], message))
            elif obj.type.name in self.excluded:
                message = (
                    f"the task's conditions are about {obj.type.name} objects (or what stands "
                    "in for them): another one would blur which situation this scene shows; "
                    "leave it out"
                )
                found.append(Violation("type", where[obj.id], message))
        return found

    def _request_relations(
        self, request: Enrichment, left_out: set[str], problems: list[Violation]
    ) -> None:
        accepted: list[tuple[str, SpatialRelation]] = []
        for j, item in enumerate(request.relations):
            where = f"relations[{j}] {item}"
            problem = _relation_form(item)
            names = [item.subject] if item.target is None else [item.subject, item.target]
            if problem is None and any(name in left_out for name in names):
                continue  # it names an object left out for its own reported problem
            unknown = [name for name in names if self._named(name) is None]
            if problem is None and unknown:
                problem = self._unknown_names(unknown)
            if problem is not None:
                problems.append(Violation("relation", where, problem))
                continue
            subject = self._named(item.subject)
            target = None if item.target is None else self._named(item.target)
            assert subject is not None
            conflict = (
                "an object cannot be related to itself"
                if target is subject
                else self._relation_conflict(item.kind, subject, target)
            )
            if conflict is not None:
                problems.append(Violation("contradiction", where, conflict))
            elif item.kind not in ("in", "on_top_of"):  # those restate supports
                target_id = None if target is None else target.id
                relation = SpatialRelation(
                    item.kind, subject.id, target_id, item.priority, request.made_by
                )
                accepted.append((where, relation))
        problems.extend(_clashes(accepted))
        self.relations.extend(relation for _, relation in accepted)

    def _unknown_names(self, names: Sequence[str]) -> str:
        windows = [name for name in names if name in self.windows]
        note = " (a window is an opening in a wall, not an object)" if windows else ""
        return (
            f"names {', '.join(map(repr, names))}, which no object of this scene is called"
            f"{note}; the objects: {', '.join(sorted(self.objects))}"
        )

    def _place(self, obj: _Object) -> str:
        """Where ``obj`` rests, in words, and who said so."""
        if obj.relation is None:
            return "nowhere yet"
        here = (
            "on a wall"
            if obj.relation == "wall"
            else "on the floor"
            if obj.parent is None
            else f"{obj.relation} {obj.parent}"
        )
        return (
            f"{here}, as the task requires ('{obj.why['place']}')" if "place" in obj.why else here
        )

    def _relation_conflict(self, kind: str, subject: _Object, target: _Object | None) -> str | None:
        """Why a requested relation contradicts the design (the paper's rule-based physical
        compatibility check), or ``None``."""
        if kind in ("in", "on_top_of") and target is not None:
            wanted = "in" if target.type.container else "on"
            if ("in" if kind == "in" else "on") != wanted:
                fix = "in" if wanted == "in" else "on_top_of"
                return f"things go {wanted} a {target.type.name}: use {fix}"
            if subject.task and not subject.placed:
                # A task object the facts leave free: the request may say where it goes.
                problem = self._put_on(subject, target) or self._request_room(subject)
                if problem is None and not self._allowed(subject):
                    problem = "the task's 'absent' facts forbid it there"
                if problem is not None:
                    subject.parent = subject.relation = None
                return problem
            if (subject.parent, subject.relation) != (target.id, wanted):
                return (
                    f"{subject.id} rests {self._place(subject)}; this relation puts it {wanted} "
                    f"{target.id}, and an object has one place"
                )
            return None
        if kind == "mounted_on_wall" and subject.relation != "wall":
            return f"{subject.id} rests {self._place(subject)}, not on a wall"
        if kind in ("edge", "center") and subject.relation == "wall":
            return f"{kind} places what stands on the floor or on a surface, not what hangs"
        if target is not None and kind != "far":
            rooms = self._root(subject).room, self._root(target).room
            if None not in rooms and rooms[0] != rooms[1]:
                return (
                    f"{subject.id} is in {rooms[0]} and {target.id} in {rooms[1]}: of the "
                    "relations, only 'far' holds between rooms"
                )
        return None

    def _place_free_objects(self) -> None:
        """Objects the facts require without saying where: on a usual support, or the floor."""
        for obj in list(self.objects.values()):
            if obj.placed:
                continue
            rng = self._rng("free", obj.id)
            self._put_somewhere(obj, rng)
            if not self._allowed(obj):
                raise SceneError(
                    f"{obj.id} ('{obj.why.get('type', '')}') can be put nowhere that the "
                    "plan's 'absent' facts allow; say where it is with a 'where'"
                )

    def _put_somewhere(self, obj: _Object, rng: random.Random) -> None:
        rooms = [obj.room] if obj.room else [r for r, k in self.rooms if k in obj.type.rooms]
        rooms = rooms or [self.rooms[0][0]]
        options: list[tuple[float, _Object]] = []
        for holder in self.objects.values():
            weight = obj.type.parents.get(holder.type.name, 0.0)
            if weight > 0 and holder.room in rooms and holder is not obj:
                options.append((weight, holder))
        rng.shuffle(options)
        options.sort(key=lambda item: -item[0])
        for _, holder in options:
            obj.parent = holder.id
            obj.relation = "in" if holder.type.container else "on"
            obj.room = holder.room
            if self._allowed(obj) and _fits(obj.type.assets, holder.type.assets):
                return
        obj.parent, obj.relation, obj.room = None, "on", rooms[0]

    def _add_small_objects(self, room_id: str, kind: str) -> None:
        """Small things on the room's furniture, as receptacles.json says they usually are."""
        rng = self._rng("small", room_id)
        added = 0
        holders = [
            o
            for o in self.objects.values()
            if o.room == room_id
            and o.type.has("receptacle")
            and not o.type.custom
            and o.type.name not in NO_ENRICHMENT_INSIDE
            and not o.type.has("object_specific_receptacle")  # what it holds is a state
            and (o.type.container or o.size[1] <= MAX_SURFACE_HEIGHT)  # a top within reach
        ]
        for holder in holders:
            choices = [
                (obj_type.parents[holder.type.name], obj_type)
                for obj_type in self.catalog.types.values()
                if obj_type.parents.get(holder.type.name, 0.0) >= MIN_USUAL
                and obj_type.has("pickupable")
                and not obj_type.custom
                and obj_type.name not in self.excluded
                and (not obj_type.rooms or kind in obj_type.rooms)
                and _small_on(obj_type.assets, holder.size)
            ]
            if not choices:
                continue
            for _ in range(rng.randint(0, MAX_SMALL_PER_RECEPTACLE)):
                if added >= MAX_SMALL_PER_ROOM:
                    return
                weights = [w for w, _ in choices]
                obj_type = rng.choices([t for _, t in choices], weights=weights)[0]
                relation = "in" if holder.type.container else "on"
                obj = _Object(
                    "",
                    obj_type,
                    None,
                    task=False,
                    room=room_id,
                    parent=holder.id,
                    relation=relation,
                    states=dict(obj_type.states),
                )
                if self._allowed(obj):
                    self._add(obj)
                    added += 1

    def _goal_destinations(self) -> dict[str, set[str]]:
        """Role -> the roles the plan's goals put it on or in (``{"on": [book, top_shelf]}``)."""
        found: dict[str, set[str]] = {}
        for subtask in self.plan.subtasks:
            for _, node in iter_nodes(subtask.tree):
                if not isinstance(node, Leaf):
                    continue
                for fact in node.goal:
                    for item in walk(fact):
                        if (
                            isinstance(item, Related)
                            and item.relation in ("on", "in")
                            and not is_type_ref(item.subject)
                            and not is_type_ref(item.target)
                        ):
                            found.setdefault(item.subject, set()).add(item.target)
        return found

    def _settle_supports(self) -> None:
        """Make what rests on each receptacle fit there together, as the layout will need:
        drop enrichment added last until it does; task objects that cannot fit are an error
        (the caller may try another seed)."""
        children: dict[str, list[_Object]] = {}
        for obj in self.objects.values():
            if obj.parent is not None and obj.relation in ("on", "in"):
                children.setdefault(obj.parent, []).append(obj)
        for holder_id, kids in children.items():
            holder = self.objects.get(holder_id)
            if holder is None:
                continue
            while not _packs(holder.size, [k.size for k in kids]):
                spare = [k for k in kids if not k.task and k.id not in children]
                if not spare:
                    listed = ", ".join(
                        f"{k.id} ({k.size[0]:.2f} x {k.size[2]:.2f} m)" for k in kids
                    )
                    raise SceneError(
                        f"{listed} do not fit together {kids[0].relation} {holder.id} "
                        f"({holder.size[0]:.2f} x {holder.size[2]:.2f} m); put some elsewhere "
                        "in the plan's facts, or try another seed"
                    )
                dropped = spare[-1]
                del self.objects[dropped.id]
                kids.remove(dropped)
                self.notes.append(f"{dropped.id} left out: no room for it on {holder.id}")

    # -- assets and sizes ----------------------------------------------------------------------

    def _choose_assets(self) -> None:
        """Pick one asset per object: parents first, each large enough for its children."""
        children: dict[str, list[_Object]] = {}
        for obj in self.objects.values():
            if obj.parent is not None:
                children.setdefault(obj.parent, []).append(obj)
        destinations = self._goal_destinations()
        # Goal subjects last: the places the task will put them must have their size first.
        order = sorted(
            self.objects.values(),
            key=lambda o: (o.role in destinations, len(self._chain(o))),
        )
        for obj in order:
            if obj.asset is not None:
                continue
            rng = self._rng("asset", obj.id)
            assets = list(obj.type.assets_for(obj.attrs))
            wanted = set(obj.type.properties) - {"wall_mounted"}
            exact = [a for a in assets if wanted <= set(a.properties) or obj.type.custom]
            assets = exact or assets
            if obj.parent is not None:
                holder = self.objects[obj.parent].size
                fitting = [a for a in assets if _fits_in(a.size, holder)]
                if not fitting and not obj.task and obj.id not in children:
                    del self.objects[obj.id]  # an ornament that does not fit: leave it out
                    if self.enrichment is not None:  # asked for: say so
                        self.notes.append(
                            f"{obj.id} left out: no {obj.type.name} fits {obj.parent}"
                        )
                    continue
                if not fitting:
                    raise SceneError(
                        f"no {obj.type.name} asset fits {obj.relation} {obj.parent} "
                        f"(a {self.objects[obj.parent].type.name} of "
                        f"{holder[0]:.2f} x {holder[2]:.2f} m)"
                    )
                assets = fitting
            places = [
                self.objects[self.roles[role]].size
                for role in destinations.get(obj.role or "", ())
                if role in self.roles and self.roles[role] in self.objects
            ]
            fits_places = [a for a in assets if all(_fits_in(a.size, p) for p in places)]
            if places and fits_places:
                assets = fits_places  # the agent must be able to put it where the task says
            elif places:
                self.notes.append(f"no {obj.type.name} asset fits every place the goals name")
            kids = children.get(obj.id, [])
            if any(kid.relation == "on" for kid in kids):
                low = [a for a in assets if a.size[1] <= MAX_SURFACE_HEIGHT]
                assets = low or assets
            if kids:
                need = [min(k.type.assets_for(k.attrs), key=_area).size for k in kids]
                roomy = [a for a in assets if _holds(a.size, need)]
                if roomy:
                    assets = roomy
                else:
                    assets = [max(assets, key=_area)]
                    self.notes.append(
                        f"{obj.id} holds {len(kids)} objects; chose its largest asset"
                    )
            obj.asset = rng.choice(assets)
            obj.size = obj.asset.size

    # -- floor plan ----------------------------------------------------------------------------

    def _room_size(self, room_id: str, kind: str) -> tuple[float, float]:
        floor = [
            o
            for o in self.objects.values()
            if o.room == room_id and o.parent is None and o.relation == "on"
        ]
        wall = [o for o in self.objects.values() if o.room == room_id and o.relation == "wall"]
        area = sum((o.size[0] + 0.4) * (o.size[2] + 0.4) for o in floor)
        area = max(area * 1.8 + 1.5, 6.0 if kind == "Bathroom" else 9.0)
        longest = max([max(o.size[0], o.size[2]) for o in floor] + [1.0])
        rng = self._rng("room", room_id)
        aspect = rng.uniform(1.0, 1.5)
        width = max(math.sqrt(area * aspect), longest + 0.8, MIN_SIDE)
        depth = max(area / width, longest + 0.8, MIN_SIDE)
        wall_need = sum(o.size[0] for o in wall) + 3.0  # + a door and a window
        while 2 * (width + depth) - 2.0 < wall_need:
            width, depth = width + GRID, depth + GRID
        width, depth = _grid(width), _grid(depth)
        if max(width, depth) > MAX_SIDE:
            biggest = sorted(floor, key=lambda o: -o.size[0] * o.size[2])[:3]
            raise SceneError(
                f"room {room_id} would need {width:.1f} x {depth:.1f} m for its "
                f"{len(floor)} floor objects (largest: "
                + ", ".join(o.id for o in biggest)
                + f"); the limit is {MAX_SIDE:.0f} m a side: put fewer objects in it"
            )
        return width, depth

    def _floor_plan(self) -> tuple[Room, ...]:
        sizes = [self._room_size(room_id, kind) for room_id, kind in self.rooms]
        n = len(self.rooms)
        columns = n if n <= 3 else math.ceil(n / 2)
        cells = [(i % columns, i // columns) for i in range(n)]
        widths = [
            max(s[0] for s, c in zip(sizes, cells, strict=True) if c[0] == col)
            for col in range(columns)
        ]
        rows = max(c[1] for c in cells) + 1
        depths = [
            max(s[1] for s, c in zip(sizes, cells, strict=True) if c[1] == row)
            for row in range(rows)
        ]
        rng = self._rng("materials")
        floors = self.catalog.floor_materials or ("",)
        walls = self.catalog.wall_materials or ("",)
        rooms = []
        self.cells = dict(zip((r for r, _ in self.rooms), cells, strict=True))
        for (room_id, kind), (col, row) in zip(self.rooms, cells, strict=True):
            x0, z0 = sum(widths[:col]), sum(depths[:row])
            x1, z1 = x0 + widths[col], z0 + depths[row]
            floor, wall = rng.choice(floors), rng.choice(walls)  # drawn even when asked for
            asked_floor, asked_wall = self.materials.get(room_id, ("", ""))
            rooms.append(
                Room(
                    room_id,
                    kind,
                    ((x0, z0), (x1, z0), (x1, z1), (x0, z1)),
                    floor_material=asked_floor or floor,
                    wall_material=asked_wall or wall,
                )
            )
        return tuple(rooms)

    def _openings(
        self, rooms: Sequence[Room]
    ) -> tuple[tuple[DoorSpec, ...], tuple[WindowSpec, ...]]:
        by_cell = {cell: room_id for room_id, cell in self.cells.items()}
        rng = self._rng("openings")
        door_assets = [a for a in self.catalog.type("Doorway").assets if "Double" not in a.id]
        doors: list[DoorSpec] = []
        for room_id, (col, row) in self.cells.items():
            neighbours = []
            if col > 0 and row == 0:
                neighbours.append(by_cell[(col - 1, 0)])
            if row == 1:
                neighbours.append(by_cell[(col, 0)])
            for other in neighbours:
                asset = rng.choice(door_assets)
                width, height, _ = self.catalog.wall_hole(asset.id)
                doors.append(
                    DoorSpec(
                        f"door_{len(doors) + 1}",
                        (other, room_id),
                        open=self._door_open(other, room_id),
                        width=round(width, 3),
                        height=round(height, 3),
                        asset_id=asset.id,
                    )
                )
        return tuple(doors), self._windows(rooms, by_cell, rng)

    def _door_open(self, first: str, second: str) -> bool:
        state = True  # interior doors stand open unless a fact says otherwise
        for room, flag, _ in self.door_states:
            if room is None or room in (first, second):
                state = flag
        return state

    def _windows(
        self, rooms: Sequence[Room], by_cell: Mapping[tuple[int, int], str], rng: random.Random
    ) -> tuple[WindowSpec, ...]:
        requests = list(self.windows.values())
        for unplaced in requests:
            if unplaced.room is None:
                unplaced.room = self.rooms[0][0]
        window_assets = [
            a
            for a in self.catalog.type("Window").assets
            if not a.id.startswith("Window_Bay") and self.catalog.wall_hole(a.id)[1] <= 1.3
        ]
        specs: list[WindowSpec] = []
        for room in rooms:
            col, row = self.cells[room.id]
            sides = [
                side
                for side, cell in (
                    ("south", (col, row - 1)),
                    ("north", (col, row + 1)),
                    ("west", (col - 1, row)),
                    ("east", (col + 1, row)),
                )
                if cell not in by_cell
            ]
            if not sides:  # pragma: no cover - every cell of a 2-row grid has an outside
                continue
            x0, z0, x1, z1 = room.bounds
            mine: list[_WindowReq | None] = [r for r in requests if r.room == room.id]
            mine = mine or [None]
            for req in mine:
                side = rng.choice(sides)
                length = (x1 - x0) if side in ("north", "south") else (z1 - z0)
                fitting = [
                    a for a in window_assets if self.catalog.wall_hole(a.id)[0] <= length - 1.0
                ]
                asset = rng.choice(fitting or window_assets)
                width, height, _ = self.catalog.wall_hole(asset.id)
                specs.append(
                    WindowSpec(
                        f"window_{len(specs) + 1}",
                        room.id,
                        open=bool(req.open) if req is not None else False,
                        width=round(width, 3),
                        height=round(height, 3),
                        sill=WINDOW_SILL,
                        asset_id=asset.id,
                        role=req.role if req is not None else None,
                        side=side,
                    )
                )
        return tuple(specs)

    # -- output ------------------------------------------------------------------------------

    def _scene_object(self, obj: _Object) -> SceneObject:
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
        )

    def _all_relations(self) -> list[SpatialRelation]:
        relations = list(self.relations)
        for obj in self.objects.values():
            priority = PRIORITY_TASK if obj.task else PRIORITY_ENRICHMENT
            if obj.parent is not None:
                kind = "in" if obj.relation == "in" else "on_top_of"
                reason = obj.why.get("place", "support")
                relations.append(SpatialRelation(kind, obj.id, obj.parent, priority, reason))
            elif obj.relation == "wall":
                relations.append(SpatialRelation("mounted_on_wall", obj.id, None, priority, "wall"))
        unique: dict[tuple[str, str, str | None], SpatialRelation] = {}
        for relation in relations:
            key = (relation.kind, relation.subject, relation.target)
            if key not in unique or unique[key].priority < relation.priority:
                unique[key] = relation
        kept = []
        for relation in unique.values():
            gone = [n for n in (relation.subject, relation.target) if n and n not in self.objects]
            if gone:  # a requested object left out (no room for it on its support)
                self.notes.append(f"{relation} left out with {gone[0]}")
            else:
                kept.append(relation)
        return kept


# --------------------------------------------------------------------------- helpers


def _cannot_hold(holder: ObjectType, obj: ObjectType) -> str | None:
    """Why an object of type ``holder`` cannot hold one of type ``obj`` (``None``: it can)."""
    if not holder.has("receptacle"):
        return f"a {holder.name} is not a receptacle: nothing rests on or in it"
    if holder.accepts and obj.name not in holder.accepts:
        return f"a {holder.name} only takes {', '.join(holder.accepts)}"
    return None


def _relation_form(item: EnrichmentRelation) -> str | None:
    """What is wrong with a requested relation's kind, arity or priority."""
    if item.kind not in RELATION_KINDS:
        return f"unknown kind {item.kind!r}; the kinds: {', '.join(RELATION_KINDS)}"
    unary = item.kind in UNARY_RELATION_KINDS
    if unary and item.target is not None:
        return f"{item.kind} relates one object to its surroundings; drop the target"
    if not unary and item.target is None:
        return f"{item.kind} relates two objects; give a target"
    if not PRIORITY_ENRICHMENT <= item.priority < PRIORITY_TASK:
        return (
            f"priority {item.priority} must be from {PRIORITY_ENRICHMENT} to "
            f"{PRIORITY_TASK - 1}: requested relations rank below the task's"
        )
    return None


#: Pairs of relation kinds no two objects (or one object) can satisfy together.
_OPPOSED = (frozenset({"near", "far"}), frozenset({"edge", "center"}))


def _clashes(relations: Sequence[tuple[str, SpatialRelation]]) -> list[Violation]:
    """Requested relations that contradict each other (``near`` and ``far`` for one pair)."""
    found = []
    for (first_where, first), (where, second) in itertools.combinations(relations, 2):
        same = {first.subject, first.target} == {second.subject, second.target}
        if same and frozenset({first.kind, second.kind}) in _OPPOSED:
            message = f"contradicts {first_where}: no object is {first.kind} and {second.kind}"
            found.append(Violation("contradiction", where, message))
    return found


def _area(asset: Asset) -> float:
    return asset.size[0] * asset.size[2]


def _fits_in(child: Vector, holder: Vector) -> bool:
    """Whether a footprint fits inside another, turned by 90 degrees if need be."""
    small, large = sorted((child[0], child[2])), sorted((holder[0], holder[2]))
    return small[0] <= large[0] and small[1] <= large[1]


#: Space kept around each object on a surface when checking that things fit together (m).
PACKING_MARGIN = 0.02


def _packs(holder: Vector, children: Sequence[Vector]) -> bool:
    """Whether the footprints of ``children`` fit side by side on ``holder``'s top.

    A shelf (strip) packing, first fit by decreasing depth, with each footprint turned as
    suits it and the holder tried both ways round: conservative (the solver may find packings
    this misses) but never optimistic, so what passes here the layout can place. Footprints
    keep :data:`PACKING_MARGIN` from each other, not from the rim: each is grown by it, and so
    is the holder.
    """
    for width, depth in ((holder[0], holder[2]), (holder[2], holder[0])):
        if _shelf_pack(width + PACKING_MARGIN, depth + PACKING_MARGIN, children):
            return True
    return False


def _shelf_pack(width: float, depth: float, children: Sequence[Vector]) -> bool:
    items = []
    for child in children:
        a, b = child[0] + PACKING_MARGIN, child[2] + PACKING_MARGIN
        long, short = max(a, b), min(a, b)
        if long <= width:  # lie along the row: the row grows by the short side
            items.append((long, short))
        elif short <= width and long <= depth:
            items.append((short, long))
        else:
            return False
    rows: list[list[float]] = []  # [used width, row depth]
    for along, across in sorted(items, key=lambda item: -item[1]):
        for row in rows:
            if row[0] + along <= width:
                row[0] += along
                break
        else:
            rows.append([along, across])
    return sum(row[1] for row in rows) <= depth


def _holds(holder: Vector, children: Sequence[Vector]) -> bool:
    """Whether ``holder``'s top or inside can take every child, side by side."""
    area = holder[0] * holder[2]
    return (
        all(_fits_in(c, holder) for c in children)
        and sum(c[0] * c[2] for c in children) <= 0.8 * area
    )


def _fits(assets: Sequence[Asset], holders: Sequence[Asset]) -> bool:
    """Whether the smallest of ``assets`` fits on the largest of ``holders``."""
    if not assets or not holders:
        return False
    return _fits_in(min(assets, key=_area).size, max(holders, key=_area).size)


def _small_on(assets: Sequence[Asset], holder: Vector) -> bool:
    """Whether some asset is small enough to be an ornament on ``holder`` (a third of it)."""
    return any(_fits_in(a.size, holder) and _area(a) <= holder[0] * holder[2] / 3 for a in assets)


def _grid(value: float) -> float:
    return math.ceil(value / GRID - 1e-9) * GRID


def _without(scene: Scene, obj: _Object) -> Scene:
    return scene.with_objects([o for o in scene.objects if o.id != obj.id])


def _self_check(spec: SceneSpec, facts: Sequence[Fact]) -> None:
    """The design must already realize every fact that needs no geometry."""
    scene = provisional_scene(spec)
    wrong = [
        fact
        for fact in facts
        if not any(isinstance(item, Related) and item.relation == "near" for item in walk(fact))
        and not evaluate(fact, scene)
    ]
    if wrong:
        raise SceneError(
            f"design {spec.id!r} does not realize: "
            + "; ".join(describe(f) for f in wrong)
            + " (the facts may be unsatisfiable together; check the plan)"
        )


def provisional_scene(spec: SceneSpec) -> Scene:
    """The scene a design describes before layout (no positions): facts about what exists,
    where it rests, its states and attributes already evaluate on it."""
    return Scene(
        spec.id,
        rooms=spec.rooms,
        doors=tuple(
            Door(d.id, "", d.rooms, 0.0, d.width, d.height, d.open, d.asset_id) for d in spec.doors
        ),
        windows=tuple(
            Window(w.id, "", w.room, 0.0, w.width, w.height, w.sill, w.open, w.asset_id, w.role)
            for w in spec.windows
        ),
        objects=spec.objects,
        relations=spec.relations,
        provenance=spec.provenance,
    )
