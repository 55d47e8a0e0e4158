"""Additions to a type the catalog already has (AI2-THOR's or ours), from a user's type file.

A type file entry named after a known type does not define a new one; it adds to it:
``[types.AlarmClock] properties = ["toggleable"]`` makes alarm clocks toggleable. An addition
may give properties (a primary one, ``pickupable``, replaces the type's own: a house plant one
carries), states it starts in, attribute values, rooms, parents and words; its size, assets and
parts stay AI2-THOR's (the export and the layout rely on them).

>>> from pytest_logicenv.scenes.catalog.loading import default_catalog
>>> catalog = default_catalog()
>>> clock = with_extensions(catalog.types, [TypeExtension("AlarmClock", ("toggleable",))])
>>> clock["AlarmClock"].has("toggleable"), clock["AlarmClock"].added
(True, ('toggleable',))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pytest_logicenv.scenes.catalog.properties import PRIMARY_PROPERTIES
from pytest_logicenv.scenes.catalog.type_model import ObjectType
from pytest_logicenv.scenes.scene_model import PROPERTIES

#: The keys an addition to a known type may have (the rest describe a new type's body).
EXTENSION_KEYS: tuple[str, ...] = (
    "properties",
    "states",
    "attrs",
    "rooms",
    "parents",
    "synonyms",
    "description",
)


@dataclass(frozen=True)
class TypeExtension:
    """What a type file adds to the known type ``name``."""

    name: str
    properties: tuple[str, ...] = ()
    states: Mapping[str, bool] = field(default_factory=dict)
    attrs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    rooms: tuple[str, ...] = ()
    parents: Mapping[str, float] = field(default_factory=dict)
    synonyms: tuple[str, ...] = ()
    description: str = ""


def with_extensions(
    types: Mapping[str, ObjectType], extensions: Iterable[TypeExtension]
) -> dict[str, ObjectType]:
    """``types`` with each addition made to its type."""
    extended = dict(types)
    for extension in extensions:
        extended[extension.name] = extended_type(extended[extension.name], extension)
    return extended


def extended_type(obj_type: ObjectType, extension: TypeExtension) -> ObjectType:
    """``obj_type`` with what ``extension`` adds; a primary property replaces the type's."""
    props = set(obj_type.properties)
    if set(extension.properties) & set(PRIMARY_PROPERTIES):
        props -= set(PRIMARY_PROPERTIES)
    props |= set(extension.properties)
    attrs = {name: tuple(values) for name, values in obj_type.attrs.items()}
    for name, values in extension.attrs.items():
        attrs[name] = tuple(dict.fromkeys((*attrs.get(name, ()), *values)))
    return dataclasses.replace(
        obj_type,
        properties=tuple(p for p in PROPERTIES if p in props),
        states={**obj_type.states, **extension.states},
        attrs=attrs,
        rooms=tuple(dict.fromkeys((*obj_type.rooms, *extension.rooms))),
        parents={**obj_type.parents, **extension.parents},
        description=extension.description or obj_type.description,
        added=tuple(
            dict.fromkeys(
                (*obj_type.added, *(p for p in extension.properties if not obj_type.has(p)))
            )
        ),
    )
