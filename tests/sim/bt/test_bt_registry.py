"""Users' own leaves and controls: registered from Python, from a module (``--nodes``), with
ports read and written at run time; the palette; unknown IDs listed with did-you-mean."""

from __future__ import annotations

from pathlib import Path

import py_trees
import pytest
from bt_helpers import run

from pytest_logicenv.cli import main
from pytest_logicenv.errors import PolicyError
from pytest_logicenv.scenes.scene_json import scene_to_json
from pytest_logicenv.sim.bt import parse_bt_xml
from pytest_logicenv.sim.bt.node import BtNode

NODES_MODULE = '''
import py_trees
from pytest_logicenv.sim.bt import PortsBehaviour, action, control, input_port, output_port


class CountDown(PortsBehaviour):
    """Counts its port n down into left."""

    def update(self):
        self.ports.set("left", self.ports.get("n") - 1)
        return py_trees.common.Status.SUCCESS


def first_success(name, children):
    return py_trees.composites.Selector(name, memory=False, children=children)


class Wave(py_trees.behaviour.Behaviour):
    """Waves, a plain factory: its ports are its keyword arguments."""

    def __init__(self, name, hand="left", times=None, *, speed):
        super().__init__(name)


BT_NODES = {
    "CountDown": action(CountDown, input_port("n", "int"), output_port("left", "int")),
    "FirstSuccess": control(first_success),
    "Wave": Wave,
}
BT_ENUMS = {"LIMIT": 4}
'''

TREE = (
    '<root BTCPP_format="4"><BehaviorTree><Sequence><CountDown n="{=}" left="{n}"/>'
    '<FirstSuccess><ScriptCondition code="n == 5"/><ScriptCondition code="n + 1 == LIMIT"/>'
    "</FirstSuccess></Sequence></BehaviorTree></root>"
)


@pytest.fixture
def nodes_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "my_bt_nodes.py").write_text(NODES_MODULE)
    monkeypatch.chdir(tmp_path)
    return "my_bt_nodes"


def test_a_modules_leaves_controls_and_enums_are_used(nodes_module: str) -> None:
    root = parse_bt_xml(TREE, modules=[nodes_module], blackboard={"n": 4})()
    assert isinstance(root, BtNode)
    assert run(root, 1) == ["SUCCESS"]
    assert root.ports.blackboard.get("n") == 3


def test_a_plain_factory_gets_its_ports_as_text_when_built() -> None:
    made: list[dict[str, str]] = []

    def wave(name: str, **ports: str) -> py_trees.behaviour.Behaviour:
        made.append(ports)
        return py_trees.behaviours.Success(name)

    text = (
        '<root BTCPP_format="4" main_tree_to_execute="M"><BehaviorTree ID="M">'
        '<SubTree ID="S" hand="left"/></BehaviorTree><BehaviorTree ID="S">'
        '<Wave hand="{hand}" times="2"/></BehaviorTree></root>'
    )
    parse_bt_xml(text, nodes={"Wave": wave})
    assert made[0] == {"hand": "left", "times": "2"}
    with pytest.raises(PolicyError, match="plain factory that gets its ports as text"):
        parse_bt_xml(text.replace('hand="left"', 'hand="{h}"'), nodes={"Wave": wave})


def test_built_in_and_simulator_ids_cannot_be_taken() -> None:
    with pytest.raises(PolicyError, match=r"'Sequence' is one of BehaviorTree\.CPP's built-in"):
        parse_bt_xml(TREE, nodes={"Sequence": py_trees.behaviours.Success})
    text = '<root><BehaviorTree><GoTo target="x"/></BehaviorTree></root>'
    with pytest.raises(PolicyError, match=r"'GoTo' is one of the simulator's Actions.*'MyGoTo'"):
        parse_bt_xml(text, nodes={"GoTo": lambda name, target: py_trees.behaviours.Success(name)})


def test_an_unknown_id_lists_the_known_ones_with_the_closest(nodes_module: str) -> None:
    text = TREE.replace("CountDown", "CountDwn", 1)
    with pytest.raises(PolicyError, match="unknown node ID 'CountDwn'; did you mean 'CountDown'"):
        parse_bt_xml(text, modules=[nodes_module])


@pytest.mark.parametrize(
    ("module", "message"),
    [
        ("no_such_module_here", r"cannot be imported \(ModuleNotFoundError"),
        ("json", "defines no BT_NODES mapping"),
    ],
)
def test_bad_nodes_modules_are_named(module: str, message: str) -> None:
    with pytest.raises(PolicyError, match=message):
        parse_bt_xml(TREE, modules=[module])


def test_groot_palette_lists_our_leaves_and_the_users(
    nodes_module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["groot-palette", "--nodes", nodes_module]) == 0
    out = capsys.readouterr().out
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<root BTCPP_format="4">')
    pick_up = out[out.index('<Action ID="PickUp">') :].split("</Action>")[0]
    assert '<input_port name="object" type="std::string">' in pick_up
    assert '<input_port name="room" type="std::string">object: which room' in pick_up
    assert '<output_port name="left" type="int"></output_port>' in out
    assert "<description>Counts its port n down into left.</description>" in out
    assert "Sequence" not in out  # Groot knows BT.CPP's own nodes
    assert "<description>An object matching the object port is there (on/in/room" in out
    assert "object object names" not in out  # the docstring read badly once its quotes went
    # A plain factory's leaf: the ports its signature names, defaults as given.
    wave = out[out.index('<Action ID="Wave">') :].split("</Action>")[0]
    assert '<input_port name="hand" type="std::string" default="left">optional</input_port>' in wave
    assert '<input_port name="times" type="std::string">optional</input_port>' in wave
    assert '<input_port name="speed" type="std::string"></input_port>' in wave


def test_logicenv_run_takes_nodes_modules(
    nodes_module: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from sim_scenes import kitchen

    scene = tmp_path / "scene.json"
    scene.write_text(json.dumps(scene_to_json(kitchen())))
    policy = tmp_path / "p.xml"
    policy.write_text(TREE.replace("<Sequence>", '<Sequence><Script code="n := 4"/>'))
    goal = tmp_path / "goal.json"
    goal.write_text("[]")  # no goal facts: the scene has no plan, and SUCCESS alone passes
    judged = ["--scene", str(scene), "--goal", str(goal)]
    code = main(["run", str(policy), *judged, "--nodes", nodes_module])
    assert code == 0, capsys.readouterr()
    assert main(["run", str(policy), *judged]) == 2
    assert "unknown node ID 'CountDown'" in capsys.readouterr().err
