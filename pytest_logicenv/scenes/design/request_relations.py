"""A design request's relations, checked against the draft (the paper's rule-based physical
compatibility check) and added below the task's in priority.

A relation must be well formed (``design_request.relation_form``), name objects of the design, and
not contradict it: an ``in``/``on_top_of`` restates an object's one place (or, for a task
object the facts leave free, says where it goes), a wall object is not on the ``edge`` of
anything, and only ``far`` holds between rooms. Two requested relations must not contradict
each other either (``near`` and ``far`` for one pair).
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_logicenv.errors import Violation
from pytest_logicenv.scenes.design.design_request import (
    Enrichment,
    EnrichmentRelation,
    clashes,
    relation_form,
)
from pytest_logicenv.scenes.design.draft import Draft, DraftObject
from pytest_logicenv.scenes.design.task_consistency import put_on, take_support_room
from pytest_logicenv.scenes.scene_model import SpatialRelation
from pytest_logicenv.vocabulary import a_or_an


def request_relations(
    draft: Draft, request: Enrichment, left_out: set[str], problems: list[Violation]
) -> None:
    """Add the request's relations that hold; report the others (but not those naming an
    object in ``left_out``, already reported)."""
    accepted: list[tuple[str, SpatialRelation]] = []
    for j, item in enumerate(request.relations):
        where = f"relations[{j}] {item}"
        names = [item.subject] if item.target is None else [item.subject, item.target]
        problem = relation_form(item)
        if problem is None and any(name in left_out for name in names):
            continue  # it names an object left out for its own reported problem
        unknown = [name for name in names if draft.named(name) is None]
        if problem is None and unknown:
            problem = _unknown_names(draft, unknown)
        if problem is not None:
            problems.append(Violation("relation", where, problem))
            continue
        relation = _accept(draft, item, request.made_by, where, problems)
        if relation is not None:
            accepted.append((where, relation))
    problems.extend(clashes(accepted))
    draft.relations.extend(relation for _, relation in accepted)


def _accept(
    draft: Draft, item: EnrichmentRelation, made_by: str, where: str, problems: list[Violation]
) -> SpatialRelation | None:
    """The spatial relation a well-formed item asks for, unless it contradicts the design
    (reported) or restates a support (``in``, ``on_top_of``: nothing to add)."""
    subject = draft.named(item.subject)
    target = None if item.target is None else draft.named(item.target)
    assert subject is not None
    conflict = (
        "an object cannot be related to itself"
        if target is subject
        else relation_conflict(draft, item.kind, subject, target)
    )
    if conflict is not None:
        problems.append(Violation("contradiction", where, conflict))
        return None
    if item.kind in ("in", "on_top_of"):  # those restate supports
        return None
    target_id = None if target is None else target.id
    return SpatialRelation(item.kind, subject.id, target_id, item.priority, made_by)


def _unknown_names(draft: Draft, names: Sequence[str]) -> str:
    windows = [name for name in names if name in draft.windows]
    note = " (a window is an opening in a wall, not an object)" if windows else ""
    return (
        f"names {', '.join(map(repr, names))}, which no object of this scene is called"
        f"{note}; the objects: {', '.join(sorted(draft.objects))}"
    )


def relation_conflict(
    draft: Draft, kind: str, subject: DraftObject, target: DraftObject | None
) -> str | None:
    """Why a requested relation contradicts the design, or ``None``."""
    if kind in ("in", "on_top_of") and target is not None:
        return _support_conflict(draft, kind, subject, target)
    if kind == "mounted_on_wall" and subject.relation != "wall":
        return f"{subject.id} rests {_place(subject)}, not on a wall"
    if kind in ("edge", "corner", "center", "middle") and subject.relation == "wall":
        return f"{kind} places what stands on the floor or on a surface, not what hangs"
    if target is not None and kind != "far":
        rooms = draft.root(subject).room, draft.root(target).room
        if None not in rooms and rooms[0] != rooms[1]:
            return (
                f"{subject.id} is in {rooms[0]} and {target.id} in {rooms[1]}: of the "
                "relations, only 'far' holds between rooms"
            )
    return None


def _support_conflict(
    draft: Draft, kind: str, subject: DraftObject, target: DraftObject
) -> str | None:
    """Why ``subject`` cannot rest ``kind`` (in, on_top_of) ``target``; puts it there when
    it is a task object the facts leave free."""
    wanted = "in" if target.type.container else "on"
    if ("in" if kind == "in" else "on") != wanted:
        fix = "in" if wanted == "in" else "on_top_of"
        return f"things go {wanted} {a_or_an(target.type.name)}: use {fix}"
    if subject.task and not subject.placed:
        return _place_free(draft, subject, target)
    if (subject.parent, subject.relation) != (target.id, wanted):
        return (
            f"{subject.id} rests {_place(subject)}; this relation puts it {wanted} "
            f"{target.id}, and an object has one place"
        )
    return None


def _place_free(draft: Draft, subject: DraftObject, target: DraftObject) -> str | None:
    """A task object the facts leave free: the request may say where it goes."""
    problem = put_on(subject, target) or take_support_room(draft, subject)
    if problem is None and not draft.allowed(subject):
        problem = "the task's 'absent' facts forbid it there"
    if problem is not None:
        subject.parent = subject.relation = None
    return problem


def _place(obj: DraftObject) -> str:
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
    return f"{here}, as the task requires ('{obj.why['place']}')" if "place" in obj.why else here
