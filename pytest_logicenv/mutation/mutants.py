"""A policy's mutants: every operator's mutations, each a policy of its own, with the
equivalent ones discarded.

:func:`mutants_of` builds the policy's tree once to find the mutations
(:mod:`~pytest_logicenv.mutation.operators`), then each mutant as a :class:`MutantPolicy`: a
factory that builds the original's fresh tree and applies one edit, so it runs like any policy
(py_trees and BehaviorTree.CPP alike). A mutant that provably changes nothing the simulator can
observe (the same actions on the same world, the same result) is *equivalent* and discarded:
its tree has the original's signature (two identical children swapped, say), or it swaps two
neighbours of a sequence that only read the world. A mutant identical to an earlier one is a
*duplicate*. Both are counted, not run.

>>> from pytest_logicenv.sim.controls import sequence
>>> from pytest_logicenv.sim.leaves import GoTo, IsOpen, IsToggledOn, PickUp
>>> def fetch():
...     return sequence("Fetch", IsOpen("door"), IsToggledOn("light"), GoTo("mug"),
...                     PickUp("mug"))
>>> found = mutants_of(fetch)
>>> [m.mutation.id for m in found.mutants][:3]
['delete-needed@2', 'swap-sequence@root~1', 'swap-sequence@root~2']
>>> [m.change for m in found.equivalent]
['runs IsToggledOn(light) before IsOpen(door)']
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import py_trees

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.mutation.operators import OPERATORS, Edit, Mutation
from pytest_logicenv.mutation.task_knowledge import TaskFacts
from pytest_logicenv.mutation.tree import (
    Behaviour,
    doing_nothing,
    inverted,
    node_at,
    pure,
    remove_child,
    replace_node,
    signature,
    swap_children,
    targets,
)
from pytest_logicenv.sim.actions import Target
from pytest_logicenv.sim.bt import load_bt_xml
from pytest_logicenv.sim.bt.sim_leaves import XmlAction
from pytest_logicenv.sim.leaves import ActionLeaf


class MutantPolicy:
    """A policy factory: the original's fresh tree with one mutation applied."""

    def __init__(self, build: Callable[[], Behaviour], mutation: Mutation) -> None:
        self.build = build
        self.mutation = mutation

    def __call__(self) -> Behaviour:
        return apply(self.build(), self.mutation.edit)

    def __repr__(self) -> str:
        return f"<mutant {self.mutation.id}: {self.mutation.change}>"


@dataclass(frozen=True)
class Mutants:
    """A policy's mutants to run, and the mutations discarded: the equivalent ones, and how
    many duplicated an earlier mutant."""

    mutants: tuple[MutantPolicy, ...]
    equivalent: tuple[Mutation, ...] = ()
    duplicates: int = 0
    #: Why the policy cannot be mutated at all ("": it can).
    refused: str = ""

    @property
    def nothing(self) -> bool:
        """Whether the operators found nothing to change at all."""
        return not (self.mutants or self.equivalent or self.duplicates)


def mutants_of(policy: Any, plan: Plan | None = None) -> Mutants:
    """Every mutant of ``policy`` (a py_trees factory or root, an ``XmlPolicy`` or an XML
    path); ``plan`` tells the roles, goals and containers some operators need."""
    if isinstance(policy, py_trees.behaviour.Behaviour):
        return Mutants((), refused=GIVEN_AS_IS)
    build = factory(policy)
    root = build()
    facts = TaskFacts.of(plan)
    original = signature(root)
    seen = {original}
    kept: list[MutantPolicy] = []
    equivalent: list[Mutation] = []
    duplicates = 0
    for operator in OPERATORS.values():
        for mutation in operator.find(root, facts):
            mutant = MutantPolicy(build, mutation)
            shape = signature(mutant())
            if shape == original or _swaps_readers(root, mutation.edit):
                equivalent.append(mutation)
            elif shape in seen:
                duplicates += 1
            else:
                seen.add(shape)
                kept.append(mutant)
    return Mutants(tuple(kept), tuple(equivalent), duplicates)


def _swaps_readers(root: Behaviour, edit: Edit) -> bool:
    """A swap of two neighbours that only read the world: the same actions either way."""
    if edit.how != "swap":
        return False
    parent = node_at(root, edit.path)
    return pure(parent.children[edit.first]) and pure(parent.children[edit.first + 1])


#: Why a root given as is has no mutants (py_trees behaviours cannot be copied).
GIVEN_AS_IS = (
    "cannot be mutated: it is one tree, given as is; give a function that builds it "
    "(a factory) so that each mutant gets a fresh tree"
)


def factory(policy: Any) -> Callable[[], Behaviour]:
    """A function that builds a fresh tree of ``policy`` (a factory, an ``XmlPolicy`` or an
    XML path) each time it is called."""
    if isinstance(policy, str | os.PathLike):
        return load_bt_xml(policy)
    if callable(policy) and not isinstance(policy, py_trees.behaviour.Behaviour):
        return policy  # type: ignore[no-any-return]
    raise PolicyError(f"cannot mutate {type(policy).__name__}: {GIVEN_AS_IS}")


# --------------------------------------------------------------------------- applying an edit


def apply(root: Behaviour, edit: Edit) -> Behaviour:
    """``root`` (a fresh tree) with ``edit`` made; returns the new root."""
    node = node_at(root, edit.path)
    if edit.how == "delete":
        return replace_node(root, edit.path, doing_nothing(node))
    if edit.how == "remove":
        return remove_child(root, edit.path)
    if edit.how == "swap":
        return swap_children(root, edit.path, edit.first)
    if edit.how == "negate":
        return replace_node(root, edit.path, inverted(node))
    if edit.how == "retarget":
        for path, port in edit.ports:
            _retarget(node_at(root, path), port, edit.value)
        return root
    raise ValueError(f"unknown edit {edit.how!r}")  # pragma: no cover


def _retarget(node: Behaviour, port: str, value: Target) -> None:
    """Point an action's port at ``value`` (a reference or a selector)."""
    ports = targets(node)
    ports[port] = value
    if isinstance(node, ActionLeaf):
        node.ports = ports
    elif isinstance(node, XmlAction):
        node.literal = ports  # the values known when the tree was built, with the new one
