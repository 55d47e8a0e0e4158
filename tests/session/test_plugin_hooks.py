"""The plugin's hooks as a project's ``conftest.py`` files implement them (pytester)."""

from __future__ import annotations

import json

import pytest
from plugin_project import PLAN, POLICIES, TASK

pytest_plugins = ["pytester"]

LOGGING_CONFTEST = """
def pytest_logicenv_outcome(item, outcome):
    with open({log!r}, "a") as log:
        log.write(f"{where} {{item.nodeid}} {{outcome.kind}}\\n")
"""
MARKED_TEST = f"""
import pytest
from policies import correct

@pytest.mark.logic_env({TASK!r}, plan="../plan.json")
def test_reset(logic_env):
    logic_env.run(correct).assert_ok()
"""


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def test_a_conftest_sees_the_outcomes_of_its_own_folders_tests_only(
    pytester: pytest.Pytester,
) -> None:
    log = str(pytester.path / "outcomes.log")
    pytester.makefile(".json", plan=json.dumps(PLAN))
    pytester.makepyfile(policies=POLICIES)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\n")
    for folder in ("a", "b"):
        pytester.mkdir(folder)
        conftest = LOGGING_CONFTEST.format(log=log, where=folder)
        (pytester.path / folder / "conftest.py").write_text(conftest)
        (pytester.path / folder / f"test_{folder}.py").write_text(MARKED_TEST)
    pytester.runpytest().assert_outcomes(passed=4)
    lines = sorted((pytester.path / "outcomes.log").read_text().splitlines())
    assert lines == [
        "a a/test_a.py::test_reset[window=no-light=no] pass",
        "a a/test_a.py::test_reset[window=yes-light=yes] pass",
        "b b/test_b.py::test_reset[window=no-light=no] pass",
        "b b/test_b.py::test_reset[window=yes-light=yes] pass",
    ]
