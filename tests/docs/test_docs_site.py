"""The documentation site builds with warnings as errors, and every page is in its nav."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import ROOT

DOCS = ROOT / "docs"


def nav_pages(entries: list[Any]) -> list[str]:
    """The pages an ``nav:`` lists, depth first."""
    pages: list[str] = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages.extend(nav_pages(value) if isinstance(value, list) else [value])
    return pages


def site_config() -> dict[str, Any]:
    config: dict[str, Any] = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    return config


def test_every_page_under_docs_is_in_the_nav_once() -> None:
    listed = nav_pages(site_config()["nav"])
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md") if "_ext" not in p.parts)
    missing = [page for page in pages if page not in listed]
    assert not missing, (
        f"docs pages missing from mkdocs.yml's nav: {missing}; add each under its section "
        "(Tutorial, How-to guides, Reference, Explanation)"
    )
    assert sorted(listed) == pages, f"nav entries with no page: {set(listed) - set(pages)}"


def test_the_build_fails_on_warnings() -> None:
    config = site_config()
    assert config["strict"] is True
    assert config["validation"]["omitted_files"] == "warn"  # a page left out of nav fails


def test_ci_builds_the_site_before_the_tests() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    build = script.index("mkdocs build --strict")
    assert build < script.index("python -m pytest")
    assert "docs" in (ROOT / "pyproject.toml").read_text().split("dev = [", 1)[1].split("]")[0]


@pytest.mark.slow
def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:] + "\n(pip install -e '.[docs]' for mkdocs)"
    api = (site / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    assert "Run <code>policy</code>" in api  # LogicEnv.run's docstring, rendered
    assert ":class:" not in api
    assert "&gt;&gt;&gt;" in api
    assert (site / "tutorial" / "first-test" / "index.html").is_file()
