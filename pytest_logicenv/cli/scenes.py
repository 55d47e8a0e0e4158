"""``logicenv export`` and ``logicenv render``: a scene file to an AI2-THOR house or a picture.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="logicenv")
>>> register(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["render", "scene.json", "-o", "scene.svg"]).output
'scene.svg'
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pytest_logicenv.atomic import listing_manifest, write_atomic
from pytest_logicenv.cli.args import catalog_of
from pytest_logicenv.errors import LogicEnvError, RunFileError
from pytest_logicenv.render import render_svg
from pytest_logicenv.scenes.export import house_text, to_house
from pytest_logicenv.scenes.scene_json import load_scene
from pytest_logicenv.sim.run_file import load_runs, numbered_run
from pytest_logicenv.vocabulary import a_or_an
from pytest_logicenv.workdir import work_folder

#: Where runs drawn on a cache entry's scene go, in the current folder's ``.logicenv/``.
RENDER_DIR = "render"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = subparsers.add_parser(
        "export",
        help="write a scene as a ProcTHOR house (schema 1.0.0) for AI2-THOR",
        description="Write SCENE.json as a ProcTHOR house JSON that ai2thor 5 loads with "
        "Controller(scene=house). Objects AI2-THOR cannot show are listed, not exported.",
    )
    export.add_argument("scene", metavar="SCENE.json", help="a scene file (logicenv-scene/1)")
    export.add_argument(
        "-o", "--output", metavar="OUT", help="where to write (default: SCENE.house.json)"
    )
    export.set_defaults(handler=run_export)
    render = subparsers.add_parser(
        "render",
        help="draw a scene from above as SVG, with a policy run's path",
        description="Draw SCENE.json from above: rooms, walls, doors, windows and labelled "
        "object footprints, task objects highlighted. With --trace, also the path of a policy "
        "run in that scene: its numbered steps, the objects it acted on and the action that "
        "failed. RUN.json is one run (Outcome.to_json), the output of logicenv run --json, or "
        "the JSON report (--logicenv-report=json:PATH); the run in SCENE is drawn.",
    )
    render.add_argument("scene", metavar="SCENE.json", help="a scene file (logicenv-scene/1)")
    render.add_argument("--trace", metavar="RUN.json", help="a policy run to draw on the scene")
    render.add_argument(
        "--run",
        metavar="N|TEXT",
        help="the run to draw when RUN.json holds several in SCENE: its number, or a text only "
        "its test or policy name contains",
    )
    render.add_argument(
        "-o",
        "--output",
        metavar="OUT.svg",
        help="where to write (default: SCENE.svg; with --trace, SCENE.runN.svg, N the run's "
        "number among the scene's runs in RUN.json, in .logicenv/render/ for a scene of a "
        "cache entry). A file a cache entry lists is never overwritten",
    )
    render.set_defaults(handler=run_render)


def _output(args: argparse.Namespace, suffix: str, *, run: bool = False) -> Path:
    """``-o``, else beside the scene; a run drawn on a scene of a cache entry goes to
    ``.logicenv/render/`` in the current folder instead, never into the committed entry."""
    if args.output:
        return Path(args.output)
    source = Path(args.scene)
    name = source.name.removesuffix(".json") + suffix
    manifest = listing_manifest(source) if run else None
    if manifest is None:
        return source.with_name(name)
    folder = work_folder(Path.cwd(), RENDER_DIR)
    return Path(os.path.relpath(folder, Path.cwd())) / f"{manifest.parent.name}--{name}"


def _write(path: Path, text: str) -> str:
    """Write ``text`` to ``path``; the verb said. A file a cache entry's manifest lists is
    left as it is when ``text`` is what it holds; anything else the guard refuses
    (``atomic.refusal``: a cache entry's file, ``.git``, a directory) is an error."""
    if listing_manifest(path) is not None and _holds(path, text):
        return "unchanged (a file of its cache entry):"
    write_atomic(path, text)
    return "wrote"


def _holds(path: Path, text: str) -> bool:
    try:
        return path.is_file() and path.read_bytes() == text.encode("utf-8")
    except OSError:
        return False


def run_export(args: argparse.Namespace) -> int:
    path = _output(args, ".house.json")
    house = to_house(load_scene(args.scene), catalog_of(args))
    verb = _write(path, house_text(house))
    logicenv = house["metadata"]["logicenv"]
    print(
        f"{verb} {path}: {len(house['rooms'])} rooms, {len(house['doors'])} doors, "
        f"{len(house['windows'])} windows, {_count(house['objects'])} objects"
    )
    for item in logicenv["substitutions"]:
        print(
            f"  stand-in: {item['id']} ({item['type']}) exported as {a_or_an(item['exportedAs'])}"
        )
    for item in logicenv["assets"]:
        print(f"  asset: {item['id']} ({item['type']}) exported as {item['assetId']}")
    for action in logicenv["stateActions"]:
        print(f"  after loading: {action['action']} {action['objectId']}")
    for item in logicenv["skipped"]:
        print(f"  not exported: {item['id']} ({item['reason']})")
    for item in logicenv["lost"]:
        value = "true" if item["value"] else "false"
        print(f"  state not kept: {item['id']} {item['state']}={value} ({item['reason']})")
    return 0


def _count(objects: list[dict[str, object]]) -> int:
    total = 0
    for obj in objects:
        children = obj.get("children")
        total += 1 + (_count(children) if isinstance(children, list) else 0)
    return total


def run_render(args: argparse.Namespace) -> int:
    scene = load_scene(args.scene)
    outcome = None
    suffix = ".svg"
    if args.trace is not None:
        runs = load_runs(args.trace)
        try:
            number, outcome = numbered_run(runs, scene.id, args.run)
        except RunFileError as error:
            raise RunFileError(f"{args.trace}: {error}") from None
        suffix = f".run{number}.svg"  # beside the scene's own picture, never over it
    elif args.run is not None:
        raise LogicEnvError("--run picks one of the runs of --trace RUN.json; give --trace too")
    path = _output(args, suffix, run=outcome is not None)
    verb = _write(path, render_svg(scene, outcome))
    count = len(outcome.actions) if outcome else 0
    noun = "action" if count == 1 else "actions"
    actions = f", {count} {noun} drawn ({outcome.kind})" if outcome else ""
    print(f"{verb} {path}{actions}")
    return 0
