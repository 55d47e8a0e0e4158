"""A built policy tree as the mutation operators see it, py_trees and BehaviorTree.CPP alike.

A policy (a py_trees factory or an :class:`~pytest_logicenv.sim.bt.XmlPolicy`) builds a fresh
tree each time it is called, with the same shape every time, so a node is addressed by its
*path*: the index of each child on the way from the root. This module reads a tree (which
nodes are sequences, fallbacks, actions and conditions; an action's references; a node's
label) and edits a fresh one at a path (replace, remove, swap, wrap). It also gives a tree's
*signature*, its behaviour-relevant structure without node names, by which two trees that
run the same are recognized.

>>> from pytest_logicenv.sim.controls import sequence
>>> from pytest_logicenv.sim.leaves import GoTo, PickUp
>>> root = sequence("Fetch", GoTo("mug"), PickUp("mug"))
>>> [(path, label(node)) for path, node in walk(root)]
[((), 'Fetch'), ((0,), 'GoTo(mug)'), ((1,), 'PickUp(mug)')]
>>> kind(root), kind(node_at(root, (1,))), refs(node_at(root, (1,)))
('sequence', 'action', {'object': 'mug'})
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import PurePath
from typing import Any

import py_trees

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.actions import Target
from pytest_logicenv.sim.bt import control_nodes as bt_controls
from pytest_logicenv.sim.bt import decorators as bt_decorators
from pytest_logicenv.sim.bt.node import BtNode
from pytest_logicenv.sim.bt.sim_leaves import XmlAction, XmlCondition
from pytest_logicenv.sim.leaves import ActionLeaf, ConditionLeaf
from pytest_logicenv.sim.selectors import selector, targets_from_text

Behaviour = py_trees.behaviour.Behaviour
Path = tuple[int, ...]

_FALLBACKS = (
    py_trees.composites.Selector,
    bt_controls.Fallback,
    bt_controls.ReactiveFallback,
)
_SEQUENCES = (
    py_trees.composites.Sequence,
    bt_controls.Sequence,  # SequenceWithMemory and AsyncSequence too (Fallback: see above)
    bt_controls.ReactiveSequence,
)
_INVERTERS = (py_trees.decorators.Inverter, bt_decorators.Inverter)
#: py_trees' own decorators and the settings that decide how each ticks its child (the rest
#: take none): two of one type with the same settings run alike.
_PY_TREES_DECORATORS: Mapping[type, tuple[str, ...]] = {
    py_trees.decorators.Inverter: (),
    py_trees.decorators.PassThrough: (),
    py_trees.decorators.FailureIsRunning: (),
    py_trees.decorators.FailureIsSuccess: (),
    py_trees.decorators.RunningIsFailure: (),
    py_trees.decorators.RunningIsSuccess: (),
    py_trees.decorators.SuccessIsFailure: (),
    py_trees.decorators.SuccessIsRunning: (),
    py_trees.decorators.Repeat: ("num_success",),
    py_trees.decorators.Retry: ("num_failures",),
    py_trees.decorators.Timeout: ("duration",),
}


def kind(node: Behaviour) -> str:
    """``action``, ``condition``, ``fallback``, ``sequence``, ``inverter`` or ``other``."""
    if isinstance(node, ActionLeaf | XmlAction):
        return "action"
    if isinstance(node, ConditionLeaf | XmlCondition):
        return "condition"
    if isinstance(node, _FALLBACKS):  # before sequences: BT.CPP's Fallback is one
        return "fallback"
    if isinstance(node, _SEQUENCES):
        return "sequence"
    if isinstance(node, _INVERTERS):
        return "inverter"
    return "other"


def walk(root: Behaviour, path: Path = ()) -> Iterator[tuple[Path, Behaviour]]:
    """Every node with its path, parents before children, children in tick order."""
    yield path, root
    for index, child in enumerate(root.children):
        yield from walk(child, (*path, index))


def node_at(root: Behaviour, path: Path) -> Behaviour:
    node = root
    for index in path:
        node = node.children[index]
    return node


def action_name(node: Behaviour) -> str:
    return str(getattr(node, "action", getattr(node, "condition", node.name)))


def targets(node: Behaviour) -> dict[str, Target]:
    """An action's ports as written (a reference, or one with a selector); an XML action
    whose ports come from the blackboard gives the values known when its tree was built."""
    if isinstance(node, ActionLeaf):
        return dict(node.ports)
    if isinstance(node, XmlAction):
        if node.literal is not None:
            return dict(node.literal)
        try:
            return targets_from_text(node.action, node.port_names, node.known)
        except PolicyError:
            return {}
    return {}


def refs(node: Behaviour) -> dict[str, str]:
    """An action's ports as the names they refer to (a selector's reference)."""
    return {port: selector(target).ref for port, target in targets(node).items()}


def label(node: Behaviour) -> str:
    """How reports name a node: an action or condition as its call, another by its name."""
    if isinstance(node, ActionLeaf | XmlAction):
        return f"{node.action}({', '.join(str(t) for t in targets(node).values())})"
    if isinstance(node, ConditionLeaf):
        return f"{node.condition}({', '.join(node.args)})"
    if isinstance(node, XmlCondition):  # ports read from the blackboard have no args yet
        args = node.args or tuple(f"{k}={v}" for k, v in node.ports.raw.items())
        return f"{node.condition}({', '.join(args)})"
    return str(node.name)


def where(root: Behaviour, path: Path) -> str:
    """A node's place: its label, the file and line it was written at (XML), and the names
    of the composites above it."""
    above = [str(node_at(root, path[:depth]).name) for depth in range(len(path))]
    node = node_at(root, path)
    text = label(node)
    origin = str(getattr(node, "origin", ""))
    if origin:
        file, _, rest = origin.partition(" <")[0].rpartition(":")
        text += f" at {PurePath(file).name}:{rest}"
    return f"{text} in {' > '.join(above)}" if above else text


# --------------------------------------------------------------------------- editing


def replace_node(root: Behaviour, path: Path, new: Behaviour) -> Behaviour:
    """Put ``new`` where the node at ``path`` was; returns the root (``new`` at ``()``)."""
    if not path:
        return new
    parent = node_at(root, path[:-1])
    _set_children(parent, [new if i == path[-1] else c for i, c in enumerate(parent.children)])
    return root


def remove_child(root: Behaviour, path: Path) -> Behaviour:
    parent = node_at(root, path[:-1])
    _set_children(parent, [c for i, c in enumerate(parent.children) if i != path[-1]])
    return root


def swap_children(root: Behaviour, path: Path, first: int) -> Behaviour:
    """Swap the children ``first`` and ``first + 1`` of the node at ``path``."""
    parent = node_at(root, path)
    children = list(parent.children)
    children[first], children[first + 1] = children[first + 1], children[first]
    _set_children(parent, children)
    return root


def _set_children(parent: Behaviour, children: list[Behaviour]) -> None:
    """Give a composite or decorator of either kind its new children (before its first tick)."""
    for child in children:
        child.parent = parent
    parent.children = children
    if isinstance(parent, py_trees.decorators.Decorator):
        parent.decorated = children[0]
    if isinstance(parent, py_trees.composites.Composite):
        parent.current_child = None


def inverted(node: Behaviour) -> Behaviour:
    """``node`` under a py_trees Inverter (which a BT.CPP parent ticks as it ticks any
    py_trees behaviour)."""
    return py_trees.decorators.Inverter(f"not {node.name}", node)


def doing_nothing(node: Behaviour) -> Behaviour:
    """What stands for a deleted action: a leaf that succeeds at once, as the action did."""
    return py_trees.behaviours.Success(f"deleted {label(node)}")


# --------------------------------------------------------------------------- sameness


def signature(node: Behaviour) -> tuple[Any, ...]:
    """What decides how a tree runs, without node names: two trees with one signature tick
    alike in every scene."""
    return (_own(node), tuple(signature(child) for child in node.children))


def _own(node: Behaviour) -> tuple[Any, ...]:
    if isinstance(node, ActionLeaf | XmlAction):
        return ("action", node.action, _items(targets(node)), _scripts(node))
    if isinstance(node, ConditionLeaf):
        return ("condition", repr(node.fact))
    if isinstance(node, XmlCondition):
        raw = _items(node.ports.raw) if node.fact is None else ()
        return ("condition", node.condition, repr(node.fact), raw, _scripts(node))
    if isinstance(node, BtNode):
        return (type(node).__name__, _items(node.ports.raw), _scripts(node))
    if isinstance(node, py_trees.composites.Composite):
        return (type(node).__name__, getattr(node, "memory", None))
    if type(node) in _PY_TREES_DECORATORS:  # exactly theirs: a subclass may keep state
        settings = tuple(getattr(node, name) for name in _PY_TREES_DECORATORS[type(node)])
        return (type(node).__name__, settings)
    if isinstance(node, py_trees.behaviours.Success | py_trees.behaviours.Failure):
        return (type(node).__name__,)
    return (type(node).__qualname__, id(node))  # a user's behaviour: only itself is itself


def _items(mapping: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((key, repr(value)) for key, value in mapping.items()))


def _scripts(node: Behaviour) -> tuple[Any, ...]:
    if not isinstance(node, BtNode):
        return ()
    conditions = node.conditions
    return (
        tuple((name, script.text) for name, script in conditions.pre),
        tuple(sorted((name, script.text) for name, script in conditions.post.items())),
    )


def pure(node: Behaviour) -> bool:
    """Whether a subtree only reads the world: conditions (without BT.CPP scripts), under
    inverters, sequences and fallbacks. Such a subtree never acts, writes nothing and never
    returns RUNNING, so where it runs in a sequence changes nothing the simulator sees."""
    if isinstance(node, BtNode) and _scripts(node) != ((), ()):
        return False
    if kind(node) == "condition":
        return True
    plain = type(node) in (
        py_trees.decorators.Inverter,
        py_trees.composites.Sequence,
        py_trees.composites.Selector,
        bt_decorators.Inverter,
        bt_controls.Sequence,
        bt_controls.SequenceWithMemory,
        bt_controls.Fallback,
    )
    return plain and not getattr(node, "asynch", False) and all(map(pure, node.children))
