"""A warm cache is read once per process: every item of a task and the report share it."""

from __future__ import annotations

import os
import time

import pytest
from plugin_project import entries, make_project

from pytest_logicenv.pipeline import entry_reads

pytest_plugins = ["pytester"]

THREE_TESTS = "".join(
    f"""
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_reset_{i}(logic_env):
    logic_env.run(correct).assert_ok()
"""
    for i in range(3)
)

#: Counts what the run parses: scenes, plans and the trajectories' cases.
COUNTING = """
import pytest_logicenv.pipeline.cached as cached
import pytest_logicenv.pipeline.entry_reads as reads

READS = {"scene": 0, "plan": 0}
real_scene, real_plan = reads.load_scene, cached.plan_from_json


def counting_scene(path):
    READS["scene"] += 1
    return real_scene(path)


def counting_plan(data, source):
    READS["plan"] += 1
    return real_plan(data, source)


def pytest_configure(config):
    reads.forget_all()
    reads.load_scene, cached.plan_from_json = counting_scene, counting_plan


def pytest_unconfigure(config):
    reads.load_scene, cached.plan_from_json = real_scene, real_plan


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(f"parsed: {READS['scene']} scenes, {READS['plan']} plans")
"""


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)


def _settle(pytester: pytest.Pytester) -> None:
    """Date the cache's files a minute back, as a committed cache is (a file written within
    the last seconds is read at every use)."""
    past = time.time() - 60
    for path in (pytester.path / "cache").rglob("*"):
        os.utime(path, (past, past))


def test_six_items_of_one_task_parse_its_two_scenes_and_its_plan_once(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, THREE_TESTS)
    pytester.runpytest().assert_outcomes(passed=6)  # generates the entry
    _settle(pytester)
    pytester.makeconftest(COUNTING)
    result = pytester.runpytest()
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(
        [
            "test_bath.py (3 tests)*4        4      4        4    100%",
            "parsed: 2 scenes, 1 plans",
        ]
    )


def test_a_scene_edited_between_items_is_read_again_and_its_damage_named(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, THREE_TESTS)
    pytester.runpytest().assert_outcomes(passed=6)
    _settle(pytester)
    [entry] = entries(pytester)
    scene = entry / "scenes" / "window=yes-light=yes.json"
    pytester.makeconftest(
        f"""
import pathlib

def pytest_runtest_teardown(item):
    if item.name == "test_reset_0[window=yes-light=yes]":  # read by now; damage it
        path = pathlib.Path({str(scene)!r})
        path.write_text(path.read_text()[:80])
"""
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=4, failed=2)
    result.stdout.fnmatch_lines([f"*this environment's cache entry is damaged: {scene}: *"])


#: Names every file collection hands to pytest's file collectors.
VISITED = """
def pytest_collect_file(file_path):
    print("VISITED", file_path)
"""


def test_collection_passes_over_the_cache_folder(pytester: pytest.Pytester) -> None:
    make_project(pytester, THREE_TESTS)
    pytester.runpytest().assert_outcomes(passed=6)
    pytester.makeconftest(VISITED)
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=6)
    visited = [line for line in result.outlines if line.startswith("VISITED")]
    assert any(line.endswith("test_bath.py") for line in visited)
    assert not [line for line in visited if f"{pytester.path / 'cache'}" in line]


def test_a_cache_folder_holding_a_test_is_walked_as_before(pytester: pytest.Pytester) -> None:
    make_project(pytester, THREE_TESTS)
    pytester.runpytest().assert_outcomes(passed=6)
    (pytester.path / "cache" / "test_by_hand.py").write_text("def test_here():\n    pass\n")
    pytester.runpytest().assert_outcomes(passed=7)


def test_a_second_run_reads_the_first_ones_record_and_parses_nothing(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, THREE_TESTS)
    pytester.runpytest().assert_outcomes(passed=6)
    _settle(pytester)
    pytester.makeconftest(COUNTING)
    pytester.runpytest().stdout.fnmatch_lines(["parsed: 2 scenes, 1 plans"])
    [entry] = entries(pytester)
    records = sorted(p.name for p in (pytester.path / ".logicenv" / "reads").iterdir())
    assert [name for name in records if name.startswith(entry.name)], records
    result = pytester.runpytest()  # memory forgotten at configure: only the record is left
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["parsed: 0 scenes, 0 plans"])


def test_a_scene_edited_after_the_record_with_its_time_put_back_is_still_caught(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(pytester, THREE_TESTS)
    pytester.runpytest().assert_outcomes(passed=6)
    _settle(pytester)
    pytester.runpytest().assert_outcomes(passed=6)  # writes the record
    [entry] = entries(pytester)
    scene = entry / "scenes" / "window=yes-light=yes.json"
    before = scene.stat()
    text = scene.read_text()
    at = next(i for i, c in enumerate(text) if c.isdigit())
    scene.write_text(text[:at] + str((int(text[at]) + 1) % 10) + text[at + 1 :])  # same size
    os.utime(scene, ns=(before.st_atime_ns, before.st_mtime_ns))  # as it was, but its ctime
    assert scene.stat().st_size == before.st_size
    assert scene.read_text() != text
    monkeypatch.setenv("CI", "1")
    result = pytester.runpytest()
    result.stdout.fnmatch_lines([f"*{scene} does not match the digest manifest.json records*"])
    assert result.ret != 0


#: Counts the checks of an entry's files (digests, content) a run makes.
CHECKS = """
import pytest_logicenv.pipeline.fresh_entry as fresh

CHECKED = []
real = fresh.read_fresh


def counting(entry, *args):
    CHECKED.append(entry.root.name)
    return real(entry, *args)


def pytest_configure(config):
    fresh.read_fresh = counting


def pytest_unconfigure(config):
    fresh.read_fresh = real


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(f"entry checks: {len(CHECKED)}")
"""


def test_the_marked_functions_of_one_task_share_one_check_of_its_entry(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, THREE_TESTS)
    pytester.runpytest().assert_outcomes(passed=6)
    pytester.makeconftest(CHECKS)
    result = pytester.runpytest()
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["entry checks: 1"])


def test_a_run_keeps_nothing_of_what_it_read_once_it_is_over(pytester: pytest.Pytester) -> None:
    make_project(pytester, THREE_TESTS)
    pytester.runpytest().assert_outcomes(passed=6)
    _settle(pytester)
    pytester.makeconftest(
        "from pytest_logicenv.pipeline import entry_reads\n\n\n"
        "def pytest_terminal_summary(terminalreporter):\n"
        "    terminalreporter.write_line(f'kept at the end: {entry_reads.held() > 0}')\n"
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["kept at the end: True"])  # until the run is over
    assert entry_reads.held() == 0  # saved in the record, then dropped


#: What the run has imported by its end, of what makes entries.
IMPORTED = """
import sys

MAKING = (
    "z3",
    "pytest_logicenv.llm.planner",
    "pytest_logicenv.scenes.design.entry",
    "pytest_logicenv.scenes.layout",
    "pytest_logicenv.session.generation",
    "pytest_logicenv.session.making",
    "pytest_logicenv.witness.finding",
)


def pytest_terminal_summary(terminalreporter):
    loaded = [name for name in MAKING if name in sys.modules]
    terminalreporter.write_line(f"making loaded: {', '.join(loaded) or 'nothing'}")
"""


@pytest.mark.slow
def test_a_run_from_a_warm_cache_loads_nothing_that_makes_entries(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, THREE_TESTS)
    pytester.makeconftest(IMPORTED)
    making = pytester.runpytest_subprocess()  # a process of its own: its own imports
    making.assert_outcomes(passed=6)
    making.stdout.fnmatch_lines(["making loaded: z3, *pytest_logicenv.session.making*"])
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["making loaded: nothing"])
