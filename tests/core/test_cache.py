"""The cache on disk: what a user commits, and what a killed run leaves behind."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_logicenv.cache import Cache, Entry

# A writer that dies (SIGKILL, as the OOM killer or a second Ctrl-C would) while it writes
# the entry's files: no `finally` runs, so only the rename protocol protects the cache.
KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from pytest_logicenv.cache import Cache

class DiesHalfway(dict):
    def items(self):
        for number, item in enumerate(super().items()):
            if number == 2:
                os.kill(os.getpid(), signal.SIGKILL)
            yield item

cache = Cache(Path(sys.argv[1]))
files = DiesHalfway({"manifest.json": b"{}", "plan.json": b"{}", "scenes/a.json": b"{}"})
with cache.lock("task-0123abcd"):
    cache.write_entry("task-0123abcd", files)
"""


def test_a_run_killed_while_writing_leaves_no_entry_and_the_next_write_clears_its_remains(
    tmp_path: Path,
) -> None:
    root = tmp_path / "cache"
    result = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(root)], check=False)
    assert result.returncode == -9
    assert not (root / "task-0123abcd").exists()  # never half an entry
    [remains] = [p for p in root.iterdir() if p.is_dir()]
    assert remains.name.startswith(".task-0123abcd.")
    assert (remains / "manifest.json").exists()

    cache = Cache(root)
    with cache.lock("task-0123abcd"):
        entry = cache.write_entry("task-0123abcd", {"manifest.json": b"{}", "plan.json": b"{}"})
    assert sorted(p.name for p in root.iterdir() if p.is_dir()) == ["task-0123abcd"]
    assert sorted(p.name for p in entry.root.iterdir()) == ["manifest.json", "plan.json"]


def test_remains_of_other_entries_are_not_touched(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    other = tmp_path / ".task-0123abce.x1y2z3"  # another key that shares the prefix
    other.mkdir()
    with cache.lock("task-0123abcd"):
        cache.write_entry("task-0123abcd", {"manifest.json": b"{}"})
    assert other.is_dir()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_committing_the_cache_commits_entries_not_locks_or_temporaries(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    cache = Cache(root)
    with cache.lock("task-0123abcd"):
        cache.write_entry("task-0123abcd", {"manifest.json": b"{}", "scenes/a.json": b"{}"})
    (root / ".task-0123abcd.run").write_text("run id")
    (root / ".task-0123abcd.k1l2m3n4").mkdir()
    (root / ".task-0123abcd.k1l2m3n4" / "plan.json").write_text("{}")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    listed = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert sorted(name for name in listed if name != "??") == [
        "cache/.gitignore",
        "cache/task-0123abcd/manifest.json",
        "cache/task-0123abcd/scenes/a.json",
    ]


def test_a_users_own_gitignore_in_the_cache_is_kept(tmp_path: Path) -> None:
    tmp_path.joinpath(".gitignore").write_text("*.svg\n")
    cache = Cache(tmp_path)
    with cache.lock("task-0123abcd"):
        cache.write_entry("task-0123abcd", {"manifest.json": b"{}"})
    assert tmp_path.joinpath(".gitignore").read_text() == "*.svg\n"


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_entries_get_the_umask_permissions_not_private_ones(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        cache = Cache(tmp_path)
        with cache.lock("task-0123abcd"):
            entry = cache.write_entry("task-0123abcd", {"manifest.json": b"{}"})
    finally:
        os.umask(previous)
    assert entry.root.stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize(
    ("manifest", "identity"),
    [
        ('{"task": "Tidy.", "settings": {"seed": 0}}', ("Tidy.", {"seed": 0})),
        ("[]", None),
        ('{"task": 3, "settings": {}}', None),
        ('{"task": ', None),
    ],
)
def test_identity_tolerates_hand_broken_manifests(
    tmp_path: Path, manifest: str, identity: tuple[str, dict[str, int]] | None
) -> None:
    (tmp_path / "manifest.json").write_text(manifest)
    assert Entry(tmp_path).identity() == identity


def test_removing_an_entry_removes_its_lock_file_and_run_marker(tmp_path: Path) -> None:
    cache = Cache(tmp_path)
    with cache.lock("task-0123abcd"):
        entry = cache.write_entry("task-0123abcd", {"manifest.json": b"{}"})
    cache.run_marker("task-0123abcd").write_text("run id")
    cache.remove(entry)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".gitignore"]


def test_orphan_locks_go_unless_a_process_is_generating_that_entry(tmp_path: Path) -> None:
    from filelock import FileLock

    cache = Cache(tmp_path)
    with cache.lock("failed-0123abcd"):  # a generation that failed: a lock and no entry
        pass
    with cache.lock("kept-0123abcd"):
        cache.write_entry("kept-0123abcd", {"manifest.json": b"{}"})
    busy = FileLock(str(cache.lock_file("busy-0123abcd")))
    with busy:  # another process generating this entry right now
        cache.forget_orphans()
        assert sorted(p.name for p in tmp_path.iterdir()) == [
            ".busy-0123abcd.lock",
            ".gitignore",
            ".kept-0123abcd.lock",
            "kept-0123abcd",
        ]


def test_atomic_text_files_get_ordinary_permissions(tmp_path: Path) -> None:

    import stat

    from pytest_logicenv.atomic import write_atomic

    umask = os.umask(0o022)
    try:
        target = tmp_path / "out" / "report.md"
        write_atomic(target, "hello\n")
    finally:
        os.umask(umask)
    assert target.read_text() == "hello\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert [p.name for p in target.parent.iterdir()] == ["report.md"]  # no temporary left
