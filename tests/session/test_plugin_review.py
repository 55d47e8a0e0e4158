"""Review before trust, as a user meets it (pytester, the scripted local LLM): a plan a model
made is marked unreviewed in the terminal and HTML reports; CI with
``--logicenv-require-reviewed`` (ini ``logicenv_require_reviewed``) fails on it, naming the
entry and the command; ``logicenv review`` settles it, and a later edit of ``plan.json``
makes it unreviewed again. Hand-written plans need no review."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_llm import FakeLLMServer
from plugin_project import CORRECT_TEST, entries, make_project, no_llm, serve_plan

from pytest_logicenv.cli import main

pytest_plugins = ["pytester"]

LLM_TEST = """
@pytest.mark.logic_env(TASK)
def test_llm(logic_env):
    logic_env.run(correct).assert_ok()
"""


def _llm_entry(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A project whose one test's plan the (scripted) model derived, then CI's machine."""
    serve_plan(fake_llm, monkeypatch)
    make_project(pytester, LLM_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    no_llm(monkeypatch)
    monkeypatch.setenv("CI", "1")
    monkeypatch.chdir(pytester.path)
    return entry


def _failure(
    entry: Path, why: str = "no person has reviewed it", made_by: str = "llm:fake-planner"
) -> list[str]:
    shown = f"cache/{entry.name}"
    return [
        "FAIL 1 cache entry's plan was made by a model and not reviewed by a person "
        "(--logicenv-require-reviewed):",
        f"  {shown} ({made_by}: {why})",
        f"  read each with: logicenv show ENTRY; then mark it reviewed with: logicenv review "
        f"{shown}",
    ]


def test_ci_fails_on_an_unreviewed_model_plan_and_passes_once_it_is_reviewed(
    pytester: pytest.Pytester,
    fake_llm: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    entry = _llm_entry(pytester, fake_llm, monkeypatch)
    result = pytester.runpytest("--logicenv-require-reviewed")
    result.assert_outcomes(passed=2)  # the tests passed: the run fails on the plan
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "*unreviewed plan: test_bath.py::test_llm: made by llm:fake-planner, no person has "
            f"reviewed it; read it with logicenv show cache/{entry.name}, then mark it with "
            f"logicenv review cache/{entry.name}",
            *_failure(entry),
        ]
    )
    assert main(["review", f"cache/{entry.name}", "--by", "Ann Reviewer"]) == 0
    assert "plan reviewed by Ann Reviewer on " in capsys.readouterr().out
    review = json.loads((entry / "manifest.json").read_text())["plan"]["review"]
    assert review["by"] == "Ann Reviewer"
    assert (
        review["plan_sha256"] == json.loads((entry / "manifest.json").read_text())["plan"]["sha256"]
    )
    result = pytester.runpytest("--logicenv-require-reviewed")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.OK
    assert "unreviewed plan" not in result.stdout.str()
    assert "FAIL" not in result.stdout.str()


def test_an_edited_plan_is_unreviewed_again_and_the_ini_switch_fails_the_run(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = _llm_entry(pytester, fake_llm, monkeypatch)
    assert main(["review", entry.name, "--by", "ann"]) == 0
    pytester.makeini(
        "[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\n"
        "logicenv_require_reviewed = true\n"
    )
    assert pytester.runpytest().ret == pytest.ExitCode.OK
    plan = entry / "plan.json"
    data = json.loads(plan.read_text())
    data["task"] += " "  # any change of plan.json, however small
    plan.write_text(json.dumps(data, indent=2))
    monkeypatch.delenv("CI")  # the edit rebuilds the entry (no model), keeping the review
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    why = "plan.json changed since ann reviewed it on *"
    result.stdout.fnmatch_lines(_failure(entry, why, "hand-edited (llm:fake-planner)"))
    assert pytester.runpytest("-o", "logicenv_require_reviewed=false").ret == pytest.ExitCode.OK


def test_a_hand_written_plan_needs_no_review(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("--logicenv-require-reviewed", "--logicenv-report=html:report")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.OK
    assert "unreviewed plan" not in result.stdout.str()
    assert "FAIL" not in result.stdout.str()
    assert "class=unreviewed" not in (pytester.path / "report" / "index.html").read_text()


def test_the_html_report_marks_a_model_plan_unreviewed_and_shows_it_as_a_person_reads_it(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = _llm_entry(pytester, fake_llm, monkeypatch)
    pytester.runpytest("--logicenv-report=html:report").assert_outcomes(passed=2)
    page = (pytester.path / "report" / "index.html").read_text()
    assert "<span class=unreviewed>unreviewed</span>" in page
    assert f"<code>logicenv review cache/{entry.name}</code>" in page
    assert "The plan as a person reads it" in page
    assert "- yes, when the scene has: window is open" in page.lower()
    assert main(["review", entry.name, "--by", "ann"]) == 0
    pytester.runpytest("--logicenv-report=html:report").assert_outcomes(passed=2)
    page = (pytester.path / "report" / "index.html").read_text()
    assert "class=unreviewed" not in page
    assert "class='unreviewed'" not in page
    assert "reviewed by ann on " in page


@pytest.mark.slow
def test_under_xdist_the_controller_fails_on_the_entries_its_workers_used(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = _llm_entry(pytester, fake_llm, monkeypatch)
    result = pytester.runpytest_subprocess("-p", "xdist", "-n", "2", "--logicenv-require-reviewed")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(_failure(entry))
    assert main(["review", entry.name, "--by", "ann"]) == 0
    result = pytester.runpytest_subprocess("-p", "xdist", "-n", "2", "--logicenv-require-reviewed")
    assert result.ret == pytest.ExitCode.OK


def _file_reports(pytester: pytest.Pytester) -> tuple[dict[str, object], str]:
    """A run's JSON report's plan of test_llm (or test_reset) and its Markdown report."""
    args = ("--logicenv-report=json:r.json", "--logicenv-report=markdown:r.md")
    pytester.runpytest(*args).assert_outcomes(passed=2)
    tasks = json.loads((pytester.path / "r.json").read_text())["tasks"]
    [task] = tasks.values()
    return task["plan"], (pytester.path / "r.md").read_text()


def test_the_json_and_markdown_reports_carry_the_review_status(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = _llm_entry(pytester, fake_llm, monkeypatch)
    plan, markdown = _file_reports(pytester)
    assert plan == {
        "made_by": "llm:fake-planner",
        "needs_review": True,
        "unreviewed": True,
        "reviewed_by": None,
        "reviewed_at": None,
        "reviewed_plan_sha256": None,
        "unreviewed_because": "no person has reviewed it",
        "status": "made by llm:fake-planner, UNREVIEWED: no person has reviewed it",
    }
    assert (
        "- `test_bath.py::test_llm`: made by llm:fake-planner, **UNREVIEWED**: no person has "
        f"reviewed it; read it with `logicenv show cache/{entry.name}`, then mark it with "
        f"`logicenv review cache/{entry.name}`"
    ) in markdown
    assert main(["review", entry.name, "--by", "Ann Reviewer"]) == 0
    plan, markdown = _file_reports(pytester)
    manifest = json.loads((entry / "manifest.json").read_text())["plan"]
    assert plan["unreviewed"] is False
    assert plan["unreviewed_because"] is None
    assert (plan["reviewed_by"], plan["reviewed_at"]) == ("Ann Reviewer", manifest["review"]["at"])
    assert plan["reviewed_plan_sha256"] == manifest["sha256"]
    assert (
        "- `test_bath.py::test_llm`: made by llm:fake-planner, reviewed by Ann Reviewer on "
        f"{manifest['review']['at']}"
    ) in markdown
    assert "UNREVIEWED" not in markdown


def test_a_hand_written_plan_reads_as_needing_no_review_in_the_file_reports(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    plan, markdown = _file_reports(pytester)
    assert plan["made_by"] == "hand-written"
    assert (plan["needs_review"], plan["unreviewed"], plan["reviewed_by"]) == (False, False, None)
    assert "Plans made by a model" not in markdown
