"""LLM-guided scene design (paper 4.4): a trajectory -> a design request, by an LLM, checked.

The procedural designer places the task objects that the situation's facts require. The model
is shown the task, the situation (its conditions in words and the facts that realize them), the
rooms and those task objects, and answers with the paper's 4.4 outputs as one JSON object:

* ``materials``: each room's floor and wall material (4.4.1), by the catalog's names;
* ``objects``: the enrichment objects (4.4.2), each with a description retrieved to a catalog
  type (:meth:`~pytest_logicenv.scenes.catalog.Catalog.resolve`) unless the model names the type, a
  room, and a support (the floor, a wall, or the receptacle it rests on or in);
* ``relations``: spatial relations (4.4.3): unary ``edge``, ``center``, ``mounted_on_wall``;
  contact ``in``, ``on_top_of``; distance ``near``, ``far``; relative ``above``,
  ``in_front_of``, ``side_of``, ``center_aligned``, ``face_to``.

The answer becomes an :class:`~pytest_logicenv.scenes.design.Enrichment` and is checked by the
designer's own rules (:func:`~pytest_logicenv.scenes.design.design_scene` with it): unknown types,
supports that are no receptacle, objects the situation forbids, relations naming no object,
contradictions. Every violation goes back to the model, which answers again (the paper's
rule-based physical compatibility checker with iterative refinement), up to ``max_rounds``
answers; then :class:`SceneDesignError` lists what remained wrong. :class:`LLMSceneBuilder`
lays the accepted design out with Z3 and checks it as every scene is checked
(:func:`~pytest_logicenv.scenes.realization.generate_scene`).

>>> import json
>>> from pytest_logicenv.llm.protocol import CallableLLM
>>> plan, trajectory, _ = example_situation()
>>> llm = CallableLLM(lambda messages: json.dumps(EXAMPLE_ANSWER), model="canned")
>>> design = design_with_llm(plan, trajectory, llm)
>>> design.rounds, len(design.exchanges), design.request.made_by
(1, 1, 'llm:canned')
>>> [(o.name, o.type, o.support) for o in design.request.objects][:2]
[('tv_stand', 'TVStand', 'floor'), ('tv', 'Television', 'tv_stand')]
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_logicenv.errors import EnrichmentError, LLMError, Rejected, SceneError, Violation
from pytest_logicenv.llm.conversation import Conversation
from pytest_logicenv.llm.design_prompts import (
    ASK,
    EXAMPLE_ANSWER,
    example_situation,
    situation_prompt,
    system_prompt,
)
from pytest_logicenv.llm.exchange import Exchange, SceneDesignError, exchange_to_json
from pytest_logicenv.llm.protocol import LLM
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.scenes.catalog import Catalog, default_catalog
from pytest_logicenv.scenes.design import (
    ON_FLOOR,
    Enrichment,
    EnrichmentObject,
    EnrichmentRelation,
    RoomMaterials,
    design_scene,
)
from pytest_logicenv.scenes.realization import generate_scene
from pytest_logicenv.scenes.scene_model import Scene

__all__ = [
    "ASK",
    "EXAMPLE_ANSWER",
    "PURPOSE",
    "LLMDesign",
    "LLMSceneBuilder",
    "design_with_llm",
    "example_situation",
    "llm_scene_builder",
    "read_answer",
    "situation_prompt",
    "system_prompt",
]

PURPOSE = "scene.design"


@dataclass(frozen=True)
class LLMDesign:
    """What the model designed for one situation: ``request`` (checked: the designer accepts
    it), every exchange in order, how many answers were checked (``rounds``; 1: the first
    passed) and the violations of each answer sent back."""

    request: Enrichment
    exchanges: tuple[Exchange, ...]
    rounds: int
    rejected: tuple[tuple[Violation, ...], ...] = ()


def design_with_llm(
    plan: Plan,
    trajectory: Trajectory,
    llm: LLM,
    *,
    seed: int = 0,
    catalog: Catalog | None = None,
    max_rounds: int = 3,
    corrections: Sequence[str] = (),
) -> LLMDesign:
    """Ask ``llm`` to design the scene of ``trajectory`` around its task objects; the model
    is told the ``corrections`` earlier scenes of the task needed, not to repeat them.

    Raises :class:`SceneDesignError` when the answers still break the designer's rules after
    ``max_rounds``, :class:`~pytest_logicenv.errors.SceneError` when the task objects alone
    cannot be designed (the plan's facts are at fault, not the model), and
    :class:`~pytest_logicenv.errors.LLMError` when the endpoint fails.
    """
    if max_rounds < 1:
        raise LLMError(f"max_rounds must be at least 1, got {max_rounds}")
    catalog = catalog or default_catalog()
    base = design_scene(plan, trajectory, seed=seed, catalog=catalog, enrichment=Enrichment())
    made_by = f"llm:{llm.model}"

    def read(data: dict[str, Any]) -> Enrichment:
        request = read_answer(data, catalog, made_by)
        try:
            design_scene(plan, trajectory, seed=seed, catalog=catalog, enrichment=request)
        except EnrichmentError as error:
            raise Rejected(error.violations) from None
        except SceneError as error:  # the request as a whole: too much for a room, a shelf
            raise Rejected([Violation("design", "answer", str(error))]) from None
        return request

    talk = Conversation(llm, system_prompt(catalog), max_rounds, SceneDesignError)
    prompt = situation_prompt(plan, trajectory, base, catalog, corrections)
    request = talk.step(PURPOSE, prompt + "\n\n" + ASK, read)
    return LLMDesign(
        request=request,
        exchanges=tuple(talk.exchanges),
        rounds=len(talk.rejected) + 1,
        rejected=tuple(talk.rejected),
    )


class LLMSceneBuilder:
    """The LLM designer as a scene builder ``(plan, trajectory, seed) -> Scene``: it designs
    with the model, then lays out, checks Table 1 and the realization exactly as every scene
    is (:func:`~pytest_logicenv.scenes.realization.generate_scene`). ``name`` says who designs the
    scenes (``llm:<model>``); :meth:`take_exchanges` hands over the exchanges made since it
    was last called, as the JSON objects the cache writes.

    One builder designs one task's scenes, and remembers what the model had to correct in
    them: each later scene's prompt lists those corrections (``corrections``), so that a
    mistake costs one round per task, not one per scene."""

    def __init__(self, llm: LLM, catalog: Catalog | None = None, *, max_rounds: int = 3) -> None:
        self.llm = llm
        self.catalog = catalog
        self.max_rounds = max_rounds
        self._exchanges: list[dict[str, Any]] = []
        self.corrections: list[str] = []

    @property
    def name(self) -> str:
        return f"llm:{self.llm.model}"

    def __call__(self, plan: Plan, trajectory: Trajectory, seed: int) -> Scene:
        design = design_with_llm(
            plan,
            trajectory,
            self.llm,
            seed=seed,
            catalog=self.catalog,
            max_rounds=self.max_rounds,
            corrections=self.corrections,
        )
        self._exchanges += [exchange_to_json(exchange) for exchange in design.exchanges]
        for violations in design.rejected:  # corrected, since the design was accepted
            self.corrections += [str(v) for v in violations if str(v) not in self.corrections]
        return generate_scene(
            plan, trajectory, seed=seed, catalog=self.catalog, enrichment=design.request
        )

    def take_exchanges(self) -> list[dict[str, Any]]:
        taken, self._exchanges = self._exchanges, []
        return taken


def llm_scene_builder(llm: LLM, catalog: Catalog | None = None) -> LLMSceneBuilder:
    """The scene builder that designs with ``llm`` (see :class:`LLMSceneBuilder`)."""
    return LLMSceneBuilder(llm, catalog)


# --------------------------------------------------------------------------- reading answers


#: The keys of an answer (``objects`` and ``relations`` it must have; ``[]`` when none), of
#: an object, of a relation and of a room's materials: any other is a mistake the model is
#: told about, not something to drop silently (``"objets"`` would give an empty design).
ANSWER_KEYS = ("materials", "objects", "relations")
REQUIRED_KEYS = ("objects", "relations")
OBJECT_KEYS = ("name", "description", "type", "room", "support")
RELATION_KEYS = ("kind", "subject", "target")
MATERIAL_KEYS = ("floor", "wall")


def read_answer(data: Mapping[str, Any], catalog: Catalog, made_by: str) -> Enrichment:
    """The design request a model's answer makes, its descriptions retrieved to catalog
    types; raises :class:`~pytest_logicenv.errors.Rejected` listing every malformed item,
    every unknown or missing key and every description no type matches. What the designer
    checks is left to it.

    >>> request = read_answer({"objects": [{"name": "seat", "description": "a leather sofa"}],
    ...                        "relations": [{"kind": "edge", "subject": "seat"}]},
    ...                       default_catalog(), "llm:m")
    >>> request.objects[0].type, request.objects[0].support, str(request.relations[0])
    ('Sofa', 'floor', 'edge(seat)')
    """
    problems: list[Violation] = []
    _known_keys(data, ANSWER_KEYS, "", "the answer", problems)
    problems += [
        Violation("syntax", key, f"missing: the answer has {', '.join(ANSWER_KEYS)} ([] if none)")
        for key in REQUIRED_KEYS
        if key not in data
    ]
    objects = [
        item
        for i, raw in enumerate(_list(data, "objects", problems))
        if (item := _read_object(raw, f"objects[{i}]", catalog, problems)) is not None
    ]
    relations = [
        relation
        for i, raw in enumerate(_list(data, "relations", problems))
        if (relation := _read_relation(raw, f"relations[{i}]", problems)) is not None
    ]
    materials = _read_materials(data.get("materials", {}), problems)
    if problems:
        raise Rejected(problems)
    return Enrichment(tuple(objects), tuple(relations), tuple(materials), made_by)


def _known_keys(
    raw: Mapping[str, Any], allowed: Sequence[str], where: str, what: str, problems: list[Violation]
) -> None:
    """A key ``raw`` should not have: its closest allowed key, or the allowed ones."""
    for key in raw:
        if key in allowed:
            continue
        close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else f"{what} has {', '.join(allowed)}"
        at = f"{where}.{key}" if where else str(key)
        problems.append(Violation("syntax", at, f"unknown key {str(key)[:40]!r} ({hint})"))


def _list(data: Mapping[str, Any], key: str, problems: list[Violation]) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        problems.append(Violation("syntax", key, f"expected a list, got {type(value).__name__}"))
        return []
    return value


def _text(
    raw: Mapping[str, Any], key: str, where: str, problems: list[Violation], required: bool
) -> str | None:
    value = raw.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        problems.append(Violation("syntax", f"{where}.{key}", "expected a non-empty string"))
        return None
    return value.strip()


def _read_object(
    raw: Any, where: str, catalog: Catalog, problems: list[Violation]
) -> EnrichmentObject | None:
    if not isinstance(raw, dict):
        problems.append(Violation("syntax", where, "expected an object with a name"))
        return None
    found = len(problems)
    _known_keys(raw, OBJECT_KEYS, where, "an object", problems)
    name = _text(raw, "name", where, problems, required=True)
    description = _text(raw, "description", where, problems, required=False)
    type_name = _text(raw, "type", where, problems, required=False)
    room = _text(raw, "room", where, problems, required=False)
    support = _text(raw, "support", where, problems, required=False) or ON_FLOOR
    if len(problems) > found or name is None:
        return None
    where = f"{where} {name}"
    if type_name is None or not catalog.has(type_name):
        match = catalog.resolve_or_none(description) if description else None
        if match is not None:
            type_name = match.type
        elif type_name is None:
            # Retrieval failed: no type to hand to the designer, so say it here.
            close = catalog.suggestions(description or name)
            hint = f"; the closest catalog types: {', '.join(close)}" if close else ""
            problems.append(
                Violation(
                    "type",
                    where,
                    f"no object type matches the description {description or ''!r}{hint}; "
                    "describe it with a type's name, or give its 'type'",
                )
            )
            return None
    return EnrichmentObject(name, type_name, room, support, description or "")


def _read_relation(raw: Any, where: str, problems: list[Violation]) -> EnrichmentRelation | None:
    if not isinstance(raw, dict):
        problems.append(Violation("syntax", where, "expected an object with kind and subject"))
        return None
    found = len(problems)
    _known_keys(raw, RELATION_KEYS, where, "a relation", problems)
    kind = _text(raw, "kind", where, problems, required=True)
    subject = _text(raw, "subject", where, problems, required=True)
    target = _text(raw, "target", where, problems, required=False)
    if len(problems) > found or kind is None or subject is None:
        return None
    return EnrichmentRelation(kind, subject, target)


def _read_materials(raw: Any, problems: list[Violation]) -> list[RoomMaterials]:
    if not isinstance(raw, dict):
        problems.append(
            Violation("syntax", "materials", 'expected {"<room id>": {"floor": ..., "wall": ...}}')
        )
        return []
    looks = []
    for room, chosen in raw.items():
        where = f"materials.{room}"
        if not isinstance(chosen, dict):
            problems.append(Violation("syntax", where, 'expected {"floor": ..., "wall": ...}'))
            continue
        _known_keys(chosen, MATERIAL_KEYS, where, "a room's materials", problems)
        floor = _text(chosen, "floor", where, problems, required=False)
        wall = _text(chosen, "wall", where, problems, required=False)
        looks.append(RoomMaterials(str(room), floor or "", wall or ""))
    return looks
