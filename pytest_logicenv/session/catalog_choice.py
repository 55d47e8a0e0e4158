"""The run's catalog: the ``pytest_logicenv_catalog`` hook's or the default, with the user's
type file (``--logicenv-types``, ini ``logicenv_types``) and the one a plan names."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_logicenv.errors import CatalogHookWarning
from pytest_logicenv.scenes.catalog.loading import extend_catalog
from pytest_logicenv.scenes.catalog.user_types import load_catalog, read_type_file

if TYPE_CHECKING:
    from pytest_logicenv.scenes.catalog import Catalog


def types_file(config: pytest.Config) -> Path | None:
    """The user's type file: ``--logicenv-types`` (relative to where pytest was started),
    else the ``logicenv_types`` ini option (relative to its ini file), else none."""
    option = config.getoption("logicenv_types", None)
    if option:
        return Path(config.invocation_params.dir, option)
    value = str(config.getini("logicenv_types") or "")
    if not value:
        return None
    base = config.inipath.parent if config.inipath is not None else config.rootpath
    return base / value


_HOOK_WARNED = pytest.StashKey[bool]()


def catalog_for(config: pytest.Config, plan_types: Path | None = None) -> Catalog:
    """The catalog of this run: the ``pytest_logicenv_catalog`` hook's (else the default),
    with the user's type file, and the one a plan names (``plan_types``). Types only the
    hook adds get a warning, once: ``logicenv`` commands cannot see them (they read the type
    file), so plans using them fail there."""
    paths = [p for p in (types_file(config), plan_types) if p is not None]
    shared = load_catalog(*paths)  # what the CLI sees; checks the type files
    hooked = config.hook.pytest_logicenv_catalog(config=config)
    if hooked is None:
        return shared
    catalog: Catalog = hooked
    for path in paths:
        added = read_type_file(path, catalog)
        catalog = extend_catalog(catalog, added.specs, added.synonyms, added.extensions)
    hidden = sorted(set(catalog.types) - set(shared.types))
    if hidden and not config.stash.get(_HOOK_WARNED, False):
        config.stash[_HOOK_WARNED] = True
        warnings.warn(
            CatalogHookWarning(
                f"the pytest_logicenv_catalog hook adds types that logicenv commands cannot "
                f"see: {', '.join(hidden)}; describe them in a type file (ini logicenv_types) "
                "so that the plugin and the CLI both know them"
            ),
            stacklevel=1,
        )
    return catalog
