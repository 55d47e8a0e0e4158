"""The docs pages that walk through commands (the tutorial, how-to guides) do what they show.

A page marks its steps with HTML comments, which the site does not render:

- ``<!-- file: PATH -->`` before a code block: write the block to PATH in the page's project;
- ``<!-- append: PATH -->``: append the block to PATH;
- ``<!-- replace: PATH: OLD => NEW -->``: replace OLD by NEW in PATH (the block shows NEW);
- ``<!-- copy: PAGE PATH... -->``: start from these files of another page's project;
- ``<!-- run: CMD -->`` before a console block: run CMD (``python -m pytest ...``,
  ``logicenv ...`` or ``ls DIR``, after optional ``NAME=value`` settings) in the project; its
  output must show the block's lines in order (``...`` stands for lines left out, or for
  text within a line such as a temporary folder; timings are ignored).

Every page under ``docs/`` with a ``run:`` step is run here, so a new page is tested too.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import ROOT

DOCS = ROOT / "docs"
STEP = re.compile(
    r"<!-- (copy): (.*?) -->()|<!-- (file|append|replace|run): (.*?) -->\n```.*?\n(.*?)```", re.S
)
TIMING = re.compile(r" in [0-9.]+s( =+)?$")


@dataclass(frozen=True)
class Step:
    kind: str
    argument: str
    block: str


def steps(page: Path) -> list[Step]:
    """The page's steps, in order."""
    text = page.read_text(encoding="utf-8")
    found = (match.groups() for match in STEP.finditer(text))
    return [Step(*(groups[:3] if groups[0] else groups[3:])) for groups in found]


def project_files(page: Path) -> dict[str, str]:
    """The files the page's project holds once every step that writes one is done."""
    files: dict[str, str] = {}
    for step in steps(page):
        apply(step, files)
    return files


def apply(step: Step, files: dict[str, str]) -> None:
    """Do a step that writes files (``run`` steps write none)."""
    if step.kind == "copy":
        files.update(_copied(step.argument))
    elif step.kind == "file":
        files[step.argument] = step.block
    elif step.kind == "append":
        files[step.argument] += step.block
    elif step.kind == "replace":
        files.update(_replaced(files, step.argument))


def _copied(argument: str) -> dict[str, str]:
    page, *names = argument.split()
    files = project_files(DOCS / page)
    return {name: files[name] for name in names}


def _replaced(files: dict[str, str], argument: str) -> dict[str, str]:
    path, change = argument.split(": ", 1)
    old, new = change.split(" => ", 1)
    assert old in files[path], f"replace: {old!r} is not in {path}"
    return {path: files[path].replace(old, new)}


def _environment(settings: list[str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "CI" and not k.startswith("PYTEST_")}
    env["COLUMNS"] = "80"  # the width the pages' outputs were printed at
    env.update(setting.split("=", 1) for setting in settings)
    return env


def run(command: str, project: Path) -> str:
    """What ``command`` prints in ``project``."""
    words = shlex.split(command)
    settings = [word for word in words if re.fullmatch(r"[A-Z_]+=.*", word)]
    words = words[len(settings) :]
    if words[0] == "ls":
        return "\n".join(sorted(p.name for p in (project / words[1]).iterdir()))
    if words[0] == "logicenv":
        words = ["python", "-m", "pytest_logicenv.cli", *words[1:]]
    assert words[:1] == ["python"], f"run: {command!r}: only python, logicenv and ls run here"
    done = subprocess.run(
        [sys.executable, *words[1:]],
        cwd=project,
        env=_environment(settings),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    return done.stdout + done.stderr


def expected_lines(block: str) -> list[str]:
    """The console block as fnmatch patterns: no prompt, no '...', any timing."""
    lines = [line.rstrip() for line in block.splitlines() if not line.startswith("$ ")]
    patterns = []
    for line in lines:
        if line in ("", "..."):
            continue
        line = TIMING.sub(" in *", line)
        if line.startswith("FAILED ") and " - " in line:
            line = line.split(" - ", 1)[0] + " - *"  # cut to the terminal's width
        patterns.append(line.replace("[", "[[]").replace("...", "*"))
    return patterns


def runnable_pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if any(s.kind == "run" for s in steps(p)))


def _write(project: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("page", runnable_pages(), ids=lambda p: str(p.relative_to(DOCS)))
def test_the_page_prints_what_it_shows(page: Path, tmp_path: Path) -> None:
    files: dict[str, str] = {}
    for step in steps(page):
        if step.kind == "run":
            _write(tmp_path, files)
            printed = run(step.argument, tmp_path)
            matcher = pytest.LineMatcher(printed.splitlines())
            matcher.fnmatch_lines(expected_lines(step.block))
        else:
            apply(step, files)


def test_there_are_runnable_pages_and_their_steps_parse() -> None:
    pages = [str(p.relative_to(DOCS)) for p in runnable_pages()]
    assert "tutorial/first-test.md" in pages
    for page in runnable_pages():
        assert project_files(page), f"{page}: no file steps"
        for step in steps(page):
            if step.kind == "run":
                assert expected_lines(step.block), f"{page}: run {step.argument!r} shows nothing"
