"""The HTML report shows each revealed declared fault as it shows a failing run: drawn on the
scene that revealed it, linked from the matrix and from the declared faults' table."""

from __future__ import annotations

import re

import pytest
from plugin_project import make_project

pytest_plugins = ["pytester"]

DECLARED = """
@pytest.mark.logic_env(TASK, plan="plan.json")
@pytest.mark.parametrize("name", ["correct", "forgets_the_light"])
def test_reset(logic_env, name):
    fault = "unreachable" if name == "forgets_the_light" else None
    logic_env.run(globals()[name], expect_fault=fault).assert_ok()
"""


def test_a_revealed_declared_fault_is_drawn_and_linked(pytester: pytest.Pytester) -> None:
    make_project(pytester, DECLARED)
    pytester.runpytest("--logicenv-report=html:html").assert_outcomes(passed=4)
    page = (pytester.path / "html" / "index.html").read_text()
    assert "Declared faults revealed (1)" in page
    [anchor] = re.findall(r"<article class='failure-run' id='([^']+-fault-1)'>", page)
    assert f"<td><a href='#{anchor}'>revealed</a></td>" in page  # the faults' table
    assert f"<a href='#{anchor}'>unreachable</a> <small>(declared)</small>" in page  # matrix
    article = page.split(f"id='{anchor}'>", 1)[1].split("</article>", 1)[0]
    assert "forgets_the_light in window=yes-light=yes" in article
    assert "Unreachable (expected): the policy returned SUCCESS but 1 goal fact is false" in article
    assert 'class="route"' in article  # drawn on its scene
    assert (pytester.path / "html" / "runs" / f"{anchor}.svg").is_file()
