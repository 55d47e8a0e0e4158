"""Coverage counts only what evaluated facts show in scenes that ran."""

from __future__ import annotations

from pytest_logicenv.logic.coverage import plan_coverage, total
from pytest_logicenv.logic.facts import parse_fact
from pytest_logicenv.logic.plan import Factor, Leaf, Plan, Query, Subtask
from pytest_logicenv.scenes.scene_model import Room, Scene, SceneObject

ROOM = Room("r", "LivingRoom", ((0, 0), (4, 0), (4, 4), (0, 4)))


def toy_plan() -> Plan:
    on_floor = {"on": "Floor"}
    toy = Factor(
        "toy",
        "Is there a toy on the floor?",
        ("yes", "no"),
        realizations={
            "yes": (parse_fact({"exists": "Toy", "where": on_floor}),),
            "no": (parse_fact({"absent": "Toy", "where": on_floor}),),
        },
    )
    kind = Factor(
        "toy_type",
        "Which toy?",
        ("doll", "other"),
        realizations={
            "doll": (parse_fact({"exists": "Toy", "where": on_floor, "attrs": {"kind": "doll"}}),),
            "other": (
                parse_fact({"exists": "Toy", "where": on_floor, "attrs": {"kind": "other"}}),
            ),
        },
    )
    tree = Query(
        "toy",
        (
            ("yes", Query("toy_type", (("doll", Leaf("a")), ("other", Leaf("b"))))),
            ("no", Leaf("c")),
        ),
    )
    return Plan("t", (Subtask("toy", (toy, kind), tree),))


def with_toy(kind: str | None) -> Scene:
    objects = () if kind is None else (SceneObject("t1", "Toy", room="r", attrs={"kind": kind}),)
    return Scene(f"s-{kind}", rooms=(ROOM,), objects=objects)


def test_conditions_and_paths_from_scenes() -> None:
    report = plan_coverage(toy_plan(), [with_toy("doll")], name="test_toy")
    assert report.covered_conditions == 2  # toy=yes, toy_type=doll
    assert report.total_conditions == 4
    assert report.covered_paths == 1
    assert report.log_cov == 100 / 3
    assert report.missing_conditions == (("toy", "no"), ("toy_type", "other"))
    assert report.missing_paths == ("toy:toy=yes/toy_type=other", "toy:toy=no")


def test_all_scenes_cover_everything() -> None:
    report = plan_coverage(toy_plan(), [with_toy("doll"), with_toy("other"), with_toy(None)])
    assert report.log_cov == 100.0
    assert report.condition_cov == 100.0
    assert total([report, report]).total_paths == 6


def test_values_without_facts_are_unverifiable_not_covered() -> None:
    plan = toy_plan()
    bare = Factor("toy", "Is there a toy on the floor?", ("yes", "no"))
    plan = Plan("t", (Subtask("toy", (bare, plan.subtasks[0].factors[1]), plan.subtasks[0].tree),))
    report = plan_coverage(plan, [with_toy("doll")])
    assert report.unverifiable == (("toy", "yes"), ("toy", "no"))
    assert report.covered_paths == 0  # a path needs all of its conditions verified
