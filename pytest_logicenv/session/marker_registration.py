"""The ``logic_env`` marker as pytest registers it at start-up: its help line, and the check that
a marked test takes the fixture. pytest loads this module in every run, so it imports nothing
of ours; the marker's arguments are checked by :mod:`~pytest_logicenv.session.marker`.
"""

from __future__ import annotations

import pytest

MARKER_LINE = (
    "logic_env(task, *, plan=None, rooms=None, select='minimal', seed=0, expect_fault=None, "
    "tree=None, nodes=None): "
    "run the test once per logically diverse environment generated for the task "
    "(pytest-logicenv)"
)


def require_fixture(request: pytest.FixtureRequest) -> None:
    """A marked test that forgot the fixture would silently test nothing: fail it."""
    node = request.node
    if "logic_env" not in request.fixturenames and node.get_closest_marker("logic_env"):
        pytest.fail(
            f"{node.nodeid} is marked logic_env but does not take the logic_env fixture; "
            "add a `logic_env` argument and call logic_env.run(policy)",
            pytrace=False,
        )
