"""A project's marked tests under ``-p no:logicenv``: skipped with the reason (pytester)."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest
from plugin_project import CORRECT_TEST, make_project

pytest_plugins = ["pytester"]

PLAIN_TESTS = """
def test_plain():
    pass

def test_fixture_without_marker(logic_env):
    pass
"""


def test_the_guard_is_an_installed_plugin() -> None:
    names = {entry.name: entry.value for entry in entry_points(group="pytest11")}
    assert names.get("logicenv-off") == "pytest_logicenv.session.disabled", (
        "the logicenv-off entry point is not installed: pip install -e . again"
    )


def test_marked_tests_are_skipped_with_the_reason_when_the_plugin_is_disabled(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST + PLAIN_TESTS)
    result = pytester.runpytest("-p", "no:logicenv", "--strict-markers", "-rs")
    result.assert_outcomes(passed=1, skipped=2)
    reason = (
        "pytest-logicenv is disabled (-p no:logicenv); the logic_env fixture and its "
        "environments are not available: run without -p no:logicenv to run this test"
    )
    result.stdout.fnmatch_lines([f"SKIPPED [[]1[]] test_bath.py*: {reason}"] * 2)
    assert "fixture 'logic_env' not found" not in result.stdout.str()


def test_the_guard_leaves_a_run_with_the_plugin_alone(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest("-rs").assert_outcomes(passed=2)


def test_both_off_gives_pytests_own_error(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("-p", "no:logicenv", "-p", "no:logicenv-off")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'logic_env' not found*"])
