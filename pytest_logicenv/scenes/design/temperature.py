"""Temperatures at scene build: food in a fridge starts cold, on a heat source that is on hot.

AI2-THOR's iTHOR scenes report the food in their fridges ``Cold`` (the apples, eggs, lettuces
and tomatoes of ``ai2thor-object-metadata.json``); the simulator's physics would make them so
after the first action anyway (``sim/physics.py``), so the scene starts the way it would be
read. A temperature the facts give (``{"state": "chicken", "cold": false}``) is kept.

>>> from pytest_logicenv.logic.plan import Plan
>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> from pytest_logicenv.scenes.design.draft import Draft, DraftObject
>>> catalog = default_catalog()
>>> draft = Draft(Plan("p", ()), catalog, seed=0, enrichment=None, facts=[])
>>> fridge = draft.add(DraftObject("", catalog.type("Fridge"), None, task=False))
>>> egg = draft.add(DraftObject("", catalog.type("Egg"), None, task=False, parent=fridge.id))
>>> start_temperatures(draft); egg.states
{'cold': True}
"""

from __future__ import annotations

from pytest_logicenv.scenes.design.draft import Draft, DraftObject

#: The temperature states; a fact that sets either one decides the object's temperature.
TEMPERATURE_STATES = ("hot", "cold")


def start_temperatures(draft: Draft) -> None:
    """Each object with a temperature and none given, as its sources would make it."""
    for obj in draft.objects.values():
        if not obj.type.has("temperature") or any(s in obj.states for s in TEMPERATURE_STATES):
            continue
        source = _source(draft, obj)
        if source is not None:
            obj.states[source] = True


def _source(draft: Draft, obj: DraftObject) -> str | None:
    """``cold`` or ``hot`` when a cold or a working heat source holds ``obj`` (at any depth)."""
    seen = {obj.id}
    parent = draft.objects.get(obj.parent) if obj.parent else None
    while parent is not None and parent.id not in seen:
        seen.add(parent.id)
        on = not parent.type.has("toggleable") or parent.states.get("toggled", False)
        if parent.type.has("cold_source") and on:
            return "cold"
        if parent.type.has("heat_source") and parent.states.get("toggled", False):
            return "hot"
        parent = draft.objects.get(parent.parent) if parent.parent else None
    return None
