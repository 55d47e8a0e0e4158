"""Ground-truth types a model's plan could not use, and what the judge accepts in their place.

A ground truth may use a user's type (``Watermelon``, from a type file) that the plan was made
without: its scenes then hold something else where the ground truth wants a watermelon. The
judge accepts the type file's own ``stand_in`` for it when the task text names the thing
(the text asks for a watermelon, and the type file says what stands in for one); any other
ground-truth type no scene has, and no built-in type is, is a **type mismatch**: its own
column (``TypeMis``, how many) and a note naming each with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pytest_logicenv.logic.plan import Plan, type_names
from pytest_logicenv.scenes.catalog import Catalog, default_catalog
from pytest_logicenv.scenes.scene_model import Scene


@dataclass(frozen=True)
class StandIns:
    """The stand-ins accepted (ground-truth type -> scene type), and why each other type
    the built-in catalog lacks has none."""

    accepted: Mapping[str, str]
    refused: Mapping[str, str]


def stand_ins(truth: Plan, task: str, catalog: Catalog) -> StandIns:
    """What the judge accepts for the ground truth's types that are not built in."""
    built_in = set(default_catalog().types)
    named = set(catalog.vocabulary.mentioned(task))
    accepted: dict[str, str] = {}
    refused: dict[str, str] = {}
    for name in sorted(type_names(truth) - built_in):
        defined = catalog.types.get(name)
        if defined is None:
            refused[name] = "no type file given here defines it (logicenv eval --types FILE)"
        elif defined.stand_in is None:
            refused[name] = "its type file names no stand_in for it"
        elif name not in named:
            refused[name] = (
                f"its stand-in {defined.stand_in} is not accepted: the task text does not "
                f"name a {name}"
            )
        else:
            accepted[name] = defined.stand_in
    return StandIns(accepted, refused)


def type_mismatches(truth: Plan, scenes: Sequence[Scene], found: StandIns) -> list[str]:
    """One note per ground-truth type no scene has (read with the stand-ins) that is not
    built in: the plan could not have used it."""
    present = {obj.type for scene in scenes for obj in scene.objects}
    notes = []
    for name in sorted(type_names(truth) - set(default_catalog().types) - present):
        stand_in = found.accepted.get(name)
        why = (
            f"no scene has its stand-in {stand_in} either"
            if stand_in is not None
            else found.refused.get(name, "")
        )
        notes.append(
            f"type mismatch: the ground truth's {name} is in no scene, and the judge accepts "
            f"nothing in its place ({why})"
        )
    return notes
