"""Application nodes the corpus trees use, as a user registers them (``--nodes``): Nav2-style
navigation leaves simulated on the blackboard, and a couple of BT.CPP-tutorial leaves."""

from __future__ import annotations

import py_trees

from pytest_logicenv.sim.bt import PortsBehaviour, action, condition, input_port, output_port

Status = py_trees.common.Status


class ComputePathToPose(PortsBehaviour):
    """Plans a path to ``goal`` into ``path``."""

    def update(self) -> Status:
        self.ports.set("path", f"path-to-{self.ports.text('goal')}")
        return Status.SUCCESS


class FollowPath(PortsBehaviour):
    """RUNNING for ``ticks`` ticks along ``path``, then SUCCESS."""

    def initialise(self) -> None:
        self.left = self.ports.integer("ticks")

    def update(self) -> Status:
        self.ports.text("path")
        self.left -= 1
        return Status.RUNNING if self.left > 0 else Status.SUCCESS


class Succeed(PortsBehaviour):
    """A recovery or service call that works."""

    def update(self) -> Status:
        return Status.SUCCESS


class Never(PortsBehaviour):
    """A condition that does not hold."""

    def update(self) -> Status:
        return Status.FAILURE


class SaySomething(PortsBehaviour):
    """Copies ``message`` to the blackboard entry ``said`` (BT.CPP tutorial 1)."""

    def update(self) -> Status:
        self.ports.set("said", self.ports.text("message"))
        return Status.SUCCESS


class ThinkWhatToSay(PortsBehaviour):
    """Writes a sentence to ``text`` (BT.CPP tutorial 2)."""

    def update(self) -> Status:
        self.ports.set("text", "The answer is 42")
        return Status.SUCCESS


class CalculateGoal(PortsBehaviour):
    """Writes the pose "1.1;2.3" to ``goal`` (BT.CPP tutorial 3, generic ports)."""

    def update(self) -> Status:
        self.ports.set("goal", "1.1;2.3")
        return Status.SUCCESS


_GOAL = (input_port("goal"), output_port("path", "str"))
BT_NODES = {
    "ComputePathToPose": action(ComputePathToPose, *_GOAL),
    "FollowPath": action(
        FollowPath,
        input_port("path"),
        input_port("ticks", "int", "3"),
        input_port("controller_id", optional=True),
    ),
    "ClearEntireCostmap": action(Succeed, input_port("service_name", optional=True)),
    "Spin": action(Succeed, input_port("spin_dist", "double", "1.57")),
    "BackUp": action(
        Succeed,
        input_port("backup_dist", "double", "0.3"),
        input_port("backup_speed", "double", "0.05"),
    ),
    "Wait": action(Succeed, input_port("wait_duration", "double", "1")),
    "GoalUpdated": condition(Never),
    "IsBatteryLow": condition(Never, input_port("min_battery", "double", "0.2")),
    "SaySomething": action(SaySomething, input_port("message"), output_port("said", "str")),
    "ThinkWhatToSay": action(ThinkWhatToSay, output_port("text", "str")),
    "CalculateGoal": action(CalculateGoal, output_port("goal", "str")),
}
BT_ENUMS = {"LOW": 1, "HIGH": 2, "THE_ANSWER": 42}
