"""A user's type file: read the same way by the plugin and every ``logicenv`` command, and
checked with errors that name the file, the line and the fix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from helpers import ROOT

from pytest_logicenv.cli import main
from pytest_logicenv.errors import TypeFileError
from pytest_logicenv.pipeline.task_request import TaskRequest
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.catalog.user_types import load_catalog, type_digests

pytest_plugins = ["pytester"]

TROPHY_TOML = """\
[types.Trophy]
properties = ["pickupable", "breakable"]
size = [0.2, 0.35, 0.2]
rooms = ["LivingRoom", "study"]
stand_in = "Statue"
parents = {ShelvingUnit = 1.0}
synonyms = ["award", "cup trophy"]
description = "a sports trophy"

[types.GameConsole]
properties = ["moveable", "toggleable", "receptacle"]
size = [0.4, 0.1, 0.3]
parts = {Drawer = 1}

[synonyms]
"games machine" = "GameConsole"
"""

TROPHY_JSON = {
    "types": {
        "Trophy": {
            "properties": ["pickupable", "breakable"],
            "size": [0.2, 0.35, 0.2],
            "stand_in": "Statue",
            "synonyms": ["award"],
        }
    }
}

needs_tomllib = pytest.mark.skipif(sys.version_info < (3, 11), reason="TOML needs tomllib")


@needs_tomllib
def test_a_toml_type_file_adds_types_with_parts_and_synonyms(tmp_path: Path) -> None:
    path = tmp_path / "types.toml"
    path.write_text(TROPHY_TOML)
    catalog = load_catalog(path)
    trophy = catalog.type("Trophy")
    assert trophy.custom
    assert trophy.properties == ("pickupable", "breakable")
    assert trophy.rooms == ("LivingRoom", "Study")
    assert {a.source_type for a in trophy.assets} == {"Statue"}
    assert trophy.parents == {"ShelvingUnit": 1.0}
    assert catalog.resolve("a golden award").type == "Trophy"
    assert catalog.resolve("a games machine").type == "GameConsole"
    assert [(p.type, p.count) for p in catalog.type("GameConsole").parts] == [("Drawer", 1)]
    assert "GameConsole" in catalog.type("Drawer").part_of
    assert not default_catalog().has("Trophy")  # the default catalog stays as it was


def test_a_json_type_file_is_the_same(tmp_path: Path) -> None:
    path = tmp_path / "types.json"
    path.write_text(json.dumps(TROPHY_JSON))
    assert load_catalog(path).type("Trophy").stand_in == "Statue"
    [(name, digest)] = type_digests(path)
    assert (name, len(digest), type_digests(None)) == ("Trophy", 16, ())


BAD_JSON = """\
{"types": {
  "Trophy": {
    "properties": ["pickable"],
    "size": [0.2, 0.35],
    "stand_in": "Statu",
    "states": {"dirty": true},
    "colour": "gold"
  },
  "Sofa": {"properties": ["moveable"], "size": [2, 1, 1]},
  "game console": {"properties": ["moveable", "static"], "size": [0.4, 0.1, 0.3]}
}}
"""


def test_every_problem_is_named_with_its_line_and_fix(tmp_path: Path) -> None:
    path = tmp_path / "types.json"
    path.write_text(BAD_JSON)
    with pytest.raises(TypeFileError) as caught:
        load_catalog(path)
    lines = str(caught.value).splitlines()
    assert lines[0] == f"{path}: 8 problems"
    text = "\n".join(lines)
    assert (
        "line 3 (Trophy.properties): unknown property 'pickable'; did you mean 'pickupable'?"
        in text
    )
    assert "line 4 (Trophy.size): give its bounding box in metres as [x, y, z]" in text
    assert "line 5 (Trophy.stand_in): 'Statu' is not an AI2-THOR type; did you mean Statue," in text
    assert (
        "line 6 (Trophy.states): a Trophy cannot be dirty: add 'dirtyable' to its properties"
        in text
    )
    assert "line 7 (Trophy.colour): unknown key 'colour'" in text
    assert (
        "line 9 (Sofa.size): Sofa is a type already (AI2-THOR's): a type file may add "
        "properties, states, attrs, rooms, parents, synonyms, description to it, not 'size'"
    ) in text
    assert "line 10 (game console): a type name is one capitalized word, e.g. 'GameConsole'" in text
    assert "(game console.properties): say how it moves with exactly one of pickupable" in text


def test_syntax_errors_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "types.json"
    path.write_text('{"types": {\n  "Trophy": {\n    "size": [1, 2, 3],,\n  }\n}}\n')
    with pytest.raises(TypeFileError, match=r"line 3: not valid JSON"):
        load_catalog(path)
    other = tmp_path / "types.yaml"
    other.write_text("types: {}")
    with pytest.raises(TypeFileError, match=r"a type file is JSON \(\.json\) or TOML"):
        load_catalog(other)
    with pytest.raises(TypeFileError, match="no such type file"):
        load_catalog(tmp_path / "missing.json")


@needs_tomllib
def test_toml_syntax_errors_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "types.toml"
    path.write_text('[types.Trophy]\nproperties = ["pickupable"\nsize = [1, 1, 1]\n')
    with pytest.raises(TypeFileError, match=r"line \d+: not valid TOML"):
        load_catalog(path)


# --------------------------------------------------------------------------- the CLI


def test_every_command_takes_the_type_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "types.json"
    path.write_text(json.dumps(TROPHY_JSON))
    assert main(["types", "award", "--types", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "'award' means Trophy"
    assert out[1].startswith("Trophy (custom): pickupable, breakable; ")
    assert out[1].endswith("exports as: Statue")
    path.write_text(BAD_JSON)
    assert main(["paths", "plan.json", "--types", str(path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"logicenv paths: error: {path}: 8 problems")


def test_commands_read_the_ini_option_as_the_plugin_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "types.json").write_text(json.dumps(TROPHY_JSON))
    (tmp_path / "tox.ini").write_text("[pytest]\nlogicenv_types = conf/types.json\n")
    (tmp_path / "deep").mkdir()
    monkeypatch.chdir(tmp_path / "deep")
    assert main(["types", "Trophy"]) == 0
    assert capsys.readouterr().out.startswith("Trophy (custom): ")


def test_a_type_file_is_no_part_of_an_entrys_key() -> None:
    """An entry records the digests of the user types its plan uses (pipeline.cached), so a
    type file that adds types the plan does not use keeps its key and its entry."""
    plain = TaskRequest("tidy", seed=1)
    typed = TaskRequest("tidy", seed=1, types=(("Trophy", "0123abcd"),))
    assert typed.settings(Path()) == plain.settings(Path())
    assert typed.type_digests({"Trophy", "Sofa"}) == {"Trophy": "0123abcd"}
    assert typed.type_digests({"Sofa"}) == {}


# --------------------------------------------------------------------------- the plugin

PLAN = json.loads((ROOT / "tests" / "data" / "window_light_plan.json").read_text())
TEST_FILE = """
import pytest
from pytest_logicenv.sim.controls import sequence
from pytest_logicenv.sim.leaves import Close, GoTo, IsOpen, IsToggledOn, ToggleOff
from pytest_logicenv.sim.controls import when

def correct():
    return sequence(
        "Reset",
        when("W", IsOpen("window"), sequence("S", GoTo("window"), Close("window"))),
        when("L", IsToggledOn("light"), sequence("O", GoTo("light"), ToggleOff("light"))),
    )

@pytest.mark.logic_env(TASK, plan="plan.json")
def test_correct(logic_env):
    logic_env.run(correct())

def test_unrelated():
    pass
"""


def _trophy_project(pytester: pytest.Pytester, ini: str) -> None:
    plan = json.loads(json.dumps(PLAN))
    plan["setting"].append({"exists": "Trophy", "as": "trophy", "where": {"on": "Floor"}})
    pytester.makefile(".json", plan=json.dumps(plan))
    pytester.makepyfile(test_trophy=f"TASK = {plan['task']!r}\n" + TEST_FILE)
    pytester.makeini(f"[pytest]\naddopts = -p no:cacheprovider\n{ini}")


def test_the_plugin_designs_with_the_users_types(pytester: pytest.Pytester) -> None:
    pytester.makefile(".json", types=json.dumps(TROPHY_JSON))
    _trophy_project(pytester, "logicenv_types = types.json\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=3)
    scene = next(pytester.path.glob("cache/*/scenes/*[!e].json"))
    assert '"type": "Trophy"' in scene.read_text()


def test_a_bad_type_file_errors_the_marked_tests_only(pytester: pytest.Pytester) -> None:
    pytester.makefile(".json", types=BAD_JSON)
    _trophy_project(pytester, "logicenv_types = types.json\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*types.json: 8 problems*", "*line 3 (Trophy.properties)*"])


def test_types_only_the_hook_adds_are_warned_about(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        from pytest_logicenv.scenes.catalog import CustomSpec, default_catalog
        from pytest_logicenv.scenes.catalog.loading import extend_catalog

        def pytest_logicenv_catalog(config):
            trophy = CustomSpec("Trophy", ("pickupable",), ("LivingRoom",), (0.2, 0.3, 0.2))
            return extend_catalog(default_catalog(), [trophy])
        """
    )
    _trophy_project(pytester, "")
    result = pytester.runpytest()
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        [
            "*CatalogHookWarning: the pytest_logicenv_catalog hook adds types that logicenv "
            "commands cannot see: Trophy; describe them in a type file*"
        ]
    )


def test_toml_on_python_3_10_says_to_write_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "types.toml"
    path.write_text(TROPHY_TOML)
    monkeypatch.setattr(sys, "version_info", (3, 10, 14, "final", 0))
    with pytest.raises(TypeFileError, match=r"TOML type files need Python 3.11 or later"):
        load_catalog(path)


# --------------------------------------------------------------------------- adding to a type

ALARM_JSON = {
    "types": {
        "AlarmClock": {
            "properties": ["toggleable"],
            "states": {"toggled": True},
            "synonyms": ["alarm"],
        },
        "HousePlant": {"properties": ["pickupable"]},
    }
}


def test_an_entry_named_after_a_known_type_adds_to_it(tmp_path: Path) -> None:
    path = tmp_path / "types.json"
    path.write_text(json.dumps(ALARM_JSON))
    catalog = load_catalog(path)
    clock, plant = catalog.type("AlarmClock"), catalog.type("HousePlant")
    assert not default_catalog().type("AlarmClock").has("toggleable")
    assert clock.has("toggleable")
    assert clock.states == {"toggled": True}
    assert not clock.custom
    assert clock.exportable
    assert catalog.resolve("alarm").type == "AlarmClock"
    assert plant.has("pickupable")
    assert not plant.has("moveable")
    assert dict(type_digests(path)).keys() == {"AlarmClock", "HousePlant"}


def test_logicenv_types_shows_what_the_type_file_adds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "types.json"
    path.write_text(json.dumps(ALARM_JSON))
    assert main(["types", "AlarmClock", "--types", str(path)]) == 0
    assert capsys.readouterr().out.startswith(
        "AlarmClock: pickupable, toggleable (your type file); "
    )
    assert main(["types", "AlarmClock", "--types", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["types"][0]["added_by_type_file"] == ["toggleable"]


def test_an_addition_that_changes_a_known_types_body_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "types.json"
    bad = {"types": {"AlarmClock": {"properties": ["togglable"], "states": {"open": True}}}}
    path.write_text(json.dumps(bad))
    with pytest.raises(TypeFileError) as caught:
        load_catalog(path)
    text = str(caught.value)
    assert "unknown property 'togglable'; did you mean 'toggleable'?" in text
    assert "an AlarmClock cannot be open: add 'openable' to its properties" in text


ALARM_PLAN = {
    "format": "logicenv-plan/1",
    "task": "In the bedroom: switch the alarm clock off if it is ringing.",
    "rooms": ["Bedroom"],
    "setting": [{"exists": "AlarmClock", "as": "alarm"}],
    "subtasks": [
        {
            "name": "alarm",
            "factors": [
                {
                    "id": "ringing",
                    "question": "Is the alarm ringing?",
                    "domain": ["yes", "no"],
                    "answers": {"yes": "YES", "no": "NO"},
                    "realization": {
                        "yes": [{"state": "alarm", "toggled": True}],
                        "no": [{"state": "alarm", "toggled": False}],
                    },
                }
            ],
            "tree": {
                "query": "ringing",
                "branches": {
                    "yes": {
                        "action": "Switch it off.",
                        "goal": [{"state": "alarm", "toggled": False}],
                    },
                    "no": {"action": "Do nothing.", "goal": []},
                },
            },
        }
    ],
}
ALARM_TEST = """
import pytest
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import GoTo, IsToggledOn, ToggleOff

TASK = "In the bedroom: switch the alarm clock off if it is ringing."

def correct():
    return when("A", IsToggledOn("alarm"), sequence("S", GoTo("alarm"), ToggleOff("alarm")))

@pytest.mark.logic_env(TASK, plan="plan.json")
def test_alarm(logic_env):
    logic_env.run(correct()).assert_ok()
"""


def test_the_plugin_runs_a_task_on_a_type_the_type_file_extends(
    pytester: pytest.Pytester,
) -> None:
    pytester.makefile(".json", plan=json.dumps(ALARM_PLAN))
    pytester.makepyfile(test_alarm=ALARM_TEST)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\n")
    result = pytester.runpytest()  # AI2-THOR's alarm clocks do not toggle
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*an AlarmClock cannot be toggled (it is not toggleable)*"])
    pytester.makefile(".json", types=json.dumps(ALARM_JSON))
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\nlogicenv_types = types.json\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=2)


# --------------------------------------------------------------------------- a plan's type file


def test_a_plan_names_the_type_file_it_needs(pytester: pytest.Pytester) -> None:
    plan = {**ALARM_PLAN, "types": "needs/alarm.json"}
    pytester.makefile(".json", plan=json.dumps(plan))
    pytester.makepyfile(test_alarm=ALARM_TEST)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\n")
    result = pytester.runpytest()  # the file is not there yet
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*needs/alarm.json: 1 problem*", "*no such type file*"])
    pytester.mkdir("needs").joinpath("alarm.json").write_text(json.dumps(ALARM_JSON))
    pytester.runpytest().assert_outcomes(passed=2)
    assert main(["plan", "--check", "plan.json"]) == 0  # the CLI reads the plan's file too
    (pytester.path / "plan.json").write_text(json.dumps(ALARM_PLAN))  # names none
    assert main(["plan", "--check", "plan.json"]) == 1


def test_eval_reads_the_type_file_each_tasks_plan_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for folder in ("tasks", "plans", "policies", "a", "b"):
        (tmp_path / folder).mkdir()
    policy = ALARM_TEST.split("@pytest.mark")[0] + "POLICIES = {'correct': correct}\n"
    for task, types in (("alarm", "../a/types.json"), ("clock", "../b/types.json")):
        (tmp_path / "tasks" / f"{task}.json").write_text(json.dumps({"description": task}))
        plan = {**ALARM_PLAN, "task": task, "types": types}
        (tmp_path / "plans" / f"{task}.json").write_text(json.dumps(plan))
        (tmp_path / "policies" / f"{task}.py").write_text(policy)
    (tmp_path / "a" / "types.json").write_text(json.dumps(ALARM_JSON))
    bad = {"types": {"AlarmClock": {"properties": ["toggleable"], "size": [1, 1, 1]}}}
    (tmp_path / "b" / "types.json").write_text(json.dumps(bad))
    monkeypatch.chdir(tmp_path)
    assert main(["eval", "tasks", "policies", "--json", "m.json"]) == 1
    tasks = json.loads((tmp_path / "m.json").read_text())["tasks"]
    assert tasks["alarm"]["errors"] == []
    assert tasks["alarm"]["LogCov"] == 100.0
    [error] = tasks["clock"]["errors"]
    assert "b/types.json: 1 problem" in error
    assert "not 'size'" in error
