"""Asset choice: one catalog asset (and so a size) per object, drawn by the seed.

Supports choose before what rests on them, so that each is large enough for its children (and
low enough that the agent reaches a top it can see); what the plan's goals will put somewhere
chooses last, an asset that fits every place the goals name. An ornament too big for its
support is left out, and so is an object a design request adds, with what rests on it and its
parts (the request is refused if a task object would go with it); a task object too big for
its support is an error.

Once every object has its asset, :func:`settle_supports` makes what rests on each support fit
there together (``packing.py``), as the layout will need: it leaves out enrichment added last;
when the task's objects alone do not fit, the support takes a roomier asset of its kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pytest_logicenv.errors import EnrichmentError, SceneError, Violation
from pytest_logicenv.logic.facts import Related, is_type_ref, walk
from pytest_logicenv.logic.plan import Leaf, Plan, iter_nodes
from pytest_logicenv.scenes.catalog import Asset
from pytest_logicenv.scenes.catalog.properties import HOUSEHOLD_PROPERTIES
from pytest_logicenv.scenes.design.draft import Draft, DraftObject
from pytest_logicenv.scenes.design.packing import area, fits_in, holds, packs
from pytest_logicenv.scenes.design.part_completion import part_crowding, size_parts
from pytest_logicenv.scenes.part_geometry import top_taken
from pytest_logicenv.scenes.scene_model import Vector

#: What rests on a piece of furniture lies on its top; furniture holding things gets an asset
#: no taller than this (metres) when its type has one: a bed without a canopy, a desk without a
#: hutch, a low shelving unit (the agent reaches a top it can see).
MAX_SURFACE_HEIGHT = 1.3

Children = Mapping[str, Sequence[DraftObject]]  # support id -> what rests on or in it


def choose_assets(draft: Draft) -> None:
    """Pick one asset per object that has none: parents first, each large enough for its
    children; goal subjects last, since the places the task puts them must have their size."""
    children = draft.children()
    destinations = goal_destinations(draft.plan)
    order = sorted(
        draft.objects.values(),
        key=lambda o: (o.role in destinations, len(draft.chain(o))),
    )
    for obj in order:
        if draft.objects.get(obj.id) is not obj:
            continue  # left out with what it rested on, which no asset fit on its support
        if obj.asset is None and obj.part_of is None:  # a part's size is its slot's
            _choose_asset(draft, obj, children, destinations)


def goal_destinations(plan: Plan) -> dict[str, set[str]]:
    """Role -> the roles the plan's goals put it on or in (``{"book": {"top_shelf"}}``)."""
    found: dict[str, set[str]] = {}
    for subtask in plan.subtasks:
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


def _choose_asset(
    draft: Draft, obj: DraftObject, children: Children, destinations: Mapping[str, set[str]]
) -> None:
    rng = draft.rng("asset", obj.id)
    assets = _of_its_kind(obj)
    if obj.parent is not None:
        fitting = _fitting_support(draft, obj, assets, children)
        if fitting is None:
            return  # left out
        assets = fitting
    assets = _fitting_goal_places(draft, obj, assets, destinations)
    assets = _holding_children(draft, obj, assets, children.get(obj.id, []))
    obj.asset = rng.choice(assets)
    obj.size = obj.asset.size
    size_parts(draft, obj)


def _of_its_kind(obj: DraftObject) -> list[Asset]:
    """The assets for the object's attributes, those with all its type's properties if any."""
    assets = list(obj.type.assets_for(obj.attrs))
    shown_by_none = {*HOUSEHOLD_PROPERTIES.get(obj.type.name, ()), *obj.type.added}
    wanted = set(obj.type.properties) - {"wall_mounted"} - shown_by_none
    exact = [a for a in assets if wanted <= set(a.properties) or obj.type.custom]
    return exact or assets


def _fitting_support(
    draft: Draft, obj: DraftObject, assets: list[Asset], children: Children
) -> list[Asset] | None:
    """The assets that fit the object's support; ``None`` when none does and the object is
    left out instead (:func:`_without_fit`)."""
    assert obj.parent is not None
    holder = draft.objects[obj.parent].size
    fitting = [a for a in assets if fits_in(a.size, holder)]
    if not fitting and obj.task and _whole_grown_for(draft, obj, assets, children):
        holder = draft.objects[obj.parent].size
        fitting = [a for a in assets if fits_in(a.size, holder)]
    if fitting:
        return fitting
    _without_fit(draft, obj)
    return None


def _without_fit(draft: Draft, obj: DraftObject) -> None:
    """No asset of ``obj``'s kind fits its support. An object a design request adds is left
    out with what rests on it and its parts, each recorded as dropped, as one with no room on
    its support is; but when a task object would go with it, the request is refused, naming
    the item. A template's ornament holding nothing is left out (noted); anything else (a task
    object too big for its support) is an error."""
    assert obj.parent is not None
    support = draft.objects[obj.parent]
    problem = (
        f"no {obj.type.name} asset fits {obj.relation} {support.id} "
        f"(a {support.type.name} of {support.size[0]:.2f} x {support.size[2]:.2f} m)"
    )
    where = _request_item(draft, obj)
    if where is None:
        if not _spare(draft, obj):
            raise SceneError(problem)
        _leave_out(draft, obj, f"no {obj.type.name} fits {obj.parent}")  # an ornament
        return
    task = [o.id for o in draft.carried(obj) if o.task]
    if task:
        needed = ", ".join(task)
        message = (
            f"{problem}; it holds the task's {needed}, which cannot be left out: give "
            f"{obj.id} a larger support, or put {needed} elsewhere"
        )
        raise EnrichmentError([Violation("support", where, message)])
    draft.leave_out(obj, problem)


def _request_item(draft: Draft, obj: DraftObject) -> str | None:
    """Where in the design request the item that added ``obj`` is (``objects[1] chair``), if
    a request added it."""
    if draft.enrichment is None or obj.task:
        return None
    for i, item in enumerate(draft.enrichment.objects):
        if item.name == obj.id:
            return f"objects[{i}] {item.name}"
    return None


def _whole_grown_for(
    draft: Draft, obj: DraftObject, assets: Sequence[Asset], children: Children
) -> bool:
    """When the part ``obj`` rests in (a cabinet of a counter) is too small for every one of
    ``assets``, give its whole a roomier asset whose part takes one (:func:`_grown_whole`);
    ``False``, nothing changed, if that support is no part or no asset of the whole does."""
    part = draft.objects[obj.parent or ""]
    if part.part_of is None:
        return False
    whole = _grown_whole(
        draft, part, children, lambda _: any(fits_in(a.size, part.size) for a in assets)
    )
    if whole is None:
        return False
    draft.notes.append(f"{whole.id} took a roomier {whole.type.name} for {part.id}")
    return True


def _fitting_goal_places(
    draft: Draft, obj: DraftObject, assets: list[Asset], destinations: Mapping[str, set[str]]
) -> list[Asset]:
    """The assets that fit every place the goals put the object (all, noted, if none does)."""
    places = _goal_places(draft, obj, destinations)
    fits_places = [a for a in assets if all(fits_in(a.size, p) for p in places)]
    if places and fits_places:
        return fits_places  # the agent must be able to put it where the task says
    if places:
        draft.notes.append(f"no {obj.type.name} asset fits every place the goals name")
    return assets


def _goal_places(
    draft: Draft, obj: DraftObject, destinations: Mapping[str, set[str]]
) -> list[Vector]:
    """The sizes of the places the plan's goals put ``obj`` on or in."""
    return [
        draft.objects[draft.roles[role]].size
        for role in destinations.get(obj.role or "", ())
        if role in draft.roles and draft.roles[role] in draft.objects
    ]


def _holding_children(
    draft: Draft, obj: DraftObject, assets: list[Asset], kids: Sequence[DraftObject]
) -> list[Asset]:
    """The assets low enough to reach what lies on top, and roomy enough for the children
    (the largest, noted, if none is)."""
    if any(kid.relation == "on" for kid in kids):
        low = [a for a in assets if a.size[1] <= MAX_SURFACE_HEIGHT]
        assets = low or assets
    if not kids:
        return assets
    need = [min(k.type.assets_for(k.attrs), key=area).size for k in kids]
    roomy = [a for a in assets if holds(_surface(draft, obj, a.size, kids), need)]
    if roomy:
        return roomy
    draft.notes.append(f"{obj.id} holds {len(kids)} objects; chose its largest asset")
    return [max(assets, key=area)]


# --------------------------------------------------------------------------- settling supports


def settle_supports(draft: Draft) -> None:
    """Make what rests on each receptacle fit there together, as the layout will need:
    drop enrichment added last until it does; when the task's objects alone do not fit,
    give the support a roomier asset, and fail only if none of its kind holds them (the
    caller may try another seed)."""
    children = draft.children()
    for holder_id in list(children):
        holder = draft.objects.get(holder_id)
        if holder is not None:
            _make_fit(draft, holder, children)


def _make_fit(draft: Draft, holder: DraftObject, children: Mapping[str, list[DraftObject]]) -> None:
    """Leave out the enrichment on ``holder`` added last (not what holds things itself)
    until the rest packs; if the rest is the task's and does not, a roomier ``holder``."""
    kids = children[holder.id]
    if holder.part_of is not None:
        _fit_part(draft, holder, kids, children)
        return
    while not packs(_surface(draft, holder, holder.size, kids), [k.size for k in kids]):
        spare = [k for k in kids if _spare(draft, k)]
        if not spare:
            _roomier(draft, holder, kids)
            if holder.parent is not None:  # it grew: what holds it must still hold all
                _make_fit(draft, draft.objects[holder.parent], children)
            return
        kids.remove(spare[-1])
        _leave_out(draft, spare[-1], f"no room for it on {holder.id}")


def _spare(draft: Draft, obj: DraftObject) -> bool:
    """Whether ``obj`` may be left out: no task object, holding nothing (nor in its parts),
    so that only its own parts go with it."""
    carried = draft.carried(obj)
    return not any(o.task for o in [obj, *carried]) and all(o.part_of is not None for o in carried)


def _leave_out(draft: Draft, obj: DraftObject, reason: str) -> None:
    """Leave out ``obj`` with its parts: recorded as dropped when a design request asked for
    it; a template's ornament with no room is the designer's own choice, only noted."""
    draft.leave_out(obj, reason, recorded=draft.enrichment is not None)


def _fit_part(
    draft: Draft,
    part: DraftObject,
    kids: list[DraftObject],
    children: Mapping[str, list[DraftObject]],
) -> None:
    """What rests in a part (a drawer, a shelf) lies there in a row: enrichment added last
    is left out until the rest does; when the task's own do not, the whole takes a roomier
    asset (a counter whose cabinets hold the pan), and only if none of its kind does is it an
    error."""
    while (problem := part_crowding(part, kids)) is not None:
        spare = [k for k in kids if _spare(draft, k)]
        if not spare:
            if not _roomier_whole(draft, part, children):
                raise SceneError(problem)
            return
        kids.remove(spare[-1])
        _leave_out(draft, spare[-1], f"no room for it in {part.id}")


def _roomier_whole(
    draft: Draft, part: DraftObject, children: Mapping[str, list[DraftObject]]
) -> bool:
    """Give the whole ``part`` belongs to the smallest asset of its kind whose parts hold what
    rests in each (and whose top what stands on it); ``False``, nothing changed, if none."""
    whole = _grown_whole(draft, part, children, lambda w: _holds_all(draft, w, children))
    if whole is None:
        return False
    draft.notes.append(
        f"{whole.id} took a roomier {whole.type.name}: its parts hold "
        f"{', '.join(k.id for k in children[part.id])}"
    )
    if whole.parent is not None:  # it changed: what holds it must still hold all
        _make_fit(draft, draft.objects[whole.parent], children)
    return True


def _grown_whole(
    draft: Draft, part: DraftObject, children: Children, enough: Callable[[DraftObject], bool]
) -> DraftObject | None:
    """The outermost whole of ``part``, given the smallest asset of its kind (a low one when
    something stands on it) for which ``enough(whole)`` holds; ``None``, nothing changed,
    when no asset of its kind is enough."""
    whole = draft.objects[part.part_of or ""]
    while whole.part_of is not None:  # a sink's basin: the counter the sink is set in
        whole = draft.objects[whole.part_of]
    before = whole.asset
    assets = _of_its_kind(whole)
    if any(kid.relation == "on" for kid in children.get(whole.id, [])):
        assets = [a for a in assets if a.size[1] <= MAX_SURFACE_HEIGHT] or assets
    for asset in sorted(assets, key=lambda a: (area(a), a.id)):
        whole.asset, whole.size = asset, asset.size
        size_parts(draft, whole)
        if enough(whole):
            return whole
    if before is not None:
        whole.asset, whole.size = before, before.size
        size_parts(draft, whole)
    return None


def _holds_all(draft: Draft, whole: DraftObject, children: Mapping[str, list[DraftObject]]) -> bool:
    """Whether what rests in each of ``whole``'s parts (theirs too) fits there, and what
    stands on it fits its top."""
    on_top = children.get(whole.id, [])
    if on_top and not packs(_surface(draft, whole, whole.size, on_top), [k.size for k in on_top]):
        return False
    pending = draft.parts_of(whole)
    while pending:
        part = pending.pop()
        kids = children.get(part.id, [])
        if kids and part_crowding(part, kids) is not None:
            return False
        pending += draft.parts_of(part)
    return True


def _roomier(draft: Draft, holder: DraftObject, kids: Sequence[DraftObject]) -> None:
    """Give ``holder`` the smallest asset of its kind that packs ``kids`` as they are, meeting
    what its first asset had to (the goals' places, a top within reach); its own support is
    made to fit it afterwards, growing in turn if need be."""
    assets = _of_its_kind(holder)
    if any(kid.relation == "on" for kid in kids):
        assets = [a for a in assets if a.size[1] <= MAX_SURFACE_HEIGHT] or assets
    roomy = [
        a for a in assets if packs(_surface(draft, holder, a.size, kids), [k.size for k in kids])
    ]
    if not roomy:
        raise _crowded(holder, kids)
    places = _goal_places(draft, holder, goal_destinations(draft.plan))
    roomy = [a for a in roomy if all(fits_in(a.size, p) for p in places)] or roomy
    # The smallest that holds them: the room grows no more than it must.
    holder.asset = min(roomy, key=lambda a: (area(a), a.id))
    holder.size = holder.asset.size
    size_parts(draft, holder)
    names = ", ".join(kid.id for kid in kids)
    draft.notes.append(
        f"{holder.id} took a roomier {holder.type.name}: {names} rest {kids[0].relation} it"
    )


def _surface(
    draft: Draft, holder: DraftObject, size: Vector, kids: Sequence[DraftObject]
) -> Vector:
    """What ``kids`` have of a support of ``size``: on its top, not the end its parts take
    (a counter's sink), as the layout keeps them off it."""
    if not any(kid.relation == "on" for kid in kids):
        return size
    taken = top_taken((part.type.name for part in draft.parts_of(holder)), size[0])
    return (size[0] - taken, size[1], size[2])


def _crowded(holder: DraftObject, kids: Sequence[DraftObject]) -> SceneError:
    listed = ", ".join(f"{k.id} ({k.size[0]:.2f} x {k.size[2]:.2f} m)" for k in kids)
    return SceneError(
        f"{listed} do not fit together {kids[0].relation} {holder.id} "
        f"({holder.size[0]:.2f} x {holder.size[2]:.2f} m), nor {kids[0].relation} any "
        f"{holder.type.name} asset; put some elsewhere in the plan's facts, or try another seed"
    )
