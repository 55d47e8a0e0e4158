"""An explanation in the policy's own names, not the plan's roles and the scene's ids.

Messages name an object by its label (its role, else its id: ``coffee_machine``,
``sink_1_faucet_1``), which a policy that wrote ``ToggleOn("CoffeeMachine")`` never wrote.
:func:`policy_names` maps each label to what the policy wrote for that object (the first
reference its trace bound to it), else to the object's type when the scene has one of that
type (``Faucet``), else to the type with the label (``Mug (mug_2)``); :func:`renamed`
rewrites a message by that map, whole labels only, and not a message's own nouns (``its
basin``, ``a running faucet``).

>>> from pytest_logicenv.scenes.scene_model import SceneObject, Scene
>>> from pytest_logicenv.sim.outcome import Step
>>> scene = Scene("s", objects=(
...     SceneObject("coffee_machine", "CoffeeMachine", role="coffee_machine"),
...     SceneObject("mug_1", "Mug"), SceneObject("mug_2", "Mug")))
>>> names = policy_names(scene, (Step(1, "action", "GoTo", ("CoffeeMachine",), True,
...                                   objects=("coffee_machine",)),))
>>> renamed("coffee_machine switched on; mug_2 on coffee_machine_stand", names)
'CoffeeMachine switched on; Mug (mug_2) on coffee_machine_stand'
>>> renamed("mug_2 is not under a running coffee_machine", names)
'Mug (mug_2) is not under a running coffee_machine'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from pytest_logicenv.scenes.scene_model import Scene

#: What a trace adds to an ``any=True`` reference (``Milk (any one)``): not the policy's.
ANY_SUFFIX = " (any one)"

#: label -> the name an explanation uses for it, as ``Outcome.names`` keeps it.
Names = tuple[tuple[str, str], ...]


def policy_names(scene: Scene, trace: Iterable[object], *written: tuple[str, str]) -> Names:
    """Each label of ``scene`` whose name in an explanation differs from it: what the
    policy wrote for it in ``trace`` (or in ``written``, ``(object id, reference)``
    pairs), else its type, unique in the scene or with the label beside it."""
    label_of = {entity.id: entity.role or entity.id for entity in scene.entities}
    chosen: dict[str, str] = {}
    for object_id, reference in (*_references(trace), *written):
        if object_id in label_of:
            chosen.setdefault(label_of[object_id], reference)
    types = Counter(entity.type for entity in scene.entities)
    alike = {label_of[entity.id]: types[entity.type] for entity in scene.entities}
    for entity in scene.entities:
        label = label_of[entity.id]
        chosen.setdefault(label, entity.type if alike[label] == 1 else f"{entity.type} ({label})")
    return tuple((label, name) for label, name in _told_apart(chosen, alike) if name != label)


def _told_apart(chosen: dict[str, str], alike: Mapping[str, int]) -> Names:
    """Names that still say which object: an ``any=True`` choice among several of its type
    (``Window (any one)``), or one reference bound to several objects, keeps the label beside
    it (``Window (window_2)``); else "Window is open; but Window is closed" could be two."""
    bare = {label: name.removesuffix(ANY_SUFFIX) for label, name in chosen.items()}
    uses = Counter(bare.values())
    return tuple(
        (label, f"{bare[label]} ({label})")
        if uses[bare[label]] > 1 or (name.endswith(ANY_SUFFIX) and alike[label] > 1)
        else (label, bare[label])
        for label, name in chosen.items()
    )


def _references(trace: Iterable[object]) -> Iterable[tuple[str, str]]:
    """``(object id, reference as written)`` for every bound argument of the trace's steps."""
    for step in trace:
        args: tuple[str, ...] = getattr(step, "args", ())
        objects: tuple[str, ...] = getattr(step, "objects", ())
        yield from ((obj, arg) for obj, arg in zip(objects, args, strict=False) if obj)


def renamed(text: str, names: Names | Mapping[str, str]) -> str:
    """``text`` with every whole label of ``names`` replaced by its name."""
    mapping = dict(names)
    if not mapping or not text:
        return text
    return _pattern(tuple(sorted(mapping, key=len, reverse=True))).sub(
        lambda match: mapping[match.group(0)], text
    )


_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}
#: Messages name objects bare (``the agent holds milk``); after these words a label is the
#: message's own noun (``in its basin``, ``a running faucet``), not an object: left alone.
_NOT_A_NOUN = "".join(
    rf"(?<!\b{word} )" for word in ("a", "an", "the", "its", "that", "no", "every", "running")
)


def _pattern(labels: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for every label, longest first, matched only as a whole word (a label
    inside a longer id, ``coffee_machine`` in ``coffee_machine_stand``, is not one)."""
    if labels not in _PATTERNS:
        if len(_PATTERNS) > 256:  # one per scene and run pattern; bounded
            _PATTERNS.clear()
        alternatives = "|".join(re.escape(label) for label in labels)
        _PATTERNS[labels] = re.compile(rf"(?<![\w.]){_NOT_A_NOUN}(?:{alternatives})(?![\w])")
    return _PATTERNS[labels]
