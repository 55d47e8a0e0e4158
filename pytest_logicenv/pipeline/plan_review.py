"""Review before trust: whether a person has read a cache entry's plan since a model made it.

A plan an LLM derived is *unreviewed* until ``logicenv review`` records, in the manifest's plan
record, who reviewed it, when, and the SHA-256 of the ``plan.json`` they read. A later change
of ``plan.json`` (a hand edit, a regeneration) no longer matches that digest, so the entry is
unreviewed again. A hand-written plan (a marker's ``plan=`` file) needs no review; a plan whose
maker the manifest cannot tell (its manifest was lost) is treated as a model's.

>>> record = {"made_by": "llm:m", "sha256": "ab"}
>>> status_of(record, "ab").unreviewed, status_of({"made_by": "hand-written"}, "ab").unreviewed
(True, False)
>>> reviewed = {**record, REVIEW: {"by": "ann", "at": "2026-01-01T00:00:00Z", "plan_sha256": "ab"}}
>>> status_of(reviewed, "ab").unreviewed, status_of(reviewed, "cd").why
(False, 'plan.json changed since ann reviewed it on 2026-01-01T00:00:00Z')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pytest_logicenv.atomic import replace_atomic
from pytest_logicenv.cache import Cache, Entry, format_version, path_hash
from pytest_logicenv.errors import CacheError
from pytest_logicenv.pipeline import entry_reads
from pytest_logicenv.pipeline.cached import plan_record
from pytest_logicenv.pipeline.entry_reads import read_once

#: The plan record's key of the review: ``{"by", "at", "plan_sha256"}``.
REVIEW = "review"
#: How a plan's maker reads when a model made it (``llm:deepseek-chat``), also under a hand
#: edit (``hand-edited (llm:...)``), or when no one can tell (``unknown (...)``).
_MODEL_MARKS = ("llm:", "unknown")


@dataclass(frozen=True)
class Review:
    """Who reviewed a plan, when (ISO 8601, UTC) and the digest of the plan they read."""

    by: str
    at: str
    plan_sha256: str


@dataclass(frozen=True)
class ReviewStatus:
    """An entry's plan: who made it, whether it needs a person's review and has one for the
    plan as it is now (``why`` it is unreviewed, else empty)."""

    made_by: str
    needs_review: bool
    review: Review | None
    why: str = ""

    @property
    def unreviewed(self) -> bool:
        return self.needs_review and bool(self.why)

    @property
    def words(self) -> str:
        """The status in a few words, as the reports and ``logicenv show`` say it."""
        if not self.needs_review:
            return f"{self.made_by}, needs no review"
        if self.unreviewed:
            return f"made by {self.made_by}, UNREVIEWED: {self.why}"
        assert self.review is not None
        return f"made by {self.made_by}, reviewed by {self.review.by} on {self.review.at}"


def made_by_model(made_by: str) -> bool:
    """Whether a plan's recorded maker is a model, or cannot be told.

    >>> [made_by_model(who) for who in ("llm:gpt", "hand-edited (llm:gpt)", "hand-written")]
    [True, True, False]
    """
    return any(mark in made_by for mark in _MODEL_MARKS)


def _review_of(record: Mapping[str, Any]) -> Review | None:
    found = record.get(REVIEW)
    if not isinstance(found, Mapping):
        return None
    fields = [found.get(name) for name in ("by", "at", "plan_sha256")]
    if not all(isinstance(value, str) and value for value in fields):
        return None
    return Review(*(str(value) for value in fields))


def status_of(record: Mapping[str, Any], plan_sha256: str) -> ReviewStatus:
    """The review status of a plan record, for the ``plan.json`` whose digest is given."""
    made_by = str(record.get("made_by") or "unknown (the manifest does not say)")
    review = _review_of(record)
    if not made_by_model(made_by):
        return ReviewStatus(made_by, False, review)
    if review is None:
        why = "no person has reviewed it" if REVIEW not in record else "its review is damaged"
    elif review.plan_sha256 != plan_sha256:
        why = f"plan.json changed since {review.by} reviewed it on {review.at}"
    else:
        why = ""
    return ReviewStatus(made_by, True, review, why)


def _manifest(entry: Entry, *, kept: bool = False) -> Mapping[str, Any]:
    """The entry's manifest, read strictly: a damaged one is an error saying how to fix it;
    ``kept``: read once while it stays as it is (``entry_reads``: shared, read only)."""
    fix = (
        f"run its tests to rebuild it (the plan.json is kept), or delete {entry.root} to make "
        "it anew"
    )
    if not entry.manifest_path.is_file():
        raise CacheError(f"{entry.root}: not a cache entry (it has no {entry.manifest_path.name})")

    def parse(path: Path) -> Mapping[str, Any]:
        return MappingProxyType(entry.manifest(fix=fix))

    path = entry.manifest_path
    manifest = read_once(path, "manifest", parse) if kept else parse(path)
    if format_version(manifest.get("format")) is None or not isinstance(manifest.get("plan"), dict):
        raise CacheError(f"{entry.manifest_path}: not a cache manifest of ours; {fix}")
    return manifest


def _plan_digest(entry: Entry, *, kept: bool = False) -> str:
    try:
        return entry_reads.digest(entry.plan_path) if kept else path_hash(entry.plan_path)
    except FileNotFoundError:
        raise CacheError(
            f"{entry.plan_path}: missing; the entry has no plan to review "
            f"(delete {entry.root} to make it anew)"
        ) from None
    except OSError as error:
        raise CacheError(f"{entry.plan_path}: cannot be read ({error.strerror})") from None


def review_status(entry: Entry) -> ReviewStatus:
    """The review status of an entry's plan as it is on disk (its files read once while they
    stay as they are); a damaged manifest or a missing plan is a :class:`CacheError` naming
    the file."""
    return status_of(plan_record(_manifest(entry, kept=True)), _plan_digest(entry, kept=True))


def mark_reviewed(cache: Cache, entry: Entry, by: str, at: str) -> ReviewStatus:
    """Record that ``by`` reviewed the entry's plan as it is now, at ``at``: the manifest is
    rewritten whole (atomically, under the entry's lock, so no generation writes it at the
    same time). A plan that needs no review is left as it is."""
    with cache.lock(entry.key):
        manifest = dict(_manifest(entry))  # fresh under the lock, and written back
        digest = _plan_digest(entry)
        record = plan_record(manifest)
        if not status_of(record, digest).needs_review:
            return status_of(record, digest)
        record[REVIEW] = {"by": by, "at": at, "plan_sha256": digest}
        manifest["plan"] = record
        text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
        try:
            replace_atomic(entry.manifest_path, text)  # the entry's own file
        except OSError as error:
            raise CacheError(
                f"{entry.manifest_path}: cannot record the review ({error.strerror}); the "
                "manifest was left as it was"
            ) from None
    return status_of(record, digest)


def unreviewed(cache: Cache, keys: Iterable[str]) -> list[tuple[Entry, ReviewStatus]]:
    """The entries of ``keys`` whose plan a model made and no person has reviewed as it is;
    an entry that is missing or damaged is left to the tests that use it to report."""
    found = []
    for key in sorted(set(keys)):
        entry = cache.entry(key)
        if not entry.exists():
            continue
        try:
            status = review_status(entry)
        except CacheError:
            continue
        if status.unreviewed:
            found.append((entry, status))
    return found


def unreviewed_failure(found: list[tuple[str, ReviewStatus]]) -> str:
    """The line (and the entries under it) that fails a run with ``--logicenv-require-reviewed``:
    each entry as ``shown``, who made its plan and why it counts as unreviewed, and how to
    review it."""
    count = len(found)
    noun = "entry's plan was" if count == 1 else "entries' plans were"
    lines = [
        f"FAIL {count} cache {noun} made by a model and not reviewed by a person "
        "(--logicenv-require-reviewed):"
    ]
    lines += [f"  {shown} ({status.made_by}: {status.why})" for shown, status in found]
    lines.append(
        "  read each with: logicenv show ENTRY; then mark it reviewed with: logicenv review "
        + " ".join(shown for shown, _ in found)
    )
    return "\n".join(lines)
