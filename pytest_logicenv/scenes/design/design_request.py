"""A design request: the data model of an :class:`Enrichment`, and the checks of its form.

A design request from outside (an LLM's, see ``llm/scene_designer.py``) replaces the room
templates: it names the enrichment objects (type, room, support), the materials of the rooms
and extra relations, below the task's in priority. Whether the design can hold it is checked
against the draft by ``request_objects.py`` and ``request_relations.py``; what needs nothing
but the request itself (a name's spelling, a relation's kind and arity, two relations that
contradict each other) is checked here.

>>> relation_form(EnrichmentRelation("near", "lamp"))
'near relates two objects; give a target'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_logicenv.errors import Violation
from pytest_logicenv.scenes.scene_model import (
    PRIORITY_ENRICHMENT,
    PRIORITY_TASK,
    RELATION_KINDS,
    UNARY_RELATION_KINDS,
    SpatialRelation,
)

#: An enrichment object's support besides another object.
ON_FLOOR = "floor"
ON_WALL = "wall"
#: What a requested object's name must look like (it becomes the object's id).
NAME = re.compile(r"[a-z][a-z0-9_]*\Z")


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
    >>> from pytest_logicenv.scenes.design import design_scene
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


def relation_form(item: EnrichmentRelation) -> str | None:
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
OPPOSED = (
    frozenset({"near", "far"}),
    frozenset({"edge", "center"}),
    frozenset({"edge", "middle"}),
    frozenset({"corner", "center"}),
    frozenset({"corner", "middle"}),
)


def clashes(relations: Sequence[tuple[str, SpatialRelation]]) -> list[Violation]:
    """Requested relations that contradict each other (``near`` and ``far`` for one pair)."""
    found = []
    for (first_where, first), (where, second) in itertools.combinations(relations, 2):
        same = {first.subject, first.target} == {second.subject, second.target}
        if same and frozenset({first.kind, second.kind}) in OPPOSED:
            message = f"contradicts {first_where}: no object is {first.kind} and {second.kind}"
            found.append(Violation("contradiction", where, message))
    return found
