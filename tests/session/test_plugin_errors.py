"""Bad input to the plugin is an error of the one test concerned, naming the fix."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


def test_marker_without_a_task_errors_only_that_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.logic_env()
        def test_no_task(logic_env):
            pass

        def test_other():
            pass
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*test_no_task*logicenv-error*",
            "*@pytest.mark.logic_env needs the task description as its first argument*",
        ]
    )


def test_unknown_marker_arguments_are_named(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.logic_env("Close the window.", seeds=3, strategy="x")
        def test_typo(logic_env):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*unknown argument(s) seeds, strategy; it accepts task, plan, rooms, select, seed*"]
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ('select="fastest"', "select='fastest' is not a strategy; choose one of minimal*"),
        ('seed="1"', "seed='1' must be an integer"),
        ('expect_fault="crash"', "expect_fault='crash' is not a fault class*"),
        ('plan="missing.json"', "plan='missing.json' does not exist (looked for *missing.json)*"),
    ],
)
def test_bad_marker_values(pytester: pytest.Pytester, arguments: str, message: str) -> None:
    pytester.makepyfile(
        f"""
        import pytest

        @pytest.mark.logic_env("Close the window.", {arguments})
        def test_bad(logic_env):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*{message}"])


def _plan_beside_tests(pytester: pytest.Pytester, plan_text: str, plan: str) -> None:
    """``plans/window.json`` holding ``plan_text``, and ``tests/test_window.py`` whose marker
    gives ``plan``."""
    pytester.mkdir("plans").joinpath("window.json").write_text(plan_text)
    pytester.mkdir("tests").joinpath("test_window.py").write_text(
        "import pytest\n\n"
        f'@pytest.mark.logic_env("Close the window.", plan="{plan}")\n'
        "def test_window(logic_env):\n"
        "    pass\n"
    )


def test_a_plan_path_written_from_the_rootdir_is_corrected(pytester: pytest.Pytester) -> None:
    _plan_beside_tests(pytester, "{}", "plans/window.json")
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    looked_for = pytester.path / "tests" / "plans" / "window.json"
    result.stdout.fnmatch_lines(
        [
            f"tests/test_window.py::test_window: plan='plans/window.json' does not exist (looked "
            f"for {looked_for}); paths are relative to the test file's folder; for "
            f"{pytester.path / 'plans' / 'window.json'} write plan='../plans/window.json'"
        ]
    )


def test_a_plan_given_by_position_is_told_to_use_its_name(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.logic_env("Close the window.", "plan.json")
        def test_window(logic_env):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*: too many positional arguments (only the task is positional: give the others by "
            "name, plan=...); it accepts task, plan, *"
        ]
    )


def test_a_plan_path_through_a_parent_folder_is_shown_plainly(pytester: pytest.Pytester) -> None:
    _plan_beside_tests(pytester, '{"subtasks": 3}', "../plans/window.json")
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"{pytester.path / 'plans' / 'window.json'}*"])
    assert "/../" not in result.stdout.str()


def test_marker_without_the_fixture_fails_instead_of_testing_nothing(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.logic_env("Close the window.")
        def test_forgot():
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["*is marked logic_env but does not take the logic_env fixture; add a `logic_env`*"]
    )


def test_fixture_without_the_marker(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_unmarked(logic_env):
            pass
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(['*has no @pytest.mark.logic_env("task description") marker*'])


def test_cache_miss_offline_names_test_path_and_command(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.logic_env("Close the window if it is open.")
        def test_window(logic_env):
            pass
        """
    )
    result = pytester.runpytest("--logicenv-offline")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*::test_window: there is no cached plan for this task",
            "  cache entry: cache/close_the_window_if_it_is-*",
            "  LLM calls are off (--logicenv-offline, or the CI variable is set; "
            "--logicenv-allow-ci allows them under CI)",
            '  fix: generate it where an LLM is available with pytest --logicenv-regenerate "*'
            '::test_window" and commit cache/,',
            '       or give the marker a hand-written plan: plan="path/to/plan.json"',
        ]
    )


def test_the_marker_is_registered(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.logic_env(task, *, plan=None, rooms=None*"])


def test_options_are_validated(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--logicenv-report=xml:out.xml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*use term, term-missing, json:PATH, markdown:PATH, cobertura:PATH, lcov:PATH or html:DIR"]
    )
    result = pytester.runpytest("--logicenv-fail-under=120")
    result.stderr.fnmatch_lines(["*'120' must be between 0 and 100*"])
    result = pytester.runpytest("--logicenv-max-ticks=0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--logicenv-max-ticks: expected a whole number of at least 1*"])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("logicenv_max_ticks = three", "logicenv_max_ticks in *tox.ini: expected a whole number*"),
        ("logicenv_fail_under = high", "logicenv_fail_under in *tox.ini: 'high' is not a number"),
        ("logicenv_report = term markdown", "logicenv_report in *tox.ini: 'markdown': use term*"),
    ],
)
def test_bad_ini_values_are_usage_errors_naming_option_and_file(
    pytester: pytest.Pytester, line: str, message: str
) -> None:
    pytester.makefile(".ini", tox=f"[pytest]\n{line}\n")
    pytester.makepyfile("def test_plain():\n    pass\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {message}"])
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_a_project_without_marked_tests_loads_nothing_heavy(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    pass\n")
    pytester.makeconftest(
        """
        import sys

        def pytest_sessionfinish(session):
            loaded = sorted(m for m in sys.modules if m.startswith("pytest_logicenv."))
            heavy = [m for m in ("z3", "openai", "py_trees", "numpy") if m in sys.modules]
            print("LOADED", loaded, "HEAVY", heavy)
        """
    )
    result = pytester.runpytest_subprocess("-s", "-p", "no:xdist", "-p", "no:hypothesispytest")
    result.assert_outcomes(passed=1)
    # The plugin, its hook specs and errors, and what every run needs at start-up: the
    # options (addoption) and their settings, and the marker (its line in --markers, the check
    # that a marked test takes the fixture), the guard that skips marked tests under
    # -p no:logicenv, and the write guard the report targets are checked with at start-up.
    # Collection, the fixture, the reporter and the report load only when a run has marked
    # tests.
    loaded = [
        "pytest_logicenv.atomic",
        "pytest_logicenv.bounded",
        "pytest_logicenv.errors",
        "pytest_logicenv.hookspec",
        "pytest_logicenv.plugin",
        "pytest_logicenv.session",
        "pytest_logicenv.session.disabled",
        "pytest_logicenv.session.marker_registration",
        "pytest_logicenv.session.options",
        "pytest_logicenv.session.settings",
        "pytest_logicenv.version",
    ]
    expected = f"LOADED {loaded} HEAVY []"
    assert expected in result.stdout.str()
