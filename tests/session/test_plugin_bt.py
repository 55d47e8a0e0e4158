"""BT.CPP XML policies in marked tests: the marker's ``tree=`` and ``nodes=``, the fixture's
``run(..., tree=, nodes=)`` and the ``logicenv_nodes`` ini option (pytester)."""

from __future__ import annotations

import pytest
from plugin_project import make_project

pytest_plugins = ["pytester"]

XML = """<root BTCPP_format="4">
  <BehaviorTree ID="Reset">
    <Sequence>
      <Fallback>
        <Inverter><IsOpen object="window"/></Inverter>
        <SubTree ID="Do" target="window" verb="close"/>
      </Fallback>
      <Fallback>
        <Inverter><IsToggledOn object="light"/></Inverter>
        <SubTree ID="Do" target="light" verb="off"/>
      </Fallback>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Forgetful">
    <SubTree ID="Do" target="window" verb="close" _skipIf="true"/>
  </BehaviorTree>
  <BehaviorTree ID="Do">
    <Sequence>
      <GoTo target="{target}"/>
      <Announce said="{said}"/>
      <Switch2 variable="{verb}" case_1="close" case_2="off">
        <Close target="{target}"/>
        <ToggleOff target="{target}"/>
        <AlwaysFailure/>
      </Switch2>
    </Sequence>
  </BehaviorTree>
</root>
"""

NODES = """
import py_trees
from pytest_logicenv.sim.bt import PortsBehaviour, action, output_port


class Announce(PortsBehaviour):
    def update(self):
        self.ports.set("said", "on my way")
        return py_trees.common.Status.SUCCESS


BT_NODES = {"Announce": action(Announce, output_port("said"))}
"""

TESTS = """
@pytest.mark.logic_env(TASK, plan="plan.json", tree="Reset", nodes="bath_nodes")
def test_marker(logic_env):
    logic_env.run("reset.xml").assert_ok()


@pytest.mark.logic_env(TASK, plan="plan.json")
def test_fixture(logic_env):
    logic_env.run("reset.xml", tree="Reset", nodes=["bath_nodes"]).assert_ok()


@pytest.mark.logic_env(TASK, plan="plan.json", tree="Reset")
def test_ini(logic_env):
    logic_env.run("reset.xml").assert_ok()
"""


def project(pytester: pytest.Pytester, tests: str) -> None:
    make_project(pytester, tests)
    pytester.makefile(".xml", reset=XML)
    pytester.makepyfile(bath_nodes=NODES)


def test_marker_fixture_and_ini_register_nodes_and_pick_the_tree(
    pytester: pytest.Pytester,
) -> None:
    project(pytester, TESTS)
    result = pytester.runpytest("-v")
    result.assert_outcomes(passed=4, failed=2)  # test_ini lacks the ini option here
    result.stdout.fnmatch_lines(["*test_ini*FAILED*", "*unknown node ID 'Announce'*"])
    pytester.makeini(
        "[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\nlogicenv_nodes = bath_nodes\n"
    )
    pytester.runpytest().assert_outcomes(passed=6)


def test_a_bad_marker_tree_or_nodes_names_the_argument(pytester: pytest.Pytester) -> None:
    project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json", nodes=3)
def test_bad(logic_env):
    pass
""",
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*nodes=3 must name modules, e.g. nodes='my_robot.bt_nodes'*"])


def test_a_skipped_root_is_a_lackbranch_explained(pytester: pytest.Pytester) -> None:
    project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json", tree="Forgetful", nodes="bath_nodes")
def test_forgetful(logic_env):
    logic_env.run("reset.xml").assert_ok()
""",
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["*the policy's root was skipped (a _skipIf or _while held)*"])
