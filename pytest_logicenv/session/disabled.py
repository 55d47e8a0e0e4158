"""What a project's marked tests do when pytest-logicenv is disabled (``-p no:logicenv``):
they are skipped, with the reason, rather than failing with "fixture 'logic_env' not found".

pytest never imports a blocked plugin, so this is a plugin of its own (the ``logicenv-off``
entry point, as pytest-xdist ships ``xdist.looponfail`` beside ``xdist``); it acts only when
the ``logicenv`` plugin is blocked. ``-p no:logicenv -p no:logicenv-off`` turns both off.
"""

from __future__ import annotations

import pytest

from pytest_logicenv.session.marker_registration import MARKER_LINE

REASON = (
    "pytest-logicenv is disabled (-p no:logicenv); the logic_env fixture and its "
    "environments are not available: run without -p no:logicenv to run this test"
)


def _disabled(config: pytest.Config) -> bool:
    return config.pluginmanager.is_blocked("logicenv")


def pytest_configure(config: pytest.Config) -> None:
    if _disabled(config):  # --strict-markers still knows the marker
        config.addinivalue_line("markers", MARKER_LINE)


@pytest.hookimpl(trylast=True)  # the run's items settled
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _disabled(config):
        return
    for item in items:
        if item.get_closest_marker("logic_env") or "logic_env" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.skip(reason=REASON))
