"""BehaviorTree.CPP's control nodes for py_trees policies, and the fetch-and-place pattern.

A py_trees policy built from these ticks exactly as its BehaviorTree.CPP v4 twin does under
:mod:`pytest_logicenv.sim.bt` (``Sequence`` and ``Fallback`` keep their memory there too), so
the two give identical traces:

=================================  ==========================================================
``sequence(name, *children)``      ``<Sequence>``
``fallback(name, *children)``      ``<Fallback>``
``when(name, condition, then)``    ``<Fallback><Inverter>condition</Inverter>then</Fallback>``
``carry(item, place, into=...)``   ``<Sequence>`` of GoTo, PickUp, GoTo, PutOn (or PutIn)
=================================  ==========================================================

>>> from pytest_logicenv.sim.leaves import Exists
>>> tree = when("PlaceBook", Exists("book", on="Floor"), carry("book", "sofa"))
>>> [node.name for node in tree.iterate()]  # children first
['Exists', 'not Exists', 'GoTo', 'PickUp', 'GoTo', 'PutOn', 'CarryOnto', 'PlaceBook']
"""

from __future__ import annotations

import py_trees

from pytest_logicenv.sim.leaves import GoTo, PickUp, PutIn, PutOn

Behaviour = py_trees.behaviour.Behaviour


def sequence(name: str, *children: Behaviour) -> Behaviour:
    """BT.CPP's ``Sequence``: the children in order until one fails (with memory)."""
    return py_trees.composites.Sequence(name, memory=True, children=list(children))


def fallback(name: str, *children: Behaviour) -> Behaviour:
    """BT.CPP's ``Fallback``: the children in order until one succeeds (with memory)."""
    return py_trees.composites.Selector(name, memory=True, children=list(children))


def when(name: str, condition: Behaviour, then: Behaviour) -> Behaviour:
    """``then`` if ``condition`` holds, else nothing to do (SUCCESS)."""
    return fallback(name, py_trees.decorators.Inverter(f"not {condition.name}", condition), then)


def carry(item: str, place: str, *, into: bool = False) -> Behaviour:
    """Go to ``item``, pick it up, go to ``place`` and put it on (``into``: in) it."""
    put = PutIn(item, place) if into else PutOn(item, place)
    return sequence(
        "CarryInto" if into else "CarryOnto", GoTo(item), PickUp(item), GoTo(place), put
    )
