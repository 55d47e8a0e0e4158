"""The plugin as a user meets it: marked tests in a project, run with pytest (pytester)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fake_llm import FakeLLMServer, answer, planner_script
from helpers import count_colour
from plugin_project import CORRECT_TEST, PLAN, TASK, entries, llm_steps, make_project

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    # CI=1 makes offline the default; these tests choose the mode themselves.
    monkeypatch.delenv("CI", raising=False)


def test_one_item_per_environment_with_readable_ids_and_a_coverage_table(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "test_bath.py::test_reset[[]window=yes-light=yes[]] PASSED*",
            "test_bath.py::test_reset[[]window=no-light=no[]] PASSED*",
            "*- logic coverage -*",
            "Task*Conditions  Covered  Paths  Covered  LogCov",
            "test_bath.py::test_reset*4        4      4        4    100%",
        ]
    )
    [entry] = entries(pytester)
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["plan"]["made_by"] == "hand-written"
    assert manifest["scenes"]["made_by"] == "procedural designer"
    assert "origin" not in manifest  # nothing per test or per run: regenerating is quiet
    scenes = sorted(p.name for p in (entry / "scenes").iterdir())
    assert scenes == [
        "window=no-light=no.house.json",
        "window=no-light=no.json",
        "window=no-light=no.svg",
        "window=no-light=no.witness.json",
        "window=yes-light=yes.house.json",
        "window=yes-light=yes.json",
        "window=yes-light=yes.svg",
        "window=yes-light=yes.witness.json",
    ]


def test_a_warm_cache_is_read_not_regenerated(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makeconftest(
        """
        GENERATED = []

        def pytest_logicenv_scene_generated(config, scene, trajectory):
            with open("generated.log", "a") as log:
                log.write(trajectory.id + "\\n")
        """
    )
    pytester.runpytest().assert_outcomes(passed=2)
    log = pytester.path / "generated.log"
    assert log.read_text().split() == ["window=yes-light=yes", "window=no-light=no"]
    before = {p: p.stat().st_mtime_ns for p in entries(pytester)[0].rglob("*")}
    pytester.runpytest("--logicenv-offline").assert_outcomes(passed=2)
    assert log.read_text().split() == ["window=yes-light=yes", "window=no-light=no"]
    assert {p: p.stat().st_mtime_ns for p in entries(pytester)[0].rglob("*")} == before


def test_regenerate_makes_the_entry_anew(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    scene = entries(pytester)[0] / "scenes" / "window=yes-light=yes.json"
    scene.write_text(scene.read_text().replace('"designer"', '"designer_was"'))
    pytester.runpytest("--logicenv-regenerate").assert_outcomes(passed=2)
    assert '"designer_was"' not in scene.read_text()


def test_a_fault_reads_like_an_explanation_with_a_reproduce_line(
    pytester: pytest.Pytester,
) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_forgetful(logic_env):
    logic_env.run(forgets_the_light).assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_forgetful[[]window=yes-light=yes[]] _*",
            "Unreachable: the policy returned SUCCESS but 1 goal fact is false",
            "situation: Is the window open? = YES; Is the light on? = YES",
            'goal not met: "LightSwitch switched off"',  # the policy never named the light
            "trace: IsOpen(window)? yes, GoTo(window) ok, Close(window) ok",
            'reproduce: pytest "test_bath.py::test_forgetful[[]window=yes-light=yes[]]"',
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_expected_faults_pass_their_scenes_and_are_counted(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json", expect_fault="counterfactual")
def test_always_closes(logic_env):
    logic_env.run(always_closes).assert_ok()

@pytest.mark.logic_env(TASK, plan="plan.json", expect_fault="unreachable")
def test_correct_declared_faulty(logic_env):
    logic_env.run(correct).assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=4)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "faults revealed: 1/2 declared faulty policies",
            "  test_bath.py::test_always_closes: counterfactual revealed (1/2 scenes)",
            "  test_bath.py::test_correct_declared_faulty: unreachable MISSED (0/2 scenes)",
            "test_bath.py::test_correct_declared_faulty: expect_fault='unreachable' was not "
            "revealed in its 2 scenes: the policy passed in every one, so either it does not "
            "have this fault or no environment has the situation that shows it",
        ]
    )


def test_a_declared_fault_whose_policy_never_ran_says_so(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json", expect_fault="counterfactual")
def test_missing_file(logic_env):
    logic_env.run("missing.xml").assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        [
            "test_bath.py::test_missing_file: expect_fault='counterfactual' was not revealed in "
            "its 2 scenes: its policy never ran to an outcome (see the failures above)"
        ]
    )


def test_a_passing_test_whose_policy_run_showed_a_fault_warns(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_forgot_assert(logic_env):
    logic_env.run(always_closes)  # counterfactual when the window is already closed

@pytest.mark.logic_env(TASK, plan="plan.json", expect_fault="counterfactual")
def test_declared(logic_env):
    logic_env.run(always_closes)
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=4, warnings=1)
    result.stdout.fnmatch_lines(
        [
            "*warnings summary*",
            "test_bath.py::test_forgot_assert[[]window=no-light=no[]]",
            "  *LogicEnvWarning: the policy's run ended in counterfactual but the test passed: "
            "call .assert_ok() on what logic_env.run() returns (declare a known fault with "
            "expect_fault=)",
        ]
    )
    strict = pytester.runpytest("-W", "error::pytest_logicenv.LogicEnvWarning")
    strict.assert_outcomes(passed=3, failed=1)


def test_another_fault_than_the_declared_one_fails(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json", expect_fault="lackbranch")
def test_wrong_class(logic_env):
    logic_env.run(forgets_the_light).assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["Unreachable: *"])


def test_report_formats(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.mkdir("out")  # a report's folder must exist (a typo is a usage error at start)
    result = pytester.runpytest(
        "-k",
        "yes-light",
        "--logicenv-report=term-missing",
        "--logicenv-report=json:out/report.json",
        "--logicenv-report=markdown:out/report.md",
        "--logicenv-report=html:out/html",
    )
    result.assert_outcomes(passed=1, deselected=1)
    result.stdout.fnmatch_lines(
        [
            "Task*LogCov  Missing",
            "test_bath.py::test_reset*4        2      4        2     50%  window=no, light=no",
            "json report written to *report.json",
            "markdown report written to *report.md",
            "html report written to *index.html",
        ]
    )
    report = json.loads((pytester.path / "out/report.json").read_text())
    task = report["tasks"]["test_bath.py::test_reset"]
    assert task["LogCov"] == 50.0
    assert task["missing_paths"] == ["window:window=no", "light:light=no"]
    assert task["scenes"] == {"window=yes-light=yes": {"test_bath.py::test_reset": ["pass"]}}
    assert (
        "| `test_bath.py::test_reset` | 4 | 2 | 4 | 2 | 50% |"
        in (pytester.path / "out/report.md").read_text()
    )
    page = (pytester.path / "out/html/index.html").read_text()
    assert "Is the window open?" in page
    assert "<img src='scenes/" in page


def test_fail_under_sets_the_exit_status_and_says_why(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("-k", "yes-light", "--logicenv-fail-under=90")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["FAIL Required LogCov of 90% not reached. Total LogCov: 50.00%"])
    assert pytester.runpytest("--logicenv-fail-under=90").ret == pytest.ExitCode.OK


def test_ini_options(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makeini(
        "[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\n"
        "logicenv_cache_dir = envs\nlogicenv_fail_under = 100\n"
        "logicenv_report = json:cov.json\n"
    )
    result = pytester.runpytest("-k", "yes-light")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert (pytester.path / "envs").is_dir()
    assert (pytester.path / "cov.json").is_file()
    assert "logic coverage" not in result.stdout.str()  # a file report replaces term


def test_corrupt_cache_file_errors_that_test_only(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        CORRECT_TEST
        + """
def test_unrelated():
    pass
""",
    )
    pytester.runpytest().assert_outcomes(passed=3)
    broken = entries(pytester)[0] / "trajectories.json"
    broken.write_text('{"format": "logicenv-trajectories/1", "trajectories": [')
    result = pytester.runpytest("--logicenv-offline")  # strict: a damaged entry is not rebuilt
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [f"*its cache entry must be rebuilt ({broken} does not match the digest*"]
    )


def test_a_hand_edited_plan_file_rebuilds_its_scenes(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    plan = dict(PLAN)
    plan["subtasks"] = [PLAN["subtasks"][0]]  # drop the light subtask
    (pytester.path / "plan.json").write_text(json.dumps(plan))
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*test_reset[[]window=yes[]] PASSED*"])


def test_edited_task_text_leaves_the_old_entry_unused_and_clean_removes_it(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [old] = entries(pytester)
    make_project(pytester, CORRECT_TEST, task=TASK + " Then leave.")
    result = pytester.runpytest("-k", "nothing_matches")
    assert "unused cache entries" not in result.stdout.str()  # -k selected no marked test
    result = pytester.runpytest()
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        ["*logicenv: 1 unused cache entry*", f"  {old}", "  remove them with: logicenv clean"]
    )
    result = pytester.runpytest("--logicenv-clean")
    result.stdout.fnmatch_lines(["*logicenv: 1 removed cache entry*"])
    assert not old.exists()
    assert not old.with_name(f".{old.name}.lock").exists()
    assert len(entries(pytester)) == 1


def test_entries_of_a_deleted_test_file_are_unused_when_its_folder_is_collected(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.mkdir("other").joinpath("test_other.py").write_text("def test_x():\n    pass\n")
    pytester.runpytest().assert_outcomes(passed=3)
    [old] = entries(pytester)
    (pytester.path / "test_bath.py").unlink()
    result = pytester.runpytest("other")  # the deleted file's folder was not collected
    assert "unused cache entr" not in result.stdout.str()
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        ["*logicenv: 1 unused cache entry*", f"  {old}", "  remove them with: logicenv clean"]
    )


def test_regenerating_from_another_test_leaves_the_committed_files_byte_identical(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makepyfile(
        test_twin="import pytest\nfrom policies import *\nfrom test_bath import TASK\n\n"
        + CORRECT_TEST.replace("test_reset", "test_twin")
    )
    pytester.runpytest("test_bath.py", "--logicenv-regenerate").assert_outcomes(passed=2)
    [entry] = entries(pytester)
    before = {p.relative_to(entry): p.read_bytes() for p in entry.rglob("*") if p.is_file()}
    pytester.runpytest("test_twin.py", "--logicenv-regenerate").assert_outcomes(passed=2)
    after = {p.relative_to(entry): p.read_bytes() for p in entry.rglob("*") if p.is_file()}
    assert after == before


def test_unused_entries_are_not_judged_when_a_test_file_was_not_collected(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [kept] = entries(pytester)
    # The only test using the entry is skipped whole (an optional dependency is missing):
    # the run cannot know which entries it uses, so nothing is unused, nothing removed.
    test_file = pytester.path / "test_bath.py"
    source = test_file.read_text()
    test_file.write_text(
        'import pytest\npytest.skip("no robot", allow_module_level=True)\n' + source
    )
    result = pytester.runpytest("--logicenv-clean")
    assert "unused cache entr" not in result.stdout.str()
    assert kept.exists()
    test_file.write_text("import not_installed\n" + source)  # fails to import
    result = pytester.runpytest("--logicenv-clean")
    assert "removed cache entr" not in result.stdout.str()
    assert kept.exists()


def test_a_manifest_broken_by_hand_is_rebuilt_like_a_missing_one(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST + "\n\ndef test_unrelated():\n    pass\n")
    pytester.runpytest().assert_outcomes(passed=3)
    manifest = entries(pytester)[0] / "manifest.json"
    made = manifest.read_bytes()
    manifest.write_text("[]")
    result = pytester.runpytest()
    result.assert_outcomes(passed=3, warnings=1)
    result.stdout.fnmatch_lines([f"*was rebuilt: {manifest} is damaged (not a manifest object)"])
    assert json.loads(manifest.read_bytes())["files"] == json.loads(made)["files"]


def test_a_policy_that_raises_is_an_error_of_its_run(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
import py_trees
from pytest_logicenv.sim.leaves import AgentBehaviour

class Boom(AgentBehaviour):
    def update(self):
        raise RuntimeError("sensor unplugged")

@pytest.mark.logic_env(TASK, plan="plan.json")
def test_boom(logic_env):
    logic_env.run(lambda: Boom("Boom")).assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["Error: *", "*RuntimeError: sensor unplugged*"])


def test_fixture_exposes_the_scene_and_its_artifacts(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_artifacts(logic_env):
    assert logic_env.scene.id
    assert logic_env.picture.read_text().startswith("<svg")
    assert '"rooms"' in logic_env.house_json.read_text()
    assert logic_env.situation[0][0] == "Is the window open?"
    assert [s.name for s in logic_env.plan.subtasks] == ["window", "light"]
    assert logic_env.trajectory.id == logic_env.trajectory_id
    assert [p.subtask for p in logic_env.trajectory.paths] == ["window", "light"]
""",
    )
    pytester.runpytest().assert_outcomes(passed=2)


def test_outcome_hook_sees_every_run(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makeconftest(
        """
        def pytest_logicenv_outcome(item, outcome):
            with open("outcomes.log", "a") as log:
                log.write(f"{item.name} {outcome.kind}\\n")
        """
    )
    pytester.runpytest().assert_outcomes(passed=2)
    assert (pytester.path / "outcomes.log").read_text().splitlines() == [
        "test_reset[window=yes-light=yes] pass",
        "test_reset[window=no-light=no] pass",
    ]


@pytest.mark.slow
def test_xdist_cold_cache_generates_once_and_workers_agree(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        CORRECT_TEST
        + """
@pytest.mark.logic_env(TASK, plan="plan.json", expect_fault="unreachable")
def test_forgetful(logic_env):
    logic_env.run(forgets_the_light).assert_ok()
""",
    )
    pytester.makeconftest(
        """
        import os

        def pytest_logicenv_scene_generated(config, scene, trajectory):
            with open("generated.log", "a") as log:
                log.write(f"{os.getpid()} {trajectory.id}\\n")
        """
    )
    result = pytester.runpytest_subprocess("-n", "2", "--logicenv-report=json:cov.json")
    result.assert_outcomes(passed=4)
    generated = (pytester.path / "generated.log").read_text().splitlines()
    assert len(generated) == 2  # one worker generated both scenes; the other read them
    assert len({line.split()[0] for line in generated}) == 1
    report = json.loads((pytester.path / "cov.json").read_text())
    assert report["total"]["LogCov"] == 100.0
    assert report["faults"]["test_bath.py::test_forgetful"]["revealed"] is True
    # Regenerating under xdist also happens once per run, not once per worker.
    result = pytester.runpytest_subprocess("-n", "2", "--logicenv-regenerate")
    result.assert_outcomes(passed=4)
    regenerated = (pytester.path / "generated.log").read_text().splitlines()[2:]
    assert len(regenerated) == 2
    assert len({line.split()[0] for line in regenerated}) == 1


def test_plan_from_an_llm_is_cached_with_who_made_it(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    decomposition, factors = llm_steps()
    fake_llm.respond_with(planner_script(decomposition, factors, [answer(PLAN)]))
    monkeypatch.setenv("LOGICENV_LLM_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("LOGICENV_LLM_MODEL", "fake-planner")
    monkeypatch.setenv("LOGICENV_LLM_API_KEY", "sk-test-secret")
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK)
def test_llm(logic_env):
    logic_env.run(correct).assert_ok()
""",
    )
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["plan"]["made_by"] == "llm:fake-planner"
    logs = list((entry / "llm").glob("*.json"))
    assert len(logs) == 3
    assert all("sk-test-secret" not in log.read_text() for log in logs)
    # Later runs need no LLM: the server is gone and the tests still run from the cache.
    monkeypatch.delenv("LOGICENV_LLM_BASE_URL")
    pytester.runpytest("--logicenv-offline").assert_outcomes(passed=2)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
TASK_HIGHLIGHT = (0xFF, 0xD2, 0x7F)  # render.TASK_FILL


@pytest.mark.slow
@pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (Debian: chromium)"
)
def test_html_report_renders_its_scene_pictures_in_a_browser(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest("--logicenv-report=html:html").assert_outcomes(passed=2)
    page = pytester.path / "html" / "index.html"
    pictures = list((pytester.path / "html" / "scenes").glob("*.svg"))
    assert len(pictures) == 2

    def screenshot(name: str) -> int:
        """Pixels of the task-object highlight colour in a screenshot of the page."""
        target = tmp_path / name
        subprocess.run(
            [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={tmp_path / 'profile'}",
                "--window-size=1000,1300",
                f"--screenshot={target}",
                page.as_uri(),
            ],
            capture_output=True,
            timeout=120,
            check=True,
        )
        return count_colour(target, TASK_HIGHLIGHT)

    drawn = screenshot("report.png")
    for picture in pictures:  # the same page with its scene pictures gone
        picture.unlink()
    undrawn = screenshot("no-pictures.png")
    # The window and the light are task objects, drawn in the highlight colour.
    assert undrawn == 0
    assert drawn > 50


def test_a_policy_naming_what_no_situation_has_fails_before_running(
    pytester: pytest.Pytester,
) -> None:
    make_project(
        pytester,
        """
from pytest_logicenv.sim.leaves import GoTo

@pytest.mark.logic_env(TASK, plan="plan.json")
def test_typo(logic_env):
    logic_env.run(lambda: GoTo("windw")).assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["the policy cannot run: *'windw'*"])
    assert "Traceback" not in result.stdout.str()
    assert "During handling of the above exception" not in result.stdout.str()


def test_a_missing_policy_file_says_where_it_was_looked_for(pytester: pytest.Pytester) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_xml(logic_env):
    logic_env.run("../policies/reset.xml").assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=2)
    expected = pytester.path.parent / "policies" / "reset.xml"
    result.stdout.fnmatch_lines(
        [
            f"the policy cannot run: no policy file '../policies/reset.xml': looked for "
            f"{expected} (relative paths start at the test file's folder)"
        ]
    )


def test_a_scene_damaged_after_collection_names_the_file_and_the_fix(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makeconftest(
        """
        import pathlib

        def pytest_collection_finish(session):  # as if an editor saved a half-written file
            for scene in pathlib.Path("cache").glob("*/scenes/window=yes-light=yes.json"):
                scene.write_text(scene.read_text()[:80])
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    [entry] = entries(pytester)
    scene = entry / "scenes" / "window=yes-light=yes.json"
    result.stdout.fnmatch_lines(
        [
            f"this environment's cache entry is damaged: {scene}: not valid JSON (*)",
            f'fix: delete {entry} and run pytest --logicenv-regenerate "test_bath.py::test_reset"',
        ]
    )
    assert "the policy cannot run" not in result.stdout.str()
    result.stdout.fnmatch_lines(  # coverage only from the scene a policy ran in
        [
            "*- logic coverage -*",
            "test_bath.py::test_reset           4        2      4        2     50%",
            "scenes: 1 ran a policy, 1 did not (skipped, not reached, or no logic_env.run() "
            "reached an outcome) and cover nothing",
        ]
    )


def test_a_situation_no_scene_can_hold_names_its_path_the_plan_and_why(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    plan = json.loads(json.dumps(PLAN))
    # A hand towel is no receptacle: the "open" answer cannot be realized.
    plan["subtasks"][0]["factors"][0]["realization"]["yes"] += [
        {"exists": "HandTowel", "as": "towel"},
        {"exists": "SoapBar", "as": "soap", "where": {"in": "towel"}},
    ]
    (pytester.path / "plan.json").write_text(json.dumps(plan))
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "no scene can be built for window:window=yes: its facts cannot all hold in one "
            f"scene; fix them in {pytester.path / 'plan.json'}. Every scene tried for it failed:",
            "  window=yes-light=yes: soap must be in towel *, but a HandTowel is not a receptacle*",
            "  window=yes-light=no: soap must be in towel *, but a HandTowel is not a receptacle*",
        ]
    )


def test_the_coverage_table_lists_tasks_by_test_name(pytester: pytest.Pytester) -> None:
    # Their cache entries sort the other way round (c70223e2 > 022d640b).
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_a(logic_env):
    logic_env.run(correct).assert_ok()

@pytest.mark.logic_env(TASK, plan="plan.json", select="exhaustive")
def test_b(logic_env):
    logic_env.run(correct).assert_ok()
""",
    )
    result = pytester.runpytest()
    assert [e.name[-8:] for e in entries(pytester)] == ["022d640b", "c70223e2"]
    result.stdout.fnmatch_lines(["test_bath.py::test_a  *", "test_bath.py::test_b  *", "TOTAL*"])


def test_text_from_a_plan_is_escaped_in_the_html_report(pytester: pytest.Pytester) -> None:
    plan = json.loads(json.dumps(PLAN))
    plan["subtasks"][0]["factors"][0]["question"] = "Is the <script>alert(1)</script> open?"
    make_project(pytester, CORRECT_TEST, task="Close <b>it</b> & leave.")
    (pytester.path / "plan.json").write_text(json.dumps(plan))
    pytester.runpytest("--logicenv-report=html:html").assert_outcomes(passed=2)
    page = (pytester.path / "html" / "index.html").read_text()
    assert "<script>alert" not in page  # (the page has its own script, for zooming)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_logicenv_clean_command_removes_what_no_test_uses(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [old] = entries(pytester)
    make_project(pytester, CORRECT_TEST, task=TASK + " Quietly.")
    pytester.runpytest().assert_outcomes(passed=2)
    dry = subprocess.run(
        [sys.executable, "-m", "pytest_logicenv.cli", "clean", "--dry-run"],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert dry.returncode == 0, dry.stderr
    assert f"logicenv clean: would remove 1 unused cache entry\n  {old}" in dry.stdout
    assert old.exists()
    done = subprocess.run(
        [sys.executable, "-m", "pytest_logicenv.cli", "clean"],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "logicenv clean: removed 1 unused cache entry" in done.stdout
    assert not old.exists()
    assert len(entries(pytester)) == 1


def test_a_plan_file_that_fails_its_checks_errors_naming_file_and_problem(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST + "\ndef test_unrelated():\n    pass\n")
    plan = json.loads(json.dumps(PLAN))
    del plan["subtasks"][1]["tree"]["branches"]["no"]
    (pytester.path / "plan.json").write_text(json.dumps(plan))
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            f"{pytester.path / 'plan.json'}: 1 problem",
            "  [[]grounding[]] subtasks[[]1[]](light).tree: the query on 'light' has no branch "
            "for value 'no'; add one*",
        ]
    )
    assert not entries(pytester)  # nothing half-written


def test_an_llm_plan_edited_by_hand_is_kept_and_a_changed_task_is_stale(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    decomposition, factors = llm_steps()
    fake_llm.respond_with(planner_script(decomposition, factors, [answer(PLAN)]))
    monkeypatch.setenv("LOGICENV_LLM_BASE_URL", fake_llm.base_url)
    monkeypatch.setenv("LOGICENV_LLM_MODEL", "fake-planner")
    test = """
@pytest.mark.logic_env(TASK)
def test_llm(logic_env):
    logic_env.run(correct).assert_ok()
"""
    make_project(pytester, test)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    # A reviewer drops the light subtask from the LLM's plan: only what depends on it changes.
    edited = json.loads((entry / "plan.json").read_text())
    edited["subtasks"] = edited["subtasks"][:1]
    (entry / "plan.json").write_text(json.dumps(edited, indent=2))
    for name in ("LOGICENV_LLM_BASE_URL", "LOGICENV_LLM_MODEL"):
        monkeypatch.delenv(name)  # rebuilt from the edited plan: no LLM needed
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*test_llm[[]window=yes[]] PASSED*"])
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["plan"]["made_by"] == "hand-edited (llm:fake-planner)"
    # The task text changes: offline, the old entry is stale and the error says how to refresh.
    make_project(pytester, test, task=TASK + " And water the plant.")
    result = pytester.runpytest("--logicenv-offline")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*::test_llm: the task text or settings changed since cache/in_the_bathroom_close_"
            "the_window-* was generated (task text 'In the bathroom: * on.', here 'In the "
            "bathroom: * And water the plant.')",
            '*pytest --logicenv-regenerate "test_bath.py::test_llm"*',
        ]
    )


def test_a_designer_hook_replaces_the_scene_builder(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makeconftest(
        """
        from pytest_logicenv.pipeline.scene_building import default_scene_builder

        def pytest_logicenv_designer(config):
            build = default_scene_builder()

            def designed(plan, trajectory, seed):
                with open("designer.log", "a") as log:
                    log.write(f"{trajectory.id} {seed}\\n")
                return build(plan, trajectory, seed)

            return designed
        """
    )
    pytester.runpytest().assert_outcomes(passed=2)
    assert (pytester.path / "designer.log").read_text().splitlines() == [
        "window=yes-light=yes 0",
        "window=no-light=no 0",
    ]
