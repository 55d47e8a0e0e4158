"""Each file of a cache entry read once per process while it stays as it is."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pytest_logicenv.pipeline import entry_reads
from pytest_logicenv.pipeline.entry_reads import RACY_SECONDS, derived, read_once


def settled(path: Path, text: str, age_s: float = 60.0) -> Path:
    """``path`` written with ``text`` and dated ``age_s`` ago (past the racy window)."""
    path.write_text(text)
    past = time.time() - age_s
    os.utime(path, (past, past))
    return path


class Counting:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, path: Path) -> str:
        self.calls += 1
        return path.read_text()


def test_a_settled_file_is_parsed_once_and_the_same_value_shared(tmp_path: Path) -> None:
    path = settled(tmp_path / "a.json", "one")
    parse = Counting()
    first = read_once(path, "text", parse)
    assert [read_once(path, "text", parse) for _ in range(5)] == ["one"] * 5
    assert parse.calls == 1
    assert read_once(path, "text", parse) is first


def test_an_edited_file_is_read_again(tmp_path: Path) -> None:
    path = settled(tmp_path / "a.json", "one")
    parse = Counting()
    assert read_once(path, "text", parse) == "one"
    settled(path, "two", age_s=30.0)  # same size, other times: another version
    assert read_once(path, "text", parse) == "two"
    assert parse.calls == 2


def test_a_file_changed_within_the_racy_window_is_never_kept(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text("one")  # just now: a second write in the same tick could look the same
    parse = Counting()
    read_once(path, "text", parse)
    read_once(path, "text", parse)
    assert parse.calls == 2
    assert RACY_SECONDS >= 1


def test_errors_are_not_kept_and_kinds_are_kept_apart(tmp_path: Path) -> None:
    path = settled(tmp_path / "a.json", "one")

    def broken(_: Path) -> str:
        raise ValueError("broken")

    with pytest.raises(ValueError, match="broken"):
        read_once(path, "text", broken)
    assert read_once(path, "text", Counting()) == "one"
    assert read_once(path, "upper", lambda p: p.read_text().upper()) == "ONE"
    assert read_once(path, "text", broken) == "one"  # kept now, not parsed again


def test_a_missing_file_is_parsed_every_time(tmp_path: Path) -> None:
    parse = Counting()
    for _ in range(2):
        with pytest.raises(FileNotFoundError):
            read_once(tmp_path / "gone.json", "text", parse)
    assert parse.calls == 2


def test_the_digest_of_a_settled_file_is_its_sha256(tmp_path: Path) -> None:
    path = settled(tmp_path / "a.json", "one")
    assert entry_reads.digest(path) == entry_reads.path_hash(path)


def test_what_is_kept_is_bounded_least_recently_used_out_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(entry_reads, "_KEPT", entry_reads._Kept(2))
    paths = [settled(tmp_path / f"{i}.json", str(i)) for i in range(3)]
    parse = Counting()
    for path in (*paths, paths[0]):
        read_once(path, "text", parse)
    assert parse.calls == 4  # the first was dropped for the third, and read again
    assert len(entry_reads._KEPT.values) == 2


def test_derived_values_follow_the_very_objects_they_were_made_from() -> None:
    source, made = ["a"], []

    def make() -> int:
        made.append(1)
        return len(made)

    assert derived(("test", 1), (source,), make, Path("g")) == 1
    assert derived(("test", 1), (source,), make, Path("g")) == 1
    # equal, but another object: made anew
    assert derived(("test", 1), (["a"],), make, Path("g")) == 2


def test_the_bound_is_in_bytes_of_files_and_a_digest_counts_for_little(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(entry_reads, "_KEPT", entry_reads._Kept(1000))
    big = [settled(tmp_path / f"big{i}.json", "x" * 600) for i in range(2)]
    parse = Counting()
    for path in (*big, big[1]):
        read_once(path, "text", parse)
    assert parse.calls == 2  # 1,200 bytes: the first went for the second, which stayed
    digests = [entry_reads.digest(path) for path in big]  # 600 bytes each, kept for 128
    assert [entry_reads.digest(path) for path in big] == digests
    assert len(entry_reads._KEPT.values) == 3  # the second's text and both digests
