"""``logicenv show`` and ``logicenv review`` on a copy of a committed cache entry whose manifest
says a model made its plan, and on bad input: an unknown or ambiguous entry, a folder that is no
entry, a damaged manifest, a missing or damaged plan."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import ROOT

from pytest_logicenv.cli import main

ENTRY = "in_the_bathroom_there_is_a-e901f190"
OTHER = "the_living_room_has_a_sofa-88a16090"


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    """A cache of two committed entries; the first one's plan made by a model."""
    root = tmp_path / "cache"
    for name in (ENTRY, OTHER):
        shutil.copytree(ROOT / "cache" / name, root / name)
    manifest = root / ENTRY / "manifest.json"
    data = json.loads(manifest.read_text())
    data["plan"] = {"made_by": "llm:some-model", "sha256": data["plan"]["sha256"]}
    manifest.write_text(json.dumps(data, indent=2))
    return root


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_says_a_model_plan_is_unreviewed_and_shows_it_as_a_person_reads_it(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "show", "towel holder", "--cache-dir", str(cache))
    assert code == 0
    lines = out.splitlines()
    assert lines[:3] == [
        str(cache / ENTRY),
        "  plan: made by llm:some-model, UNREVIEWED: no person has reviewed it",
        f"  review it: read the plan below, then run: logicenv review {cache / ENTRY}",
    ]
    assert "Subtask 1 of 3: towel" in lines
    assert "  Is there a towel on the floor?" in lines
    assert "  - YES, when the scene has: a Towel (towel) on Floor" in lines
    assert "          do: Put the towel in the laundry basket." in lines
    assert "          then: towel in laundry_basket" in lines


def test_review_records_who_when_and_the_plan_digest_and_show_then_says_so(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = cache / ENTRY / "manifest.json"
    before = json.loads(manifest.read_text())
    code, out, _ = run(capsys, "review", ENTRY, "--by", "ann", "--cache-dir", str(cache))
    assert code == 0
    assert out.startswith(f"{cache / ENTRY}: plan reviewed by ann on ")
    after = json.loads(manifest.read_text())
    review = after["plan"].pop("review")
    assert after == before  # nothing else of the manifest changes
    assert review["by"] == "ann"
    assert review["plan_sha256"] == before["plan"]["sha256"]
    assert review["at"].endswith("Z")
    assert not list(manifest.parent.glob(".manifest.json.*"))  # no temporary left behind
    code, out, _ = run(capsys, "show", "--cache-dir", str(cache))
    assert out.splitlines() == [
        f"{ENTRY}: made by llm:some-model, reviewed by ann on {review['at']}",
        f"{OTHER}: hand-written, needs no review",
    ]


def test_a_hand_written_plan_is_left_as_it_is(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = (cache / OTHER / "manifest.json").read_bytes()
    code, out, _ = run(capsys, "review", str(cache / OTHER), "--by", "ann")
    assert (code, out) == (0, f"{cache / OTHER}: its plan is hand-written: it needs no review\n")
    assert (cache / OTHER / "manifest.json").read_bytes() == manifest


def test_an_edit_of_the_plan_after_the_review_makes_it_unreviewed(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "review", ENTRY, "--by", "ann", "--cache-dir", str(cache))[0] == 0
    plan = cache / ENTRY / "plan.json"
    plan.write_text(plan.read_text().replace("Do nothing.", "Leave it."))
    code, out, _ = run(capsys, "show", ENTRY, "--cache-dir", str(cache))
    assert code == 0
    assert out.splitlines()[1].startswith(
        "  plan: made by llm:some-model, UNREVIEWED: plan.json changed since ann reviewed it on "
    )


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("no-such-entry", "no cache entry 'no-such-entry' in {cache}: give an entry's folder"),
        ("the", "'the' names 2 entries of {cache} ("),
    ],
    ids=["unknown", "ambiguous"],
)
def test_an_entry_no_name_picks_out_is_bad_input_naming_the_entries(
    cache: Path, capsys: pytest.CaptureFixture[str], name: str, said: str
) -> None:
    for command in ("show", "review"):
        code, out, err = run(capsys, command, name, "--cache-dir", str(cache))
        assert code == 2
        assert out == ""
        assert err.startswith(f"logicenv {command}: error: {said.format(cache=cache)}")
        assert ENTRY in err


def test_a_folder_that_is_no_entry_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "review", str(tmp_path))
    assert code == 2
    assert (
        err == f"logicenv review: error: {tmp_path}: not a cache entry (it has no manifest.json)\n"
    )


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("{ not json", "manifest.json: corrupt (Expecting property name"),
        ("[]", "manifest.json: not a manifest object"),
        ('{"format": "logicenv-cache/2", "plan": "x"}', "manifest.json: not a cache manifest"),
    ],
    ids=["not-json", "not-an-object", "no-plan-record"],
)
def test_a_damaged_manifest_is_bad_input_and_left_as_it_is(
    cache: Path, capsys: pytest.CaptureFixture[str], damage: str, said: str
) -> None:
    manifest = cache / ENTRY / "manifest.json"
    manifest.write_text(damage)
    for command in ("show", "review"):
        code, out, err = run(capsys, command, str(cache / ENTRY))
        assert code == 2
        assert out == ""
        assert f"{manifest.parent}/{said}" in err
        assert "delete" in err  # how to fix it
    assert manifest.read_text() == damage


def test_a_missing_or_damaged_plan_is_not_marked_reviewed(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = cache / ENTRY / "manifest.json"
    before = manifest.read_bytes()
    plan = cache / ENTRY / "plan.json"
    plan.write_text('{"format": "logicenv-plan/1", "subtasks": 3}')
    code, _, err = run(capsys, "review", str(cache / ENTRY))
    assert code == 2
    assert str(plan) in err
    plan.unlink()
    code, _, err = run(capsys, "review", str(cache / ENTRY))
    assert code == 2
    assert f"{plan}: missing" in err
    assert manifest.read_bytes() == before
