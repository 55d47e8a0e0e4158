"""Controls in step with what they switch: a stove knob that is on has its burner on.

The facts may set either of the pair (``{"state": "knob", "toggled": true}``, or the burner's);
the scene starts with both in that state, as AI2-THOR's ``controlledObjects`` keep them, so a
pan on the burner of a knob that is on is heated from the first tick. The control's own state
wins when both are set.

>>> from pytest_logicenv.logic.plan import Plan
>>> from pytest_logicenv.scenes.catalog import default_catalog
>>> from pytest_logicenv.scenes.design.draft import Draft, DraftObject
>>> catalog = default_catalog()
>>> draft = Draft(Plan("p", ()), catalog, seed=0, enrichment=None, facts=[])
>>> knob, burner = (
...     draft.add(DraftObject("", catalog.type(name), None, task=False, part_of="stove",
...                           states=states, attrs={"position": "front_left"}))
...     for name, states in (("StoveKnob", {"toggled": True}), ("StoveBurner", {})))
>>> keep_controls_in_step(draft); burner.states
{'toggled': True}
"""

from __future__ import annotations

from pytest_logicenv.scenes.catalog.parts import CONTROLS
from pytest_logicenv.scenes.design.draft import Draft, DraftObject


def keep_controls_in_step(draft: Draft) -> None:
    """Give each control and what it switches one ``toggled`` state (the control's, else the
    switched part's, else off)."""
    for control in list(draft.objects.values()):
        kind = CONTROLS.get(control.type.name)
        if kind is None or control.part_of is None:
            continue
        for switched in _switched(draft, control, kind):
            state = control.states.get("toggled", switched.states.get("toggled", False))
            for obj in (control, switched):  # off is the default: only a set state is written
                if obj.type.has("toggleable") and (state or "toggled" in obj.states):
                    obj.states["toggled"] = state


def _switched(draft: Draft, control: DraftObject, kind: str) -> list[DraftObject]:
    where = control.attrs.get("position")
    return [
        obj
        for obj in draft.objects.values()
        if obj.type.name == kind
        and obj.part_of == control.part_of
        and (where is None or obj.attrs.get("position") in (None, where))
    ]
