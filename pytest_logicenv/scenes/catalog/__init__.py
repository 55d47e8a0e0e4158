"""The object catalog: AI2-THOR's types and assets, plus the few types our tasks add.

One package is the single source of truth for what objects exist, how big they are, what they can do
and where they usually stand: :mod:`~.loading` reads the databases the ``procthor`` package ships,
:mod:`~.custom` adds the types AI2-THOR lacks (flagged ``custom``, each with the AI2-THOR asset that
stands in for it on export) and :mod:`~.household` the household type pack (fruit and dairy kinds,
tea things, racks, clothes, linen, luggage), :mod:`~.metadata` summarizes AI2-THOR's own types,
:mod:`~.properties` maps AI2-THOR's property names to ours, :mod:`~.parts` says what each type is
made of, :mod:`~.user_types` reads a user's type file (whose entries named after a known type add to
it, :mod:`~.extensions`), :mod:`~.summary` says what the catalog knows of a type, :mod:`~.rooms`
which room types it occurs in, :mod:`~.type_model` holds the data and the lookups, :mod:`~.clip` the
optional CLIP retrieval. The everyday words for types are :mod:`pytest_logicenv.vocabulary`'s;
:mod:`~.wordnet_words` makes its WordNet part.

>>> catalog = default_catalog()
>>> catalog.type("Sofa").has("receptacle"), catalog.type("Apple").has("pickupable")
(True, True)
>>> catalog.resolve("a wooden tea table").type
'CoffeeTable'
>>> catalog.type("ToyBox").custom
True
"""

from __future__ import annotations

from pytest_logicenv.scenes.catalog.clip import (
    CLIP_ARCH_ENV,
    CLIP_MODEL_ENV,
    clip_unavailable_reason,
)
from pytest_logicenv.scenes.catalog.custom import CUSTOM_TYPES, CustomSpec
from pytest_logicenv.scenes.catalog.loading import default_catalog
from pytest_logicenv.scenes.catalog.metadata import databases_dir
from pytest_logicenv.scenes.catalog.parts import PARTS, PartSpec
from pytest_logicenv.scenes.catalog.properties import (
    ACCEPTS,
    ANNOTATED_ROOMS,
    CONTAINER_TYPES,
    EXTRA_PROPERTIES,
    PRIMARY_PROPERTIES,
    STATE_PROPERTY,
    STRUCTURAL_TYPES,
    THOR_PROPERTIES,
)
from pytest_logicenv.scenes.catalog.rooms import occurrence, occurs_in, usual_rooms
from pytest_logicenv.scenes.catalog.type_model import Asset, Catalog, Match, ObjectType, Placement
from pytest_logicenv.vocabulary import SYNONYMS

__all__ = [
    "ACCEPTS",
    "ANNOTATED_ROOMS",
    "CLIP_ARCH_ENV",
    "CLIP_MODEL_ENV",
    "CONTAINER_TYPES",
    "CUSTOM_TYPES",
    "EXTRA_PROPERTIES",
    "PARTS",
    "PRIMARY_PROPERTIES",
    "STATE_PROPERTY",
    "STRUCTURAL_TYPES",
    "SYNONYMS",
    "THOR_PROPERTIES",
    "Asset",
    "Catalog",
    "CustomSpec",
    "Match",
    "ObjectType",
    "PartSpec",
    "Placement",
    "clip_unavailable_reason",
    "databases_dir",
    "default_catalog",
    "occurrence",
    "occurs_in",
    "usual_rooms",
]
