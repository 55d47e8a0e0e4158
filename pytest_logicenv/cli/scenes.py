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
        help="draw a scene from above as SVG",
        description="Draw SCENE.json from above: rooms, walls, doors, windows and labelled "
        "object footprints, task objects highlighted.",
    )
    render.add_argument("scene", metavar="SCENE.json", help="a scene file (logicenv-scene/1)")
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
    house = write_house(load_scene(args.scene), path)
    skipped = house["metadata"]["logicenv"]["skipped"]
    print(
        f"wrote {path}: {len(house['rooms'])} rooms, {len(house['doors'])} doors, "
        f"{len(house['windows'])} windows, {_count(house['objects'])} objects"
    )
    for item in skipped:
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
    path = write_svg(scene, _output(args, ".svg"))
    print(f"wrote {path}")
    return 0
