"""Goal facts no sequence of the simulator's actions can make true, found before any scene.

A goal that no action reaches makes every policy fail, the correct one too. What each action
makes true and what its rules ask are read from the simulator's own action table
(:func:`~pytest_logicenv.sim.actions.action_table`: each row's ``changes`` and ``requires``)
and its physics (:data:`~pytest_logicenv.sim.physics.SETTLINGS`), never written here again.
Each positive literal of a leaf's goal that the leaf's situation (the setting and the
realizations on its path) does not already imply is checked, by the types its roles have:

* an **attribute**: no action sets one;
* a **state**: some action or the physics sets that value (nothing makes a clean thing dirty);
  a fill needs running water in the task's rooms or a filled thing to pour from;
* **held**, **on**, **in**: the rules of the actions that make them hold for the types (the
  subject can be picked up, the target is a receptacle that takes it, and by the simulator's
  room rule, some asset of the subject fits some asset of the target).

And every attribute of any fact whose name or value is a state word the type does not have as
an attribute (a dryer ``"load": "full"``) is a label nothing reads: the simulator would still
put the clothes in. Each problem is a :class:`~pytest_logicenv.errors.Violation` coded
``goal`` (or ``label``) that says what blocks it and what would not.

>>> from pytest_logicenv.logic.plan import plan_from_json
>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> plan = plan_from_json({"format": "logicenv-plan/1", "task": "Silence it.", "setting": [
...     {"exists": "AlarmClock", "as": "alarm_clock"}], "subtasks": [{"name": "alarm",
...     "factors": [], "tree": {"action": "Switch it off.",
...     "goal": [{"attr": "alarm_clock", "alarm": "off"}]}}]})
>>> print(goal_violations(plan, default_catalog())[0].message)  # doctest: +ELLIPSIS
no action makes alarm_clock alarm='off': attributes never change; an AlarmClock is not ...
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.facts import (
    FLOOR,
    STATE_ALIASES,
    STATES,
    Attr,
    Exists,
    Fact,
    Held,
    Not,
    Related,
    State,
    bound_roles,
    is_type_ref,
    walk,
)
from pytest_logicenv.logic.plan import Leaf, Node, Plan, Query, located_facts
from pytest_logicenv.logic.rules.implication import implies, literals
from pytest_logicenv.scenes.catalog import STATE_PROPERTY, Catalog, ObjectType
from pytest_logicenv.scenes.design.templates import TEMPLATES, room_type
from pytest_logicenv.sim.actions import RuleRow, action_table
from pytest_logicenv.sim.physics import SETTLINGS
from pytest_logicenv.sim.preconditions import Requirement, property_word, room_measure, state_word
from pytest_logicenv.sim.world import BASIN_TYPES, WATER_SOURCE_TYPES

#: How many types a fix lists before "and N more".
SHOWN = 8
#: Words that name what a receptacle holds, which the simulator measures by what is in it.
_CONTENT_WORDS = frozenset({"full", "empty", "loaded", "unloaded"})


@dataclass(frozen=True)
class _Situation:
    """One leaf's situation: the facts that hold wherever it is reached, the role types."""

    facts: tuple[Fact, ...]
    roles: Mapping[str, str]
    #: Why the task's scenes have no running water ("" when they may).
    dry: str
    catalog: Catalog


def goal_violations(plan: Plan, catalog: Catalog) -> list[Violation]:
    """Every goal literal no action can make true in its leaf's situation, and every label
    that stands for a state; each problem said once, at its first location."""
    rows = [row for row in action_table() if row.changes]
    roles = _role_types(plan)
    dry = "" if _has_water(plan, catalog) else _no_water(plan)
    found: dict[str, str] = {}
    for location, facts in _leaf_situations(plan):
        leaf_facts, goal = facts
        situation = _Situation(_stated(leaf_facts), roles, dry, catalog)
        for index, fact in enumerate(goal):
            for message in _unreachable(fact, situation, rows, catalog):
                found.setdefault(message, f"{location}.goal[{index}]")
    for location, fact in located_facts(plan):
        if ".goal[" in location:
            continue  # a goal's attribute is reported as a goal no action reaches
        for message in _labels(fact, roles, catalog):
            found.setdefault(message, location)
    return [
        Violation("label" if " is a label" in message else "goal", location, message)
        for message, location in found.items()
    ]


# --------------------------------------------------------------------------- the plan


def _role_types(plan: Plan) -> dict[str, str]:
    roles: dict[str, str] = {}
    for _, fact in located_facts(plan):
        for role, type_name in bound_roles(fact).items():
            roles.setdefault(role, type_name)
    return roles


def _leaf_situations(
    plan: Plan,
) -> Iterator[tuple[str, tuple[tuple[Fact, ...], tuple[Fact, ...]]]]:
    """Each leaf's location, the facts of its situation and its goal."""
    for i, subtask in enumerate(plan.subtasks):
        where = f"subtasks[{i}]({subtask.name}).tree"
        for location, leaf, path in _leaves(subtask.tree, where, ()):
            facts = [*plan.setting]
            for factor_id, value in path:
                facts += subtask.factor(factor_id).realizations.get(value, ())
            yield location, (tuple(facts), leaf.goal)


def _leaves(
    node: Node, location: str, path: tuple[tuple[str, str], ...]
) -> Iterator[tuple[str, Leaf, tuple[tuple[str, str], ...]]]:
    if isinstance(node, Leaf):
        yield location, node, path
        return
    assert isinstance(node, Query)
    for value, child in node.branches:
        yield from _leaves(child, f"{location}.branches.{value}", (*path, (node.factor, value)))


def _has_water(plan: Plan, catalog: Catalog) -> bool:
    """Whether running water can be in the task's scenes: a water source or a basin the plan
    names, or one its rooms' templates hold (no rooms given: any room may)."""
    wet = WATER_SOURCE_TYPES | BASIN_TYPES
    named = {t for _, fact in located_facts(plan) for t in _types_named(fact)}
    kinds = {room_type(room) for room in plan.rooms}
    if not plan.rooms:
        kinds = set(TEMPLATES)
    furnished = {slot.type for kind in kinds for slot in TEMPLATES.get(kind, ())}
    for name in named | furnished:
        parts = {part.type for part in catalog.type(name).parts} if catalog.has(name) else set()
        if name in wet or parts & wet:
            return True
    return False


def _types_named(fact: Fact) -> Iterator[str]:
    for item in walk(fact):
        if isinstance(item, Exists) and is_type_ref(item.ref):
            yield item.ref


# --------------------------------------------------------------------------- labels


def _labels(fact: Fact, roles: Mapping[str, str], catalog: Catalog) -> Iterator[str]:
    """Attributes that name a state or what a receptacle holds, which no rule reads."""
    for item in walk(fact):
        if not isinstance(item, Exists | Attr):
            continue
        ref = item.as_ or item.ref if isinstance(item, Exists) else item.ref
        name = item.ref if isinstance(item, Exists) else roles.get(item.ref, "")
        if not catalog.has(name):
            continue
        obj_type = catalog.type(name)
        for key, value in item.attrs.items():
            if key not in obj_type.attrs:
                yield from _label(ref, obj_type, key, value)


def _label(ref: str, obj_type: ObjectType, key: str, value: str) -> Iterator[str]:
    head = (
        f"{ref}: attribute {key}={value!r} is a label: the simulator reads no attribute and "
        "no action changes one"
    )
    if {key.lower(), value.lower()} & _CONTENT_WORDS:
        yield (
            f"{head}, so {_a(obj_type.name)} labelled {value} still takes what is put in it "
            "(PutIn and PutOn measure its room by what is in it); make it "
            f'{value} by what is in it (e.g. {{"exists": "Cloth", "where": {{"in": "{ref}"}}}})'
            " or ask about something it can be"
        )
        return
    state = _state_named(value.lower(), key.lower())
    if state is None:
        return
    needed = STATE_PROPERTY[state[0]]
    if obj_type.has(needed):
        word = "true" if state[1] else "false"
        yield f'{head}; use the state: {{"state": "{ref}", "{state[0]}": {word}}}'
    else:
        yield (
            f"{head}; {value!r} is a state {_a(obj_type.name)} cannot have (it is not "
            f"{needed}): ask about something it can be"
        )


# --------------------------------------------------------------------------- goal literals


def _unreachable(
    fact: Fact, situation: _Situation, rows: Sequence[RuleRow], catalog: Catalog
) -> Iterator[str]:
    """Why each literal of one goal fact cannot be made true (nothing: it can)."""
    for item, positive in literals([fact]):
        if implies(situation.facts, [item if positive else Not(item)]):
            continue  # it holds from the start
        if not positive:
            if isinstance(item, State):  # not open: closed
                flipped = State(item.ref, {k: not v for k, v in item.states.items()})
                yield from _state_blockers(flipped, situation, rows, catalog)
            continue
        yield from _positive_blockers(item, situation, rows, catalog)


def _positive_blockers(
    item: Fact, situation: _Situation, rows: Sequence[RuleRow], catalog: Catalog
) -> Iterator[str]:
    if isinstance(item, Attr):
        yield from _attr_blockers(item, situation, catalog)
    elif isinstance(item, State):
        yield from _state_blockers(item, situation, rows, catalog)
    elif isinstance(item, Held):
        yield from _placement_blockers("held", item.ref, "", situation, rows, catalog)
    elif isinstance(item, Related) and item.relation in ("on", "in"):
        yield from _placement_blockers(
            item.relation, item.subject, item.target, situation, rows, catalog
        )
    elif isinstance(item, Exists):
        subject = item.as_ or item.ref
        if item.states:
            yield from _state_blockers(State(subject, item.states), situation, rows, catalog)
        for relation, target in (("on", item.where.on), ("in", item.where.in_)):
            if target is not None:
                yield from _placement_blockers(relation, subject, target, situation, rows, catalog)


def _type_of(ref: str, situation: _Situation, catalog: Catalog) -> ObjectType | None:
    name = ref if is_type_ref(ref) else situation.roles.get(ref, "")
    return catalog.type(name) if catalog.has(name) else None


def _named(ref: str, obj_type: ObjectType) -> str:
    return ref if ref == obj_type.name else f"{ref} ({_a(obj_type.name)})"


def _a(name: str) -> str:
    return f"{'an' if name[:1] in 'AEIOU' else 'a'} {name}"


def _attr_blockers(item: Attr, situation: _Situation, catalog: Catalog) -> Iterator[str]:
    obj_type = _type_of(item.ref, situation, catalog)
    for name, value in item.attrs.items():
        text = f"no action makes {item.ref} {name}={value!r}: attributes never change"
        state = _state_named(name, value)
        if obj_type is not None and state is not None:
            needed = STATE_PROPERTY[state[0]]
            if obj_type.has(needed):
                word = "true" if state[1] else "false"
                text += f'; use the state: {{"state": "{item.ref}", "{state[0]}": {word}}}'
            else:
                text += f"; {_a(obj_type.name)} is not {needed}, so no action switches it either"
        yield text + (
            "; state the attribute in the situation's facts (it is then true from the start) "
            "or ask for something an action can change"
        )


def _state_named(*words: str) -> tuple[str, bool] | None:
    """The state and value a word names (``off``: not toggled), if any."""
    for word in words:
        key = STATE_ALIASES.get(word, word)
        for state in STATES:
            for value in (True, False):
                if key in (state_word(state, value), state if value else ""):
                    return state, value
    return None


# --------------------------------------------------------------------------- states


def _state_blockers(
    item: State, situation: _Situation, rows: Sequence[RuleRow], catalog: Catalog
) -> Iterator[str]:
    obj_type = _type_of(item.ref, situation, catalog)
    if obj_type is None:
        return
    for state, value in item.states.items():
        needed = STATE_PROPERTY.get(state)
        if needed is None or not obj_type.has(needed):
            continue  # a state the type cannot have: the capability check says so
        reasons = _state_reasons(item.ref, obj_type, state, value, situation, rows, catalog)
        if reasons is None:
            continue
        what = f"no action makes {_named(item.ref, obj_type)} {state_word(state, value)}"
        yield f"{what}: {'; '.join(dict.fromkeys(reasons))}" + (
            "; state it in the situation's facts (it then holds from the start), or make "
            "another goal"
        )


def _state_reasons(
    ref: str,
    obj_type: ObjectType,
    state: str,
    value: bool,
    situation: _Situation,
    rows: Sequence[RuleRow],
    catalog: Catalog,
) -> list[str] | None:
    """Why no action or physics rule sets ``state`` to ``value`` (``None``: one can)."""
    reasons: list[str] = []
    for row in rows:
        for change in row.changes:
            if change.kind == "state" and (change.state, change.value) == (state, value):
                blocked = _row_state_blockers(row, change.port, ref, obj_type, situation)
                if not blocked:
                    return None
                reasons += blocked
    for rule in SETTLINGS:
        if (rule.state, rule.value) != (state, value):
            continue
        if rule.needs and not obj_type.has(rule.needs):
            continue
        blocked = _settling_blockers(rule.rule, rule.needs, obj_type, situation, catalog)
        if not blocked:
            return None
        reasons += blocked
    if not reasons:
        reasons.append(
            f"no action and no rule of heat or water makes anything {state_word(state, value)}"
        )
    return reasons


def _row_state_blockers(
    row: RuleRow, port: str, ref: str, obj_type: ObjectType, situation: _Situation
) -> list[str]:
    reasons = []
    for need in row.requires:
        if need.kind == "water" and need.port == port and situation.dry:
            reasons.append(situation.dry)
        elif need.kind == "state" and need.port != port and need.value:
            source = _source(need, ref, situation)
            if source is not None:
                reasons.append(f"{row.action} needs its `{need.port}` {source}")
    return reasons


def _settling_blockers(
    rule: str, needs: str, obj_type: ObjectType, situation: _Situation, catalog: Catalog
) -> list[str]:
    if rule == "water" and situation.dry:
        return [situation.dry]
    if rule == "heat" and needs == "fillable":
        takers = [
            t.name
            for t in catalog.types.values()
            if t.has("heat_source") and obj_type.name in t.accepts
        ]
        if not takers:
            return [
                "only an object-specific heat source fills what it holds, and none takes "
                f"{_a(obj_type.name)}"
            ]
    return []


def _no_water(plan: Plan) -> str:
    rooms = ", ".join(plan.rooms)
    return (
        f"nothing runs water here (Fill and Wet need it): no room of this task ({rooms}) "
        "has a faucet or a sink, nor does the plan name one"
    )


def _source(need: Requirement, ref: str, situation: _Situation) -> str | None:
    """Why nothing in the situation is in the state ``need`` asks of another port (a filled
    thing to pour from), or ``None`` when something is."""
    word = state_word(need.name, need.value)
    prop = STATE_PROPERTY.get(need.name, "")
    present = _present(situation)
    able = [(role, kind) for role, kind in present if role != ref and kind.has(prop)]
    for role, kind in able:
        if kind.states.get(need.name) == need.value or implies(
            situation.facts, [State(role, {need.name: need.value})]
        ):
            return None
    unable = [
        f"{_named(role, kind)} cannot be {word}"
        for role, kind in present
        if role != ref and kind.has("pickupable") and not kind.has(prop)
    ]
    found = "; ".join([*(f"{role} is not {word}" for role, _ in able), *unable])
    able_types = sorted(
        t.name for t in situation.catalog.types.values() if t.has(prop) and t.has("pickupable")
    )
    shown = ", ".join(able_types[:SHOWN]) + (" ..." if len(able_types) > SHOWN else "")
    return (
        f"{word}, and nothing in this situation is ({found or 'nothing can be'}): add one "
        f"{word} from the start (types that can be: {shown})"
    )


def _present(situation: _Situation) -> list[tuple[str, ObjectType]]:
    return _present_in(situation, situation.catalog)


def _present_in(situation: _Situation, catalog: Catalog) -> list[tuple[str, ObjectType]]:
    """The objects the situation's facts name, by role (or type), with their types."""
    found: dict[str, ObjectType] = {}
    for fact in situation.facts:
        for role, name in bound_roles(fact).items():
            if catalog.has(name):
                found.setdefault(role, catalog.type(name))
        for item in walk(fact):
            if isinstance(item, Exists) and item.as_ is None and catalog.has(item.ref):
                found.setdefault(item.ref, catalog.type(item.ref))
    return list(found.items())


# --------------------------------------------------------------------------- placements


def _placement_blockers(
    relation: str,
    subject: str,
    target: str,
    situation: _Situation,
    rows: Sequence[RuleRow],
    catalog: Catalog,
) -> Iterator[str]:
    """Why nothing puts ``subject`` ``relation`` ``target`` (held: ``target`` "")."""
    subject_type = _type_of(subject, situation, catalog)
    floor = target in (FLOOR, "floor")
    target_type = None if floor or not target else _type_of(target, situation, catalog)
    if subject_type is None or (target and not floor and target_type is None):
        return  # an unknown type or role: the plan rules say so
    reasons = _placement_reasons(relation, subject_type, target_type, floor, rows)
    if reasons is None:
        return
    shown = f"{_named(subject, subject_type)}"
    where = "held" if relation == "held" else f"{relation} {target}"
    text = f"nothing makes {shown} {where}: {'; '.join(dict.fromkeys(reasons))}"
    if target_type is not None and any("fit" in r for r in reasons):
        text += "; " + _takers(relation, subject_type, catalog)
    yield text


def _placement_reasons(
    relation: str,
    subject: ObjectType,
    target: ObjectType | None,
    floor: bool,
    rows: Sequence[RuleRow],
    depth: int = 0,
) -> list[str] | None:
    reasons: list[str] = []
    for row in rows:
        for change in row.changes:
            if change.kind != relation or (relation != "held" and bool(change.target) == floor):
                continue
            types = {change.port: subject}
            if target is not None and change.target:
                types[change.target] = target
            blocked = _requirement_blockers(row, types, rows, depth)
            if not blocked:
                return None
            reasons += blocked
    return reasons or [f"no action puts anything {relation}"]


def _requirement_blockers(
    row: RuleRow, types: Mapping[str, ObjectType], rows: Sequence[RuleRow], depth: int
) -> list[str]:
    reasons = []
    for need in row.requires:
        kind = types.get(need.port)
        if kind is None:
            continue
        other = types.get(need.other)
        if need.kind == "property" and not kind.has(need.name):
            word = property_word(need.name)
            reasons.append(f"{row.action} needs it {word}, and {_a(kind.name)} is not {word}")
        elif need.kind == "held" and depth < 2:
            held = _placement_reasons("held", kind, None, False, rows, depth + 1)
            if held is not None:
                reasons += [f"{row.action} needs it held: {reason}" for reason in held]
        elif (
            need.kind == "accepts"
            and other is not None
            and other.accepts
            and kind.name not in other.accepts
        ):
            reasons.append(f"{_a(other.name)} takes only {', '.join(other.accepts)}")
        elif need.kind == "room" and other is not None and not _fits(kind, other, need.name):
            reasons.append(f"{row.action} needs room: {_misfit(kind, other, need.name)}")
    return reasons


def _measures(obj_type: ObjectType, relation: str) -> list[float]:
    return [room_measure(a.size, relation) for a in obj_type.laid_assets if all(a.size)]


def _fits(subject: ObjectType, target: ObjectType, relation: str) -> bool:
    """Whether some asset of ``subject`` fits some asset of ``target`` by the simulator's
    room rule (unknown sizes fit, and so does a part: a burner's size is its stove's slot)."""
    if target.part_of:
        return True
    small, large = _measures(subject, relation), _measures(target, relation)
    return not small or not large or min(small) <= max(large) * (1 + 1e-9)


def _footprint(obj_type: ObjectType, pick: str) -> str:
    assets = [a for a in obj_type.laid_assets if all(a.size)]
    chosen = (min if pick == "min" else max)(
        assets, key=lambda a: a.size[0] * a.size[1] * a.size[2]
    )
    x, _, z = chosen.size
    return f"{max(x, z):.2f} x {min(x, z):.2f} m"


def _misfit(subject: ObjectType, target: ObjectType, relation: str) -> str:
    unit = "m³ by volume" if relation == "in" else "m² by floor area"
    return (
        f"the smallest {subject.name} ({_footprint(subject, 'min')}, "
        f"{min(_measures(subject, relation)):.3f} {unit}) does not fit in the largest "
        f"{target.name} ({_footprint(target, 'max')}, {max(_measures(target, relation)):.3f})"
    )


def _takers(relation: str, subject: ObjectType, catalog: Catalog) -> str:
    """The receptacle types that would take ``subject`` ``relation`` them, closest fit first."""
    need = min(_measures(subject, relation))
    return takers(relation, subject.name, _footprint(subject, "min"), need, catalog)


def takers(relation: str, subject: str, size: str, need: float, catalog: Catalog) -> str:
    """The receptacle types some asset of which takes a ``subject`` of ``size`` (``need``:
    its :func:`~pytest_logicenv.sim.preconditions.room_measure`) ``relation`` them, closest
    fit first; the witness feedback names them for a scene's own object."""
    found = []
    for kind in catalog.types.values():
        if (
            not kind.has("receptacle")
            or kind.part_only
            or (kind.accepts and subject not in kind.accepts)
        ):
            continue
        if relation == "in" and not kind.holds_inside:
            continue
        sizes = _measures(kind, relation)
        if sizes and max(sizes) >= need:
            found.append((max(sizes), kind.name))
    names = [name for _, name in sorted(found)]
    shown = ", ".join(names[:SHOWN]) + (
        f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    )
    return f"types that take a {size} {subject} {relation} them: {shown or 'none'}"


def _stated(facts: Sequence[Fact]) -> tuple[Fact, ...]:
    """The facts, with what each ``exists ... as`` says of its role as facts of their own
    (the implication check reads a role's states and place from ``state``/``on``/``in``)."""
    found = list(facts)
    for item, positive in literals(facts):
        if positive and isinstance(item, Exists) and item.as_ is not None:
            role = item.as_
            found += [State(role, item.states)] if item.states else []
            found += [Attr(role, item.attrs)] if item.attrs else []
            found += [
                Related(relation, role, target)
                for relation, target in (("on", item.where.on), ("in", item.where.in_))
                if target is not None
            ]
    return tuple(found)
