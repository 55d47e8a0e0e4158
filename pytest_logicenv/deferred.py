"""A package's public names imported on first use (PEP 562), so that importing one of its
light modules does not load its heavy ones: ``__init__`` runs before any of its modules."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def deferred_names(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """The package's ``__getattr__``: each name of ``where`` (name -> the module defining it)
    imported from its module when first asked for."""

    def __getattr__(name: str) -> Any:
        if name in where:
            return getattr(importlib.import_module(where[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
