"""What the simulator makes of a scene and nothing else, made once per scene object.

Every run of a policy in a scene asks the same of it (the names a policy may use, the world
as built, for a trace with no action), and a thousand test items of one task run in the same
few scenes. A scene is immutable, so what is made of it holds while it lives: kept by the
scene object's identity (the object held, so that its id is no other's while kept), at most
:data:`KEPT_SCENES` scenes per kind, least recently used out first. Only immutable values
are kept: a policy may find them (``gc``), and must not change what a later run is checked
against.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

from pytest_logicenv.scenes.scene_model import Scene

T = TypeVar("T")

#: How many scenes' values each kind keeps.
KEPT_SCENES = 64

_KEPT: dict[Hashable, OrderedDict[int, tuple[Scene, object]]] = {}


def per_scene(kind: Hashable, scene: Scene, make: Callable[[Scene], T]) -> T:
    """``make(scene)``, made once while ``scene`` is kept; ``kind`` tells the values apart."""
    kept = _KEPT.setdefault(kind, OrderedDict())
    hit = kept.get(id(scene))
    if hit is not None and hit[0] is scene:
        kept.move_to_end(id(scene))
        return cast(T, hit[1])
    value = make(scene)
    kept[id(scene)] = (scene, value)
    while len(kept) > KEPT_SCENES:
        kept.popitem(last=False)
    return value
