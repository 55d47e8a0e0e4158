"""The reference pages list what the code has: every option, ini name, command and public name,
and the README's links point at pages and files that exist."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from helpers import ROOT

import pytest_logicenv
from pytest_logicenv.cli import build_parser

pytest_plugins = ["pytester"]

DOCS = ROOT / "docs"
OPTION_ROW = re.compile(r"^\| (?:`(--logicenv-[^`]+)`)? *\| (?:`(logicenv_\w+)`)? *\|", re.M)


def help_options(pytester: pytest.Pytester) -> tuple[dict[str, str], set[str]]:
    """``pytest --help``'s logicenv options (spelling -> its help text) and ini names."""
    lines = pytester.runpytest("--help").stdout.lines
    options: dict[str, str] = {}
    current = ""
    for line in lines:
        found = re.match(r"^  (--logicenv-\S+)", line)
        if found:
            current = found[1]
            options[current] = ""
        elif current and line.startswith("    "):
            options[current] += " " + line.strip()
        else:
            current = ""
    inis = {m[1] for line in lines if (m := re.match(r"^  (logicenv_\w+) \(", line))}
    return options, inis


def test_the_options_table_lists_every_option_and_ini_name(pytester: pytest.Pytester) -> None:
    options, inis = help_options(pytester)
    rows = OPTION_ROW.findall((DOCS / "reference" / "options.md").read_text(encoding="utf-8"))
    documented = {option for option, _ in rows if option}
    assert documented == set(options), (
        f"docs/reference/options.md and pytest --help differ: only in the docs "
        f"{sorted(documented - set(options))}, only in --help {sorted(set(options) - documented)}"
    )
    assert {ini for _, ini in rows if ini} == inis
    for option, ini in rows:
        if option and ini:  # the option's help names the ini option it overrides
            assert ini in " ".join(options[option].split()).replace("- ", "-"), (option, ini)


def test_the_marker_reference_gives_the_markers_signature(pytester: pytest.Pytester) -> None:
    [line] = [line for line in pytester.runpytest("--markers").outlines if "logic_env(" in line]
    signature = line.split("@pytest.mark.", 1)[1].split("): ", 1)[0] + ")"
    page = (DOCS / "reference" / "marker.md").read_text(encoding="utf-8")
    assert signature.replace("'", '"') in " ".join(page.split())


def test_the_cli_reference_lists_every_command() -> None:
    parser = build_parser()
    [commands] = [a for a in parser._actions if a.dest == "command"]
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    missing = [name for name in commands.choices if f"\nlogicenv {name} " not in page]
    assert not missing, f"docs/reference/cli.md does not list: {missing}"


def test_the_api_page_renders_every_public_name() -> None:
    page = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"^::: pytest_logicenv\.(\w+)$", page, re.M))
    missing = sorted(set(pytest_logicenv.__all__) - shown - {"__version__"})
    assert not missing, f"docs/reference/api.md has no '::: pytest_logicenv.NAME' for {missing}"


def test_the_facts_reference_names_every_state_and_where_key() -> None:
    from pytest_logicenv.logic.facts import STATES
    from pytest_logicenv.logic.facts.fact_json import WHERE_KEYS

    page = (DOCS / "reference" / "facts.md").read_text(encoding="utf-8")
    [states] = [line for line in page.splitlines() if line.startswith('| `{"state": a')]
    assert [s for s in STATES if f"`{s}`" not in states] == []
    [where] = [para for para in page.split("\n\n") if para.startswith("A `where` may hold")]
    assert [k for k in WHERE_KEYS if f"`{k}`" not in where] == []


def test_the_cache_reference_describes_every_manifest_key() -> None:
    from pytest_logicenv.pipeline.cached import FAILED
    from pytest_logicenv.pipeline.kept_scenes import DESIGNED_FOR

    page = (DOCS / "reference" / "cache.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (`[^|]+`) \| (.+) \|$", page, re.M))
    keys = {key for cell in rows for key in re.findall(r"`(\w+)`", cell)}
    for manifest in sorted((ROOT / "cache").glob("*/manifest.json")):
        data = json.loads(manifest.read_text(encoding="utf-8"))
        assert set(data) <= keys, f"{manifest}: {set(data) - keys} not in docs/reference/cache.md"
        for part in ("settings", "plan", "scenes"):
            assert [k for k in data[part] if f"`{k}`" not in rows[f"`{part}`"]] == [], part
    assert f"`{FAILED}`" in rows["`plan`"]
    assert f"`{DESIGNED_FOR}`" in rows["`scenes`"]


def project_urls() -> tuple[str, str]:
    """The documentation's and the repository's URLs, the same in mkdocs.yml and pyproject."""
    site = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    docs, repo = site["site_url"], site["repo_url"]
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'Documentation = "{docs}"' in pyproject
    assert f'Repository = "{repo}"' in pyproject
    return docs, repo


def test_the_readme_links_absolutely_to_pages_and_files_that_exist() -> None:
    """The README is the package index's page too, where relative links break."""
    docs, repo = project_urls()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", readme)
    assert links
    assert all(link.startswith("https://") for link in links), links
    for link in links:
        if link.startswith(docs):
            page = link.removeprefix(docs).rstrip("/") or "index"
            assert (DOCS / f"{page}.md").is_file() or (DOCS / page / "index.md").is_file(), link
        elif link.startswith(repo):
            path = re.sub(r"^/(blob|tree)/main/", "", link.removeprefix(repo))
            assert (ROOT / path).exists(), link
        else:
            pytest.fail(f"README link {link} is neither under {docs} nor {repo}")


def test_the_readme_is_a_landing_page() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 200, f"README.md has {len(lines)} lines: move the details to docs/"
