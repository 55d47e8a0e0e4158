"""Only what the run selects is generated, concurrently, once per task: marked tests of
uncached tasks, planned by the real openai client against the scripted server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from fake_llm import FakeLLMServer, answer, planner_script
from grounded_answers import MIRROR_DECOMPOSITION, MIRROR_FACTORS, MIRROR_TASK, mirror_plan
from window_answers import failing, planner, task, task_of, write_project

pytest_plugins = ["pytester"]

TWO_TASKS = """
@pytest.mark.logic_env(TASK("A"), rooms=["Bathroom"])
def test_a(logic_env):
    assert logic_env.scene.rooms


@pytest.mark.slow_model
@pytest.mark.logic_env(TASK("B"), rooms=["Bathroom"])
def test_b(logic_env):
    assert logic_env.scene.rooms
"""
MARKERS = "markers =\n    slow_model: asks a slow model\n"


@pytest.fixture(autouse=True)
def one_attempt_per_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOGICENV_LLM_MAX_RETRIES", "0")


def tasks_asked(server: FakeLLMServer) -> set[str]:
    return {task_of(request) for request in server.requests}


@pytest.mark.parametrize(
    "selection",
    [["-k", "test_a"], ["test_tasks.py::test_a"], ["-m", "not slow_model"]],
    ids=["k", "node-id", "m"],
)
def test_a_deselected_uncached_task_asks_the_model_nothing(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, selection: list[str]
) -> None:
    fake_llm.respond_with(planner)
    write_project(pytester, fake_llm, TWO_TASKS, MARKERS)
    result = pytester.runpytest("-p", "no:cacheprovider", *selection)
    outcomes = result.parseoutcomes()
    assert (outcomes["passed"], outcomes.get("deselected", 0)) == (
        2,
        0 if "::" in selection[0] else 1,
    )
    assert tasks_asked(fake_llm) == {task("A")}
    assert len(fake_llm.requests) == 3  # decomposition, factors, plan: once


def test_k_leaves_out_the_situations_it_names_once_they_have_ids(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer
) -> None:
    fake_llm.respond_with(planner)
    write_project(pytester, fake_llm, TWO_TASKS, MARKERS)
    result = pytester.runpytest("-p", "no:cacheprovider", "-v", "-k", "test_a and not yes")
    result.assert_outcomes(passed=1, deselected=2)
    result.stdout.fnmatch_lines(["*test_a?window=no-light=no? PASSED*"])
    assert tasks_asked(fake_llm) == {task("A")}


def test_last_failed_leaves_an_uncached_task_that_did_not_fail(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer
) -> None:
    fake_llm.respond_with(planner)
    tests = TWO_TASKS.replace(
        "def test_b(logic_env):\n    assert logic_env.scene.rooms",
        'def test_b(logic_env):\n    assert logic_env.trajectory_id != "window=yes-light=yes"',
    )
    write_project(pytester, fake_llm, tests, MARKERS)
    pytester.runpytest().assert_outcomes(passed=3, failed=1)
    asked = len(fake_llm.requests)
    for entry in (pytester.path / "cache").iterdir():  # task A is uncached again
        if entry.is_dir() and task("A") in (entry / "manifest.json").read_text():
            shutil.rmtree(entry)
    result = pytester.runpytest("--lf")
    result.assert_outcomes(failed=1)  # test_b's failure alone: the pending test_a left out
    assert len(fake_llm.requests) == asked


SHARED = """
@pytest.mark.logic_env(TASK("A"), rooms=["Bathroom"])
def test_one(logic_env):
    pass


@pytest.mark.logic_env(TASK("A"), rooms=["Bathroom"])
def test_two(logic_env):
    pass
"""


@pytest.mark.slow
@pytest.mark.parametrize("workers", [[], ["-p", "xdist", "-n", "2"]], ids=["serial", "xdist"])
def test_a_failed_generation_is_attempted_once_and_reported_by_every_test_of_the_task(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, workers: list[str]
) -> None:
    fake_llm.respond_with(failing)
    write_project(pytester, fake_llm, SHARED)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *workers)
    result.assert_outcomes(errors=2)
    assert len(fake_llm.requests) == 1  # one task, one attempt, across tests and workers
    lines = [line for line in result.stdout.lines if "LLM request failed (plan.decompose)" in line]
    assert len(lines) >= 2
    assert len({line.split("LLM request failed", 1)[1] for line in lines}) == 1  # the same


FOUR_TASKS = "".join(
    f"""
@pytest.mark.logic_env(TASK("{name}"), rooms=["Bathroom"])
def test_{name.lower()}(logic_env):
    assert logic_env.scene.rooms
"""
    for name in "ABCD"
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("concurrency", "workers"),
    [("1", []), ("4", []), ("2", ["-p", "xdist", "-n", "2"])],
    ids=["one-at-a-time", "four-at-once", "two-across-workers"],
)
def test_uncached_tasks_are_generated_concurrently_within_the_bound(
    pytester: pytest.Pytester, concurrency: str, workers: list[str]
) -> None:
    with FakeLLMServer(planner, latency_s=0.2) as server:
        write_project(pytester, server, FOUR_TASKS, f"logicenv_llm_concurrency = {concurrency}\n")
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *workers)
        result.assert_outcomes(passed=8)
        assert len(server.requests) == 12  # each task planned once, whoever planned it
        assert tasks_asked(server) == {task(name) for name in "ABCD"}
        assert server.max_in_flight <= int(concurrency)
        if concurrency != "1":
            assert server.max_in_flight > 1


def test_the_command_line_bounds_the_concurrency_over_the_ini(
    pytester: pytest.Pytester,
) -> None:
    with FakeLLMServer(planner, latency_s=0.1) as server:
        write_project(pytester, server, FOUR_TASKS, "logicenv_llm_concurrency = 4\n")
        result = pytester.runpytest("-p", "no:cacheprovider", "--logicenv-llm-concurrency=1")
        result.assert_outcomes(passed=8)
        assert server.max_in_flight == 1
    result = pytester.runpytest("--logicenv-llm-concurrency=0")
    result.stderr.fnmatch_lines(
        ["*--logicenv-llm-concurrency: expected a whole number of at least 1*"]
    )


MIRROR = f"""
@pytest.mark.logic_env({MIRROR_TASK!r}, rooms=["Bathroom"])
def test_mirror(logic_env):
    assert logic_env.scene.rooms
"""


def test_a_plan_the_model_never_fixes_is_kept_to_fix_by_hand_and_rerun_offline(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer
) -> None:
    painting = answer(mirror_plan("Painting"))
    fake_llm.respond_with(planner_script(MIRROR_DECOMPOSITION, MIRROR_FACTORS, [painting] * 3))
    write_project(pytester, fake_llm, MIRROR)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    assert len(fake_llm.requests) == 5  # two steps, three plan answers: bounded
    [entry] = [p for p in (pytester.path / "cache").iterdir() if p.is_dir()]
    plan = f"cache/{entry.name}/plan.json"
    said = [
        "*test_tasks.py::test_mirror: plan.tree: the answer of model 'fake-model' after 3 rounds: "
        "1 problem",
        "*?capability? *mirror (a Painting) cannot be dirty*",
        f"*the model's plan is kept in {plan} (its answers in cache/{entry.name}/llm/)",
        f'*fix: edit {plan} by hand and rerun pytest "test_tasks.py::test_mirror" (no LLM '
        f"needed; `logicenv plan --check {plan}` checks it first),",
        '*or derive it anew: pytest --logicenv-regenerate "test_tasks.py::test_mirror"',
    ]
    result.stdout.fnmatch_lines(said)
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["plan"]["made_by"] == "llm:fake-model"
    assert "cannot be dirty" in manifest["plan"]["failed"][0]
    exchanges = len(list((entry / "llm").iterdir()))
    assert exchanges == 4  # by request: the third plan request repeats the second
    # Rerun: the same error, and no model asked (offline would do: it needs none).
    again = pytester.runpytest("-p", "no:cacheprovider")
    again.assert_outcomes(errors=1)
    again.stdout.fnmatch_lines(["*(a Painting) cannot be dirty*", f"*fix: edit {plan} by hand*"])
    assert len(fake_llm.requests) == 5
    # Fixed by hand: built, without the model; who made it says so.
    path = pytester.path / plan
    path.write_text(path.read_text().replace('"Painting"', '"Mirror"'))
    fixed = pytester.runpytest("-p", "no:cacheprovider", "--logicenv-offline")
    fixed.assert_outcomes(errors=1)  # CI mode only reads the cache: the rebuild is refused
    fixed = pytester.runpytest("-p", "no:cacheprovider")
    fixed.assert_outcomes(passed=2)
    assert len(fake_llm.requests) == 5
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["plan"]["made_by"] == "hand-edited (llm:fake-model)"
    assert "failed" not in manifest["plan"]
    assert len(list((entry / "llm").iterdir())) == exchanges  # carried over


def test_a_plan_the_model_never_fixes_is_kept_as_far_as_it_got(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer
) -> None:
    fake_llm.respond_with(lambda request: answer("I would rather not answer in JSON."))
    write_project(pytester, fake_llm, MIRROR)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    assert len(fake_llm.requests) == 3
    result.stdout.fnmatch_lines(
        [
            "*plan.decompose: the answer of model 'fake-model' after 3 rounds: 1 problem",
            "*the answer holds no JSON object*",
            "*no answer got as far as a plan; the model's answers are in cache/*/llm/",
        ]
    )
    assert not Path(pytester.path, "cache").joinpath("x").exists()


UNKNOWN_ROOMS = """
@pytest.mark.logic_env(TASK("A"), rooms=["Attic"])
def test_garage(logic_env):
    assert logic_env.scene.rooms


@pytest.mark.logic_env(TASK("B"), rooms=["Bathrom"])
def test_typo(logic_env):
    assert logic_env.scene.rooms
"""


def test_an_unknown_room_is_the_markers_error_before_any_request(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer
) -> None:
    fake_llm.respond_with(planner)
    write_project(pytester, fake_llm, UNKNOWN_ROOMS)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=2)
    result.stdout.fnmatch_lines(
        [
            "*test_tasks.py::test_garage: rooms=[[]'Attic'[]]: unknown room type 'Attic'; known "
            "room types: LivingRoom, Kitchen, Bedroom, Bathroom, Study, LaundryRoom, DiningRoom, "
            "Garage, StorageRoom (also: *",
            "*test_tasks.py::test_typo: rooms=[[]'Bathrom'[]]: unknown room type 'Bathrom'; "
            "did you mean Bathroom? known room types: *",
        ]
    )
    assert fake_llm.requests == []
    assert not (pytester.path / "cache").exists() or not any(
        p.is_dir() for p in (pytester.path / "cache").iterdir()
    )
