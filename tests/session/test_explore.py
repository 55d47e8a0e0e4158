"""``--logicenv-explore``: a policy that passes in the generated scenes and fails in other scenes
of the same situation is caught, with the plainest failing scene, which a rerun reproduces; an
exploration that cannot run fails its own test with the reason."""

from __future__ import annotations

import contextlib
import io
import json
import shlex

import hypothesis.core
import pytest
from helpers import ROOT

from pytest_logicenv.cli import main
from pytest_logicenv.scenes.scene_json import load_scene

pytest_plugins = ["pytester"]

PLAN = json.loads((ROOT / "tests" / "data" / "tidy_book_plan.json").read_text())
#: The seed these tests' explorations draw with (``--hypothesis-seed``, in-process): what a
#: random search finds in 20 variations differs from run to run, and these tests name it.
SEED = 0


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hypothesis.core, "global_force_seed", SEED)


POLICIES = """
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Exists, GoTo, PickUp, PutOn


def tidy():
    return when("Book", Exists("book", on="Floor"),
                sequence("Tidy", GoTo("book"), PickUp("book"), GoTo("sofa"), PutOn("book", "sofa")))


def first_book():  # takes the first book it finds: right while the scene has one book only
    return when("Book", Exists("book", on="Floor"),
                sequence("Tidy", GoTo("Book", any=True), PickUp("Book", any=True), GoTo("sofa"),
                         PutOn("Book", "sofa", any=True)))


def book_on_the_floor():  # means the book on the floor, which is one book in the plain scenes
    return when("Book", Exists("book", on="Floor"),
                sequence("Tidy", GoTo("Book", on="Floor"), PickUp("Book", on="Floor"),
                         GoTo("sofa"), PutOn("Book", "sofa")))
"""

TESTS = f"""
import pytest
from policies import book_on_the_floor, first_book, tidy

TASK = {PLAN["task"]!r}


@pytest.mark.logic_env(TASK, plan="plan.json")
@pytest.mark.parametrize("policy", [tidy, first_book, book_on_the_floor])
def test_tidy(logic_env, policy):
    logic_env.run(policy).assert_ok()
"""

FIRST_BOOK = "test_tidy.py::test_tidy[book=yes-first_book]"

# The project's own Hypothesis profile, with its example database beside it; the session's
# profile comes back at the end (pytester runs the project in this process).
PROFILE = """
from pathlib import Path

from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase

PREVIOUS = settings.get_current_profile_name()
settings.register_profile(
    "project", database=DirectoryBasedExampleDatabase(Path(__file__).parent / "examples")
)
settings.load_profile("project")


# What a project's conftest patches in modules the session shares, undone at the end: the
# pytester runs share this process, and a module imported before keeps the patch.
UNDO = []


def pytest_unconfigure(config):
    settings.load_profile(PREVIOUS)
    for undo in UNDO:
        undo()
"""


def _project(pytester: pytest.Pytester, conftest: str = "") -> None:
    pytester.makefile(".json", plan=json.dumps(PLAN))
    pytester.makepyfile(policies=POLICIES, test_tidy=TESTS)
    pytester.makeconftest(PROFILE + conftest)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\n")


@pytest.mark.slow
def test_a_policy_taking_the_first_book_passes_the_generated_scenes_and_exploration_catches_it(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester)
    pytester.runpytest().assert_outcomes(passed=6)

    result = pytester.runpytest("--logicenv-explore=20")
    result.assert_outcomes(passed=4, failed=2)
    text = result.stdout.str()
    assert "FAILED " + FIRST_BOOK in text
    result.stdout.fnmatch_lines(
        [
            "*_ test_tidy?book=yes-first_book? _*",
            "Unreachable: the policy returned SUCCESS but 1 goal fact is false",
            "found by --logicenv-explore: the situation passed in its generated scene and failed "
            "in variation * of 20; shrunk in * more runs, the plainest that fails is: the task "
            "objects alone, seeds 0, distractors: a Book (room 0, place 0), objects listed in "
            "reverse order",
            "scene saved with its situation: .logicenv/explored/*first_book*.json (logicenv "
            "render draws it)",
            "judge it again as this test did: logicenv run policies.py:first_book --scene "
            ".logicenv/explored/*first_book*.json",
            f'reproduce: pytest "{FIRST_BOOK}" --logicenv-explore=20 (Hypothesis replays the '
            "saved example from its database first)",
        ]
    )
    # The selector that holds in the plain scenes names two books once a distractor lies on
    # the floor too: an ambiguous call, the plainest such scene.
    result.stdout.fnmatch_lines(
        ["*_ test_tidy?book=yes-book_on_the_floor? _*", "Error: GoTo(Book on Floor) is ambiguous*"]
    )
    saved = sorted((pytester.path / ".logicenv" / "explored").glob("*first_book*.json"))
    # As .pytest_cache, the work folder keeps itself out of git add -A.
    assert (pytester.path / ".logicenv" / ".gitignore").read_text().splitlines()[-1] == "*"
    scene = load_scene(saved[0])
    books = [obj for obj in scene.objects if obj.type == "Book"]
    assert len(books) == 2
    assert books[0].role is None  # the distractor comes first: the one a first-book policy takes

    _judged_again_as_pytest_judged(text)

    assert any((pytester.path / "examples").iterdir())  # the project's database keeps it
    rerun = pytester.runpytest(FIRST_BOOK, "--logicenv-explore=20")
    rerun.assert_outcomes(failed=1)
    rerun.stdout.fnmatch_lines(["found by --logicenv-explore: * failed in variation 1 of 20;*"])


def _judged_again_as_pytest_judged(text: str) -> None:
    """Each hint's ``logicenv run`` command, run as printed, gives the failure pytest gave:
    the saved scene carries its situation (a bare scene would pass without its goal)."""
    commands = [line.split(": ", 1)[1] for line in text.splitlines() if "judge it again" in line]
    assert len(commands) == 2  # first_book and book_on_the_floor
    for command in commands:
        words = shlex.split(command)
        assert words[0] == "logicenv"
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert main(words[1:]) == 1
        explanation = out.getvalue().strip().splitlines()
        assert explanation[0] in text  # the outcome's class and why, as the test said
        assert all(line in text for line in explanation)


@pytest.mark.slow
def test_exploring_records_what_ran_in_the_json_report(pytester: pytest.Pytester) -> None:
    _project(pytester)
    result = pytester.runpytest(
        "--logicenv-explore=3", "--logicenv-report=json:report.json", "-k", "yes-tidy or no-tidy"
    )
    report = json.loads((pytester.path / "report.json").read_text())
    [task] = report["tasks"].values()
    explored = [run["explored"] for run in task["runs"] if "explored" in run]
    assert explored
    assert all(item["outcome"] is None and item["ran"] >= 1 for item in explored)
    # Everything passed: the run says so, with the counts, not only the JSON report.
    scenes = sum(item["ran"] for item in explored)
    result.stdout.fnmatch_lines(
        [
            f"explored: {len(explored)} passing runs in {scenes} other scenes of their situations; "
            "none failed"
        ]
    )


BROKEN_LAYOUT = """
import pytest_logicenv.strategies as strategies
from pytest_logicenv.errors import SceneError

vary_scene = strategies.vary_scene


def cannot_lay_out_without_a_book(plan, trajectory, variation, **options):
    if trajectory.id == "book=no":
        raise SceneError("the sofa does not fit in the room")
    return vary_scene(plan, trajectory, variation, **options)


strategies.vary_scene = cannot_lay_out_without_a_book
UNDO.append(lambda: setattr(strategies, "vary_scene", vary_scene))
"""


@pytest.mark.slow
def test_an_exploration_that_cannot_keep_the_facts_true_fails_its_own_test_with_the_reason(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester, BROKEN_LAYOUT)
    result = pytester.runpytest("--logicenv-explore=5", "-k", "yes-tidy or no-tidy")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_tidy?book=no-tidy? _*",
            "--logicenv-explore could not keep this situation's facts true: * scene variations "
            "drawn could not be built or checked and 0 ran, so Hypothesis gave up (*); the last "
            "reason: the sofa does not fit in the room",
        ]
    )


HEALTH_CHECK = """
from hypothesis.errors import FailedHealthCheck

import pytest_logicenv.session.explore as explore


def fails_a_health_check():
    raise FailedHealthCheck("Data generation is too slow")


previous_settings = explore._settings
explore._settings = lambda examples: lambda test: fails_a_health_check
UNDO.append(lambda: setattr(explore, "_settings", previous_settings))
"""


def test_a_health_check_failure_fails_its_own_test_with_the_reason(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester, HEALTH_CHECK)
    result = pytester.runpytest("--logicenv-explore=5", "test_tidy.py::test_tidy[book=yes-tidy]")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "--logicenv-explore: Hypothesis refused the exploration (FailedHealthCheck: Data "
            "generation is too slow); fix what it names, or suppress that health check in your "
            "Hypothesis settings profile"
        ]
    )


def test_explore_wants_a_positive_number(pytester: pytest.Pytester) -> None:
    _project(pytester)
    result = pytester.runpytest("--logicenv-explore=0")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--logicenv-explore*"])


ANY_WINDOW = """
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Close, GoTo, IsOpen


def any_window():  # closes the first window it finds: right while the room has one window
    shut = sequence("Shut", GoTo("Window", any=True), Close("Window", any=True))
    return sequence("Reset", when("Window", IsOpen("window"), shut), light())


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_reset(logic_env):
    logic_env.run(any_window).assert_ok()
"""


@pytest.mark.slow
def test_exploration_draws_distractors_of_the_static_types_a_policys_selectors_name(
    pytester: pytest.Pytester,
) -> None:
    from plugin_project import make_project

    make_project(pytester, ANY_WINDOW)
    pytester.makeconftest(PROFILE)
    pytester.runpytest().assert_outcomes(passed=2)  # one window in each generated scene

    result = pytester.runpytest("--logicenv-explore=20")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_reset?window=yes-light=yes? _*",
            "Counterfactual: Close(Window (any one)) broke a precondition: "
            "Window (window_2) is open",
            "situation: Is the window open? = YES; Is the light on? = YES",
            "broken precondition [open]: Window (window_2) is open; "
            "but Window (window_2) is closed",
            "trace: IsOpen(window)? yes, GoTo(Window (any one: window_2)) ok, "
            "Close(Window (any one: window_2)) -> Window (window_2) is closed",
            # seeds or furniture vary: a small bathroom has no wall for a second window
            "found by --logicenv-explore: * the plainest that fails is: * distractors: a Window "
            "(room 0, place 0), objects listed in reverse order",
        ]
    )
