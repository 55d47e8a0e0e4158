"""The record of reads kept between runs: only a shortcut, never trusted beyond its files."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType

import pytest

from pytest_logicenv.pipeline import entry_reads, read_record
from pytest_logicenv.pipeline.entry_reads import SharedSet
from pytest_logicenv.pipeline.read_record import ReadRecord, record_name


@pytest.fixture
def record(tmp_path: Path) -> Iterator[ReadRecord]:
    found = ReadRecord(tmp_path / "project")
    entry_reads.forget_all()
    entry_reads.keep_across_runs(found)
    yield found
    entry_reads.keep_across_runs(None)
    entry_reads.forget_all()


def _settled_file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    past = time.time() - 60
    os.utime(path, (past, past))
    return path


def _counting(made: list[str]) -> object:
    def parse(path: Path) -> str:
        made.append(path.name)
        return path.read_text().upper()

    return parse


def _next_run() -> None:
    """What a new process starts with: nothing in memory, the record on disk."""
    entry_reads.save_kept()
    entry_reads.forget_all()


def test_a_value_read_in_one_run_is_taken_from_the_record_in_the_next(
    record: ReadRecord, tmp_path: Path
) -> None:
    path = _settled_file(tmp_path / "entry", "plan.json", "plan")
    made: list[str] = []
    assert entry_reads.read_once(path, "upper", _counting(made)) == "PLAN"
    _next_run()
    assert entry_reads.read_once(path, "upper", _counting(made)) == "PLAN"
    assert made == ["plan.json"]
    assert (record.folder / record_name(path.parent)).is_file()
    assert (record.folder.parent / ".gitignore").read_text().endswith("*\n")


def test_a_file_changed_since_the_record_is_read_again(record: ReadRecord, tmp_path: Path) -> None:
    path = _settled_file(tmp_path / "entry", "plan.json", "plan")
    made: list[str] = []
    entry_reads.read_once(path, "upper", _counting(made))
    _next_run()
    _settled_file(tmp_path / "entry", "plan.json", "edit")  # same size, same old time
    assert entry_reads.read_once(path, "upper", _counting(made)) == "EDIT"
    assert made == ["plan.json", "plan.json"]


def test_what_was_made_from_kept_values_comes_back_with_them(
    record: ReadRecord, tmp_path: Path
) -> None:
    entry = tmp_path / "entry"
    path = _settled_file(entry / "scenes", "a.json", "scene")
    made: list[str] = []
    value = entry_reads.read_once(path, "upper", _counting(made))
    entry_reads.derived("length", (value,), lambda: made.append("length") or len(value), entry)
    _next_run()
    again = entry_reads.read_once(path, "upper", _counting(made))
    assert entry_reads.derived("length", (again,), lambda: made.append("again") or 0, entry) == 5
    assert made == ["a.json", "length"]  # one record for the entry and its scenes folder


def test_a_read_only_map_is_kept_too(record: ReadRecord, tmp_path: Path) -> None:
    path = _settled_file(tmp_path / "entry", "manifest.json", "{}")
    entry_reads.read_once(path, "map", lambda p: MappingProxyType({"a": 1}))
    _next_run()
    found = entry_reads.read_once(path, "map", lambda p: MappingProxyType({}))
    assert isinstance(found, MappingProxyType)
    assert dict(found) == {"a": 1}


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"not a pickle at all",
        lambda data: data[: len(data) // 2],
        lambda data: b"",
    ],
    ids=["garbage", "truncated", "empty"],
)
def test_a_damaged_record_is_no_record(record: ReadRecord, tmp_path: Path, damage: object) -> None:
    path = _settled_file(tmp_path / "entry", "plan.json", "plan")
    made: list[str] = []
    entry_reads.read_once(path, "upper", _counting(made))
    _next_run()
    saved = record.folder / record_name(path.parent)
    saved.write_bytes(damage(saved.read_bytes()))  # type: ignore[operator]
    assert entry_reads.read_once(path, "upper", _counting(made)) == "PLAN"
    assert made == ["plan.json", "plan.json"]


def test_a_record_other_code_wrote_is_ignored(
    record: ReadRecord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _settled_file(tmp_path / "entry", "plan.json", "plan")
    made: list[str] = []
    entry_reads.read_once(path, "upper", _counting(made))
    _next_run()
    monkeypatch.setattr(read_record, "code_fingerprint", lambda: "another version")
    entry_reads.read_once(path, "upper", _counting(made))
    assert made == ["plan.json", "plan.json"]


def test_a_folder_that_cannot_be_written_leaves_the_record_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "project").write_text("a file where the work folder would be")
    found = ReadRecord(tmp_path / "project")
    found.save(tmp_path / "entry", {"kept": {}, "derived": {}})  # no error
    assert found.load(tmp_path / "entry") is None


def test_records_beyond_the_limit_go_least_recently_written_first(tmp_path: Path) -> None:
    found = ReadRecord(tmp_path)
    for i in range(5):
        found.save(tmp_path / f"entry{i}", {"kept": {}, "derived": {}})
        os.utime(found.folder / record_name(tmp_path / f"entry{i}"), (i, i))
    found.prune(limit=3)
    left = sorted(p.name for p in found.folder.iterdir())
    assert left == sorted(record_name(tmp_path / f"entry{i}") for i in (2, 3, 4))


def _scene_and_its_entry(tmp_path: Path) -> tuple[Path, Path]:
    entry = tmp_path / "entry"
    return _settled_file(entry, "plan.json", "a b"), _settled_file(entry / "scenes", "s.json", "x")


def _loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    loaded: list[str] = []
    load = ReadRecord.load

    def counting(self: ReadRecord, group: Path) -> object:
        loaded.append(group.name)
        return load(self, group)

    monkeypatch.setattr(ReadRecord, "load", counting)
    return loaded


def _never(path: Path) -> object:
    raise AssertionError(f"{path} parsed again")


def test_a_scenes_values_are_taken_back_only_when_used_sharing_its_entrys(
    record: ReadRecord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan, scene = _scene_and_its_entry(tmp_path)
    names = entry_reads.read_once(plan, "names", lambda p: SharedSet(p.read_text().split()))
    entry_reads.read_once(scene, "uses", lambda p: (p.read_text(), names), group=scene)
    _next_run()
    loaded = _loads(monkeypatch)
    names = entry_reads.read_once(plan, "names", _never)
    assert loaded == ["entry"]  # collecting reads the entry's record, not its scenes'
    text, used = entry_reads.read_once(scene, "uses", _never, group=scene)
    assert loaded == ["entry", "s.json"]
    assert (text, used) == ("x", {"a", "b"})
    assert used is names  # one value, not a copy per record


def test_a_scenes_record_made_from_an_older_version_of_its_entrys_file_is_not_used(
    record: ReadRecord, tmp_path: Path
) -> None:
    plan, scene = _scene_and_its_entry(tmp_path)
    names = entry_reads.read_once(plan, "names", lambda p: SharedSet(p.read_text().split()))
    entry_reads.read_once(scene, "uses", lambda p: names, group=scene)
    _next_run()
    plan.write_text("c")
    os.utime(plan, (time.time() - 30, time.time() - 30))
    names = entry_reads.read_once(plan, "names", lambda p: SharedSet(p.read_text().split()))
    made: list[str] = []

    def uses(path: Path) -> frozenset[str]:
        made.append(path.name)
        return names

    assert entry_reads.read_once(scene, "uses", uses, group=scene) == {"c"}
    assert made == ["s.json"]
