"""``logicenv check PATH...``: Table 1's physics checks on scene files, with PhyPR.

PATH is a scene JSON file or a directory searched recursively for scene files (JSON whose
``format`` is a scene format; other JSON there, such as a cache's ``plan.json``, is skipped).
Prints each scene's checks per dimension and every violation, then PhyPR over all scenes.
Exit 0 when every scene passes, 1 when some check fails, 2 for unreadable input.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_logicenv.bounded import read_json_file
from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.physics import SceneCheck, check_scene, phypr
from pytest_logicenv.scenes.scene_json import scene_from_json
from pytest_logicenv.scenes.scene_model import SCENE_FORMAT

_FORMAT_FAMILY = SCENE_FORMAT.split("/")[0] + "/"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check",
        help="check scenes against the paper's physical constraints (Table 1) and print PhyPR",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="scene file or directory")
    parser.set_defaults(handler=run)


def scene_files(paths: Sequence[str]) -> list[tuple[Path, Any]]:
    """The scene files named or found under ``paths``, with their parsed JSON, in order."""
    found: list[tuple[Path, Any]] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for candidate in sorted(path.rglob("*.json")):
                data = _read(candidate)
                if isinstance(data, dict) and str(data.get("format", "")).startswith(
                    _FORMAT_FAMILY
                ):
                    found.append((candidate, data))
        elif path.is_file():
            found.append((path, _read(path)))
        else:
            raise SceneError(f"{path}: no such file or directory")
    if not found:
        raise SceneError(f"no scene files in {', '.join(paths)}")
    return found


def _read(path: Path) -> Any:
    try:
        return read_json_file(path, SceneError)
    except OSError as error:
        raise SceneError(f"{path}: cannot read ({error})") from None


def _summary(result: SceneCheck) -> str:
    parts = []
    for dimension in result.dimensions:
        failed = len(dimension.violations)
        verdict = "ok" if not failed else f"{failed} violation{'s' if failed != 1 else ''}"
        parts.append(f"{dimension.name.replace('_', ' ')} {verdict} ({dimension.checks} checks)")
    return ", ".join(parts)


def run(args: argparse.Namespace) -> int:
    results = []
    for path, data in scene_files(args.paths):
        scene = scene_from_json(data, source=str(path))
        result = check_scene(scene)
        results.append(result)
        print(f"{path}: {'PASS' if result.passed else 'FAIL'}: {_summary(result)}")
        for violation in result.violations:
            print(f"  {violation}")
    print(phypr(results))
    return 0 if all(r.passed for r in results) else 1
