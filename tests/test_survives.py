"""The faults the cache and the plugin survive, each through the path a user takes: a pytest
run of a small project (pytester), its real cache directory, a real local HTTP server for the
LLM. Each test is one fault of issue 12's hostile session; its name says what survives.

Sections: coverage only from runs that happened; a cache that is never trusted blindly; a
cache that never loses data; errors confined to one test; report targets; plans checked;
policies that act only through actions; bounded inputs; LLM requests; strict CI; reproducible
runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_llm import FakeLLMServer, answer, trickled
from helpers import ROOT
from plugin_project import (
    CORRECT_TEST,
    PLAN,
    TASK,
    entries,
    llm_steps,
    make_project,
    no_llm,
    serve_plan,
)

from pytest_logicenv.cli import main

pytest_plugins = ["pytester"]

IDLE_TEST = """
import py_trees


def idle():  # does nothing: passes only where nothing needs doing
    return py_trees.behaviours.Success(name="Idle")


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_idle(logic_env):
    logic_env.run(idle).assert_ok()
"""

LLM_TEST = """
@pytest.mark.logic_env(TASK)
def test_llm(logic_env):
    logic_env.run(correct).assert_ok()
"""


def _edit_json(path: Path, edit: object) -> None:
    data = json.loads(path.read_text())
    edit(data)  # type: ignore[operator]
    path.write_text(json.dumps(data, indent=2))


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _scene_files(entry: Path) -> list[Path]:
    return sorted(
        p for p in (entry / "scenes").glob("*.json") if not p.name.endswith(".house.json")
    )


# --------------------------------------------------------------------------- a cache never trusted


def test_emptied_goals_in_trajectories_json_are_rebuilt_not_trusted(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, IDLE_TEST)
    pytester.runpytest().assert_outcomes(passed=1, failed=1)
    [entry] = entries(pytester)
    trajectories = entry / "trajectories.json"
    made = trajectories.read_bytes()

    def empty_goals(data: dict[str, list[dict[str, object]]]) -> None:
        for record in data["trajectories"]:
            record["goal"] = []

    _edit_json(trajectories, empty_goals)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1, warnings=1)  # the do-nothing policy still fails
    result.stdout.fnmatch_lines(
        [
            f"*CacheRebuilt: cache entry {entry.name} was rebuilt: {trajectories} does not match"
            " the digest manifest.json records (edited by hand, or damaged)"
        ]
    )
    assert trajectories.read_bytes() == made


def test_a_scene_edited_to_contradict_its_situation_is_rebuilt(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    scene = next(p for p in _scene_files(entry) if "window=yes" in p.name)
    made = scene.read_bytes()

    def close_the_window(data: dict[str, list[dict[str, object]]]) -> None:
        for window in data["windows"]:
            window["open"] = False

    _edit_json(scene, close_the_window)
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines([f"*was rebuilt: {scene} does not match the digest*"])
    assert scene.read_bytes() == made


def _fix_digest(entry: Path, *names: str) -> None:
    """What a hand edit that means to hide itself does: the manifest's digests made to match."""

    def fix(manifest: dict[str, Any]) -> None:
        for name in names:
            digest = hashlib.sha256((entry / name).read_bytes()).hexdigest()
            manifest["files"][name] = digest
            if name == "plan.json":
                manifest["plan"]["sha256"] = digest

    _edit_json(entry / "manifest.json", fix)


def test_emptied_goals_behind_a_fixed_digest_are_rebuilt_from_the_plan(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, IDLE_TEST)
    pytester.runpytest().assert_outcomes(passed=1, failed=1)
    [entry] = entries(pytester)
    made = (entry / "trajectories.json").read_bytes()

    def empty_goals(data: dict[str, list[dict[str, object]]]) -> None:
        for record in data["trajectories"]:
            record["goal"] = []

    _edit_json(entry / "trajectories.json", empty_goals)
    _fix_digest(entry, "trajectories.json")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1, warnings=1)  # the do-nothing policy still fails
    result.stdout.fnmatch_lines(
        ["*was rebuilt: * does not follow from *plan.json: the record of * differs in its goal*"]
    )
    assert (entry / "trajectories.json").read_bytes() == made


@pytest.mark.parametrize(
    ("forge", "problem"),
    [
        ("close", "does not hold its situation: *does not realize*"),
        ("open_yes", "'open' must be true or false, got 'yes'"),
        ("id_5", "'id' must be a string, got 5"),
        ("no_agent", "does not hold its situation: it places no agent"),
    ],
)
def test_a_forged_scene_behind_a_fixed_digest_is_rebuilt_not_used(
    pytester: pytest.Pytester, forge: str, problem: str
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    scene = next(p for p in _scene_files(entry) if "window=yes" in p.name)
    made = scene.read_bytes()

    def edit(data: dict[str, Any]) -> None:
        if forge == "close":
            data["windows"][0]["open"] = False
        elif forge == "open_yes":
            data["windows"][0]["open"] = "yes"
        elif forge == "id_5":
            data["objects"][0]["id"] = 5
        else:
            data["agent"] = None

    _edit_json(scene, edit)
    _fix_digest(entry, f"scenes/{scene.name}")
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines([f"*was rebuilt: *{problem}*"])
    assert scene.read_bytes() == made


def test_trajectories_are_checked_against_plan_json_itself_not_its_recorded_hash(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    _edit_json(entry / "plan.json", lambda plan: plan["subtasks"].pop())  # drop the light
    _fix_digest(entry, "plan.json")
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines(
        ["*was rebuilt: *trajectories.json was made from another plan.json"]
    )


def test_a_hand_edited_plan_json_of_a_plan_file_test_is_kept_until_the_file_changes(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    plan_json = entry / "plan.json"
    _edit_json(plan_json, lambda plan: plan["subtasks"].pop())  # drop the light subtask
    edited = json.loads(plan_json.read_text())
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines(
        ["*test_reset[[]window=yes[]] PASSED*", "*was rebuilt: plan.json was edited"]
    )
    assert json.loads(plan_json.read_text()) == edited  # kept while the file is unchanged
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["plan"]["made_by"] == "hand-edited (hand-written)"
    pytester.runpytest().assert_outcomes(passed=2, warnings=0)  # fresh from now on

    _edit_json(pytester.path / "plan.json", lambda plan: plan.update(task=TASK + " "))
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=2, warnings=1)  # the marker's file changed: it wins
    result.stdout.fnmatch_lines(
        [
            "*test_reset[[]window=yes-light=yes[]] PASSED*",
            "*was rebuilt: the plan file * changed; it replaced the hand edits of the cached "
            "plan.json (edit the plan file itself)",
        ]
    )
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["plan"]["made_by"] == "hand-written"
    assert "replaced the hand edits of the cached plan.json" in manifest["notes"][0]


def test_an_entry_of_a_newer_format_is_never_downgraded(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    _edit_json(entry / "manifest.json", lambda m: m.update(format="logicenv-cache/99"))
    before = _snapshot(entry)
    for args in ((), ("--logicenv-regenerate",)):
        result = pytester.runpytest(*args)
        result.assert_outcomes(errors=1)
        result.stdout.fnmatch_lines(["*written by a newer pytest-logicenv (cache format 99*"])
        assert _snapshot(entry) == before


# --------------------------------------------------------------------------- a cache never loses


def test_a_missing_manifest_keeps_the_llm_plan_beside_it(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_plan(fake_llm, monkeypatch)
    make_project(pytester, LLM_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    plan = (entry / "plan.json").read_bytes()
    exchanges = _snapshot(entry / "llm")
    (entry / "manifest.json").unlink()
    no_llm(monkeypatch)
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines([f"*was rebuilt: {entry / 'manifest.json'} is missing"])
    assert (entry / "plan.json").read_bytes() == plan
    assert _snapshot(entry / "llm") == exchanges


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        ("{ not json", "corrupt (Expecting property name enclosed in double quotes*"),
        ("[]", "not a manifest object"),
        ('{"format": 3}', "its format 3"),
        ('{"format": "logicenv-cache/2", "files": "nope"}', "'files' is not a map of digests"),
    ],
    ids=["not-json", "not-an-object", "no-format", "no-digests"],
)
def test_a_corrupt_manifest_keeps_the_llm_plan_beside_it_as_a_missing_one_does(
    pytester: pytest.Pytester,
    fake_llm: FakeLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    damage: str,
    why: str,
) -> None:
    serve_plan(fake_llm, monkeypatch)
    make_project(pytester, LLM_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    plan = (entry / "plan.json").read_bytes()
    exchanges = _snapshot(entry / "llm")
    manifest = entry / "manifest.json"
    manifest.write_text(damage)
    no_llm(monkeypatch)
    monkeypatch.setenv("CI", "1")  # strict: read only, and the fix keeps the plan
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            f"*its cache entry must be rebuilt ({manifest}*",
            '*fix: run pytest "test_bath.py::test_llm" where the cache may be written (no CI '
            "variable, no --logicenv-offline): the rebuild asks no LLM; then commit cache/",
        ]
    )
    assert "--logicenv-regenerate" not in result.stdout.str()
    monkeypatch.delenv("CI")
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines([f"*was rebuilt: {manifest} is damaged ({why})"])
    assert (entry / "plan.json").read_bytes() == plan
    assert _snapshot(entry / "llm") == exchanges
    recorded = json.loads(manifest.read_text())["plan"]["made_by"]
    assert recorded == "unknown (plan.json kept: its manifest.json was damaged)"


def test_rebuilding_an_entry_keeps_its_recorded_llm_exchanges(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_plan(fake_llm, monkeypatch)
    make_project(pytester, LLM_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    exchanges = _snapshot(entry / "llm")
    assert len(exchanges) == 3
    scene = _scene_files(entry)[0]
    scene.write_text(scene.read_text() + " ")  # damaged: rebuilt from plan.json, no LLM
    no_llm(monkeypatch)
    pytester.runpytest().assert_outcomes(passed=2, warnings=1)
    assert _snapshot(entry / "llm") == exchanges


# A rewrite of an entry that dies (SIGKILL) between its two renames: the old entry is aside.
KILLED_BETWEEN_RENAMES = """
import os, signal, sys
from pathlib import Path
from pytest_logicenv.cache import Cache

renames = []
real_replace = os.replace

def replace(source, target):
    renames.append(target)
    if len(renames) == 2:  # the old entry is aside, the new one not yet in
        os.kill(os.getpid(), signal.SIGKILL)
    real_replace(source, target)

os.replace = replace
cache = Cache(Path(sys.argv[1]))
with cache.lock(sys.argv[2]):
    cache.write_entry(sys.argv[2], {"manifest.json": b"{}"})
"""


def test_a_rewrite_killed_between_its_renames_is_restored_by_the_next_run(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_plan(fake_llm, monkeypatch)
    make_project(pytester, LLM_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    before = _snapshot(entry)
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_BETWEEN_RENAMES, str(entry.parent), entry.name],
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    assert not entry.exists()  # hidden aside, not lost
    # Its plan came from a model, which this run has not: only restoring the entry passes.
    no_llm(monkeypatch)
    result = pytester.runpytest("-v", "--logicenv-offline")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*test_llm[[]window=yes-light=yes[]] PASSED*"])
    assert "rebuilt" not in result.stdout.str()
    assert _snapshot(entry) == before  # the plan, its scenes and its LLM exchanges, as they were
    assert len(fake_llm.requests) == 3


# --------------------------------------------------------------------------- errors confined


def test_a_lock_path_that_is_a_directory_errors_only_its_test(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST + "\n\ndef test_unrelated():\n    pass\n")
    pytester.runpytest().assert_outcomes(passed=3)
    [entry] = entries(pytester)
    lock = entry.parent / f".{entry.name}.lock"
    lock.unlink()
    lock.mkdir()
    (entry / "manifest.json").unlink()  # so that the entry must be rebuilt, under the lock
    result = pytester.runpytest("--junitxml=junit.xml")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([f"*{lock}: cannot lock the cache entry (is a directory)*"])
    assert (pytester.path / "junit.xml").is_file()


# The disk under the cache as the OS would present it (we run as root here, so chmod cannot
# make a folder read-only); the run restores the real functions when it ends.
READ_ONLY_DISK = """
import errno, os

real_open, real_mkdir = os.open, os.mkdir


def _in_cache(path):
    return "{os.sep}cache" in os.fspath(path)


def read_only_open(path, flags, *args, **kwargs):
    if _in_cache(path) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
        raise OSError(errno.EROFS, "Read-only file system", os.fspath(path))
    return real_open(path, flags, *args, **kwargs)


def read_only_mkdir(path, *args, **kwargs):
    if _in_cache(path):
        raise OSError(errno.EROFS, "Read-only file system", os.fspath(path))
    return real_mkdir(path, *args, **kwargs)


def pytest_configure(config):
    os.open, os.mkdir = read_only_open, read_only_mkdir


def pytest_unconfigure(config):
    os.open, os.mkdir = real_open, real_mkdir
"""


def test_a_read_only_cache_serves_fresh_entries_and_errors_only_the_stale_ones(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    pytester.makepyfile(
        test_new=f"""
import pytest
from policies import correct

@pytest.mark.logic_env({TASK + " Quietly."!r}, plan="plan.json")
def test_new(logic_env):
    logic_env.run(correct).assert_ok()
"""
    )
    pytester.makeconftest(READ_ONLY_DISK.replace("{os.sep}", os.sep))  # the disk, as a user's
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*.lock: cannot lock the cache entry (read-only file system)*"])


FULL_DISK = """
import errno, pathlib

real_write_bytes = pathlib.Path.write_bytes


def full_disk(self, data):
    if "cache" in self.parts:
        raise OSError(errno.ENOSPC, "No space left on device", str(self))
    return real_write_bytes(self, data)


def pytest_configure(config):
    pathlib.Path.write_bytes = full_disk


def pytest_unconfigure(config):
    pathlib.Path.write_bytes = real_write_bytes
"""


def test_a_full_disk_errors_the_tests_it_stops_and_leaves_no_half_entry(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST + "\n\ndef test_unrelated():\n    pass\n")
    pytester.makeconftest(FULL_DISK)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*cannot write cache entry * (no space left on device)*"])
    assert not entries(pytester)
    assert not [p for p in (pytester.path / "cache").iterdir() if p.is_dir()]


def test_a_wrong_typed_scene_file_behind_a_forged_digest_is_rebuilt_and_keeps_the_junit(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    scene = _scene_files(entry)[0]
    scene.write_text(scene.read_text().replace('"objects": [', '"objects": "nope", "x": ['))
    digest = hashlib.sha256(scene.read_bytes()).hexdigest()  # a digest forged to match
    _edit_json(
        entry / "manifest.json",
        lambda m: m["files"].update({f"scenes/{scene.name}": digest}),
    )
    result = pytester.runpytest("--junitxml=junit.xml")
    result.assert_outcomes(passed=2, warnings=1)
    result.stdout.fnmatch_lines(
        [
            f"*was rebuilt: {scene} does not hold its situation: {scene}: malformed scene "
            "(TypeError: 'objects' must be a list of objects, got 'nope')*",
            "*logic coverage*",
        ]
    )
    assert (pytester.path / "junit.xml").is_file()


@pytest.mark.parametrize("cache_dir", [".", "..", "cache/.."])
def test_a_cache_dir_at_or_above_the_rootdir_is_refused(
    pytester: pytest.Pytester, cache_dir: str
) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest(f"--logicenv-cache-dir={cache_dir}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*is the rootdir or above it*hide the project's dotfiles*"])
    assert not (pytester.path / ".gitignore").exists()


def test_a_cache_path_that_is_a_file_is_a_usage_error(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    (pytester.path / "cache").write_text("not a folder")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*the cache directory 'cache' (*) is a file, not a directory*"])


# --------------------------------------------------------------------------- paths it writes


def _scene_of(entry: Path) -> Path:
    return next(p for p in _scene_files(entry) if not p.name.endswith(".witness.json"))


@pytest.mark.parametrize("through_link", [False, True], ids=["direct", "symlinked-folder"])
@pytest.mark.parametrize("name", ["manifest.json", "trajectories.json"])
def test_export_never_overwrites_a_cache_entrys_files(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str], name: str, through_link: bool
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    before = _snapshot(entry)
    folder = entry
    if through_link:
        folder = pytester.path / "elsewhere"
        folder.symlink_to(entry)
    target = folder / name
    assert main(["export", str(_scene_of(entry)), "-o", str(target)]) == 2
    error = capsys.readouterr().err
    assert f"{target} is a file of the cache entry {entry}" in error
    assert _snapshot(entry) == before
    pytester.runpytest().assert_outcomes(passed=2, warnings=0)  # the entry is still fresh


def test_export_to_a_directory_is_a_clear_error(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    folder = pytester.mkdir("out")
    assert main(["export", str(_scene_of(entry)), "-o", str(folder)]) == 2
    error = capsys.readouterr().err
    assert f"{folder} is a directory; give a file path" in error
    assert "Traceback" not in error
    assert "IsADirectoryError" not in error


def test_a_report_over_a_cache_entrys_file_is_a_usage_error(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    before = _snapshot(entry)
    spec = f"json:cache/{entry.name}/trajectories.json"
    result = pytester.runpytest(f"--logicenv-report={spec}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--logicenv-report={spec}: * is a file of the cache entry*"])
    assert _snapshot(entry) == before


@pytest.mark.parametrize("cache_dir", [".git", ".git/logicenv"])
def test_a_cache_dir_inside_git_is_refused(pytester: pytest.Pytester, cache_dir: str) -> None:
    make_project(pytester, CORRECT_TEST)
    git = pytester.mkdir(".git")
    result = pytester.runpytest(f"--logicenv-cache-dir={cache_dir}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*is inside a .git folder, git's own files*"])
    assert list(git.iterdir()) == []


def test_clean_never_removes_the_entry_of_a_test_it_runs(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    tests = pytester.mkdir("tests")
    (pytester.path / "test_bath.py").rename(tests / "test_bath.py")
    extra = pytester.mkdir("extra")
    for folder in (tests, extra):  # each marker's plan= is relative to its test file
        (folder / "plan.json").write_text((pytester.path / "plan.json").read_text())
    (extra / "test_c.py").write_text(
        f"import pytest\nfrom policies import *\n\nTASK = {TASK + ' Quietly.'!r}\n"
        + CORRECT_TEST.replace("test_reset", "test_c")
    )
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\ntestpaths = tests\n")
    pytester.runpytest().assert_outcomes(passed=2)
    for _ in range(2):
        result = pytester.runpytest("extra/test_c.py", "--logicenv-clean")
        result.assert_outcomes(passed=2)
        assert "removed cache entr" not in result.stdout.str()
    assert len(entries(pytester)) == 2


# --------------------------------------------------------------------------- strict CI


def test_in_ci_a_deleted_entry_is_an_error_not_silently_regenerated(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    for path in sorted(entry.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    entry.rmdir()
    monkeypatch.setenv("CI", "1")
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*test_bath.py::test_reset: its cache entry must be rebuilt (it has no cache entry "
            "yet), and regeneration is not allowed here",
            "*strict mode (the CI variable is set, or --logicenv-offline) only reads the cache",
            '*fix: run pytest --logicenv-regenerate "test_bath.py::test_reset" and commit cache/',
        ]
    )
    assert not entries(pytester)
    pytester.runpytest("--logicenv-regenerate").assert_outcomes(passed=2)


def test_in_ci_a_task_without_a_cached_plan_says_so(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(pytester, LLM_TEST)
    monkeypatch.setenv("CI", "1")
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*test_bath.py::test_llm: there is no cached plan for this task",
            "*LLM calls are off (--logicenv-offline, or the CI variable is set; "
            "--logicenv-allow-ci allows them under CI)",
        ]
    )


def test_in_ci_regenerating_an_llm_entry_says_it_needs_the_model_and_writes_nothing(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_plan(fake_llm, monkeypatch)
    make_project(pytester, LLM_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    cache = _snapshot(entry.parent)
    monkeypatch.setenv("CI", "1")
    result = pytester.runpytest("--logicenv-regenerate")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*test_bath.py::test_llm: --logicenv-regenerate derives its plan anew with an LLM, "
            "and LLM calls are off here (the CI variable is set, or --logicenv-offline)",
            f"*cache entry: cache/{entry.name} (left as it is)",
            "*fix: regenerate it where an LLM is available and commit cache/,",
            "*or allow the LLM under CI: --logicenv-allow-ci (ini: logicenv_allow_ci = true),",
            "*or leave out --logicenv-regenerate to run from the cached entry",
        ]
    )
    assert "no cached plan" not in result.stdout.str()
    assert _snapshot(entry.parent) == cache  # no .failed record, no lock: strict writes nothing
    assert len(fake_llm.requests) == 3
    # Told explicitly, on the command line or in the ini file, CI may call the model.
    serve_plan(fake_llm, monkeypatch)
    pytester.runpytest("--logicenv-regenerate", "--logicenv-allow-ci").assert_outcomes(passed=2)
    assert len(fake_llm.requests) == 6
    serve_plan(fake_llm, monkeypatch)
    pytester.makeini(
        "[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\nlogicenv_allow_ci = true\n"
    )
    pytester.runpytest("--logicenv-regenerate").assert_outcomes(passed=2)
    assert len(fake_llm.requests) == 9


def test_in_ci_a_stale_entry_names_the_file_that_made_it_stale(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    scene = _scene_files(entry)[0]
    scene.write_text(scene.read_text() + " ")
    before = _snapshot(entry)
    monkeypatch.setenv("CI", "1")
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines([f"*must be rebuilt ({scene} does not match the digest*"])
    assert _snapshot(entry) == before
    assert PLAN["task"] == TASK


# --------------------------------------------------------------------------- unused entries


SHARED_TEST = """
import pytest
from policies import correct

TASK = {task!r}

@pytest.mark.logic_env(TASK, plan="plan.json")
def test_shared(logic_env):
    logic_env.run(correct).assert_ok()
"""


def test_clean_after_running_one_file_keeps_what_another_file_uses(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makepyfile(test_other=SHARED_TEST.format(task=TASK))  # the same task: one entry
    pytester.runpytest().assert_outcomes(passed=4)
    [shared] = entries(pytester)
    make_project(pytester, CORRECT_TEST, task=TASK + " Quietly.")
    result = pytester.runpytest("test_bath.py", "--logicenv-clean")
    result.assert_outcomes(passed=2)
    assert shared.exists()  # test_other.py still uses it
    assert "removed cache entr" not in result.stdout.str()

    (pytester.path / "test_other.py").unlink()
    result = pytester.runpytest("test_bath.py", "--logicenv-clean")
    result.stdout.fnmatch_lines(["*logicenv: 1 removed cache entry*", f"  {shared}"])
    assert not shared.exists()


def test_clean_removes_nothing_while_a_test_module_cannot_be_collected(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.runpytest().assert_outcomes(passed=2)
    [entry] = entries(pytester)
    pytester.makepyfile(test_broken="import no_such_module\n")
    (pytester.path / "test_bath.py").unlink()
    result = pytester.runpytest("--logicenv-clean")
    result.stdout.fnmatch_lines(
        ["*logicenv: no cache entry removed*", "*1 test(s) of the project could not be collected*"]
    )
    assert entry.exists()


# --------------------------------------------------------------------------- reproducible runs


def test_the_cache_key_is_the_same_from_any_working_directory(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(pytester, CORRECT_TEST)
    suite = pytester.mkdir("suite")
    for name in ("plan.json", "policies.py", "test_bath.py"):
        (pytester.path / name).rename(suite / name)
    (pytester.path / "tox.ini").unlink()  # no configuration file: the rootdir follows the cwd
    cache = pytester.path / "cache"
    runs = ((pytester.path, []), (suite, []), (pytester.path.parent, [str(suite / "test_bath.py")]))
    for cwd, args in runs:
        monkeypatch.chdir(cwd)
        result = pytester.runpytest(
            f"--logicenv-cache-dir={cache}", "-p", "no:cacheprovider", *args
        )
        result.assert_outcomes(passed=2)
    assert len(entries(pytester)) == 1


def test_reproduce_and_regenerate_lines_carry_the_options_that_change_the_outcome(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_reset(logic_env):
    logic_env.run(forgets_the_light).assert_ok()
""",
    )
    result = pytester.runpytest("--logicenv-max-ticks=50", "--logicenv-cache-dir=envs")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "reproduce: pytest --logicenv-cache-dir=envs --logicenv-max-ticks=50 "
            '"test_bath.py::test_reset[[]window=yes-light=yes[]]"'
        ]
    )
    result = pytester.runpytest(
        "-k", "reset", "-o", "logicenv_max_ticks=50", "-o", "xfail_strict=1"
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ['reproduce: pytest -o logicenv_max_ticks=50 "test_bath.py::test_reset[[]window=yes-*'],
    )
    monkeypatch.setenv("CI", "1")
    (pytester.path / "plan.json").write_text(json.dumps({**PLAN, "task": TASK + " "}))
    result = pytester.runpytest("--logicenv-cache-dir=envs")
    result.stdout.fnmatch_lines(
        [
            "*fix: run pytest --logicenv-regenerate --logicenv-cache-dir=envs "
            '"test_bath.py::test_reset" and commit envs/'
        ]
    )


# --------------------------------------------------------------------------- plans checked


def _plan_file_errors(pytester: pytest.Pytester, edit: object) -> list[str]:
    """The error lines of a run whose hand-written plan file was edited so."""
    make_project(pytester, CORRECT_TEST + "\n\ndef test_unrelated():\n    pass\n")
    _edit_json(pytester.path / "plan.json", edit)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    assert not entries(pytester)
    return [line for line in result.stdout.lines if line.startswith("  [")]


def test_contradictory_goal_facts_in_a_plan_file_are_an_error_not_an_unreachable_policy(
    pytester: pytest.Pytester,
) -> None:
    def contradict(plan: dict[str, Any]) -> None:
        goal = plan["subtasks"][0]["tree"]["branches"]["yes"]["goal"]
        goal.append({"state": "window", "open": True})

    assert _plan_file_errors(pytester, contradict) == [
        "  [facts] subtasks[0](window).tree.branches.yes.goal: the goal facts contradict each "
        "other: 'window is not open' and 'window is open' cannot both hold, so every policy, a "
        "correct one too, would end unreachable; fix one of them"
    ]


def test_two_answers_no_scene_tells_apart_in_a_plan_file_are_an_error(
    pytester: pytest.Pytester,
) -> None:
    def same_facts(plan: dict[str, Any]) -> None:
        realization = plan["subtasks"][1]["factors"][0]["realization"]
        realization["no"] = realization["yes"]

    [line] = _plan_file_errors(pytester, same_facts)
    assert line.startswith("  [facts] subtasks[1](light).factors[0](light).realization.no: the ")
    assert "the same as those of 'yes', so no scene tells them apart" in line


def _book_on_the_floor_or_anywhere(plan: dict[str, Any]) -> None:
    """The window's values made of a book anywhere (yes) and a book on the floor (no)."""
    book = {"exists": "Book", "as": "book"}
    plan["subtasks"][0]["factors"][0]["realization"] = {
        "yes": [book],
        "no": [{**book, "where": {"on": "Floor"}}],
    }


IMPLIED = (
    "  [facts] subtasks[0](window).factors[0](window).realization.yes: every scene for 'no' "
    "also makes the facts of 'yes' true (a Book (book) on Floor is all that sets 'no' apart), "
    "so no scene tells 'yes' apart from 'no'; give 'yes' a fact that rules out 'no', e.g. "
    '{"not": {"exists": "Book", "where": {"on": "Floor"}}}'
)


def test_an_answer_whose_facts_imply_anothers_in_a_plan_file_is_an_error(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    assert IMPLIED in _plan_file_errors(pytester, _book_on_the_floor_or_anywhere)
    assert main(["plan", "--check", str(pytester.path / "plan.json")]) == 1
    assert IMPLIED in capsys.readouterr().out.splitlines()


def _window_realization(plan: dict[str, Any], value: str, facts: list[Any]) -> None:
    plan["subtasks"][0]["factors"][0]["realization"][value] = facts


OPEN, SHUT = {"state": "window", "open": True}, {"state": "window", "open": False}


def test_a_realization_that_holds_in_every_scene_is_an_error(pytester: pytest.Pytester) -> None:
    errors = _plan_file_errors(
        pytester, lambda plan: _window_realization(plan, "no", [{"or": [OPEN, SHUT]}])
    )
    assert errors == [
        "  [facts] subtasks[0](window).factors[0](window).realization.no: the facts of 'no' "
        "hold in every scene ((window is open) or (window is not open) is always true), so no "
        "scene tells it apart from the other values; give it facts that only it makes true"
    ]


def test_an_unsatisfiable_answer_is_blamed_on_itself_not_on_another(
    pytester: pytest.Pytester,
) -> None:
    errors = _plan_file_errors(
        pytester, lambda plan: _window_realization(plan, "yes", [OPEN, SHUT])
    )
    assert errors == [
        "  [facts] subtasks[0](window).factors[0](window).realization.yes: the facts of 'yes' "
        "contradict each other: 'window is open' and 'window is not open' cannot both hold, "
        "so no scene has 'yes'; fix one of them"
    ]


def test_holding_what_cannot_be_picked_up_is_a_plan_error(pytester: pytest.Pytester) -> None:
    def hold_the_window(plan: dict[str, Any]) -> None:
        plan["subtasks"][0]["tree"]["branches"]["yes"]["goal"] = [{"held": "window"}]

    errors = _plan_file_errors(pytester, hold_the_window)
    assert errors == [
        "  [goal] subtasks[0](window).tree.branches.yes.goal[0]: nothing makes window (a "
        "Window) held: PickUp needs it pickupable, and a Window is not pickupable"
    ]


def test_an_unknown_key_in_a_plan_file_is_one_error_that_names_it(
    pytester: pytest.Pytester,
) -> None:
    assert _plan_file_errors(pytester, lambda plan: plan.update(setings=plan.pop("setting"))) == [
        "  [syntax] setings: unknown key 'setings' (did you mean 'setting'?); comments go under "
        "keys starting _"
    ]


# --------------------------------------------------------------------------- coverage that ran


NOT_RUN_TESTS = """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_skipped(logic_env):
    pytest.skip("not today")


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_never_runs_a_policy(logic_env):
    assert logic_env.scene is not None


@pytest.mark.skip(reason="skipped before its fixture")
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_skipped_by_marker(logic_env):
    logic_env.run(correct).assert_ok()
"""


def test_skipped_tests_and_tests_that_run_no_policy_cover_nothing(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, NOT_RUN_TESTS)
    result = pytester.runpytest("--logicenv-fail-under=100")
    result.assert_outcomes(passed=2, skipped=4)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "test_bath.py (3 tests)*4        0      4        0      0%",
            # the 2 skipped by their marker too, which never set their fixture up
            "scenes: 0 ran a policy, 6 did not (skipped, not reached, or no logic_env.run() "
            "reached an outcome) and cover nothing",
            "FAIL Required LogCov of 100% not reached. Total LogCov: 0.00%",
        ]
    )


def test_fail_under_fails_when_every_marked_test_was_skipped_before_running(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, NOT_RUN_TESTS[NOT_RUN_TESTS.index("@pytest.mark.skip(") :])
    result = pytester.runpytest("--logicenv-fail-under=100")
    result.assert_outcomes(skipped=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(  # their task is listed, at 0%, and counted
        [
            "*test_skipped_by_marker*0%",
            "FAIL Required LogCov of 100% not reached. Total LogCov: 0.00%",
        ]
    )


def test_an_answer_whose_id_starts_another_is_not_coloured_covered_by_it(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)

    def prefix_ids(plan: dict[str, Any]) -> None:
        window = plan["subtasks"][0]
        factor = window["factors"][0]
        factor["domain"] = ["open", "open_wide"]
        factor["answers"] = {"open": "SHUT", "open_wide": "WIDE OPEN"}
        realization = factor["realization"]
        factor["realization"] = {"open_wide": realization["yes"], "open": realization["no"]}
        branches = window["tree"]["branches"]
        window["tree"]["branches"] = {"open_wide": branches["yes"], "open": branches["no"]}

    _edit_json(pytester.path / "plan.json", prefix_ids)
    result = pytester.runpytest(
        "-k", "open_wide", "--logicenv-report=html:html", "-p", "no:randomly"
    )
    result.assert_outcomes(passed=1, deselected=1)
    page = (pytester.path / "html" / "index.html").read_text()
    assert '<span class="covered">WIDE OPEN</span>' in page
    assert '<span class="missed">SHUT</span>' in page


THREE_TASKS = """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_runs(logic_env):
    logic_env.run(correct).assert_ok()


@pytest.mark.skip(reason="not today")
@pytest.mark.logic_env(TASK + " Quietly.", plan="plan.json")
def test_skipped(logic_env):
    logic_env.run(correct).assert_ok()


@pytest.mark.skipif(True, reason="not here")
@pytest.mark.logic_env(TASK + " Slowly.", plan="plan.json")
def test_skipped_if(logic_env):
    logic_env.run(correct).assert_ok()
"""


def test_tasks_skipped_by_their_marker_are_listed_at_0_percent_and_counted_in_total(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, THREE_TASKS)
    result = pytester.runpytest(
        "--logicenv-fail-under=100", "--logicenv-report=term", "--logicenv-report=json:cov.json"
    )
    result.assert_outcomes(passed=2, skipped=4)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            "test_bath.py::test_runs * 100%",
            "test_bath.py::test_skipped * 0%",
            "test_bath.py::test_skipped_if * 0%",
            "TOTAL * 33%",
            "FAIL Required LogCov of 100% not reached. Total LogCov: 33.33%",
        ]
    )
    tasks = json.loads((pytester.path / "cov.json").read_text())["tasks"]
    assert sorted(task["LogCov"] for task in tasks.values()) == [0, 0, 100]


QUOTED_ID_TEST = """
@pytest.mark.parametrize("how", [1], ids=["$(touch PWNED)"])
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_reset(logic_env, how):
    logic_env.run(forgets_the_light).assert_ok()
"""


def test_a_reproduce_line_is_shell_quoted_so_pasting_it_runs_nothing_else(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, QUOTED_ID_TEST)
    result = pytester.runpytest()
    [line] = [line for line in result.stdout.lines if line.startswith("reproduce: pytest ")]
    command = line.removeprefix("reproduce: ")
    shown = subprocess.run(
        ["bash", "-c", "printf '%s\\n' " + command.removeprefix("pytest ")],
        cwd=pytester.path,
        capture_output=True,
        text=True,
        check=True,
    )
    [nodeid] = shown.stdout.splitlines()
    assert nodeid.startswith("test_bath.py::test_reset[")
    assert "$(touch PWNED)" in nodeid
    assert not (pytester.path / "PWNED").exists()


# --------------------------------------------------------------------------- report targets


def test_a_report_written_to_a_symlink_goes_through_it(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    (pytester.path / "out").mkdir()
    link = pytester.path / "cov.json"
    link.symlink_to(pytester.path / "out" / "real.json")
    pytester.runpytest("--logicenv-report=json:cov.json").assert_outcomes(passed=2)
    assert link.is_symlink()
    assert json.loads((pytester.path / "out" / "real.json").read_text())["total"]["LogCov"] == 100


def test_a_report_to_dash_goes_to_standard_output(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    result = pytester.runpytest("--logicenv-report=markdown:-")
    result.stdout.fnmatch_lines(["## Logic coverage", "| **TOTAL** | 4 | 4 | 4 | 4 | **100%** |"])
    assert not (pytester.path / "-").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_report_written_to_a_fifo_is_read_from_it(pytester: pytest.Pytester) -> None:
    import threading

    make_project(pytester, CORRECT_TEST)
    fifo = pytester.path / "cov.pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    pytester.runpytest("--logicenv-report=json:cov.pipe").assert_outcomes(passed=2)
    reader.join(timeout=30)
    assert json.loads(received[0])["format"].startswith("logicenv-report/")
    assert fifo.is_fifo()


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("json:folder", "is a directory; give a file path (or - for standard output)"),
        ("markdown:nowhere/cov.md", "cannot be written: its folder * does not exist"),
        ("html:cov.txt", "is a file; the HTML report needs a directory"),
    ],
)
def test_a_report_target_that_cannot_be_written_is_a_usage_error_before_tests_run(
    pytester: pytest.Pytester, spec: str, problem: str
) -> None:
    make_project(pytester, CORRECT_TEST)
    (pytester.path / "folder").mkdir()
    (pytester.path / "cov.txt").write_text("")
    result = pytester.runpytest(f"--logicenv-report={spec}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--logicenv-report={spec}: * {problem}*"])
    assert not entries(pytester)  # nothing ran, nothing generated


FULL_DISK_FOR_REPORTS = """
import errno, os
import pytest_logicenv.atomic as atomic

real_fdopen = os.fdopen


class Full:
    def __init__(self, handle):
        self.handle = handle

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()

    def write(self, text):
        self.handle.write(text[:4096])
        raise OSError(errno.ENOSPC, "No space left on device")


def full_fdopen(fd, *args, **kwargs):
    handle = real_fdopen(fd, *args, **kwargs)
    return Full(handle) if "cov.json" in os.readlink(f"/proc/self/fd/{fd}") else handle


def pytest_configure(config):
    atomic.os.fdopen = full_fdopen


def pytest_unconfigure(config):
    atomic.os.fdopen = real_fdopen
"""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc/self/fd")
def test_a_report_a_full_disk_stops_fails_the_run_naming_it_and_keeps_the_old_one(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CORRECT_TEST)
    pytester.makeconftest(FULL_DISK_FOR_REPORTS)
    report = pytester.path / "cov.json"
    report.write_text('{"previous": true}\n')
    result = pytester.runpytest("--logicenv-report=json:cov.json")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        [
            f"logicenv: the json report {report} could not be written (No space left on "
            "device); a previous one there is left as it was"
        ]
    )
    assert json.loads(report.read_text()) == {"previous": True}
    assert [p.name for p in pytester.path.iterdir() if p.name.startswith(".cov")] == []


@pytest.mark.parametrize("narrow", [("-k", "unrelated"), ("-k", "nothing_matches")])
def test_a_run_in_which_no_logic_env_test_ran_writes_an_empty_report_saying_why(
    pytester: pytest.Pytester, narrow: tuple[str, str]
) -> None:
    make_project(pytester, CORRECT_TEST + "\n\ndef test_unrelated():\n    pass\n")
    report = pytester.path / "cov.json"
    report.write_text('{"previous": true}\n')
    result = pytester.runpytest(
        "--logicenv-report=json:cov.json", "--logicenv-report=markdown:cov.md", *narrow
    )
    assert result.ret in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED)
    written = json.loads(report.read_text())
    assert written["tasks"] == {}
    [problem] = written["problems"]
    assert problem.startswith("empty report: no logic_env test ran: 1 marked test function(s)")
    assert "empty report: no logic_env test ran" in (pytester.path / "cov.md").read_text()
    result.stdout.fnmatch_lines([f"json report written to {report}"])


# --------------------------------------------------------------------------- acting by actions


CHEATING_TEST = """
import py_trees
from pytest_logicenv.sim.leaves import AgentBehaviour


def _switch_off(world):  # the simulator's own mutators, as the actions use them
    world.set_state(world.candidates("light")[0], "toggled", False)


CHEATS = {
    "the view's mutators": lambda agent: _switch_off(agent.world),
    "the agent's world": lambda agent: _switch_off(agent._world),
    "the view's world": lambda agent: _switch_off(agent.world._world),
    "a thing's object": lambda agent: agent.world.find("light")[0]._thing.states.update(
        toggled=False
    ),
    "a thing's states": lambda agent: agent.world.find("light")[0].states.update(
        toggled=False
    ),
}


class Cheat(AgentBehaviour):  # switches the light off without the ToggleOff action
    def __init__(self, how):
        super().__init__("Cheat")
        self.how = how

    def update(self):
        CHEATS[self.how](self.agent)
        return py_trees.common.Status.SUCCESS


@pytest.mark.parametrize(
    ("how", "error"),
    [
        ("the view's mutators", "'WorldView' object has no attribute 'set_state'"),
        ("the agent's world", "'Agent' object has no attribute '_world'"),
        ("the view's world", "'WorldView' object has no attribute '_world'"),
        ("a thing's object", "'ThingView' object has no attribute '_thing'"),
        ("a thing's states", "'mappingproxy' object has no attribute 'update'"),
    ],
)
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_cheat(logic_env, how, error):
    outcome = logic_env.run(lambda: Cheat(how))
    assert outcome.kind == "error", outcome.explanation
    assert error in outcome.error
"""


def test_a_behaviour_cannot_change_the_world_except_through_actions(
    pytester: pytest.Pytester,
) -> None:
    make_project(pytester, CHEATING_TEST)
    pytester.runpytest().assert_outcomes(passed=10)


PAST_THE_VIEW_TEST = """
import gc

import py_trees
from pytest_logicenv.sim.leaves import AgentBehaviour
from pytest_logicenv.sim.view import world_of
from pytest_logicenv.sim.world import WorldState


def _switch_off(world):
    world.set_state(world.candidates("light")[0], "toggled", False)


def _from_gc(agent):  # the worlds in memory, youngest first: the run's is one of them
    for generation in range(3):  # a whole-heap scan can take seconds in a big process
        found = [
            o
            for o in gc.get_objects(generation)
            if isinstance(o, WorldState) and o.candidates("light")
        ]
        if found:
            return found
    return []


CHEATS = {"world_of": lambda agent: [world_of(agent)], "gc": _from_gc}


class Cheat(AgentBehaviour):  # switches the light off without the ToggleOff action
    def __init__(self, how):
        super().__init__("Cheat")
        self.how = how

    def update(self):
        for world in CHEATS[self.how](self.agent):
            _switch_off(world)
        return py_trees.common.Status.SUCCESS


@pytest.mark.parametrize("how", ["world_of", "gc"])
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_cheat(logic_env, how):
    logic_env.run(lambda: sequence("Reset", window(), Cheat(how))).assert_ok()
"""


def test_a_behaviour_that_reaches_past_the_view_is_caught_by_the_replay(
    pytester: pytest.Pytester,
) -> None:
    make_project(
        pytester, PAST_THE_VIEW_TEST.replace("import gc", "import gc\nfrom policies import *")
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, failed=2)  # where the light was already off, nothing changed
    result.stdout.fnmatch_lines(
        [
            "*the world changed outside the policy's actions: light* is * after the run, * by its "
            "actions, which no action of the trace did*"
        ]
    )


SLEEPING_TEST = """
import time

import py_trees
from pytest_logicenv.sim.leaves import AgentBehaviour


class Nap(AgentBehaviour):
    def update(self):
        time.sleep(1000)
        return py_trees.common.Status.SUCCESS


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_nap(logic_env):
    logic_env.run(lambda: Nap("Nap")).assert_ok()
"""


@pytest.mark.slow
def test_a_leaf_that_sleeps_is_a_timeout_of_its_run_not_a_hang(pytester: pytest.Pytester) -> None:
    make_project(pytester, SLEEPING_TEST)
    result = pytester.runpytest("-k", "yes")
    result.assert_outcomes(failed=1, deselected=1)
    result.stdout.fnmatch_lines(["*tick 1 took more than 5 s of wall-clock time*"])
    assert result.duration < 60


RANDOM_TEST = """
import random

from pytest_logicenv.sim.controls import sequence
from pytest_logicenv.sim.leaves import Close, GoTo, ToggleOff


def coin():
    if random.random() < 0.5:
        return sequence("Heads", GoTo("window"), Close("window"), GoTo("light"), ToggleOff("light"))
    return sequence("Tails", GoTo("light"), ToggleOff("light"), GoTo("window"), Close("window"))


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_coin(logic_env):
    logic_env.run(coin).assert_ok()
"""


def test_a_random_policy_is_said_to_be_not_deterministic(pytester: pytest.Pytester) -> None:
    make_project(pytester, RANDOM_TEST)
    pytester.makeconftest(
        # seed 1: the first two draws fall on either side of 0.5
        "import random\n\n\ndef pytest_runtest_setup(item):\n    random.seed(1)\n"
    )
    result = pytester.runpytest("-k", "yes", "--logicenv-mutate")
    result.assert_outcomes(failed=1, deselected=1)
    result.stdout.fnmatch_lines(
        ["*this policy is not deterministic: two runs in the same scene differed*"]
    )
    assert "mutation score" not in result.stdout.str().lower() or "no mutant" in result.stdout.str()


# --------------------------------------------------------------------------- bounded inputs


def test_a_50_mb_xml_attribute_is_refused_in_one_short_line_by_logicenv_run(
    tmp_path: Path,
) -> None:
    policy = tmp_path / "huge.xml"
    policy.write_text(
        '<root BTCPP_format="4"><BehaviorTree ID="T"><Script code="'
        + "x" * 50_000_000
        + '"/></BehaviorTree></root>'
    )
    scenes = (ROOT / "cache").glob("in_the_bathroom*/scenes/*.json")
    scene = next(path for path in scenes if not path.name.endswith(".house.json"))
    done = subprocess.run(
        [sys.executable, "-m", "pytest_logicenv.cli", "run", str(policy), "--scene", str(scene)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"logicenv run: error: {policy}: the file has more than the")
    assert len(done.stderr) < 300
    assert not done.stdout


def test_a_tree_nested_20000_deep_fails_its_test_with_a_short_message(
    pytester: pytest.Pytester,
) -> None:
    depth = 20_000
    pytester.makefile(
        ".xml",
        deep='<root BTCPP_format="4"><BehaviorTree ID="T">'
        + "<Inverter>" * depth
        + "<AlwaysFailure/>"
        + "</Inverter>" * depth
        + "</BehaviorTree></root>",
    )
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_deep(logic_env):
    logic_env.run("deep.xml").assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*deep.xml:1: <Inverter> is nested more than 200 levels deep*"])
    assert "RecursionError" not in result.stdout.str()
    assert len(result.stdout.lines) < 80


def test_subtrees_that_expand_to_a_billion_nodes_fail_their_test_only(
    pytester: pytest.Pytester,
) -> None:
    trees = "".join(
        f'<BehaviorTree ID="T{i}"><Sequence>\n'
        f'<SubTree ID="T{i + 1}"/><SubTree ID="T{i + 1}"/></Sequence></BehaviorTree>'
        for i in range(30)
    )
    pytester.makefile(
        ".xml",
        fanout=f'<root BTCPP_format="4" main_tree_to_execute="T0">{trees}'
        '<BehaviorTree ID="T30"><AlwaysFailure/></BehaviorTree></root>',
    )
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_fanout(logic_env):
    logic_env.run("fanout.xml").assert_ok()


def test_unrelated():
    pass
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=2, passed=1)
    result.stdout.fnmatch_lines(
        [
            "*fanout.xml:17: <SubTree ID='T16'>: with its SubTrees expanded, tree 'T0' has more "
            "than 100000 nodes*"
        ]
    )
    assert "Traceback" not in result.stdout.str()


def _nested_20000_deep(text: str) -> str:
    return text.replace('"subtasks"', '"_deep": ' + "[" * 20_000 + "]" * 20_000 + ', "subtasks"')


def _nine_million_characters(text: str) -> str:
    return text.replace('"subtasks"', '"_padding": "' + "x" * 9_000_000 + '", "subtasks"')


@pytest.mark.parametrize(
    ("grow", "problem"),
    [
        (_nested_20000_deep, "nested more than 100 levels deep; is this a plan?"),
        (_nine_million_characters, "more than 8000000 characters; is this the right file?"),
    ],
)
def test_an_oversized_plan_file_errors_its_test_in_one_line(
    pytester: pytest.Pytester, grow: Any, problem: str
) -> None:
    make_project(pytester, CORRECT_TEST + "\n\ndef test_unrelated():\n    pass\n")
    plan_file = pytester.path / "plan.json"
    plan_file.write_text(grow(plan_file.read_text()))
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([f"  [[]syntax[]] file: {problem}"])
    assert "RecursionError" not in result.stdout.str()


def test_a_huge_value_in_a_plan_file_is_echoed_cut_short(pytester: pytest.Pytester) -> None:
    make_project(pytester, CORRECT_TEST)
    _edit_json(pytester.path / "plan.json", lambda plan: plan.update(task=["x" * 1_000_000]))
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "  [[]syntax[]] task: the task description must be a string, got "
            "['xxx*... (1000004 chars)"
        ]
    )
    assert max(len(line) for line in result.stdout.lines) < 400


# --------------------------------------------------------------------------- type files

TROPHY = {"properties": ["pickupable"], "size": [0.2, 0.35, 0.2], "stand_in": "Statue"}


def _typed_project(pytester: pytest.Pytester, types: str, suffix: str = ".json") -> None:
    make_project(pytester, CORRECT_TEST + "\n\ndef test_unrelated():\n    pass\n")
    pytester.makefile(suffix, types=types)
    pytester.makeini(
        f"[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\nlogicenv_types = types{suffix}\n"
    )


@pytest.mark.parametrize(
    ("parts", "cycle"),
    [
        ({"Trophy": {**TROPHY, "parts": {"Trophy": 1}}}, "Trophy -> Trophy"),
        (
            {
                "Trophy": {**TROPHY, "parts": {"Cup2": 1}},
                "Cup2": {**TROPHY, "parts": {"Trophy": 1}},
            },
            "Trophy -> Cup2 -> Trophy",
        ),
    ],
)
def test_a_type_whose_parts_lead_back_to_it_errors_its_tests_instead_of_hanging(
    pytester: pytest.Pytester, parts: dict[str, Any], cycle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _typed_project(pytester, json.dumps({"types": parts}, indent=2))
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [f"*line * (Trophy.parts): its parts lead back to it ({cycle}): nothing is made of itself*"]
    )
    types = str(pytester.path / "types.json")
    assert main(["plan", "--check", "plan.json", "--types", types]) == 2
    assert f"({cycle})" in capsys.readouterr().err


def test_parts_that_multiply_past_the_limit_are_refused(pytester: pytest.Pytester) -> None:
    chain = {f"Box{i}": {**TROPHY, "parts": {f"Box{i + 1}": 8}} for i in range(9)}
    _typed_project(pytester, json.dumps({"types": {**chain, "Box9": TROPHY}}, indent=2))
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*(Box0.parts): it brings * parts with it, * (at most 64)*"])


@pytest.mark.parametrize(
    ("text", "suffix", "problem"),
    [
        ('{"types": ' + "[" * 100_000 + "]" * 100_000 + "}", ".json", "nested more than 8 levels"),
        ("a = " + "[" * 100_000 + "]" * 100_000, ".toml", "nested more than 8 levels"),
        ('{"types": {"T' + "x" * 3_000_000 + '": {}}}', ".json", "more than 2000000 characters"),
        (
            json.dumps({"types": {f"T{i}": {"size": [1] * 9} for i in range(30_000)}}),
            ".json",
            "more than 200000 values",
        ),
    ],
    ids=["deep-json", "deep-toml", "huge-name", "many-types"],
)
def test_an_oversized_type_file_errors_its_tests_in_one_line(
    pytester: pytest.Pytester, text: str, suffix: str, problem: str
) -> None:
    _typed_project(pytester, text, suffix)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines([f"  [[]types[]] file: {problem}*"])
    assert "RecursionError" not in result.stdout.str()
    assert max(len(line) for line in result.stdout.lines) < 400


def test_a_type_file_word_cannot_take_over_a_built_in_word(pytester: pytest.Pytester) -> None:
    types = {"types": {"Trophy": TROPHY}, "synonyms": {"window": "Trophy"}}
    _typed_project(pytester, json.dumps(types, indent=2))
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*(synonyms): the word 'window' already means Window (a built-in word); it cannot also "
            "mean Trophy: pick another word"
        ]
    )


# --------------------------------------------------------------------------- LLM requests


def test_a_server_trickling_its_answer_is_cut_off_at_the_timeout_of_the_whole_request(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    decomposition, _ = llm_steps()
    serve_plan(fake_llm, monkeypatch)
    # A byte every 50 ms: a per-read timeout of 1 s never fires, the answer takes ~15 s.
    fake_llm.respond_with(lambda request: trickled(answer(decomposition), 0.05))
    monkeypatch.setenv("LOGICENV_LLM_TIMEOUT_S", "1")
    monkeypatch.setenv("LOGICENV_LLM_MAX_RETRIES", "0")
    make_project(pytester, LLM_TEST)
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*LLM request failed (plan.decompose): model 'fake-planner' at *, 1 attempt",
            "*the server did not answer within 1 s; raise LOGICENV_LLM_TIMEOUT_S*",
            "*attempt 1: timeout: no answer within 1 s",
        ]
    )
    assert len(fake_llm.requests) == 1


def test_credentials_in_the_base_url_are_never_written_or_logged(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_plan(fake_llm, monkeypatch)
    secrets = ("alice-user", "pa55-word-secret", "sk-query-secret")
    with_credentials = (
        fake_llm.base_url.replace("http://", f"http://{secrets[0]}:{secrets[1]}@")
        + f"?api_key={secrets[2]}"
    )
    monkeypatch.setenv("LOGICENV_LLM_BASE_URL", with_credentials)
    make_project(pytester, LLM_TEST)
    result = pytester.runpytest("-o", "log_cli=true", "--log-cli-level=DEBUG")
    result.assert_outcomes(passed=2)
    assert fake_llm.requests[0].path == f"/v1/chat/completions?api_key={secrets[2]}"
    result.stdout.fnmatch_lines(["*HTTP Request: POST http://***:***@127.0.0.1:*"])
    written = "".join(p.read_text() for p in (pytester.path / "cache").rglob("*.json"))
    for secret in secrets:
        assert secret not in result.stdout.str() + result.stderr.str()
        assert secret not in written


# --------------------------------------------------------------------------- BT.CPP policies


def _bathroom_scene() -> Path:
    scenes = (ROOT / "cache").glob("in_the_bathroom*/scenes/*.json")
    return next(p for p in scenes if not p.name.endswith((".house.json", ".witness.json")))


def test_a_script_doubling_a_string_in_a_loop_ends_its_run_with_a_bounded_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    policy = tmp_path / "doubling.xml"
    policy.write_text(
        '<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence><Script code="s := \'ab\'"/>'
        '<Repeat num_cycles="200"><Script code="s := s .. s"/></Repeat></Sequence>'
        "</BehaviorTree></root>"
    )
    assert main(["run", str(policy), "--scene", str(_bathroom_scene())]) == 1
    out = capsys.readouterr().out
    assert f"PolicyRuntimeError: {policy}:1 <Script>: code='s := s .. s': joining text" in out
    assert "past the 1,000,000 a script value may hold" in out


def test_a_nodes_module_cannot_replace_a_simulator_leaf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nodes = tmp_path / "my_nodes.py"
    nodes.write_text(
        "import py_trees\n"
        'BT_NODES = {"GoTo": lambda name, target: py_trees.behaviours.Success(name)}\n'
    )
    policy = tmp_path / "goto.xml"
    policy.write_text('<root BTCPP_format="4"><BehaviorTree ID="T"><GoTo target="sink"/>'
                      "</BehaviorTree></root>")  # fmt: skip
    code = main(["run", str(policy), "--scene", str(_bathroom_scene()), "--nodes", str(nodes)])
    assert code == 2
    err = capsys.readouterr().err
    assert "node ID 'GoTo' is one of the simulator's Actions" in err
    assert "register yours under another ID, e.g. 'MyGoTo'" in err
