"""The distribution: an sdist and a wheel that build without warnings, carry the license, and
leave out the tests (which need the repository around them)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest
from helpers import ROOT

#: What a build reads from the project (a copy is built, so the checkout is never touched).
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "pytest_logicenv", "docs")
#: What the sdist must leave out, though it sits in the project.
LEFT_OUT = ("tests", "example_agents", "benchmarks")


def _can_build() -> bool:
    if importlib.util.find_spec("build") is None:
        return False
    return int(version("setuptools").split(".")[0]) >= 77


@pytest.mark.slow
@pytest.mark.skipif(
    not _can_build(), reason="needs build and setuptools>=77 (pip install -e .[dev])"
)
def test_sdist_and_wheel_build_cleanly_with_the_license_and_without_the_tests(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    for name in (*SOURCES, *LEFT_OUT):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.is_file():
            shutil.copy(source, project / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", "dist", "."],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    warnings = [line for line in output.splitlines() if "warn" in line.lower()]
    assert warnings == []
    [sdist] = (project / "dist").glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    assert "LICENSE" in names
    assert "docs/actions.md" in names
    assert not [n for n in names if n.split("/")[0] in LEFT_OUT]
    [wheel] = (project / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        text = archive.read(metadata).decode()
        licenses = [n for n in archive.namelist() if n.endswith("licenses/LICENSE")]
    assert "License-Expression: MIT" in text
    assert licenses
