"""The mutation operators: the faults robot programmers make, as edits of a policy tree.

Each operator finds the places in a built tree (:mod:`~pytest_logicenv.mutation.tree`) where
its fault can be made, and says which fault class of the paper's taxonomy it models:

==========================  ==============  ==================================================
operator                    fault class     the mutant
==========================  ==============  ==================================================
``drop-open``               counterfactual  skips an ``Open`` before a ``PickUp`` of what the
                                            plan's facts put in that container
``delete-needed``           counterfactual  skips an action a later action depends on (a
                                            ``GoTo`` before acting there, a ``PickUp`` before
                                            placing, an ``Open`` before putting in, ...)
``delete-goal-action``      unreachable     skips the last action that makes a goal fact true
``remove-branch``           lackbranch      lacks one child of a Fallback (Selector)
``swap-sequence``           counterfactual  runs two neighbouring children of a Sequence in
                                            the other order
``negate-condition``        unreachable     takes the other branch: a condition negated
``retarget``                unreachable     does a step on another object of the same type:
                                            every action of a sequence that names the object
                                            names another role of its type, or its selector
                                            another room, whole or support the policy names
==========================  ==============  ==================================================

What an action makes true and needs is read from the simulator's own action rules where they
are data (the ports each action needs within reach or held, ``sim/actions.py``) and from the
small tables below for the states (a test keeps them in step with the actions).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from pytest_logicenv.mutation.task_knowledge import Atom, TaskFacts
from pytest_logicenv.mutation.tree import (
    Behaviour,
    Path,
    action_name,
    kind,
    label,
    node_at,
    targets,
    walk,
    where,
)
from pytest_logicenv.sim.actions import ACTIONS, Target
from pytest_logicenv.sim.selectors import Select, selector


@dataclass(frozen=True)
class Edit:
    """One change to a tree: ``delete`` an action (it does nothing and succeeds), ``remove``
    a child, ``swap`` the children ``first`` and ``first + 1``, ``negate`` a condition, or
    ``retarget`` the ``ports`` (action path, port) of a sequence at ``path`` to ``value``
    (a reference or a selector)."""

    how: str
    path: Path
    first: int = 0
    ports: tuple[tuple[Path, str], ...] = ()
    value: Target = ""


@dataclass(frozen=True)
class Mutation:
    """A mutant as reports show it: its operator, the fault class it models, the node it
    changes (its place in the tree) and the change in words, with the edit that makes it."""

    operator: str
    fault: str
    node: str
    change: str
    edit: Edit

    @property
    def id(self) -> str:
        """A name stable across runs and scenes (the operator and the node's path)."""
        path = ".".join(map(str, self.edit.path)) or "root"
        extra = {"swap": f"~{self.edit.first}", "retarget": f"~{self.edit.value}"}
        return f"{self.operator}@{path}{extra.get(self.edit.how, '')}"


# --------------------------------------------------------------------------- what actions do

#: The states an action makes true, as (what, port): ``("open", "target")``. Reaching and
#: holding come from the action rules (``GoTo`` reaches its target, ``PickUp`` holds).
ESTABLISHES: Mapping[str, tuple[tuple[str, str], ...]] = {
    "GoTo": (("reach", "target"),),
    "PickUp": (("held", "object"), ("reach", "object")),
    "Open": (("open", "target"),),
    "ToggleOn": (("on", "target"),),
    "Fill": (("filled", "target"),),
    "Wet": (("wet", "target"),),
    "Pour": (("filled", "target"),),
}
#: The states an action needs besides reaching and holding (its ``in_state`` and
#: ``open_if_openable`` rules, and a wettable tool's ``wet`` rule).
NEEDS: Mapping[str, tuple[tuple[str, str], ...]] = {
    "PutIn": (("open", "target"),),
    "Close": (("open", "target"),),
    "ToggleOff": (("on", "target"),),
    "Empty": (("filled", "target"),),
    "Pour": (("filled", "object"),),
    "EmptyInto": (("filled", "object"),),
    "Clean": (("wet", "tool"),),
}
#: The goal atoms an action makes true, from its ports' references.
MAKES: Mapping[str, Callable[[Mapping[str, str]], tuple[Atom, ...]]] = {
    "PutOn": lambda r: (("on", r["object"], r["target"]),),
    "PutIn": lambda r: (("in", r["object"], r["target"]),),
    "PickUp": lambda r: (("held", r["object"]),),
    "Drop": lambda r: (("on", r["object"], "Floor"),),
    "Open": lambda r: (("state", r["target"], "open", True),),
    "Close": lambda r: (("state", r["target"], "open", False),),
    "ToggleOn": lambda r: (("state", r["target"], "toggled", True),),
    "ToggleOff": lambda r: (("state", r["target"], "toggled", False),),
    "Clean": lambda r: (("state", r["target"], "dirty", False),),
    "Fill": lambda r: (("state", r["target"], "filled", True),),
    "Wet": lambda r: (("state", r["target"], "wet", True),),
    "Empty": lambda r: (("state", r["target"], "filled", False),),
    "Pour": lambda r: (("state", r["target"], "filled", True),),
    "EmptyInto": lambda r: (("state", r["object"], "filled", False),),
    "Slice": lambda r: (("state", r["target"], "sliced", True),),
    "Refill": lambda r: (("state", r["target"], "used_up", False),),
}

Need = tuple[str, str]  # (what, the name of the object it is about)
T = TypeVar("T")


def _names(node: Behaviour, facts: TaskFacts) -> dict[str, frozenset[str]]:
    """Each port's names: its reference as written and the plan's roles it can denote."""
    return {port: facts.denoted(target) for port, target in targets(node).items()}


def establishes(node: Behaviour, facts: TaskFacts) -> set[Need]:
    named = _names(node, facts)
    return {
        (what, name)
        for what, port in ESTABLISHES.get(action_name(node), ())
        for name in named.get(port, ())
    }


def needs(node: Behaviour, facts: TaskFacts) -> set[Need]:
    """What an action needs that earlier actions may have made true."""
    named = _names(node, facts)
    found: set[Need] = set()
    for rule in ACTIONS[action_name(node)].preconditions:
        for port in rule.reach:
            what = "held" if rule.code == "holding" else "reach"
            found.update((what, name) for name in named.get(port, ()))
    for what, port in NEEDS.get(action_name(node), ()):
        found.update((what, name) for name in named.get(port, ()))
    if action_name(node) == "PickUp":
        found.update(("open", container) for container in containers(node, facts))
    return found


def containers(node: Behaviour, facts: TaskFacts) -> set[str]:
    """What the plan's facts put the object of a ``PickUp`` in (whatever role it denotes)."""
    objects = facts.denoted(targets(node)["object"]) if "object" in targets(node) else ()
    return {facts.inside[name] for name in objects if name in facts.inside}


def makes(node: Behaviour, facts: TaskFacts) -> set[Atom]:
    """The atoms an action makes true, for every role each of its ports can denote."""
    make = MAKES.get(action_name(node))
    if make is None:
        return set()
    named = _names(node, facts)
    found: set[Atom] = set()
    for choice in itertools.product(*named.values()):
        try:
            found.update(make(dict(zip(named, choice, strict=True))))
        except KeyError:  # a port read from the blackboard: unknown when the tree was built
            return set()
    return found


# --------------------------------------------------------------------------- tick order


def later(root: Behaviour, first: Path, second: Path) -> bool:
    """Whether ``second`` runs after ``first`` in the same run: their nearest common
    ancestor is a sequence and ``first``'s branch of it comes before ``second``'s (under a
    fallback they are alternatives)."""
    common = 0
    while common < min(len(first), len(second)) and first[common] == second[common]:
        common += 1
    if common == len(first) or common == len(second):
        return False
    parent = node_at(root, first[:common])
    return kind(parent) == "sequence" and first[common] < second[common]


Located = tuple[Path, Behaviour]


def _actions(root: Behaviour) -> list[Located]:
    return [(path, node) for path, node in walk(root) if kind(node) == "action"]


# --------------------------------------------------------------------------- the operators


def drop_open(root: Behaviour, facts: TaskFacts) -> Iterator[Mutation]:
    actions = _actions(root)
    for path, node in actions:
        if action_name(node) != "Open":
            continue
        opened = facts.denoted(targets(node).get("target", ""))
        for later_path, other in actions:
            inside = containers(other, facts) & opened if action_name(other) == "PickUp" else None
            if inside and later(root, path, later_path):
                container = min(inside)
                change = f"skips {label(node)} before {label(other)} from {container}"
                yield _mutation("drop-open", root, path, change, Edit("delete", path))
                break


def delete_needed(root: Behaviour, facts: TaskFacts) -> Iterator[Mutation]:
    actions = _actions(root)
    for i, (path, node) in enumerate(actions):
        made = establishes(node, facts)
        for j in range(i + 1, len(actions)):
            later_path, other = actions[j]
            wanted = made & needs(other, facts)
            if not wanted or not later(root, path, later_path):
                continue
            if _again(root, actions[i + 1 : j], later_path, wanted, facts):
                continue
            what, name = sorted(wanted)[0]
            change = f"skips {label(node)}, which {label(other)} needs ({what} {name})"
            yield _mutation("delete-needed", root, path, change, Edit("delete", path))
            break


def _again(
    root: Behaviour,
    between: Sequence[Located],
    target: Path,
    wanted: set[Need],
    facts: TaskFacts,
) -> bool:
    """Whether an action between makes what is wanted true again before ``target`` runs."""
    return any(
        wanted <= establishes(node, facts) and later(root, path, target) for path, node in between
    )


def delete_goal_action(root: Behaviour, facts: TaskFacts) -> Iterator[Mutation]:
    actions = _actions(root)
    for i, (path, node) in enumerate(actions):
        goals = sorted((atom for atom in makes(node, facts) if atom in facts.goal_atoms), key=str)
        if not goals:
            continue
        if any(
            set(goals) & makes(other, facts) and later(root, path, other_path)
            for other_path, other in actions[i + 1 :]
        ):
            continue  # a later action makes it true again: not the last one
        change = f"skips {label(node)}, the last action making {_atom(goals[0])} true"
        yield _mutation("delete-goal-action", root, path, change, Edit("delete", path))


def _atom(atom: Atom) -> str:
    if atom[0] == "state":
        return f"{atom[1]} {atom[2]}={atom[3]}"
    return (
        " ".join(str(part) for part in atom[1:])
        if atom[0] == "held"
        else (f"{atom[1]} {atom[0]} {atom[2]}")
    )


def remove_branch(root: Behaviour, facts: TaskFacts) -> Iterator[Mutation]:
    for path, node in walk(root):
        if kind(node) != "fallback" or len(node.children) < 2:
            continue
        for index, child in enumerate(node.children):
            child_path = (*path, index)
            change = f"lacks branch {index + 1} of {len(node.children)}: {label(child)}"
            yield _mutation("remove-branch", root, child_path, change, Edit("remove", child_path))


def swap_sequence(root: Behaviour, facts: TaskFacts) -> Iterator[Mutation]:
    for path, node in walk(root):
        if kind(node) != "sequence":
            continue
        for first in range(len(node.children) - 1):
            a, b = node.children[first], node.children[first + 1]
            change = f"runs {label(b)} before {label(a)}"
            yield _mutation("swap-sequence", root, path, change, Edit("swap", path, first))


def negate_condition(root: Behaviour, facts: TaskFacts) -> Iterator[Mutation]:
    for path, node in walk(root):
        if kind(node) == "condition":
            change = f"takes the other branch: not {label(node)}"
            yield _mutation("negate-condition", root, path, change, Edit("negate", path))


def retarget(root: Behaviour, facts: TaskFacts) -> Iterator[Mutation]:
    """Each step (the actions of one sequence) done on another object of the same type: all
    its ports naming an object name another one instead, as when a helper is called with
    the wrong argument (acting on one object after walking to another is what the
    ``delete-needed`` and ``swap-sequence`` mutants already do)."""
    steps: dict[Path, list[tuple[Path, str, Target]]] = {}
    for path, node in _actions(root):
        step = _step_of(root, path)
        for port, target in targets(node).items():
            steps.setdefault(step, []).append((path, port, target))
    qualifiers = _qualifier_values(root, facts)
    for step, uses in steps.items():
        for value in _distinct(target for _, _, target in uses):
            ports = tuple((path, port) for path, port, target in uses if target == value)
            for other in _alternatives(value, facts, qualifiers):
                change = (
                    f"does {label(node_at(root, step))} on {other} instead of {value} "
                    f"({len(ports)} {'action' if len(ports) == 1 else 'actions'})"
                )
                edit = Edit("retarget", step, ports=ports, value=other)
                yield _mutation("retarget", root, step, change, edit)


def _step_of(root: Behaviour, path: Path) -> Path:
    """The nearest sequence above an action (the action itself if none is)."""
    for depth in range(len(path) - 1, -1, -1):
        if kind(node_at(root, path[:depth])) == "sequence":
            return path[:depth]
    return path


def _distinct(values: Iterable[T]) -> list[T]:
    """The values in first-seen order, each once (selectors are not hashable)."""
    found: list[T] = []
    for value in values:
        if value not in found:
            found.append(value)
    return found


_QUALIFIERS = ("room", "part_of", "on", "in_")


def _qualifier_values(root: Behaviour, facts: TaskFacts) -> dict[str, list[str]]:
    """The values each selector qualifier takes in the policy (and the plan's rooms)."""
    found: dict[str, list[str]] = {name: [] for name in _QUALIFIERS}
    found["room"] += facts.rooms
    for _, node in _actions(root):
        for target in targets(node).values():
            if isinstance(target, Select):
                for name in _QUALIFIERS:
                    if getattr(target, name) is not None:
                        found[name].append(getattr(target, name))
    return {name: _distinct(values) for name, values in found.items()}


def _alternatives(
    value: Target, facts: TaskFacts, qualifiers: Mapping[str, Sequence[str]]
) -> Iterator[Target]:
    """Other objects of ``value``'s type: another role of its type, or its selector with
    one qualifier naming another room, whole or support the policy names."""
    ref = selector(value).ref
    type_name = facts.role_types.get(ref)
    if type_name is not None:
        for role in facts.roles_of_type(type_name):
            if role != ref:
                yield replace(value, ref=role) if isinstance(value, Select) else role
    if isinstance(value, Select):
        for name in _QUALIFIERS:
            current = getattr(value, name)
            if current is None:
                continue
            for other in qualifiers[name]:
                if other != current:
                    yield selector(value, **{name: other})


def _mutation(operator: str, root: Behaviour, path: Path, change: str, edit: Edit) -> Mutation:
    return Mutation(operator, OPERATORS[operator].fault, where(root, path), change, edit)


@dataclass(frozen=True)
class Operator:
    """An operator: the fault class it models, what it does, and where it applies."""

    name: str
    fault: str
    does: str
    find: Callable[[Behaviour, TaskFacts], Iterator[Mutation]]


#: Every operator, in the order mutants are made (a mutant another operator made already is
#: a duplicate of the first).
OPERATORS: Mapping[str, Operator] = {
    op.name: op
    for op in (
        Operator("drop-open", "counterfactual", "skip an Open before a PickUp from it", drop_open),
        Operator(
            "delete-needed", "counterfactual", "skip an action a later one needs", delete_needed
        ),
        Operator(
            "delete-goal-action",
            "unreachable",
            "skip the last action making a goal fact true",
            delete_goal_action,
        ),
        Operator("remove-branch", "lackbranch", "remove a child of a Fallback", remove_branch),
        Operator(
            "swap-sequence", "counterfactual", "swap two children of a Sequence", swap_sequence
        ),
        Operator("negate-condition", "unreachable", "negate a condition", negate_condition),
        Operator("retarget", "unreachable", "act on another object of the type", retarget),
    )
}
