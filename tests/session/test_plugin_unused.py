"""Unused cache entries as a user meets them: listed at the end of a run that collects the whole
project, the same serially and under ``-n 2``; failing the run with
``--logicenv-fail-on-unused`` (ini ``logicenv_fail_on_unused``); removed with
``--logicenv-clean`` (pytester)."""

from __future__ import annotations

from pathlib import Path

import pytest
from plugin_project import CORRECT_TEST, TASK, entries, make_project

pytest_plugins = ["pytester"]

SERIAL: list[str] = []
XDIST = ["-p", "xdist", "-n", "2"]
FAIL_LINE = (
    "FAIL 1 cache entry is unused (--logicenv-fail-on-unused): remove with logicenv clean or "
    "pytest --logicenv-clean, or use them again"
)


def with_an_unused_entry(pytester: pytest.Pytester) -> Path:
    """A project whose test's task text was edited since its entry was made."""
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [old] = entries(pytester)
    make_project(pytester, CORRECT_TEST, task=TASK + " Then leave.")
    return old


@pytest.mark.slow
@pytest.mark.parametrize("workers", [SERIAL, XDIST], ids=["serial", "xdist"])
def test_unused_entries_are_listed_the_same_serially_and_under_xdist(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    old = with_an_unused_entry(pytester)
    result = pytester.runpytest_subprocess(*workers)
    result.assert_outcomes(passed=2)
    assert result.ret == 0  # listed, not failing
    result.stdout.fnmatch_lines(
        ["*- logicenv: 1 unused cache entry -*", f"  {old}", "  remove them with: logicenv clean"]
    )


@pytest.mark.slow
@pytest.mark.parametrize("workers", [SERIAL, XDIST], ids=["serial", "xdist"])
def test_fail_on_unused_fails_the_run_and_says_how_to_fix_it(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    old = with_an_unused_entry(pytester)
    result = pytester.runpytest_subprocess(*workers, "--logicenv-fail-on-unused")
    result.assert_outcomes(passed=2)  # the tests passed: the run fails on the entry
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*- logicenv: 1 unused cache entry -*", f"  {old}", FAIL_LINE])
    assert old.exists()


def test_the_ini_switch_fails_the_run_and_clean_settles_it(pytester: pytest.Pytester) -> None:
    old = with_an_unused_entry(pytester)
    pytester.makeini(
        "[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\nlogicenv_fail_on_unused = true\n"
    )
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([FAIL_LINE])
    result = pytester.runpytest("--logicenv-clean")  # removed: nothing left to fail on
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*- logicenv: 1 removed cache entry -*", f"  {old}"])
    assert not old.exists()
    assert pytester.runpytest().ret == pytest.ExitCode.OK


def test_a_narrower_run_judges_no_entry_and_fails_on_none(pytester: pytest.Pytester) -> None:
    with_an_unused_entry(pytester)
    result = pytester.runpytest("-k", "reset", "--logicenv-fail-on-unused")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.OK  # -k: the entries other tests use are unknown
    assert "unused cache entr" not in result.stdout.str()


def test_a_bad_ini_value_is_a_usage_error_naming_the_option_and_file(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    ini = pytester.makeini("[pytest]\nlogicenv_fail_on_unused = maybe\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"ERROR: logicenv_fail_on_unused in {ini}: 'maybe' is not a switch: use true or false"]
    )
