"""``logicenv eval --planner llm`` gives the figures a careful judge gives: one scripted-model
run per mistake the judge used to make (issue 22), each with the exact expected metrics.

Every case runs the CLI as a user does, the plan coming from the scripted model server
(``tests/fake_llm.py``) through the real openai client, the scenes from the product's own
designer, and the judgement against a hand-written ground truth."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fake_llm import FakeLLMServer, answer, planner_script
from helpers import ROOT
from plan_answers import DECOMPOSITION, GOOD_PLAN
from scripted_endpoint import use_scripted_server

from pytest_logicenv.cli import main
from pytest_logicenv.llm.planner import factors_answer

AGENTS = ROOT / "example_agents"
pytestmark = pytest.mark.slow  # each case derives a plan and designs its scenes


@pytest.fixture
def project(tmp_path: Path, fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project, the endpoint set to the scripted server."""
    use_scripted_server(fake_llm, monkeypatch)
    monkeypatch.chdir(tmp_path)
    for folder in ("tasks", "plans", "policies"):
        (tmp_path / folder).mkdir()
    return tmp_path


def breakfast(project: Path) -> None:
    """The breakfast task, its ground truth and its four policies."""
    for folder in ("tasks", "plans"):
        shutil.copy(AGENTS / folder / "breakfast.json", project / folder)
    (project / "policies" / "breakfast.py").write_text(
        f"import sys\nsys.path.insert(0, {str(AGENTS)!r})\nfrom breakfast import POLICIES\n"
    )


def model_says(fake_llm: FakeLLMServer, plan: dict[str, Any]) -> None:
    names = [{"name": s["name"], "covers": s["name"]} for s in plan["subtasks"]]
    decomposition = {"subtasks": names} if names != DECOMPOSITION["subtasks"] else DECOMPOSITION
    fake_llm.respond_with(planner_script(decomposition, factors_answer(plan), [answer(plan)]))


def run_eval(task: str, *extra: str) -> dict[str, Any]:
    code = main(["eval", "tasks", "policies", "--planner", "llm", "--json", "m.json", *extra])
    document = json.loads(Path("m.json").read_text())
    result: dict[str, Any] = document["tasks"][task]
    assert result["errors"] == [], result
    assert code == 0
    return result


def figures(task: dict[str, Any], *keys: str) -> tuple[Any, ...]:
    return tuple(task[key] for key in keys)


# -- the two bowls: a role is the object its facts describe --------------------------------


def apple_in_the_cereal_bowl() -> dict[str, Any]:
    """A plan with two bowls that puts the apple in the cereal bowl where the task says the
    fruit bowl: the ground truth's fruit bowl (kind=fruit_bowl) never holds it."""
    plan = copy.deepcopy(GOOD_PLAN)
    plan["setting"] = [f for f in plan["setting"] if f.get("exists") != "Bowl"] + [
        {"exists": "Bowl", "as": "cereal_bowl", "attrs": {"kind": "cereal_bowl"}},
        {"exists": "Bowl", "as": "fruit_bowl", "attrs": {"kind": "fruit_bowl"}},
    ]
    apple = plan["subtasks"][1]["factors"][1]
    apple["realization"]["bowl"] = [
        {"exists": "Apple", "as": "apple", "where": {"in": "cereal_bowl"}}
    ]
    return plan


def test_the_fruit_bowl_is_the_bowl_its_attributes_say_not_the_first_bowl(
    project: Path, fake_llm: FakeLLMServer
) -> None:
    breakfast(project)
    model_says(fake_llm, apple_in_the_cereal_bowl())
    task = run_eval("breakfast")
    # 4 of the 5 ground-truth paths (not "apple in the fruit bowl"); the third scene realizes
    # no situation of the ground truth, so it is not valid, and its situation is in no cover.
    assert figures(task, "LogCov", "JI", "SceVR", "FauDR", "TypeMis") == (
        80.0,
        0.5,
        66.6667,
        100.0,
        0.0,
    )
    [unmatched] = [n for n in task["notes"] if "realizes no ground-truth situation" in n]
    assert "no path of bread holds there" in unmatched


# -- JI against the best minimal cover -------------------------------------------------------


def test_ji_is_against_the_minimal_cover_that_shares_most_situations(
    project: Path, fake_llm: FakeLLMServer
) -> None:
    """The model asks its milk question the other way round: its three situations are a
    minimal cover of the ground truth, though not the one the ground truth's selection
    happens to list."""
    breakfast(project)
    plan = copy.deepcopy(GOOD_PLAN)
    milk = plan["subtasks"][0]["factors"][0]
    milk["domain"] = ["no", "yes"]
    tree = plan["subtasks"][0]["tree"]
    tree["branches"] = {"no": tree["branches"]["no"], "yes": tree["branches"]["yes"]}
    model_says(fake_llm, plan)
    task = run_eval("breakfast")
    assert figures(task, "LogCov", "JI", "SceVR", "FauDR") == (100.0, 1.0, 100.0, 100.0)


def write_task(project: Path, task_id: str, text: str, rooms: list[str], truth: Any) -> None:
    """A task and its ground truth (a formal plan for the same text)."""
    task = {"id": task_id, "description": text, "rooms": rooms, "plan": []}
    (project / "tasks" / f"{task_id}.json").write_text(json.dumps(task))
    plan = {"format": "logicenv-plan/1", "task": text, "rooms": rooms, **truth}
    (project / "plans" / f"{task_id}.json").write_text(json.dumps(plan))


def yes_no_subtask(
    name: str, question: str, yes: list[Any], no: list[Any], goal: list[Any]
) -> dict[str, Any]:
    """One subtask asking one yes/no question: ``goal`` when yes, nothing to do when no."""
    return {
        "name": name,
        "factors": [
            {
                "id": name,
                "question": question,
                "domain": ["yes", "no"],
                "answers": {"yes": "YES", "no": "NO"},
                "realization": {"yes": yes, "no": no},
            }
        ],
        "tree": {
            "query": name,
            "branches": {
                "yes": {"action": "Do it.", "goal": goal},
                "no": {"action": "Do nothing.", "goal": []},
            },
        },
    }


def model_plan(setting: list[Any], *subtasks: dict[str, Any]) -> dict[str, Any]:
    return {"format": "logicenv-plan/1", "setting": setting, "subtasks": list(subtasks)}


# -- the setting's constraints: the study window is the one in the study --------------------

WINDOW_TEXT = "You are in the bedroom. Close the study window if it is open."


def test_the_bedroom_window_never_covers_the_study_window(
    project: Path, fake_llm: FakeLLMServer
) -> None:
    """The model asks about the bedroom window and keeps the study window closed: the
    ground truth's "the study window is open" holds in no scene, whatever the bedroom's."""
    window = {"exists": "Window", "as": "study_window", "where": {"room": "Study"}}
    truth = {
        "setting": [window],
        "subtasks": [
            yes_no_subtask(
                "window",
                "Is the study window open?",
                [{"state": "study_window", "open": True}],
                [{"state": "study_window", "open": False}],
                [{"state": "study_window", "open": False}],
            )
        ],
    }
    write_task(project, "window", WINDOW_TEXT, ["Bedroom", "Study"], truth)
    bedroom = {"exists": "Window", "as": "bedroom_window", "where": {"room": "Bedroom"}}
    plan = model_plan(
        [bedroom, {**window, "states": {"open": False}}],
        yes_no_subtask(
            "window",
            "Is the bedroom window open?",
            [{"state": "bedroom_window", "open": True}],
            [{"state": "bedroom_window", "open": False}],
            [{"state": "bedroom_window", "open": False}],
        ),
    )
    model_says(fake_llm, plan)
    task = run_eval("window")
    # Only "no" is covered (both scenes); both realize it, one situation of a cover of two.
    assert figures(task, "scenes", "LogCov", "JI", "TypeMis") == (2, 50.0, 0.5, 0.0)


# -- a ground-truth type the plan was made without ------------------------------------------

MELON_TEXT = "You are in the kitchen. If there is a pineapple on the counter, put it in the fridge."
PINEAPPLE = {
    "properties": ["pickupable"],
    "size": [0.3, 0.3, 0.3],
    "stand_in": "Apple",
    "rooms": ["Kitchen"],
    "parents": {"CounterTop": 1.0},
}


def melon_task(project: Path, fake_llm: FakeLLMServer, text: str = MELON_TEXT) -> None:
    """A ground truth with the user's type Pineapple, and a plan made without the type file
    (an apple where the task says a pineapple)."""
    fixed = [{"exists": "CounterTop", "as": "counter"}, {"exists": "Fridge", "as": "fridge"}]

    def subtask(kind: str, role: str) -> dict[str, Any]:
        return yes_no_subtask(
            "melon",
            f"Is there a {kind.lower()} on the counter?",
            [{"exists": kind, "as": role, "where": {"on": "counter"}}],
            [{"absent": kind}],
            [{"in": [role, "fridge"]}],
        )

    write_task(
        project,
        "melon",
        text,
        ["Kitchen"],
        {"setting": fixed, "subtasks": [subtask("Pineapple", "pineapple")]},
    )
    (project / "types.json").write_text(json.dumps({"types": {"Pineapple": PINEAPPLE}}))
    model_says(fake_llm, model_plan(fixed, subtask("Apple", "melon")))


def test_a_type_no_scene_could_have_is_a_type_mismatch_naming_it(
    project: Path, fake_llm: FakeLLMServer
) -> None:
    melon_task(project, fake_llm)
    task = run_eval("melon")
    assert figures(task, "LogCov", "JI", "TypeMis") == (50.0, 0.5, 1.0)
    assert (
        "type mismatch: the ground truth's Pineapple is in no scene, and the judge accepts "
        "nothing in its place (no type file given here defines it (logicenv eval --types FILE))"
    ) in task["notes"]


def test_the_type_files_stand_in_is_accepted_when_the_task_names_the_thing(
    project: Path, fake_llm: FakeLLMServer
) -> None:
    melon_task(project, fake_llm)
    task = run_eval("melon", "--types", "types.json")
    assert figures(task, "LogCov", "JI", "TypeMis") == (100.0, 1.0, 0.0)
    assert "Apple stands in for the ground truth's Pineapple" in task["notes"]


def test_a_stand_in_the_task_text_does_not_ask_for_is_refused_with_the_reason(
    project: Path, fake_llm: FakeLLMServer
) -> None:
    melon_task(project, fake_llm, "You are in the kitchen. Put the fruit on the counter away.")
    task = run_eval("melon", "--types", "types.json")
    assert figures(task, "LogCov", "JI", "TypeMis") == (50.0, 0.5, 1.0)
    assert (
        "type mismatch: the ground truth's Pineapple is in no scene, and the judge accepts "
        "nothing in its place (its stand-in Apple is not accepted: the task text does not "
        "name a Pineapple)"
    ) in task["notes"]


# -- the overall row counts every task -------------------------------------------------------


def test_a_task_that_produced_nothing_counts_zero_overall_and_is_named(
    project: Path, fake_llm: FakeLLMServer, capsys: pytest.CaptureFixture[str]
) -> None:
    breakfast(project)
    model_says(fake_llm, GOOD_PLAN)
    (project / "tasks" / "lunch.json").write_text(
        json.dumps({"id": "lunch", "description": "Make lunch.", "plan": []})
    )
    code = main(["eval", "tasks", "policies", "--planner", "llm", "--json", "m.json"])
    assert code == 1  # lunch has no ground truth
    document = json.loads(Path("m.json").read_text())
    assert document["tasks"]["breakfast"]["LogCov"] == 100.0
    overall = document["overall"]
    assert (overall["LogCov"], overall["JI"], overall["SceVR"], overall["FauDR"]) == (
        50.0,
        0.5,
        50.0,
        50.0,
    )
    note = (
        "overall: over all 2 tasks; 1 produced nothing and count 0: lunch (no environments: "
        "no ground truth plans/lunch.json"
    )
    assert document["overall_note"].startswith(note)
    assert note in capsys.readouterr().out
