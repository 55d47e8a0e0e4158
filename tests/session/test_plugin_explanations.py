"""A failing run explained in the policy's own names (issue 27): a policy that wrote types
reads its types, not the plan's roles or the scene's ids, and a goal fact two subtasks share
is explained once."""

from __future__ import annotations

import json

import pytest
from plugin_project import PLAN, make_project

pytest_plugins = ["pytester"]

TYPED = """
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import GoTo, IsToggledOn, ToggleOff


def looks_at_the_window():  # never closes it: unreachable where it is open
    return sequence("Reset", GoTo("Window"), light())


def light():
    off = sequence("Off", GoTo("LightSwitch"), ToggleOff("LightSwitch"))
    return when("Light", IsToggledOn("LightSwitch"), off)


def switches_from_afar():  # counterfactual where the light is on: never goes to it
    return when("Light", IsToggledOn("LightSwitch"), ToggleOff("LightSwitch"))
"""


def _typed_project(pytester: pytest.Pytester, test: str, plan: object = PLAN) -> None:
    make_project(pytester, "from typed import *\n" + test)
    pytester.makepyfile(typed=TYPED)
    pytester.makefile(".json", plan=json.dumps(plan))


def _shared_goal_plan() -> dict[str, object]:
    """The bathroom plan whose light subtask also wants the window closed, as the window
    subtask does: one goal fact of two subtasks."""
    plan = json.loads(json.dumps(PLAN))
    light = plan["subtasks"][1]["tree"]["branches"]["yes"]
    light["goal"].append({"state": "window", "open": False})
    return plan


def test_a_goal_not_met_is_named_as_the_policy_wrote_it_and_once(
    pytester: pytest.Pytester,
) -> None:
    _typed_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_typed(logic_env):
    logic_env.run(looks_at_the_window).assert_ok()
""",
        plan=_shared_goal_plan(),
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_typed[[]window=yes-light=yes[]] _*",
            "Unreachable: the policy returned SUCCESS but 1 goal fact is false",
            'goal not met: "Window closed"',
            "trace: GoTo(Window) ok, IsToggledOn(LightSwitch)? yes, GoTo(LightSwitch) ok, "
            "ToggleOff(LightSwitch) ok",
            "a passing sequence: *Close(Window)*",
        ]
    )
    failure = _failure_text(result.stdout.str())
    assert failure.count("Window closed") == 1
    # The plan's roles, never written by this policy, are not how it is told what failed.
    for role in ("window closed", "(window)", "(light)", "light switched"):
        assert role not in failure


def test_a_broken_precondition_names_what_the_policy_wrote(pytester: pytest.Pytester) -> None:
    _typed_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json", select="minimal")
def test_far(logic_env):
    logic_env.run(switches_from_afar).assert_ok()
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "Counterfactual: ToggleOff(LightSwitch) broke a precondition: the agent is next "
            "to LightSwitch (GoTo it first)",
            "broken precondition [[]next_to[]]: the agent is next to LightSwitch*",
            "trace: IsToggledOn(LightSwitch)? yes, ToggleOff(LightSwitch) -> *",
        ]
    )
    failure = _failure_text(result.stdout.str())
    assert "next to light " not in failure
    assert "GoTo(light)" not in failure


def _failure_text(out: str) -> str:
    """The FAILURES section, up to the coverage table."""
    return out.split("= FAILURES =", 1)[1].split("logic coverage", 1)[0]


MISSPELT = """<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequence>
      <IsOpen objet="window"/>
      <GoTo target="window"/>
    </Sequence>
  </BehaviorTree>
</root>
"""
PORT_ERROR = (  # the file named from the rootdir, as every report names it
    "the policy cannot run: misspelt.xml:4: <IsOpen>: IsOpen has no port 'objet'; "
    "did you mean 'object'? its ports are: object, *"
)


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["serial", "xdist"])
def test_an_xml_port_error_is_shown_once_per_run(
    pytester: pytest.Pytester, workers: tuple[str, ...]
) -> None:
    make_project(
        pytester,
        """
@pytest.mark.logic_env(TASK, plan="plan.json")
def test_misspelt(logic_env):
    logic_env.run("misspelt.xml").assert_ok()

@pytest.mark.logic_env(TASK, plan="plan.json")
def test_other(logic_env):
    logic_env.run("other.xml").assert_ok()
""",
    )
    pytester.makefile(".xml", misspelt=MISSPELT, other=MISSPELT.replace("objet", "colour"))
    result = pytester.runpytest(*workers)
    result.assert_outcomes(failed=4)
    out = result.stdout.str()
    assert out.count("has no port 'objet'") == 1  # four scenes, two tests, one error each
    assert out.count("has no port 'colour'") == 1
    result.stdout.fnmatch_lines([PORT_ERROR])
    result.stdout.fnmatch_lines(
        ["the policy cannot run: the same error as test_bath.py::test_misspelt[[]*, shown there "
         "(once per run)"]
    )  # fmt: skip
