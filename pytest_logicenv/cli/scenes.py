"""``logicenv export`` and ``logicenv render``: a scene file to an AI2-THOR house or a picture.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="logicenv")
>>> register(parser.add_subparsers(dest="command"))
>>> parser.parse_args(["render", "scene.json", "-o", "scene.svg"]).output
'scene.svg'
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_logicenv.cli.args import catalog_of
from pytest_logicenv.errors import LogicEnvError, RunFileError
from pytest_logicenv.scenes.export import write_house
from pytest_logicenv.scenes.model import load_scene
from pytest_logicenv.scenes.render import write_svg


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
        "-o", "--output", metavar="OUT.svg", help="where to write (default: SCENE.svg)"
    )
    render.set_defaults(handler=run_render)


def _output(args: argparse.Namespace, suffix: str) -> Path:
    if args.output:
        return Path(args.output)
    source = Path(args.scene)
    return source.with_name(source.name.removesuffix(".json") + suffix)


def run_export(args: argparse.Namespace) -> int:
    path = _output(args, ".house.json")
    house = write_house(load_scene(args.scene), path, catalog_of(args))
    logicenv = house["metadata"]["logicenv"]
    print(
        f"wrote {path}: {len(house['rooms'])} rooms, {len(house['doors'])} doors, "
        f"{len(house['windows'])} windows, {_count(house['objects'])} objects"
    )
    for item in logicenv["substitutions"]:
        print(f"  stand-in: {item['id']} ({item['type']}) exported as a {item['exportedAs']}")
    for item in logicenv["assets"]:
        print(f"  asset: {item['id']} ({item['type']}) exported as {item['assetId']}")
    for action in logicenv["stateActions"]:
        print(f"  after loading: {action['action']} {action['objectId']}")
    for item in logicenv["skipped"]:
        print(f"  not exported: {item['id']} ({item['reason']})")
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
    if args.trace is not None:
        from pytest_logicenv.sim.run_file import load_runs, pick_run

        runs = load_runs(args.trace)
        try:
            outcome = pick_run(runs, scene.id, args.run)
        except RunFileError as error:
            raise RunFileError(f"{args.trace}: {error}") from None
    elif args.run is not None:
        raise LogicEnvError("--run picks one of the runs of --trace RUN.json; give --trace too")
    path = write_svg(scene, _output(args, ".svg"), outcome)
    count = len(outcome.actions) if outcome else 0
    noun = "action" if count == 1 else "actions"
    actions = f", {count} {noun} drawn ({outcome.kind})" if outcome else ""
    print(f"wrote {path}{actions}")
    return 0
