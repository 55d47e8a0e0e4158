"""Files as BT.CPP reads them: ID-less trees, the main tree, includes, TreeNodesModel, raw
``&&`` and ``<`` in attributes, format 3, and bounded input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pytest_logicenv.errors import PolicyError
from pytest_logicenv.sim.bt import load_bt_xml, parse_bt_xml
from pytest_logicenv.sim.bt.expansion import MAX_TREE_DEPTH
from pytest_logicenv.sim.bt.node import BtNode
from pytest_logicenv.sim.bt.xmlread import MAX_ATTRIBUTE_CHARS, MAX_DEPTH, MAX_ELEMENTS

ONE = '<root BTCPP_format="4"><BehaviorTree><AlwaysSuccess/></BehaviorTree></root>'


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_an_id_less_tree_is_named_as_bt_cpp_names_it() -> None:
    assert parse_bt_xml(ONE).main == "BehaviorTree_0"


def test_the_main_tree_is_the_argument_then_the_attribute_then_the_only_tree() -> None:
    two = (
        '<root BTCPP_format="4" main_tree_to_execute="B"><BehaviorTree ID="A"><AlwaysSuccess/>'
        '</BehaviorTree><BehaviorTree ID="B"><AlwaysFailure/></BehaviorTree></root>'
    )
    assert parse_bt_xml(two).main == "B"
    assert parse_bt_xml(two, tree="A").main == "A"
    with pytest.raises(PolicyError, match="no main_tree_to_execute; set it on <root>, or choose"):
        parse_bt_xml(two.replace(' main_tree_to_execute="B"', ""))
    with pytest.raises(PolicyError, match="main_tree_to_execute='C' names no BehaviorTree"):
        parse_bt_xml(two.replace('"B">', '"C">', 1))


def test_includes_are_relative_to_the_including_file(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    write(tmp_path, "lib/leaf.xml", '<root BTCPP_format="4"><BehaviorTree ID="Leaf">'
          '<AlwaysSuccess/></BehaviorTree></root>')  # fmt: skip
    write(tmp_path, "lib/sub.xml", '<root BTCPP_format="4"><include path="leaf.xml"/>'
          '<BehaviorTree ID="Sub"><SubTree ID="Leaf"/></BehaviorTree></root>')  # fmt: skip
    main = write(tmp_path, "trees/main.xml", '<root BTCPP_format="4" main_tree_to_execute="M">'
                 '<include path="../lib/sub.xml"/><BehaviorTree ID="M"><SubTree ID="Sub"/>'
                 "</BehaviorTree></root>")  # fmt: skip
    policy = load_bt_xml(main)
    assert policy.trees == ("Leaf", "Sub", "M")


def test_an_edited_include_is_read_again(tmp_path: Path) -> None:
    import os

    (tmp_path / ".git").mkdir()
    sub = write(tmp_path, "sub.xml", '<root BTCPP_format="4"><BehaviorTree ID="S">'
                "<AlwaysSuccess/></BehaviorTree></root>")  # fmt: skip
    main = write(tmp_path, "main.xml", '<root BTCPP_format="4" main_tree_to_execute="M">'
                 '<include path="sub.xml"/><BehaviorTree ID="M"><SubTree ID="S"/></BehaviorTree>'
                 "</root>")  # fmt: skip
    first = load_bt_xml(main)
    assert load_bt_xml(main) is first
    sub.write_text(sub.read_text().replace("AlwaysSuccess", "Bogus"))
    os.utime(sub, ns=(1, 10**18))
    with pytest.raises(PolicyError, match="unknown node ID 'Bogus'"):
        load_bt_xml(main)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"a.xml": '<include path="b.xml"/>', "b.xml": '<include path="a.xml"/>'},
         "include cycle (a.xml > b.xml > a.xml)"),
        ({"a.xml": '<include path="../outside.xml"/>'}, "leads outside the project"),
        ({"a.xml": '<include path="nope.xml"/>'}, "include path='nope.xml': no such file"),
        ({"a.xml": '<include ros_pkg="nav2" path="x.xml"/>'}, "ros_pkg=...> needs ROS"),
        ({"a.xml": "<include/>"}, "<include> needs a path attribute"),
    ],
)  # fmt: skip
def test_bad_includes(tmp_path: Path, files: dict[str, str], message: str) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("")
    write(tmp_path, "outside.xml", ONE)
    for name, body in files.items():
        write(project, name, f'<root BTCPP_format="4">{body}<BehaviorTree ID="{name}">'
              "<AlwaysSuccess/></BehaviorTree></root>")  # fmt: skip
    with pytest.raises(PolicyError) as caught:
        load_bt_xml(project / "a.xml", tree="a.xml")
    assert message in str(caught.value)


MODEL = (
    '<root BTCPP_format="4"><BehaviorTree ID="Main">{body}</BehaviorTree>'
    '<BehaviorTree ID="Sub"><GoTo target="{{where}}"/></BehaviorTree>'
    "<TreeNodesModel>{model}</TreeNodesModel></root>"
)


@pytest.mark.parametrize(
    ("model", "body", "message"),
    [
        ('<Action ID="GoTo"><input_port name="destination"/></Action>', "<AlwaysSuccess/>",
         "declares port 'destination' (line 1), which GoTo does not have (its ports: target, room"),
        ('<Control ID="GoTo"/>', "<AlwaysSuccess/>", "GoTo is an Action node here"),
        ('<Action ID="Dock"/>', "<Dock/>",
         "TreeNodesModel declares it (m.xml:1) but nothing implements it: register"),
        ('<SubTree ID="Sub"><input_port name="where"/></SubTree>', '<SubTree ID="Sub"/>',
         "declares port 'where' mandatory; pass it"),
    ],
)  # fmt: skip
def test_tree_nodes_model_is_checked(model: str, body: str, message: str) -> None:
    with pytest.raises(PolicyError) as caught:
        parse_bt_xml(MODEL.format(body=body, model=model), "m.xml", tree="Main")
    assert message in str(caught.value)


def test_a_subtree_model_gives_missing_ports_their_defaults() -> None:
    model = '<SubTree ID="Sub"><input_port name="where" default="sofa"/></SubTree>'
    policy = parse_bt_xml(MODEL.format(body='<SubTree ID="Sub"/>', model=model), tree="Main")
    assert [leaf.references() for leaf in policy().iterate() if leaf.name == "GoTo"] == [("sofa",)]


def test_raw_and_and_less_than_in_attributes_are_read_as_bt_cpp_reads_them() -> None:
    text = (
        '<root BTCPP_format="4"><BehaviorTree><Sequence><Script code="a := 1; b := 2"/>'
        '<ScriptCondition code="a < b && b <= 2 & 3"/></Sequence></BehaviorTree></root>'
    )
    root = parse_bt_xml(text)()
    root.tick_once()
    assert root.status.name == "SUCCESS"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('<root BTCPP_format="3"><BehaviorTree ID="T"><SequenceStar><AlwaysSuccess/>'
         "</SequenceStar></BehaviorTree></root>",
         "BTCPP_format='3': this file is written for BehaviorTree.CPP 3 (<SequenceStar> at line"
         " 1 (in format 4 it is <SequenceWithMemory>)); this loader reads format 4: convert the "
         "file with BehaviorTree.CPP's convert_v3_to_v4.py"),
        ('<root><BehaviorTree ID="T"><SubTree ID="T2" __shared_blackboard="true"/>'
         "</BehaviorTree></root>",
         "attribute __shared_blackboard at line 1 (format 4 writes _autoremap) is "
         "BehaviorTree.CPP 3 syntax"),
        ('<root BTCPP_format="5"><BehaviorTree><AlwaysSuccess/></BehaviorTree></root>',
         "written for a format other than 4"),
    ],
)  # fmt: skip
def test_format_3_files_are_named_as_such(text: str, message: str) -> None:
    with pytest.raises(PolicyError) as caught:
        parse_bt_xml(text)
    assert message in str(caught.value)


def test_bounded_input_gives_clear_errors_with_truncated_echoes() -> None:
    long = "x" * (MAX_ATTRIBUTE_CHARS + 1)
    with pytest.raises(PolicyError) as caught:
        parse_bt_xml(f'<root><BehaviorTree><Script code="{long}"/></BehaviorTree></root>')
    assert f"code='{'x' * 60}... ({len(long)} chars)' is longer than" in str(caught.value)
    assert len(str(caught.value)) < 300
    deep = "<Inverter>" * (MAX_DEPTH + 1) + "<AlwaysSuccess/>" + "</Inverter>" * (MAX_DEPTH + 1)
    with pytest.raises(PolicyError, match=f"nested more than {MAX_DEPTH} levels deep"):
        parse_bt_xml(f"<root><BehaviorTree>{deep}</BehaviorTree></root>")


def subtree_calls(count: int, calls: int) -> str:
    """Trees T0..T{count}: each calls the next ``calls`` times, its calls on a line of their
    own (T{i}'s on line i + 2); the last is a leaf."""
    call = '<SubTree ID="T{}"/>'
    trees = "".join(
        f'<BehaviorTree ID="T{i}"><Sequence>\n{call.format(i + 1) * calls}</Sequence>'
        "</BehaviorTree>"
        for i in range(count)
    )
    last = f'<BehaviorTree ID="T{count}"><AlwaysSuccess/></BehaviorTree>'
    return f'<root BTCPP_format="4" main_tree_to_execute="T0">{trees}{last}</root>'


def test_subtrees_that_multiply_are_refused_before_anything_is_built() -> None:
    with pytest.raises(PolicyError) as caught:  # 2**30 nodes: hung the loader before
        parse_bt_xml(subtree_calls(30, calls=2), "fanout.xml")
    message = str(caught.value)
    assert re.match(
        r"fanout\.xml:(\d+): <SubTree ID='T(\d+)'>: with its SubTrees expanded, tree 'T0' has "
        f"more than {MAX_ELEMENTS} nodes",
        message,
    ), message
    line, called = map(int, re.findall(r":(\d+): <SubTree ID='T(\d+)'", message)[0])
    assert line == called + 1  # the call in the tree before the one it names
    assert "call a SubTree fewer times" in message


def test_a_chain_of_subtrees_is_bounded_in_depth_and_ticks_at_the_limit() -> None:
    with pytest.raises(PolicyError) as caught:  # was a RecursionError traceback
        parse_bt_xml(subtree_calls(1000, calls=1), "chain.xml")
    assert str(caught.value).startswith(
        f"chain.xml:{MAX_TREE_DEPTH // 2 + 1}: <SubTree ID='T{MAX_TREE_DEPTH // 2}'>: with its "
        f"SubTrees expanded, tree 'T0' nests more than {MAX_TREE_DEPTH} levels deep"
    )
    # Each tree is a Sequence and a SubTree: two levels a call; the leaf is the last level.
    at_limit = parse_bt_xml(subtree_calls(MAX_TREE_DEPTH // 2 - 1, calls=1), "chain.xml")()
    assert isinstance(at_limit, BtNode)
    at_limit.tick_once()  # 200 levels deep: within Python's stack, under pytest too
    assert at_limit.result.value == "SUCCESS"


def test_a_root_skipped_by_its_script_is_a_lackbranch() -> None:
    from sim_scenes import kitchen

    from pytest_logicenv.sim.runner import run_policy

    policy = parse_bt_xml(ONE.replace("<AlwaysSuccess/>", '<AlwaysSuccess _skipIf="true"/>'))
    outcome = run_policy(policy, kitchen())
    assert (outcome.kind, outcome.status) == ("lackbranch", "SKIPPED")
    assert "root was skipped" in outcome.headline()
