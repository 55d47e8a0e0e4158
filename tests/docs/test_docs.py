"""Documentation generated from the code stays what the code does."""

from __future__ import annotations

import re

import pytest
from helpers import ROOT

from pytest_logicenv.cli import main
from pytest_logicenv.sim.action_docs import actions_markdown
from pytest_logicenv.sim.actions import ACTIONS

pytest_plugins = ["pytester"]


def test_docs_actions_md_is_generated_from_the_simulators_rules() -> None:
    committed = (ROOT / "docs" / "actions.md").read_text(encoding="utf-8")
    assert committed == actions_markdown(), (
        "docs/actions.md is out of date: run logicenv actions --markdown > docs/actions.md"
    )


def test_every_action_and_precondition_says_what_it_does() -> None:
    for spec in ACTIONS.values():
        assert spec.does, f"{spec.name} has no does= text for the docs"
        for precondition in spec.preconditions:
            assert precondition.text, f"{spec.name}: [{precondition.code}] has no text"
            named = [port for port in spec.ports if f"`{port}`" in precondition.text]
            assert named or "agent's hand" in precondition.text


def test_logicenv_actions_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["actions", "--markdown"]) == 0
    assert capsys.readouterr().out == actions_markdown()
    assert main(["actions"]) == 0
    out = capsys.readouterr().out
    assert "PutIn(object, target): `object` is in `target`" in out
    assert "  needs [holding] the agent holds `object`" in out


def test_the_complete_plan_file_of_the_plan_reference_is_a_valid_plan() -> None:
    import json

    from pytest_logicenv.logic.plan import plan_from_json
    from pytest_logicenv.logic.rules import validate_plan
    from pytest_logicenv.logic.trajectories import plan_paths
    from pytest_logicenv.scenes.catalog import default_catalog

    page = (ROOT / "docs" / "reference" / "plans.md").read_text(encoding="utf-8")
    after = page.split("A complete plan file", 1)[1]
    block = after.split("```json\n", 1)[1].split("```", 1)[0]
    tutorial = (ROOT / "docs" / "tutorial" / "first-test.md").read_text(encoding="utf-8")
    assert f"<!-- file: plans/window.json -->\n```json\n{block}```" in tutorial
    plan = plan_from_json(json.loads(block), "plans.md")
    validate_plan(
        plan, "plans.md", known_types=frozenset(default_catalog().types), require_facts=True
    )
    [paths] = plan_paths(plan)
    assert [path.leaf.action for path in paths] == ["Close it.", "Do nothing."]


@pytest.mark.slow
def test_the_readmes_failing_example_prints_what_the_readme_shows(
    pytester: pytest.Pytester,
) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## What you see", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    shown = section.split("pytest prints:\n\n```\n", 1)[1].split("```", 1)[0]
    pytester.makeini(
        f"[pytest]\naddopts = -p no:cacheprovider\npythonpath = . {ROOT / 'example_agents'}\n"
    )
    pytester.mkpydir("my_robot").joinpath("policies.py").write_text(
        "from clean_living_room import lackbranch_policy as tidy_living_room  # noqa: F401\n"
    )
    plans = pytester.mkdir("plans")
    plans.joinpath("clean_living_room.json").write_text(
        (ROOT / "example_agents" / "plans" / "clean_living_room.json").read_text()
    )
    pytester.makepyfile(test_tidy=code)
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, failed=1)
    timing = re.compile(r" in [0-9.]+s =+$")
    lines = [timing.sub(" in *", line.rstrip()) for line in shown.splitlines()]
    # pytest adds the failure's message to the summary line where the terminal is wide enough,
    # and always when the CI variable is set.
    lines = [line + "*" if line.startswith("FAILED ") else line for line in lines]
    result.stdout.fnmatch_lines([line.replace("[", "[[]") for line in lines])


def test_the_options_reference_says_to_give_the_cache_dir_with_equals_and_why(
    pytester: pytest.Pytester,
) -> None:
    """With a space, pytest takes the folder for a test path when it chooses the rootdir (as
    this shows), so the options reference and --help give the safe form."""
    page = (ROOT / "docs" / "reference" / "options.md").read_text()
    assert "| `--logicenv-cache-dir=DIR` |" in page
    assert "**Give paths with `=`**: `--logicenv-cache-dir=envs`" in page
    pytester.makeini("[pytest]\n")
    pytester.makepyfile(test_a="def test_a():\n    pass\n")
    elsewhere = pytester.path.parent / f"{pytester.path.name}-envs"
    elsewhere.mkdir()  # an existing folder, as a cache is after its first run
    spaced = pytester.runpytest("-p", "no:cacheprovider", "--logicenv-cache-dir", str(elsewhere))
    spaced.stdout.fnmatch_lines([f"rootdir: {pytester.path.parent}"])
    joined = pytester.runpytest("-p", "no:cacheprovider", f"--logicenv-cache-dir={elsewhere}")
    joined.stdout.fnmatch_lines([f"rootdir: {pytester.path}"])
    helped = " ".join(pytester.runpytest("--help").stdout.str().split())
    assert "write --logicenv-cache-dir=DIR: with a space, pytest takes DIR for a test" in helped
