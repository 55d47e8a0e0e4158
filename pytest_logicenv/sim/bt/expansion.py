"""How large and how deep a tree becomes once its SubTrees are expanded, known before building.

BT.CPP instantiates every ``<SubTree>`` call as a copy of the called tree, and so does the
builder. A small file can therefore stand for an enormous tree: 30 trees that each call the
next twice make a billion nodes, and a chain of 1,000 SubTrees a tree 1,000 levels deep, which
would exhaust memory or Python's stack while being built or ticked. :func:`check_expansion`
works out each tree's expanded node count and depth from its elements alone (iteratively,
once per tree ID) and refuses a main tree with more than
:data:`~pytest_logicenv.sim.bt.xmlread.MAX_ELEMENTS` nodes or more than :data:`MAX_TREE_DEPTH`
levels, naming the ``<SubTree>`` call that crosses the limit. Building and ticking recurse once
per level, so a tree within the depth limit stays well within Python's stack.

>>> from pytest_logicenv.sim.bt.xmlread import read_xml
>>> root = read_xml('<root><BehaviorTree ID="A"><Sequence><SubTree ID="B"/><SubTree ID="B"/>'
...                 '</Sequence></BehaviorTree><BehaviorTree ID="B"><Inverter><AlwaysSuccess/>'
...                 '</Inverter></BehaviorTree></root>', "t.xml")
>>> trees = {tree.attrs["ID"]: tree for tree in root.children}
>>> shape = expanded(trees, "A")["A"]
>>> (shape.size, shape.depth)
(7, 4)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.bt.xmlread import MAX_DEPTH, MAX_ELEMENTS, Element

#: Most levels a tree may have with its SubTrees expanded (a ``<SubTree>`` is a level too). It
#: is the nesting one file may have, so a tree within a file's limit is within this one.
MAX_TREE_DEPTH = MAX_DEPTH
_FIX_SIZE = (
    "BT.CPP copies the called tree at every <SubTree> call, so trees that each call the next "
    "more than once multiply; call a SubTree fewer times (loop over one call with <Repeat> or "
    "a queue) or split the policy"
)
_FIX_DEPTH = (
    "flatten the chain: call the trees one after another from a <Sequence> instead of each "
    "from the one before"
)


@dataclass(frozen=True)
class Call:
    """A ``<SubTree>`` element of a tree, at ``depth`` levels below the tree's BehaviorTree."""

    element: Element
    depth: int
    tree_id: str


@dataclass(frozen=True)
class Shape:
    """A tree's size and depth with its calls expanded, and the calls that were (those of
    known trees not being expanded already: every walk down them ends)."""

    calls: tuple[Call, ...]
    own: int
    size: int
    depth: int

    def exact_size(self, shapes: Mapping[str, Shape]) -> int:
        """The uncapped size of a tree whose calls are each within the limit."""
        return self.own + sum(shapes[call.tree_id].size for call in self.calls)


def check_expansion(trees: Mapping[str, Element], main: str) -> None:
    """:class:`PolicyError` when tree ``main``, its SubTrees expanded, has more than
    :data:`MAX_ELEMENTS` nodes or more than :data:`MAX_TREE_DEPTH` levels."""
    shapes = expanded(trees, main)
    if shapes[main].size > MAX_ELEMENTS:
        call, inner = _largest(shapes, main)
        calls = sum(1 for other in shapes[inner].calls if other.tree_id == call.tree_id)
        raise PolicyError(
            f"{_where(call)}: with its SubTrees expanded, tree {main!r} has more than "
            f"{MAX_ELEMENTS} nodes (tree {inner!r} alone has "
            f"{shapes[inner].exact_size(shapes)}, calling {call.tree_id!r} {calls} "
            f"time{'s' if calls != 1 else ''}); "
            f"{_FIX_SIZE}"
        )
    if shapes[main].depth > MAX_TREE_DEPTH:
        chain = _deepest(shapes, main)
        names = [main, *(call.tree_id for call in chain)]
        shown = " > ".join(names if len(names) <= 8 else [*names[:3], "...", *names[-3:]])
        raise PolicyError(
            f"{_where(chain[-1])}: with its SubTrees expanded, tree {main!r} nests more than "
            f"{MAX_TREE_DEPTH} levels deep ({len(chain)} SubTree calls deep: {shown}); "
            f"{_FIX_DEPTH}"
        )


def expanded(trees: Mapping[str, Element], main: str) -> dict[str, Shape]:
    """The :class:`Shape` of ``main`` and of every tree it calls, directly or not. A call
    of an unknown tree, or one that calls a tree being expanded (a cycle), counts as one node:
    the builder reports those with their own messages."""
    local = {main: _local(trees[main])}
    shapes: dict[str, Shape] = {}
    # An explicit stack, not recursion: a chain of SubTrees may be thousands long.
    stack: list[tuple[str, Iterator[Call]]] = [(main, iter(local[main][0]))]
    open_ids = {main}
    while stack:
        tree_id, pending = stack[-1]
        call = next(pending, None)
        if call is None:
            stack.pop()
            open_ids.discard(tree_id)
            shapes[tree_id] = _combine(local[tree_id], shapes)
            continue
        called = call.tree_id
        if called in shapes or called in open_ids or called not in trees:
            continue
        local[called] = _local(trees[called])
        open_ids.add(called)
        stack.append((called, iter(local[called][0])))
    return shapes


def _local(tree: Element) -> tuple[tuple[Call, ...], int, int]:
    """A tree's calls, own node count and own depth, read without recursion."""
    calls: list[Call] = []
    count = deepest = 0
    stack = [(child, 1) for child in tree.children]
    while stack:
        element, depth = stack.pop()
        count += 1
        deepest = max(deepest, depth)
        if element.tag == "SubTree":
            calls.append(Call(element, depth, element.attrs.get("ID", "")))
        else:
            stack.extend((child, depth + 1) for child in element.children)
    calls.sort(key=lambda call: (call.element.source, call.element.line))
    return tuple(calls), count, deepest


def _combine(local: tuple[tuple[Call, ...], int, int], shapes: Mapping[str, Shape]) -> Shape:
    calls, own, depth = local
    counted = tuple(call for call in calls if call.tree_id in shapes)
    size = own
    for call in counted:
        inner = shapes[call.tree_id]
        # capped: the exact count of a billion nodes is not needed
        size = min(size + inner.size, MAX_ELEMENTS + 1)
        depth = max(depth, call.depth + inner.depth)
    return Shape(counted, own, size, depth)


def _largest(shapes: Mapping[str, Shape], main: str) -> tuple[Call, str]:
    """The call to blame for too many nodes: down the calls of trees that alone are over the
    limit, to the smallest such tree; there, its largest call (and the tree's ID). A tree over
    the limit has calls: one file holds fewer than :data:`MAX_ELEMENTS` nodes."""
    tree_id = main
    while True:
        calls = shapes[tree_id].calls
        over = [call for call in calls if shapes[call.tree_id].size > MAX_ELEMENTS]
        if not over:
            return max(calls, key=lambda call: shapes[call.tree_id].size), tree_id
        tree_id = over[0].tree_id


def _deepest(shapes: Mapping[str, Shape], main: str) -> list[Call]:
    """The chain of calls down to the one that takes the tree past :data:`MAX_TREE_DEPTH`
    (never empty: one file nests its trees less deep than that)."""
    chain: list[Call] = []
    tree_id, offset = main, 0
    while True:
        calls = shapes[tree_id].calls
        too_deep = [c for c in calls if offset + c.depth + shapes[c.tree_id].depth > MAX_TREE_DEPTH]
        if not too_deep:
            return chain
        call = too_deep[0]
        chain.append(call)
        if offset + call.depth >= MAX_TREE_DEPTH:  # the SubTree node itself is the last level
            return chain
        tree_id, offset = call.tree_id, offset + call.depth


def _where(call: Call) -> str:
    return f"{call.element.where}: <SubTree ID={call.tree_id!r}>"
